package io.kubesched.benchmarks;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The constrained benchmarks' states are scheduler_perf's shapes, as their Javadoc claims: checked at the
 * benchmarked size, 5000 nodes, with the anti-affinity and spreading rules evaluated here as oracles.
 */
class PodConstraintsBenchmarkTest {

  private static final int NODES = 5_000;

  private static <S extends PodConstraintsBenchmark.ConstrainedState> S setUp(S state) {
    state.nodes = NODES;
    state.setUp();
    return state;
  }

  /** The node {@code decision} binds to passes every filter of {@code policy}, each prepared as the policy does. */
  private static void assertBoundToAFeasibleNode(
      Decision decision, Policy policy, PodInfo pod, ClusterSnapshot snapshot) {
    var bind = assertInstanceOf(Decision.Bind.class, decision);
    var node = snapshot.node(bind.nodeName()).orElseThrow();
    for (Filter filter : policy.filters()) {
      var prepared = filter instanceof PreFilter pre ? pre.prepare(pod, snapshot) : filter;
      assertInstanceOf(
          FilterResult.Fit.class, prepared.filter(pod, node), () -> filter.name() + " rejects " + node.name());
    }
  }

  /** Whether a pod placed on {@code node} selected by the pending pod's anti-affinity term is there. */
  private static boolean holdsASelectedPod(NodeInfo node, PodInfo pending) {
    var term = pending.podAntiAffinity().required().get(0);
    return node.pods().stream()
        .anyMatch(p -> term.namespaces().contains(p.namespace()) && term.labelSelector().matches(p.labels()));
  }

  @Test
  void one_node_in_five_holds_one_anti_affinity_pod_and_the_pending_pod_has_the_same_anti_affinity() {
    var state = setUp(new PodConstraintsBenchmark.AntiAffinityState());
    var nodes = state.snapshot.nodes();
    var pending = state.pod;
    assertEquals(NODES, nodes.size());
    for (var node : nodes) {
      assertEquals(node.name(), node.labels().get(SchedulerPerfCluster.HOSTNAME), node.name());
      assertEquals(4_000, node.allocatable().milliCpu(), node.name());
      for (var pod : node.pods()) {
        assertAll(
            () -> assertEquals(SchedulerPerfCluster.PLACED_NAMESPACE, pod.namespace()),
            () -> assertEquals(Map.of("color", "green"), pod.labels()),
            () -> assertEquals(SchedulerPerfCluster.ANTI_AFFINITY, pod.podAntiAffinity()),
            () -> assertEquals(node.name(), pod.nodeName()));
      }
    }
    assertEquals(NODES / 5, nodes.stream().filter(n -> n.pods().size() == 1).count(), "nodes with a pod");
    assertTrue(nodes.stream().allMatch(n -> n.pods().size() <= 1), "a node holds two anti-affinity pods");

    var term = pending.podAntiAffinity().required().get(0);
    assertAll(
        () -> assertEquals(SchedulerPerfCluster.PENDING_NAMESPACE, pending.namespace()),
        () -> assertEquals("", pending.nodeName()),
        () -> assertEquals(Set.of("sched-0", "sched-1"), term.namespaces()),
        () -> assertEquals(SchedulerPerfCluster.HOSTNAME, term.topologyKey()),
        () -> assertTrue(term.labelSelector().matches(pending.labels()), "the pod's term selects itself"));
    assertEquals(
        NODES * 4 / 5,
        nodes.stream().filter(n -> !holdsASelectedPod(n, pending)).count(),
        "nodes a policy honouring the anti-affinity may choose");
  }

  @Test
  void the_anti_affinity_pod_is_bound_to_a_node_that_passes_every_filter_of_the_default_policy() {
    var state = setUp(new PodConstraintsBenchmark.AntiAffinityState());
    var decision = new PodConstraintsBenchmark().podWithPodAntiAffinity(state);
    assertBoundToAFeasibleNode(decision, state.policy, state.pod, state.snapshot);
  }

  @Test
  void zones_are_round_robin_every_node_holds_one_plain_pod_and_the_spread_is_valid_at_start() {
    var state = setUp(new PodConstraintsBenchmark.SpreadingState());
    var nodes = state.snapshot.nodes();
    var constraint = state.pod.topologySpreadConstraints().get(0);
    assertEquals(NODES, nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      var node = nodes.get(i);
      assertEquals(SchedulerPerfCluster.ZONES.get(i % 3), node.labels().get(SchedulerPerfCluster.ZONE), node.name());
      assertEquals(node.name(), node.labels().get(SchedulerPerfCluster.HOSTNAME), node.name());
      assertEquals(1, node.pods().size(), node.name());
    }
    var matchingByZone =
        nodes.stream()
            .collect(
                Collectors.groupingBy(
                    n -> n.labels().get(SchedulerPerfCluster.ZONE),
                    Collectors.summingLong(
                        n ->
                            n.pods().stream()
                                .filter(p -> p.namespace().equals(state.pod.namespace()))
                                .filter(p -> constraint.labelSelector().matches(p.labels()))
                                .count())));
    assertEquals(Set.copyOf(SchedulerPerfCluster.ZONES), matchingByZone.keySet());
    long skew =
        matchingByZone.values().stream().mapToLong(Long::longValue).max().orElseThrow()
            - matchingByZone.values().stream().mapToLong(Long::longValue).min().orElseThrow();
    assertTrue(skew <= constraint.maxSkew(), "skew at start: " + matchingByZone);
    assertAll(
        () -> assertEquals(SchedulerPerfCluster.SPREAD, constraint),
        () -> assertEquals(5, constraint.maxSkew()),
        () -> assertTrue(constraint.labelSelector().matches(state.pod.labels()), "the pod counts itself"));
  }

  @Test
  void the_spreading_pod_is_bound_to_a_node_that_passes_every_filter_of_the_default_policy() {
    var state = setUp(new PodConstraintsBenchmark.SpreadingState());
    var decision = new PodConstraintsBenchmark().podWithTopologySpread(state);
    assertBoundToAFeasibleNode(decision, state.policy, state.pod, state.snapshot);
  }

  @Test
  void counts_out_of_range_are_refused() {
    assertThrows(IllegalArgumentException.class, () -> SchedulerPerfCluster.withPodAntiAffinity(0, 0));
    assertThrows(IllegalArgumentException.class, () -> SchedulerPerfCluster.withPodAntiAffinity(10, 11));
    assertThrows(IllegalArgumentException.class, () -> SchedulerPerfCluster.withTopologySpreading(10, -1));
    assertEquals(
        10,
        SchedulerPerfCluster.withPodAntiAffinity(10, 10).snapshot().nodes().stream()
            .filter(n -> n.pods().size() == 1)
            .count(),
        "as many pods as nodes: one on each");
  }
}
