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
import io.kubesched.api.Resources;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.imagelocality.ImageLocalityScorer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's state is what its Javadoc claims, so the figures keep measuring the paths they name:
 * checked on a small snapshot, with the filters run directly as the oracle of which nodes fit.
 */
class PolicyBenchmarkTest {

  private static final int NODES = 200;

  private static PolicyBenchmark.ClusterState state() {
    var state = new PolicyBenchmark.ClusterState();
    state.nodes = NODES;
    state.setUp();
    return state;
  }

  /** The nodes where every default filter fits {@code pod}. */
  private static long feasibleCount(PodInfo pod, Iterable<NodeInfo> nodes) {
    long count = 0;
    for (var node : nodes) {
      // Filters that look beyond one node are prepared over a snapshot of this node, as the policy would.
      var cluster = ClusterSnapshot.of(List.of(node));
      if (Filters.defaults().stream()
          .map(f -> f instanceof PreFilter preFilter ? preFilter.prepare(pod, cluster) : f)
          .allMatch(f -> f.filter(pod, node) instanceof FilterResult.Fit)) {
        count++;
      }
    }
    return count;
  }

  @Test
  void the_snapshot_has_the_requested_nodes_each_running_ten_placed_pods_with_requests() {
    var state = state();
    assertEquals(NODES, state.snapshot.size());
    for (var node : state.snapshot) {
      var requested = Resources.ZERO;
      for (var pod : node.pods()) {
        requested = requested.plus(pod.requests());
        assertEquals(node.name(), pod.nodeName(), () -> pod.key() + " is not placed on " + node.name());
        assertTrue(
            pod.requests().milliCpu() > 0 && pod.requests().memory() > 0,
            () -> pod.key() + " requests no CPU or no memory: " + pod.requests());
      }
      assertEquals(SyntheticCluster.PODS_PER_NODE, node.pods().size(), node.name());
      assertEquals(requested, node.requested(), node.name());
      assertEquals(32_000, node.allocatable().milliCpu(), node.name());
      assertEquals(110, node.allocatable().pods(), node.name());
    }
  }

  @Test
  void the_snapshot_has_zones_tainted_nodes_and_cordoned_nodes() {
    var state = state();
    Map<String, Long> byZone =
        state.snapshot.stream()
            .collect(
                Collectors.groupingBy(
                    n -> n.labels().get("topology.kubernetes.io/zone"), Collectors.counting()));
    assertEquals(SyntheticCluster.ZONES.size(), byZone.size(), byZone::toString);
    assertTrue(state.snapshot.stream().anyMatch(n -> !n.taints().isEmpty()), "no tainted node");
    assertTrue(state.snapshot.stream().anyMatch(NodeInfo::unschedulable), "no cordoned node");
  }

  @Test
  void the_fitting_pod_fits_most_nodes_and_the_default_policy_binds_it_to_one_of_them() {
    var state = state();
    long feasible = feasibleCount(state.fittingPod, state.snapshot);
    assertTrue(
        feasible >= NODES * 8L / 10, "the fitting pod fits only " + feasible + " of " + NODES + " nodes");
    assertTrue(feasible < NODES, "the fitting pod fits every node: the filters reject nothing");

    var decision = assertInstanceOf(Decision.Bind.class, new PolicyBenchmark().podThatFits(state));
    var chosen =
        state.snapshot.stream().filter(n -> n.name().equals(decision.nodeName())).findFirst().orElseThrow();
    assertEquals(1, feasibleCount(state.fittingPod, List.of(chosen)), chosen.name() + " does not fit");
  }

  @Test
  void the_unfit_pod_fits_no_node_and_every_node_is_examined_for_the_message() {
    var state = state();
    assertEquals(0, feasibleCount(state.unfitPod, state.snapshot));

    var decision =
        assertInstanceOf(
            Decision.Unschedulable.class, state.policy.find(state.unfitPod, state.snapshot));
    var message = new PolicyBenchmark().podThatFitsNowhere(state);
    assertAll(
        () -> assertEquals(NODES, decision.reasonsByNode().size(), "nodes with reasons"),
        () -> assertEquals(decision.message(NODES), message),
        () -> assertTrue(message.startsWith("0/" + NODES + " nodes are available: "), message),
        () -> assertTrue(message.contains("Insufficient memory"), message),
        () -> assertTrue(message.contains("node(s) were unschedulable"), message));
  }

  @Test
  void without_scorer_leaves_out_exactly_the_named_scorer_and_rejects_an_unknown_name() {
    var state = new PolicyBenchmark.ClusterState();
    state.nodes = NODES;
    state.withoutScorer = ImageLocalityScorer.NAME;
    state.setUp();
    var defaults = DefaultPolicy.create().scorers().stream().map(ws -> ws.scorer().name()).toList();
    var kept = state.policy.scorers().stream().map(ws -> ws.scorer().name()).toList();
    assertTrue(defaults.contains(ImageLocalityScorer.NAME), defaults::toString);
    assertEquals(defaults.stream().filter(n -> !n.equals(ImageLocalityScorer.NAME)).toList(), kept);

    state.withoutScorer = "ImageLocalty";
    var error = assertThrows(IllegalArgumentException.class, state::setUp);
    assertTrue(error.getMessage().contains("'ImageLocalty'"), error.getMessage());
  }
}
