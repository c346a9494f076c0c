package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.noderesources.LeastAllocatedScorerProperties.resourceNode;
import static io.kubesched.policy.plugins.noderesources.LeastAllocatedScorerProperties.resourcePod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/** Laws of the RequestedToCapacityRatio score. */
class RequestedToCapacityRatioScorerProperties {

  static final List<ScoredResource> CPU = List.of(ScoredResource.of("cpu"));

  @Property
  @Label("scores lie in 0..100 for every valid shape")
  void scoresLieInRange(
      @ForAll("shapes") List<ShapePoint> shape,
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node) {
    long score = new RequestedToCapacityRatioScorer(shape, resources).score(pod, node);

    assertTrue(score >= 0 && score <= 100, "score " + score);
    Statistics.label("score").collect(score == 0 ? "0" : score == 100 ? "100" : "between");
    Statistics.label("score").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("100").count(n -> n > 0);
      c.check("between").count(n -> n > 0);
    });
  }

  @Property
  @Label("with the rising diagonal shape and one resource it scores as MostAllocated")
  void diagonalShapeIsMostAllocated(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var diagonal = List.of(new ShapePoint(0, 0), new ShapePoint(100, 10));
    long ratio = new RequestedToCapacityRatioScorer(diagonal, CPU).score(pod, node);
    long most = new MostAllocatedScorer(CPU).score(pod, node);

    assertEquals(most, ratio);
    Statistics.label("score").collect(most == 0 ? "0" : most == 100 ? "100" : "between");
    Statistics.label("score").coverage(c -> c.check("between").count(n -> n > 0));
  }

  @Property
  @Label("a flat shape scores its height wherever a resource is offered, else 0")
  void flatShapeScoresItsHeight(
      @ForAll @IntRange(min = 1, max = 10) int height,
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node) {
    var flat = List.of(new ShapePoint(0, height), new ShapePoint(100, height));
    long score = new RequestedToCapacityRatioScorer(flat, resources).score(pod, node);

    boolean offered = resources.stream().anyMatch(r -> isScored(r.name(), pod, node));
    assertTrue(score == height * 10L || (score == 0 && !offered), "score " + score);
    Statistics.label("node").collect(score == 0 ? "nothing scored" : "scored");
    Statistics.label("node").coverage(c -> {
      c.check("nothing scored").count(n -> n > 0);
      c.check("scored").count(n -> n > 0);
    });
  }

  @Property
  @Label("with a rising shape and one resource, placing another pod never lowers the score")
  void risingShapeIsMonotone(
      @ForAll("risingShapes") List<ShapePoint> shape,
      @ForAll @LongRange(min = 1, max = 1000) long capacity,
      @ForAll @LongRange(max = 1000) long request,
      @ForAll @LongRange(max = 1000) long used,
      @ForAll @LongRange(max = 1000) long more) {
    var scorer = new RequestedToCapacityRatioScorer(shape, CPU);
    var pod = resourcePod(request, 0);
    long before = scorer.score(pod, resourceNode(capacity, 0, used, 0));
    long after = scorer.score(pod, resourceNode(capacity, 0, used, 0).withPod(resourcePod(more, 0)));

    assertTrue(after >= before, before + " then " + after);
    Statistics.label("change").collect(after > before ? "higher" : "same");
    Statistics.label("change").coverage(c -> {
      c.check("higher").count(n -> n > 0);
      c.check("same").count(n -> n > 0);
    });
  }

  @Property
  @Label("scores do not change when every quantity is scaled, even close to Long.MAX_VALUE")
  void scoresAreScaleInvariant(
      @ForAll("shapes") List<ShapePoint> shape,
      @ForAll @LongRange(min = 1, max = 1000) long cpu,
      @ForAll @LongRange(min = 1, max = 1000) long memory,
      @ForAll @LongRange(max = 1000) long podCpu,
      @ForAll @LongRange(max = 1000) long podMemory,
      @ForAll("scales") long k) {
    var scorer = new RequestedToCapacityRatioScorer(shape, ScoredResource.defaults());
    long small = scorer.score(resourcePod(podCpu, podMemory), resourceNode(cpu, memory, 0, 0));
    long scaled = scorer.score(resourcePod(podCpu * k, podMemory * k), resourceNode(cpu * k, memory * k, 0, 0));

    assertEquals(small, scaled);
    Statistics.label("scale").collect(cpu * k > Long.MAX_VALUE / 100 ? "beyond int64 times 100" : "ordinary");
    Statistics.label("scale").coverage(c -> c.check("beyond int64 times 100").count(n -> n > 0));
  }

  /**
   * The documented rule of which resources count: CPU and memory when the node offers them, an extended
   * resource when the node offers it and the pod requests it.
   */
  static boolean isScored(String resource, PodInfo pod, NodeInfo node) {
    return switch (resource) {
      case "cpu" -> node.allocatable().milliCpu() > 0;
      case "memory" -> node.allocatable().memory() > 0;
      default -> node.allocatable().extended(resource) > 0 && pod.requests().extended(resource) > 0;
    };
  }

  /** Valid shapes: 1 to 4 points at distinct, increasing utilizations, scores 0..10. */
  @Provide
  Arbitrary<List<ShapePoint>> shapes() {
    return shapesWith(Arbitraries.integers().between(0, 10).list().ofSize(4));
  }

  /** Valid shapes whose scores never fall as utilization rises. */
  @Provide
  Arbitrary<List<ShapePoint>> risingShapes() {
    return shapesWith(Arbitraries.integers().between(0, 10).list().ofSize(4).map(scores -> {
      var sorted = new ArrayList<>(scores);
      sorted.sort(null);
      return sorted;
    }));
  }

  private static Arbitrary<List<ShapePoint>> shapesWith(Arbitrary<List<Integer>> scores) {
    var utilizations = Arbitraries.integers().between(0, 100).set().ofMinSize(1).ofMaxSize(4);
    return utilizations.flatMap(set -> scores.map(s -> {
      var sorted = new ArrayList<>(set);
      sorted.sort(null);
      var points = new ArrayList<ShapePoint>();
      for (int i = 0; i < sorted.size(); i++) {
        points.add(new ShapePoint(sorted.get(i), s.get(i)));
      }
      return points;
    }));
  }

  @Provide
  Arbitrary<List<ScoredResource>> resources() {
    return ScorerFixtures.weightedResources();
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return ScorerFixtures.resourcePods();
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return ScorerFixtures.resourceNodes();
  }

  @Provide
  Arbitrary<Long> scales() {
    return ScorerFixtures.scales();
  }

  @Property
  @Label("preparing the scorer first, as kube's PreScore, gives the same scores as scoring directly")
  void preparedAgreesWithUnprepared(
      @ForAll("shapes") List<ShapePoint> shape,
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("nodes") NodeInfo other) {
    var scorer = new RequestedToCapacityRatioScorer(shape, resources);
    var nodes = List.of(node, other);

    var scores = ScorerFixtures.scores(scorer, pod, nodes);
    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), scores);
    Statistics.label("scores").collect(scores.contains(0L) ? "some 0" : "none 0");
    Statistics.label("scores").coverage(c -> c.check("none 0").count(n -> n > 0));
  }
}
