package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Filter;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.InterPodAffinityProperties.Scenario;
import java.util.ArrayList;
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
    var s = scenario(change);

    var prepared = (InterPodAffinityFilter.Prepared) filter.prepare(pod, s.before());
    var tracker = s.replay(prepared);
    compare(pod, prepared, tracker, s.after(), "forward");

    var preparedAfter = (InterPodAffinityFilter.Prepared) filter.prepare(pod, s.after());
    compare(pod, preparedAfter, s.replayBackwards(preparedAfter), s.before(), "backward");

    Statistics.label("pods removed, added back").collect(s.removed().size() + ", " + s.readded().size());
    Statistics.label("outcome").coverage(c -> {
      c.check("fit").count(n -> n > 0);
      c.check("affinity").count(n -> n > 0);
      c.check("anti-affinity").count(n -> n > 0);
      c.check("existing anti-affinity").count(n -> n > 0);
    });
    Statistics.label("verdict changed by the pods gone").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("skipped, so fits").coverage(c -> c.check(true).count(n -> n > 0));
  }

  private void compare(
      PodInfo pod, InterPodAffinityFilter.Prepared prepared, Filter tracker, ClusterSnapshot changed, String way) {
    var fresh = filter.prepare(pod, changed);
    for (var node : changed.nodes()) {
      var actual = Outcome.of(tracker.filter(pod, node));
      if (prepared.skipped()) {
        // kube calls no AddPod/RemovePod nor Filter for a plugin its PreFilter skipped
        assertEquals(Outcome.FIT, actual, way);
        Statistics.label("skipped, so fits").collect(true);
        continue;
      }
      var expected = fresh.filter(pod, node);
      assertEquals(Outcome.of(expected), actual, () -> way + ": node " + node.name() + " of " + changed.nodes());
      Statistics.label("outcome").collect(InterPodAffinityTrackerProperties.kind(expected));
      Statistics.label("verdict changed by the pods gone")
          .collect(!Outcome.of(prepared.filter(pod, node)).equals(actual));
    }
  }

  @Property
  @Label("track() gives independent copies: changing one changes neither the prepared filter nor another")
  void tracksAreIndependent(@ForAll("changes") Change change) {
    var pod = change.scenario().pod();
    var s = scenario(change);
    var prepared = (InterPodAffinityFilter.Prepared) filter.prepare(pod, s.before());
    var verdicts = verdicts(pod, prepared, s.before());

    var changed = prepared.track();
    s.removed().forEach(removed -> changed.removePod(removed, s.node()));
    var other = prepared.track();

    assertEquals(verdicts, verdicts(pod, prepared, s.before()), "the prepared filter");
    assertEquals(verdicts, verdicts(pod, other, s.before()), "a second tracker");
    Statistics.label("the changed tracker differs")
        .collect(!verdicts.equals(verdicts(pod, changed, s.before())));
    Statistics.label("the changed tracker differs").coverage(c -> c.check(true).count(n -> n > 0));
  }

  private static List<Outcome> verdicts(PodInfo pod, Filter filter, ClusterSnapshot cluster) {
    var verdicts = new ArrayList<Outcome>();
    cluster.nodes().forEach(node -> verdicts.add(Outcome.of(filter.filter(pod, node))));
    return verdicts;
  }

  private static TrackerScenario scenario(Change change) {
    return TrackerScenario.of(change.scenario().cluster(), change.node(), change.remove(), change.readd(), p -> true);
  }

  static String kind(io.kubesched.policy.FilterResult result) {
    if (result.fits()) {
      return "fit";
    }
    var reason = FilterFixtures.reasons(result).get(0);
    if (reason instanceof InterPodAffinityFilter.AffinityRulesNotMatch) {
      return "affinity";
    }
    if (reason instanceof InterPodAffinityFilter.AntiAffinityRulesNotMatch) {
      return "anti-affinity";
    }
    return "existing anti-affinity";
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
