package io.kubesched.policy.plugins.interpodaffinity;

import io.kubesched.policy.plugins.TrackerScenario;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityProperties.Scenario;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The InterPodAffinity tracker against a fresh {@link InterPodAffinityFilter#prepare} on the changed cluster:
 * kube's {@code AddPod}/{@code RemovePod} update the PreFilter counts exactly, so after preemption's removals
 * and additions on one node every node gets the verdict a snapshot without the pods gone would give. The
 * clusters are {@link InterPodAffinityProperties}' (small alphabets, so that matches, misses, missing keys and
 * every rejection are frequent).
 */
class InterPodAffinityTrackerProperties {

  private final InterPodAffinityFilter filter = new InterPodAffinityFilter();

  /** A pod to place, a cluster, and what preemption removes from and adds back to one node. */
  record Change(Scenario scenario, int node, List<Boolean> remove, List<Boolean> readd) {}

  @Property
  @Label("after removals and additions on one node, the tracker's verdicts are those of a fresh prepare")
  void trackerAgreesWithFreshPrepare(@ForAll("changes") Change change) {
    var pod = change.scenario().pod();
    scenario(change).assertTrackersAgreeWithFreshPrepare(
        pod,
        cluster -> filter.prepare(pod, cluster),
        prepared -> ((InterPodAffinityFilter.Prepared) prepared).skipped(),
        InterPodAffinityProperties::kind);

    Statistics.label("outcome").coverage(c -> {
      c.check("fit").count(n -> n > 0);
      c.check("affinity").count(n -> n > 0);
      c.check("anti-affinity").count(n -> n > 0);
      c.check("existing anti-affinity").count(n -> n > 0);
    });
  }

  @Property
  @Label("track() gives independent copies: changing one changes neither the prepared filter nor another")
  void tracksAreIndependent(@ForAll("changes") Change change) {
    var pod = change.scenario().pod();
    var s = scenario(change);
    s.assertTracksAreIndependent(pod, filter.prepare(pod, s.before()));
  }

  private static TrackerScenario scenario(Change change) {
    return TrackerScenario.of(change.scenario().cluster(), change.node(), change.remove(), change.readd(), p -> true);
  }

  @Provide
  Arbitrary<Change> changes() {
    var masks = Arbitraries.of(true, true, false).list().ofSize(3);
    var readds = Arbitraries.of(true, false, false).list().ofSize(3);
    return Combinators.combine(
            new InterPodAffinityProperties().scenarios(), Arbitraries.integers().between(0, 99), masks, readds)
        .as(Change::new);
  }
}
