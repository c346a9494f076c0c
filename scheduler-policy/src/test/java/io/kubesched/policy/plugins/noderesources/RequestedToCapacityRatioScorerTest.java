package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.MIB;
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
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.helper.ScoringShape;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestRequestedToCapacityRatioScoringStrategy}, {@code TestBrokenLinearFunction},
 * {@code TestResourceBinPackingSingleExtended} and {@code TestResourceBinPackingMultipleExtended}
 * (noderesources/requested_to_capacity_ratio_test.go, 1.37), case by case, and edge cases.
 */
class RequestedToCapacityRatioScorerTest {

  static final List<ShapePoint> LEAST_REQUESTED = List.of(new ShapePoint(0, 10), new ShapePoint(100, 0));
  static final List<ShapePoint> BIN_PACKING = List.of(new ShapePoint(0, 0), new ShapePoint(100, 1));
  static final String FOO = "intel.com/foo";
  static final String BAR = "intel.com/bar";

  /** kube's {@code makeNode} of the bin-packing tests: 4000 millicores, 10000 MiB, the given extended. */
  static NodeInfo binPackingNode(String name, Map<String, Long> extended, List<PodInfo> pods) {
    return node(name, 4000, 10000 * MIB, extended, pods);
  }

  static Stream<Arguments> kubeCases() {
    var defaults = ScoredResource.defaults();
    var foo = List.of(ScoredResource.of(FOO));
    var fooAndBar = List.of(new ScoredResource(FOO, 3), new ScoredResource(BAR, 5));
    var foo8 = Map.of(FOO, 8L);
    var foo4 = Map.of(FOO, 4L);
    var foo8bar4 = Map.of(FOO, 8L, BAR, 4L);
    var foo4bar8 = Map.of(FOO, 4L, BAR, 8L);
    var foo2bar2 = Map.of(FOO, 2L, BAR, 2L);
    var foo4bar2 = Map.of(FOO, 4L, BAR, 2L);
    return Stream.of(
        row("nothing scheduled, nothing requested (default - least requested nodes have priority)",
            LEAST_REQUESTED, defaults, pod(List.of()),
            List.of(
                node("node1", cores(4000), 10000, List.of(pod(List.of()), pod(List.of()))),
                node("node2", cores(4000), 10000)),
            100, 100),
        row("nothing scheduled, resources requested, differently sized nodes (default - least requested "
                + "nodes have priority)",
            LEAST_REQUESTED, defaults, LeastAllocatedScorerTest.twoContainerPod(),
            List.of(
                node("node1", cores(4000), 10000, List.of(pod(List.of()), pod(List.of()))),
                node("node2", cores(6000), 10000)),
            38, 50),
        row("no resources requested, pods scheduled with resources (default - least requested nodes have "
                + "priority)",
            LEAST_REQUESTED, defaults, pod(List.of()),
            List.of(
                node("node1", cores(4000), 10000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000))))),
                node("node2", cores(6000), 10000, List.of(pod(List.of(cpuAndMemory(cores(3000), 5000)))))),
            38, 50),
        row("single extended: nothing scheduled, nothing requested", BIN_PACKING, foo, pod(List.of()),
            List.of(binPackingNode("node1", foo8, List.of()), binPackingNode("node2", foo4, List.of())),
            0, 0),
        row("single extended: resources requested, pods scheduled with less resources", BIN_PACKING, foo,
            pod(List.of(Map.of(FOO, 2L))),
            List.of(binPackingNode("node1", foo8, List.of()), binPackingNode("node2", foo4, List.of())),
            2, 5),
        row("single extended: resources requested, pods scheduled with resources, on node with existing "
                + "pod running",
            BIN_PACKING, foo, pod(List.of(Map.of(FOO, 2L))),
            List.of(
                binPackingNode("node1", foo8, List.of()),
                binPackingNode("node2", foo4, List.of(pod(List.of(Map.of(FOO, 2L)))))),
            2, 10),
        row("single extended: resources requested, pods scheduled with more resources", BIN_PACKING, foo,
            pod(List.of(Map.of(FOO, 4L))),
            List.of(binPackingNode("node1", foo8, List.of()), binPackingNode("node2", foo4, List.of())),
            5, 10),
        row("multiple extended: nothing scheduled, nothing requested", BIN_PACKING, fooAndBar, pod(List.of()),
            List.of(binPackingNode("node1", foo8bar4, List.of()), binPackingNode("node2", foo4bar8, List.of())),
            0, 0),
        row("multiple extended: resources requested, pods scheduled with less resources", BIN_PACKING,
            fooAndBar, pod(List.of(foo2bar2)),
            List.of(binPackingNode("node1", foo8bar4, List.of()), binPackingNode("node2", foo4bar8, List.of())),
            4, 3),
        row("multiple extended: resources requested, pods scheduled with resources, on node with existing "
                + "pod running",
            BIN_PACKING, fooAndBar, pod(List.of(foo2bar2)),
            List.of(
                binPackingNode("node1", foo8bar4, List.of()),
                binPackingNode("node2", foo4bar8, List.of(pod(List.of(foo4bar2))))),
            4, 7),
        row("multiple extended: resources requested, pods scheduled with more resources", BIN_PACKING,
            fooAndBar, pod(List.of(foo4bar2)),
            List.of(binPackingNode("node1", foo8bar4, List.of()), binPackingNode("node2", foo4bar8, List.of())),
            5, 5));
  }

  static Arguments row(
      String name, List<ShapePoint> shape, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes,
      long... expected) {
    return Arguments.of(name, shape, resources, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(
      String name, List<ShapePoint> shape, List<ScoredResource> resources, PodInfo pod, List<NodeInfo> nodes,
      List<Long> expected) {
    assertEquals(expected, scores(new RequestedToCapacityRatioScorer(shape, resources), pod, nodes));
  }

  /** kube's {@code TestBrokenLinearFunction}: points, then (utilization, expected score) pairs. */
  static Stream<Arguments> brokenLinearCases() {
    return Stream.of(
        Arguments.of("two points (10,1) (90,9)", new long[] {10, 90}, new long[] {1, 9},
            new long[][] {{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9},
                {99, 9}, {100, 9}, {110, 9}}),
        Arguments.of("rising then falling (0,2) (40,10) (100,0)", new long[] {0, 40, 100}, new long[] {2, 10, 0},
            new long[][] {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}),
        Arguments.of("flat (0,2) (40,2) (100,2)", new long[] {0, 40, 100}, new long[] {2, 2, 2},
            new long[][] {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenLinearCases")
  void the_broken_linear_function_interpolates_as_kube_does(
      String name, long[] utilizations, long[] scores, long[][] assertions) {
    for (long[] assertion : assertions) {
      assertEquals(assertion[1], ScoringShape.brokenLinear(utilizations, scores, assertion[0]),
          "at utilization " + assertion[0]);
    }
  }

  @Test
  void an_empty_shape_is_rejected() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> new RequestedToCapacityRatioScorer(List.of(), ScoredResource.defaults()));
    assertEquals("RequestedToCapacityRatio needs at least one shape point", e.getMessage());
  }

  @Test
  void a_shape_not_strictly_increasing_in_utilization_is_rejected() {
    var shape = List.of(new ShapePoint(50, 1), new ShapePoint(50, 2));
    var e = assertThrows(IllegalArgumentException.class,
        () -> new RequestedToCapacityRatioScorer(shape, ScoredResource.defaults()));
    assertEquals("RequestedToCapacityRatio shape points must be in strictly increasing utilization, but point 1"
        + " has utilization 50 after 50", e.getMessage());
  }

  @Test
  void shape_points_out_of_range_are_rejected() {
    assertEquals("shape point utilization must be in 0..100, was 101",
        assertThrows(IllegalArgumentException.class, () -> new ShapePoint(101, 0)).getMessage());
    assertEquals("shape point score must be in 0..10, was 11",
        assertThrows(IllegalArgumentException.class, () -> new ShapePoint(0, 11)).getMessage());
    assertEquals("shape point score must be in 0..10, was -1",
        assertThrows(IllegalArgumentException.class, () -> new ShapePoint(0, -1)).getMessage());
  }

  @Test
  void a_single_point_shape_scores_its_value_everywhere() {
    var scorer = new RequestedToCapacityRatioScorer(List.of(new ShapePoint(30, 7)), ScoredResource.defaults());
    assertEquals(70, scorer.score(pod(List.of(cpuAndMemory(900, 10))), node("n", 1000, 1000)));
  }

  @Test
  void a_resource_scoring_zero_does_not_count_even_its_weight() {
    // cpu 50% -> 50, memory 0% -> 0 and left out: the average is 50, not 25
    var scorer = new RequestedToCapacityRatioScorer(BIN_PACKING_BY_TEN, ScoredResource.defaults());
    var pod = ScorerFixtures.withoutDefaults(pod(List.of(cpuAndMemory(500, 0))));
    assertEquals(50, scorer.score(pod, node("n", 1000, 1000)));
  }

  static final List<ShapePoint> BIN_PACKING_BY_TEN = List.of(new ShapePoint(0, 0), new ShapePoint(100, 10));

  @Test
  void requests_above_capacity_count_as_full_utilization() {
    var scorer = new RequestedToCapacityRatioScorer(LEAST_REQUESTED, List.of(ScoredResource.of("cpu")));
    assertEquals(0, scorer.score(pod(List.of(cpuAndMemory(5000, 0))), node("n", 4000, 10000)));
  }

  @Test
  void the_average_is_rounded_half_up() {
    // cpu 10% -> 10, memory 15% -> 15: (10 + 15) / 2 = 12.5 -> 13
    var scorer = new RequestedToCapacityRatioScorer(BIN_PACKING_BY_TEN, ScoredResource.defaults());
    var pod = ScorerFixtures.withoutDefaults(pod(List.of(cpuAndMemory(100, 150))));
    assertEquals(13, scorer.score(pod, node("n", 1000, 1000)));
  }

  @Test
  void huge_quantities_near_long_max_value_do_not_overflow() {
    var scorer = new RequestedToCapacityRatioScorer(BIN_PACKING_BY_TEN, List.of(ScoredResource.of("memory")));
    var pod = ScorerFixtures.withoutDefaults(
        PodInfo.builder("default", "p").requests(Resources.of(0, Long.MAX_VALUE / 10 * 9)).build());
    var node = NodeInfo.builder("n").allocatable(Resources.of(0, Long.MAX_VALUE)).build();
    assertEquals(89, scorer.score(pod, node));
  }
}
