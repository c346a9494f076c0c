package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.EXTENDED;
import static io.kubesched.policy.plugins.ScorerFixtures.cores;
import static io.kubesched.policy.plugins.ScorerFixtures.cpuAndMemory;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube-scheduler's {@code TestLeastAllocatedScoringStrategy} (noderesources/least_allocated_test.go, 1.37),
 * case by case, and edge cases. Kube's quantities {@code "cpu": "4000"} are whole cores.
 */
class LeastAllocatedScorerTest {

  static final List<ScoredResource> DEFAULT = ScoredResource.defaults();
  static final List<ScoredResource> WITH_EXTENDED =
      List.of(ScoredResource.of("cpu"), ScoredResource.of("memory"), ScoredResource.of(EXTENDED));

  /** Kube's two-container pod: 1000 + 2000 cores, 2000 + 3000 bytes. */
  static PodInfo twoContainerPod() {
    return pod(List.of(cpuAndMemory(cores(1000), 2000), cpuAndMemory(cores(2000), 3000)));
  }

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        row("nothing scheduled, nothing requested", DEFAULT, pod(List.of()),
            List.of(node("node1", cores(4000), 10000), node("node2", cores(4000), 10000)),
            100, 100),
        row("nothing scheduled, resources requested, differently sized nodes", DEFAULT, twoContainerPod(),
            List.of(node("node1", cores(4000), 10000), node("node2", cores(6000), 10000)),
            37, 50),
        row("no resources requested, pods scheduled", DEFAULT, pod(List.of()),
            List.of(
                node("node1", cores(4000), 10000, List.of(pod(List.of()), pod(List.of()))),
                node("node2", cores(4000), 10000, List.of(pod(List.of()), pod(List.of())))),
            100, 100),
        row("no resources requested, pods scheduled with resources", DEFAULT, pod(List.of()),
            List.of(
                node("node1", cores(10000), 20000, List.of(
                    pod(List.of(cpuAndMemory(cores(3000), 0))), pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(10000), 20000, List.of(
                    pod(List.of(cpuAndMemory(cores(3000), 0))),
                    pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            70, 57),
        row("resources requested, pods scheduled with resources", DEFAULT, twoContainerPod(),
            List.of(
                node("node1", cores(10000), 20000, List.of(pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(10000), 20000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            57, 45),
        row("resources requested, pods scheduled with resources, differently sized nodes", DEFAULT,
            twoContainerPod(),
            List.of(
                node("node1", cores(10000), 20000, List.of(pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(10000), 50000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            57, 60),
        row("requested resources exceed node capacity", DEFAULT, pod(List.of(cpuAndMemory(cores(3000), 0))),
            List.of(
                node("node1", cores(4000), 10000, List.of(pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(4000), 10000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            50, 25),
        row("zero node resources, pods scheduled with resources", DEFAULT, pod(List.of()),
            List.of(
                node("node1", 0, 0, List.of(pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", 0, 0, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            0, 0),
        row("nothing scheduled, resources requested with different weight on CPU and memory, "
                + "differently sized nodes",
            List.of(new ScoredResource("memory", 2), new ScoredResource("cpu", 1)), twoContainerPod(),
            List.of(node("node1", cores(4000), 10000), node("node2", cores(6000), 10000)),
            41, 50),
        row("bypass extended resource if the pod does not request", WITH_EXTENDED, twoContainerPod(),
            List.of(
                node("node1", cores(6000), 10000),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of())),
            50, 50),
        row("honor extended resource if the pod requests", WITH_EXTENDED,
            pod(List.of(Map.of("cpu", cores(3000), "memory", 5000L, EXTENDED, 2L))),
            List.of(
                node("node1", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of()),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 10L), List.of())),
            50, 60),
        row("if the node doesn't have a resource",
            List.of(new ScoredResource(EXTENDED, 2), ScoredResource.of("cpu"), ScoredResource.of("memory")),
            pod(List.of(cpuAndMemory(cores(3000), 4000))),
            List.of(
                node("node1", cores(6000), 10000),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of())),
            55, 55));
  }

  static Arguments row(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, resources, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new LeastAllocatedScorer(resources), pod, nodes));
  }

  @Test
  void a_scorer_without_resources_is_rejected_as_kube_fails_to_score_with_none() {
    var e = assertThrows(IllegalArgumentException.class, () -> new LeastAllocatedScorer(List.of()));
    assertEquals("NodeResourcesLeastAllocated needs at least one resource to score", e.getMessage());
  }

  @ParameterizedTest(name = "weight {0} is rejected, as kube validates (0, 100]")
  @ValueSource(ints = {-1, 0, 101})
  void a_weight_outside_1_to_100_is_rejected(int weight) {
    var e = assertThrows(IllegalArgumentException.class, () -> new ScoredResource("memory", weight));
    assertEquals("weight of resource memory must be in 1..100, was " + weight, e.getMessage());
  }

  @Test
  void a_node_with_nothing_allocatable_scores_zero() {
    var scorer = new LeastAllocatedScorer();
    assertEquals(0, scorer.score(pod(List.of(cpuAndMemory(100, 100))), node("n", 0, 0)));
  }

  @Test
  void a_pod_requesting_more_than_the_node_offers_scores_zero_for_that_resource() {
    var scorer = new LeastAllocatedScorer(List.of(ScoredResource.of("cpu")));
    assertEquals(0, scorer.score(pod(List.of(cpuAndMemory(5000, 0))), node("n", 4000, 10000)));
  }

  @Test
  void a_pod_without_requests_counts_the_non_zero_defaults_of_100m_cpu_and_200_mib() {
    var scorer = new LeastAllocatedScorer();
    // cpu (1000 - 100) * 100 / 1000 = 90, memory (400 MiB - 200 MiB) * 100 / 400 MiB = 50
    var pod = pod(List.of(ScorerFixtures.noRequests()));
    assertEquals(70, scorer.score(pod, node("n", 1000, 400 * ScorerFixtures.MIB)));
  }

  @Test
  void huge_quantities_near_long_max_value_do_not_overflow() {
    long huge = Long.MAX_VALUE - 1;
    var scorer = new LeastAllocatedScorer(List.of(ScoredResource.of("memory")));
    var pod = ScorerFixtures.withoutDefaults(
        PodInfo.builder("default", "p").requests(Resources.of(0, huge / 4)).build());
    var node = NodeInfo.builder("n").allocatable(Resources.of(0, huge)).build();
    // (huge - huge / 4) * 100 / huge = 75.000…, which int64 arithmetic would have wrapped
    assertEquals(75, scorer.score(pod, node));
  }

  @Test
  void requests_saturating_at_long_max_value_score_zero_not_a_wrapped_value() {
    var scorer = new LeastAllocatedScorer(List.of(ScoredResource.of("cpu")));
    var full = ScorerFixtures.withoutDefaults(
        PodInfo.builder("default", "full").requests(Resources.of(Long.MAX_VALUE, 0)).build());
    var node = node("n", Long.MAX_VALUE, 0, List.of(full));
    assertEquals(0, scorer.score(full, node));
  }

  @Test
  void ephemeral_storage_is_scored_from_plain_requests_when_named() {
    var scorer = new LeastAllocatedScorer(List.of(ScoredResource.of(ScoredResource.EPHEMERAL_STORAGE)));
    var pod = pod(List.of(Map.of(ScoredResource.EPHEMERAL_STORAGE, 250L)));
    var node = NodeInfo.builder("n").allocatable(new Resources(0, 0, 1000, 0, Map.of())).build();
    assertEquals(75, scorer.score(pod, node));
  }
}
