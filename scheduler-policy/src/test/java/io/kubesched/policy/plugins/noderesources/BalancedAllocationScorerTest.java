package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.GPU;
import static io.kubesched.policy.plugins.ScorerFixtures.cpuAndMemory;
import static io.kubesched.policy.plugins.ScorerFixtures.cpuOnly;
import static io.kubesched.policy.plugins.ScorerFixtures.memoryOnly;
import static io.kubesched.policy.plugins.ScorerFixtures.node;
import static io.kubesched.policy.plugins.ScorerFixtures.pod;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestNodeResourcesBalancedAllocation} (noderesources/balanced_allocation_test.go,
 * 1.37), case by case, and edge cases. Kube's {@code makeNode(name, milliCPU, memory)} takes millicores; the
 * cases backed by dynamic resource allocation have no counterpart here.
 */
class BalancedAllocationScorerTest {

  static final List<ScoredResource> WITH_GPU =
      List.of(ScoredResource.of("cpu"), ScoredResource.of("memory"), ScoredResource.of(GPU));

  static PodInfo twoContainers() {
    return pod(List.of(cpuAndMemory(1000, 2000), cpuAndMemory(2000, 3000)));
  }

  static PodInfo cpuOnlyPod() {
    return pod(List.of(cpuOnly(1000), cpuOnly(2000)));
  }

  static Stream<Arguments> kubeCases() {
    var defaults = ScoredResource.defaults();
    return Stream.of(
        row("nothing scheduled, nothing requested, skip in PreScore (every node scores 0)", defaults,
            pod(List.of()),
            List.of(node("node1", 4000, 10000), node("node2", 4000, 10000)),
            0, 0),
        row("nothing scheduled, resources requested, differently sized nodes", defaults, twoContainers(),
            List.of(node("node1", 4000, 10000), node("node2", 6000, 10000)),
            68, 75),
        row("resources requested, pods scheduled with resources", defaults, twoContainers(),
            List.of(
                node("node1", 10000, 20000, List.of(cpuOnlyPod())),
                node("node2", 10000, 20000, List.of(twoContainers()))),
            73, 74),
        row("resources requested, pods scheduled with resources, differently sized nodes", defaults,
            twoContainers(),
            List.of(
                node("node1", 10000, 20000, List.of(cpuOnlyPod())),
                node("node2", 10000, 50000, List.of(twoContainers()))),
            73, 70),
        row("resources requested, pods scheduled with resources, nodes to reach min/max score", defaults,
            pod(List.of(memoryOnly(2000), memoryOnly(3000))),
            List.of(node("node1", 3000, 5000, List.of(cpuOnlyPod())), node("node2", 3000, 5000)),
            100, 50),
        row("requested resources at node capacity", defaults, cpuOnlyPod(),
            List.of(
                node("node1", 6000, 10000, List.of(cpuOnlyPod())),
                node("node2", 6000, 10000, List.of(twoContainers()))),
            62, 62),
        row("scalar resource is included in the score computation if pod requests the scalar resource",
            WITH_GPU, pod(List.of(Map.of("cpu", 0L, "memory", 0L, GPU, 1L))),
            List.of(
                node("node1", 3500, 40000, Map.of(GPU, 8L), List.of(pod(List.of(
                    cpuAndMemory(1000, 2000), Map.of("cpu", 2000L, "memory", 3000L, GPU, 3L))))),
                node("node2", 3500, 40000, Map.of(GPU, 8L), List.of(twoContainers()))),
            75, 76),
        row("scalar resource is not included in the score computation if pod doesn't request the scalar "
                + "resource",
            WITH_GPU, twoContainers(),
            List.of(node("node1", 3500, 40000, Map.of(GPU, 8L), List.of()), node("node2", 3500, 40000)),
            56, 56));
  }

  static Arguments row(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, resources, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new BalancedAllocationScorer(resources), pod, nodes));
  }

  @Test
  void a_weight_other_than_1_is_rejected_as_kube_validates() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> new BalancedAllocationScorer(List.of(new ScoredResource("cpu", 2))));
    assertEquals("NodeResourcesBalancedAllocation weight of resource cpu must be 1, was 2", e.getMessage());
  }

  @Test
  void a_resource_named_twice_is_rejected_as_kube_validates() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> new BalancedAllocationScorer(List.of(ScoredResource.of("cpu"), ScoredResource.of("cpu"))));
    assertEquals("NodeResourcesBalancedAllocation names resource cpu twice", e.getMessage());
  }

  @Test
  void a_pod_with_containers_but_no_requests_is_skipped_not_given_the_non_zero_defaults() {
    var pod = pod(List.of(ScorerFixtures.noRequests()));
    assertEquals(List.of(0L, 0L),
        scores(new BalancedAllocationScorer(), pod, List.of(node("a", 1000, 1000), node("b", 9, 9))));
  }

  @Test
  void a_node_with_nothing_allocatable_leaves_the_balance_unchanged() {
    // no fractions on either side: both balances are 100, so 50 + (50 + 100 - 100) / 2
    assertEquals(75, new BalancedAllocationScorer().score(twoContainers(), node("n", 0, 0)));
  }

  @Test
  void fractions_above_1_are_capped() {
    // with the pod: cpu 2.0 capped to 1, memory 1 -> balance 100; without: 0 and 0 -> 100
    var pod = pod(List.of(cpuAndMemory(2000, 1000)));
    assertEquals(75, new BalancedAllocationScorer().score(pod, node("n", 1000, 1000)));
  }

  @Test
  void three_resources_use_the_population_standard_deviation() {
    // fractions 0, 0.5, 1: std = sqrt(((0.5)^2 + 0 + (0.5)^2) / 3) = 0.408…, balance 59; without the pod 100
    var scorer = new BalancedAllocationScorer(WITH_GPU);
    var pod = ScorerFixtures.pod(List.of(Map.of("cpu", 0L, "memory", 500L, GPU, 4L)));
    var node = node("n", 1000, 1000, Map.of(GPU, 4L), List.of());
    assertEquals(50 + (50 + 59 - 100) / 2, scorer.score(pod, node));
  }

  @Test
  void equal_fractions_of_more_than_two_resources_can_truncate_to_99_as_in_kube() {
    // Checked against kube's balancedResourceScore in Go: the mean of five 8/9 is an ulp off 8/9.
    assertEquals(99, ResourceAllocation.balance(new long[] {8, 8, 8, 8, 8}, new long[] {9, 9, 9, 9, 9}));
    assertEquals(100, ResourceAllocation.balance(new long[] {8, 8, 8}, new long[] {9, 9, 9}));
    assertEquals(100, ResourceAllocation.balance(new long[] {8, 8}, new long[] {9, 9}));
  }

  @Test
  void huge_quantities_near_long_max_value_do_not_overflow() {
    var pod = PodInfo.builder("default", "p")
        .requests(Resources.of(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2)).build();
    var node = NodeInfo.builder("n").allocatable(Resources.of(Long.MAX_VALUE, Long.MAX_VALUE)).build();
    assertEquals(75, new BalancedAllocationScorer().score(pod, node));
  }
}
