package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.EXTENDED;
import static io.kubesched.policy.plugins.ScorerFixtures.MIB;
import static io.kubesched.policy.plugins.ScorerFixtures.cores;
import static io.kubesched.policy.plugins.ScorerFixtures.cpuAndMemory;
import static io.kubesched.policy.plugins.ScorerFixtures.noRequests;
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
 * kube-scheduler's {@code TestMostAllocatedScoringStrategy} (noderesources/most_allocated_test.go, 1.37), case
 * by case, and edge cases. Kube's quantities {@code "cpu": "4000"} are whole cores.
 */
class MostAllocatedScorerTest {

  static final List<ScoredResource> DEFAULT = ScoredResource.defaults();
  static final List<ScoredResource> WITH_EXTENDED = LeastAllocatedScorerTest.WITH_EXTENDED;

  static Stream<Arguments> kubeCases() {
    var twoContainers = LeastAllocatedScorerTest.twoContainerPod();
    return Stream.of(
        row("nothing scheduled, nothing requested", DEFAULT, pod(List.of()),
            List.of(node("node1", cores(4000), 10000), node("node2", cores(4000), 10000)),
            0, 0),
        row("nothing scheduled, resources requested, differently sized nodes", DEFAULT, twoContainers,
            List.of(node("node1", cores(4000), 10000), node("node2", cores(6000), 10000)),
            62, 50),
        row("no resources requested, pods scheduled with resources", DEFAULT, pod(List.of()),
            List.of(
                node("node1", cores(10000), 20000, List.of(
                    pod(List.of(cpuAndMemory(cores(3000), 0))), pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(10000), 20000, List.of(
                    pod(List.of(cpuAndMemory(cores(3000), 0))),
                    pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            30, 42),
        row("resources requested, pods scheduled with resources", DEFAULT, twoContainers,
            List.of(
                node("node1", cores(10000), 20000, List.of(pod(List.of(cpuAndMemory(cores(3000), 0))))),
                node("node2", cores(10000), 20000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            42, 55),
        row("resources requested equal node capacity", DEFAULT,
            pod(List.of(cpuAndMemory(cores(2000), 4000), cpuAndMemory(cores(3000), 5000))),
            List.of(node("node1", cores(5000), 10000), node("node2", cores(10000), 9000)),
            95, 75),
        row("nothing scheduled, resources requested with different weight on CPU and memory, "
                + "differently sized nodes",
            List.of(new ScoredResource("memory", 2), new ScoredResource("cpu", 1)), twoContainers,
            List.of(node("node1", cores(4000), 10000), node("node2", cores(6000), 10000)),
            58, 50),
        row("no resources requested, pods scheduled, nonzero request for resource", DEFAULT,
            pod(List.of(noRequests())),
            List.of(
                node("node1", 250, 1000 * MIB, List.of(pod(List.of(noRequests())), pod(List.of(noRequests())))),
                node("node2", 250, 1000 * MIB)),
            80, 30),
        row("bypass extended resource if the pod does not request", WITH_EXTENDED, twoContainers,
            List.of(
                node("node1", cores(6000), 10000),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of())),
            50, 50),
        row("honor extended resource if the pod request", WITH_EXTENDED,
            pod(List.of(Map.of("cpu", cores(3000), "memory", 5000L, EXTENDED, 2L))),
            List.of(
                node("node1", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of()),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 10L), List.of())),
            50, 40),
        row("if the node doesn't have a resource",
            List.of(new ScoredResource(EXTENDED, 2), ScoredResource.of("cpu"), ScoredResource.of("memory")),
            pod(List.of(cpuAndMemory(cores(3000), 4000))),
            List.of(
                node("node1", cores(6000), 10000),
                node("node2", cores(6000), 10000, Map.of(EXTENDED, 4L), List.of())),
            45, 45));
  }

  static Arguments row(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, resources, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(
      String name, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new MostAllocatedScorer(resources), pod, nodes));
  }

  @Test
  void a_scorer_without_resources_is_rejected_as_kube_fails_to_score_with_none() {
    var e = assertThrows(IllegalArgumentException.class, () -> new MostAllocatedScorer(List.of()));
    assertEquals("NodeResourcesMostAllocated needs at least one resource to score", e.getMessage());
  }

  @Test
  void a_node_with_nothing_allocatable_scores_zero() {
    assertEquals(0, new MostAllocatedScorer().score(pod(List.of(cpuAndMemory(100, 100))), node("n", 0, 0)));
  }

  @Test
  void requests_above_capacity_count_as_a_full_node() {
    var scorer = new MostAllocatedScorer(List.of(ScoredResource.of("cpu")));
    assertEquals(100, scorer.score(pod(List.of(cpuAndMemory(5000, 0))), node("n", 4000, 10000)));
  }

  @Test
  void huge_quantities_near_long_max_value_do_not_overflow() {
    long huge = Long.MAX_VALUE;
    var scorer = new MostAllocatedScorer(List.of(ScoredResource.of("memory")));
    var pod = ScorerFixtures.withoutDefaults(
        PodInfo.builder("default", "p").requests(Resources.of(0, huge / 2)).build());
    var node = NodeInfo.builder("n").allocatable(Resources.of(0, huge)).build();
    // (2^62 - 1) * 100 / (2^63 - 1) = 49.99…, which int64 arithmetic would have wrapped
    assertEquals(49, scorer.score(pod, node));
  }
}
