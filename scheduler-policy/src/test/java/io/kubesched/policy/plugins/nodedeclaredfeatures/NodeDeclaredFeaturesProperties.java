package io.kubesched.policy.plugins.nodedeclaredfeatures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodRuntime;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.plugins.nodedeclaredfeatures.NodeDeclaredFeaturesFilter.UnsatisfiedFeatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** The filter's law over every pod runtime and node the registry can tell apart. */
class NodeDeclaredFeaturesProperties {

  private static final NodeDeclaredFeaturesFilter FILTER = new NodeDeclaredFeaturesFilter();
  private static final ClusterSnapshot EMPTY = ClusterSnapshot.of(List.of());

  @Property(tries = 1000)
  @Label("a node declaring a superset of the pod's needs is never rejected; one lacking a needed feature always is")
  void supersetFitsAndLackingOneIsRejected(
      @ForAll("pods") PodInfo pod,
      @ForAll("extras") Set<String> extras,
      @ForAll boolean dropOne,
      @ForAll("indexes") int which) {
    var required = List.copyOf(FILTER.required(pod));
    var declared = new TreeSet<>(extras);
    declared.addAll(required);
    String dropped = null;
    if (dropOne && !required.isEmpty()) {
      dropped = required.get(which % required.size());
      declared.remove(dropped);
    }
    var node = NodeInfo.builder("n").declaredFeatures(List.copyOf(declared)).build();

    var prepared = FILTER.prepare(pod, EMPTY).filter(pod, node);
    var unprepared = FILTER.filter(pod, node);

    assertEquals(prepared, unprepared, "prepare changes nothing but when the needs are inferred");
    if (dropped == null) {
      assertTrue(prepared.fits(), () -> "rejected a node declaring " + declared + " for needs " + required);
    } else {
      var rejected = assertInstanceOf(FilterResult.Rejected.class, prepared);
      assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.code());
      assertEquals(List.of(new UnsatisfiedFeatures(List.of(dropped))), rejected.reasons());
    }
    Statistics.label("case")
        .collect(required.isEmpty() ? "needs nothing" : dropped == null ? "superset of the needs" : "lacking one");
    Statistics.label("needs").collect(required.size());
    Statistics.label("case")
        .coverage(
            c -> {
              c.check("superset of the needs").percentage(p -> p > 10);
              c.check("lacking one").percentage(p -> p > 10);
              c.check("needs nothing").count(n -> n > 0);
            });
    Statistics.label("needs").coverage(c -> c.check(3).count(n -> n > 0));
  }

  @Property(tries = 1000)
  @Label("when the hint skips a node's update, the node's verdict for the pod does not change")
  void hintSkipsOnlyUpdatesThatCannotHelp(
      @ForAll("pods") PodInfo pod,
      @ForAll("declared") List<String> before,
      @ForAll("declared") List<String> changed,
      @ForAll boolean unchanged) {
    var after = unchanged ? before : changed;
    var old = NodeInfo.builder("n").declaredFeatures(before).build();
    var updated = NodeInfo.builder("n").declaredFeatures(after).build();

    boolean hint = FILTER.isSchedulableAfter(
        pod, new ClusterUpdate.NodeUpdated(old, updated, Set.of(ClusterChange.NODE_DECLARED_FEATURES)));
    boolean rejected = !FILTER.filter(pod, old).fits();
    boolean fits = FILTER.filter(pod, updated).fits();
    if (!hint) {
      assertEquals(rejected, !fits, () -> before + " to " + after);
    }
    Statistics.label("hint").collect(hint ? "queue" : "skip");
    Statistics.label("turned from rejected to fitting").collect(rejected && fits);
    Statistics.label("hint").coverage(c -> {
      c.check("queue").count(n -> n > 0);
      c.check("skip").count(n -> n > 0);
    });
    Statistics.label("turned from rejected to fitting").coverage(c -> c.check(true).count(n -> n > 0));
  }

  /** Declared features, in any order, among kube's registered ones (those a pod may need among them). */
  @Provide
  Arbitrary<List<String>> declared() {
    return Arbitraries.subsetOf(FeatureRegistry.DEFAULT.names())
        .flatMap(names -> Arbitraries.shuffle(List.copyOf(names)));
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    var hostUsers = Arbitraries.of(true, false).injectNull(0.3);
    var actions = Arbitraries.subsetOf("Restart", Features.RESTART_ALL_CONTAINERS_ACTION);
    return Combinators.combine(Arbitraries.of(true, false), hostUsers, actions, Arbitraries.of(true, false))
        .as((hostNetwork, users, rules, bind) ->
            PodInfo.builder("default", "p").runtime(new PodRuntime(hostNetwork, users, rules, bind)).build());
  }

  /** Other features a node declares: kube's other registered ones and some no scheduler knows. */
  @Provide
  Arbitrary<Set<String>> extras() {
    var names = new ArrayList<>(FeatureRegistry.DEFAULT.names());
    names.add("SomeFutureFeature");
    names.add("Vendor/subFeature");
    return Arbitraries.subsetOf(names);
  }

  @Provide
  Arbitrary<Integer> indexes() {
    return Arbitraries.integers().between(0, 2);
  }
}
