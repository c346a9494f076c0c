package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PreFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Laws every built-in filter of one node obeys, over pods and nodes that exercise all of them at once. */
class BuiltInFiltersProperties {

  /** The codes kube-scheduler's plugin gives a rejection; NodeResourcesFit gives both. */
  private static final Map<String, Set<Code>> REJECTION_CODES =
      Map.of(
          "NodeName", Set.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
          "NodeUnschedulable", Set.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
          "TaintToleration", Set.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
          "NodeAffinity", Set.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
          "NodePorts", Set.of(Code.UNSCHEDULABLE),
          "NodeResourcesFit", Set.of(Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
          "VolumeRestrictions", Set.of(Code.UNSCHEDULABLE),
          "NodeLabel", Set.of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE));

  @Property(tries = 2000)
  @Label("no filter throws or errs on any pod and node, and each rejects only with its plugin's codes")
  void neverThrowsAndUsesItsCodes(
      @ForAll("filters") Filter filter, @ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    FilterResult result = filter.filter(pod, node);

    assertFalse(result instanceof FilterResult.Failed, () -> filter.name() + " failed: " + result);
    if (result instanceof FilterResult.Rejected rejected) {
      assertTrue(REJECTION_CODES.get(filter.name()).contains(rejected.code()), rejected::toString);
      rejected.reasons().forEach(reason -> assertFalse(reason.message().isEmpty()));
    }
    Statistics.label(filter.name()).collect(result.fits() ? "fits" : "rejected");
    Statistics.label(filter.name())
        .coverage(
            c -> {
              c.check("fits").count(n -> n > 0);
              c.check("rejected").count(n -> n > 0);
            });
  }

  @Property
  @Label("a filter gives the same result when asked twice (no hidden state)")
  void deterministic(
      @ForAll("filters") Filter filter, @ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    assertEquals(filter.filter(pod, node), filter.filter(pod, node));
  }

  @Provide
  Arbitrary<Filter> filters() {
    // Filters that look beyond one node (PreFilter) are judged over whole snapshots in their own properties
    // (InterPodAffinityProperties, PodTopologySpreadProperties); these pods carry no inter-pod constraints.
    var all = new ArrayList<Filter>();
    Filters.defaults().stream().filter(filter -> !(filter instanceof PreFilter)).forEach(all::add);
    var onlyNodeN1 = FilterFixtures.term(List.of(), List.of(FilterFixtures.nodeNameIn("n1")));
    all.add(Filters.nodeAffinity(List.of(onlyNodeN1)));
    all.add(Filters.resourcesFit(List.of("example.com/aaa"), List.of("example.com")));
    all.add(Filters.labelPresence(List.of("a", "b"), true));
    all.add(Filters.labelPresence(List.of("c"), false));
    return Arbitraries.of(all);
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return FilterFixtures.pods();
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return FilterFixtures.nodes();
  }
}
