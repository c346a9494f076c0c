package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.node;
import static io.kubesched.policy.plugins.ScorerFixtures.withoutDefaults;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/** Laws of the LeastAllocated score, stated without its formula where possible. */
class LeastAllocatedScorerProperties {

  @Property
  @Label("scores lie in 0..100")
  void scoresLieInRange(
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node) {
    long score = new LeastAllocatedScorer(resources).score(pod, node);

    assertTrue(score >= 0 && score <= 100, "score " + score);
    Statistics.label("score").collect(score == 0 ? "0" : score == 100 ? "100" : "between");
    Statistics.label("score").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("100").count(n -> n > 0);
      c.check("between").count(n -> n > 0);
    });
  }

  @Property
  @Label("placing another pod on the node never raises the score")
  void anotherPodNeverRaisesTheScore(
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("pods") PodInfo other) {
    var scorer = new LeastAllocatedScorer(resources);
    long before = scorer.score(pod, node);
    long after = scorer.score(pod, node.withPod(other));

    assertTrue(after <= before, before + " then " + after);
    Statistics.label("change").collect(after < before ? "lower" : "same");
    Statistics.label("change").coverage(c -> {
      c.check("lower").count(n -> n > 0);
      c.check("same").count(n -> n > 0);
    });
  }

  @Property
  @Label("least and most allocated of one resource add up to 100, or 99 when the used share is no whole percent")
  void leastAndMostAreComplementary(@ForAll("capacities") long capacity, @ForAll("shares") double share) {
    long requested = Math.min(capacity, (long) Math.floor(share * capacity));
    var pod = withoutDefaults(PodInfo.builder("default", "p").requests(Resources.of(requested, 0)).build());
    var node = node("n", capacity, 0);
    var cpu = List.of(ScoredResource.of("cpu"));

    long sum = new LeastAllocatedScorer(cpu).score(pod, node) + new MostAllocatedScorer(cpu).score(pod, node);

    boolean wholePercent = BigInteger.valueOf(requested).multiply(BigInteger.valueOf(100))
        .mod(BigInteger.valueOf(capacity)).signum() == 0;
    assertEquals(wholePercent ? 100 : 99, sum);
    Statistics.label("share").collect(wholePercent ? "whole percent" : "fraction of a percent");
    Statistics.label("size").collect(capacity > Long.MAX_VALUE / 100 ? "beyond int64 times 100" : "ordinary");
    Statistics.label("share").coverage(c -> {
      c.check("whole percent").count(n -> n > 0);
      c.check("fraction of a percent").count(n -> n > 0);
    });
    Statistics.label("size").coverage(c -> c.check("beyond int64 times 100").count(n -> n > 0));
  }

  @Property
  @Label("scores do not change when every quantity is scaled, even close to Long.MAX_VALUE")
  void scoresAreScaleInvariant(
      @ForAll @LongRange(min = 1, max = 1000) long cpu,
      @ForAll @LongRange(min = 1, max = 1000) long memory,
      @ForAll @LongRange(max = 1000) long podCpu,
      @ForAll @LongRange(max = 1000) long podMemory,
      @ForAll @LongRange(max = 1000) long usedCpu,
      @ForAll @LongRange(max = 1000) long usedMemory,
      @ForAll("scales") long k) {
    var scorer = new LeastAllocatedScorer();
    long small = scorer.score(resourcePod(podCpu, podMemory), resourceNode(cpu, memory, usedCpu, usedMemory));
    long scaled = scorer.score(
        resourcePod(podCpu * k, podMemory * k), resourceNode(cpu * k, memory * k, usedCpu * k, usedMemory * k));

    assertEquals(small, scaled);
    Statistics.label("scale").collect(cpu * k > Long.MAX_VALUE / 100 ? "beyond int64 times 100" : "ordinary");
    Statistics.label("scale").coverage(c -> {
      c.check("beyond int64 times 100").count(n -> n > 0);
      c.check("ordinary").count(n -> n > 0);
    });
  }

  static PodInfo resourcePod(long milliCpu, long memory) {
    return withoutDefaults(PodInfo.builder("default", "p").requests(Resources.of(milliCpu, memory)).build());
  }

  static NodeInfo resourceNode(long milliCpu, long memory, long usedCpu, long usedMemory) {
    return node("n", milliCpu, memory, List.of(resourcePod(usedCpu, usedMemory)));
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
  Arbitrary<Long> capacities() {
    return ScorerFixtures.amounts().filter(amount -> amount > 0);
  }

  @Provide
  Arbitrary<Double> shares() {
    return Arbitraries.oneOf(
        Arbitraries.of(0.0, 0.25, 0.5, 1.0), Arbitraries.doubles().between(0, 1));
  }

  /** Factors from 1 up to the largest that keeps quantities of up to 2000 within a long. */
  @Provide
  Arbitrary<Long> scales() {
    return ScorerFixtures.scales();
  }

  @Property
  @Label("preparing the scorer first, as kube's PreScore, gives the same scores as scoring directly")
  void preparedAgreesWithUnprepared(
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("nodes") NodeInfo other) {
    var scorer = new LeastAllocatedScorer(resources);
    var nodes = List.of(node, other);

    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), ScorerFixtures.scores(scorer, pod, nodes));
    Statistics.label("scores").collect(node.equals(other) ? "same node twice" : "two nodes");
    Statistics.label("scores").coverage(c -> c.check("two nodes").count(n -> n > 0));
  }
}
