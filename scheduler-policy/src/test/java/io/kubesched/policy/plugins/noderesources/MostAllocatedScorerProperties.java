package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.noderesources.LeastAllocatedScorerProperties.resourceNode;
import static io.kubesched.policy.plugins.noderesources.LeastAllocatedScorerProperties.resourcePod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/** Laws of the MostAllocated score. */
class MostAllocatedScorerProperties {

  @Property
  @Label("scores lie in 0..100")
  void scoresLieInRange(
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node) {
    long score = new MostAllocatedScorer(resources).score(pod, node);

    assertTrue(score >= 0 && score <= 100, "score " + score);
    Statistics.label("score").collect(score == 0 ? "0" : score == 100 ? "100" : "between");
    Statistics.label("score").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("100").count(n -> n > 0);
      c.check("between").count(n -> n > 0);
    });
  }

  @Property
  @Label("placing another pod on the node never lowers the score")
  void anotherPodNeverLowersTheScore(
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("pods") PodInfo other) {
    var scorer = new MostAllocatedScorer(resources);
    long before = scorer.score(pod, node);
    long after = scorer.score(pod, node.withPod(other));

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
      @ForAll @LongRange(min = 1, max = 1000) long cpu,
      @ForAll @LongRange(min = 1, max = 1000) long memory,
      @ForAll @LongRange(max = 1000) long podCpu,
      @ForAll @LongRange(max = 1000) long podMemory,
      @ForAll @LongRange(max = 1000) long usedCpu,
      @ForAll @LongRange(max = 1000) long usedMemory,
      @ForAll("scales") long k) {
    var scorer = new MostAllocatedScorer();
    long small = scorer.score(resourcePod(podCpu, podMemory), resourceNode(cpu, memory, usedCpu, usedMemory));
    long scaled = scorer.score(
        resourcePod(podCpu * k, podMemory * k), resourceNode(cpu * k, memory * k, usedCpu * k, usedMemory * k));

    assertEquals(small, scaled);
    Statistics.label("scale").collect(cpu * k > Long.MAX_VALUE / 100 ? "beyond int64 times 100" : "ordinary");
    Statistics.label("scale").coverage(c -> c.check("beyond int64 times 100").count(n -> n > 0));
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
      @ForAll("resources") List<ScoredResource> resources,
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("nodes") NodeInfo other) {
    var scorer = new MostAllocatedScorer(resources);
    var nodes = List.of(node, other);

    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), ScorerFixtures.scores(scorer, pod, nodes));
    Statistics.label("scores").collect(node.equals(other) ? "same node twice" : "two nodes");
    Statistics.label("scores").coverage(c -> c.check("two nodes").count(n -> n > 0));
  }
}
