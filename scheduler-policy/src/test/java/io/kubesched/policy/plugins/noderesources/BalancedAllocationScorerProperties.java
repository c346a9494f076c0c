package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.ScorerFixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/** Laws of the BalancedAllocation score (kube 1.37: the change in balance the pod brings). */
class BalancedAllocationScorerProperties {

  static PodInfo plainPod(long milliCpu, long memory) {
    return PodInfo.builder("default", "p").requests(Resources.of(milliCpu, memory)).build();
  }

  @Property
  @Label("a pod requesting nothing scores 0, any other pod 50..100")
  void scoresLieInRange(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    long score = new BalancedAllocationScorer().score(pod, node);

    boolean bestEffort = pod.requests().milliCpu() == 0 && pod.requests().memory() == 0;
    if (bestEffort) {
      assertEquals(0, score);
    } else {
      assertTrue(score >= 50 && score <= 100, "score " + score);
    }
    Statistics.label("balance")
        .collect(bestEffort ? "skipped" : score > 75 ? "improved" : score == 75 ? "unchanged" : "worsened");
    Statistics.label("balance").coverage(c -> {
      c.check("skipped").count(n -> n > 0);
      c.check("improved").count(n -> n > 0);
      c.check("unchanged").count(n -> n > 0);
      c.check("worsened").count(n -> n > 0);
    });
  }

  @Property
  @Label("a node's balance is 100 when its fractions are equal: exactly for two, within kube's rounding for more")
  void equalFractionsAreBalanced(
      @ForAll @LongRange(min = 1, max = 1000) long denominator,
      @ForAll @LongRange(max = 2000) long numerator,
      @ForAll @Size(min = 1, max = 5) List<@LongRange(min = 0, max = 1_000_000) Long> multiples) {
    // Resource i offers denominator * m_i and has numerator * m_i requested: every fraction is the same
    // rational, so the same double; a multiple of 0 is a resource the node does not offer.
    var amounts = new long[multiples.size()];
    var allocatable = new long[multiples.size()];
    for (int i = 0; i < amounts.length; i++) {
      amounts[i] = numerator * multiples.get(i);
      allocatable[i] = denominator * multiples.get(i);
    }

    long offered = multiples.stream().filter(m -> m > 0).count();
    long balance = ResourceAllocation.balance(amounts, allocatable);
    if (offered <= 2) {
      assertEquals(100, balance);
    } else {
      // kube sums the fractions before dividing by their count: the mean can be an ulp off the fraction,
      // which leaves a tiny deviation and truncates (1 - std) * 100 to 99 (Go does the same, e.g. 5 × 8/9)
      assertTrue(balance == 100 || balance == 99, "balance " + balance);
    }
    Statistics.label("resources offered").collect(offered < 3 ? offered : "3 or more");
    Statistics.label("fraction").collect(numerator > denominator ? "over 1, capped" : "at most 1");
    Statistics.label("resources offered").coverage(c -> {
      c.check(2L).count(n -> n > 0);
      c.check("3 or more").count(n -> n > 0);
    });
    Statistics.label("fraction").coverage(c -> c.check("over 1, capped").count(n -> n > 0));
  }

  @Property
  @Label("a pod in the node's own proportions scores 75: the balance does not change")
  void proportionalPodScores75(
      @ForAll @LongRange(min = 1, max = 100_000) long cpuUnit,
      @ForAll @LongRange(min = 1, max = 100_000) long memoryUnit,
      @ForAll @IntRange(min = 1, max = 100) int units,
      @ForAll @IntRange(max = 100) int usedUnits,
      @ForAll @IntRange(min = 1, max = 100) int podUnits) {
    var used = plainPod(cpuUnit * usedUnits, memoryUnit * usedUnits);
    var node = node("n", cpuUnit * units, memoryUnit * units, List.of(used));
    var pod = plainPod(cpuUnit * podUnits, memoryUnit * podUnits);

    assertEquals(75, new BalancedAllocationScorer().score(pod, node));
    Statistics.label("fit").collect(usedUnits + podUnits > units ? "over capacity" : "fits");
    Statistics.label("fit").coverage(c -> {
      c.check("over capacity").count(n -> n > 0);
      c.check("fits").count(n -> n > 0);
    });
  }

  @Property
  @Label("fractions are capped at 1: any CPU request that fills the node scores the same")
  void requestsBeyondCapacityAreCapped(
      @ForAll @LongRange(min = 1, max = 10_000) long cpu,
      @ForAll @LongRange(min = 1, max = 10_000) long memory,
      @ForAll @LongRange(max = 10_000) long usedCpu,
      @ForAll @LongRange(max = 10_000) long podMemory,
      @ForAll @LongRange(max = 10_000) long extra1,
      @ForAll @LongRange(max = 10_000) long extra2) {
    var node = node("n", cpu, memory, List.of(plainPod(usedCpu, 0)));
    long filling = Math.max(1, cpu - usedCpu);
    var scorer = new BalancedAllocationScorer();

    assertEquals(
        scorer.score(plainPod(filling + extra1, podMemory), node),
        scorer.score(plainPod(filling + extra2, podMemory), node));
    Statistics.label("node").collect(usedCpu >= cpu ? "already full" : "room left");
    Statistics.label("node").coverage(c -> {
      c.check("already full").count(n -> n > 0);
      c.check("room left").count(n -> n > 0);
    });
  }

  @Property
  @Label("a pod that fills one resource of an empty node and takes none of the other scores 50")
  void fillingOneResourceIsWorstBalance(
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long cpu,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long memory,
      @ForAll boolean fillCpu) {
    var pod = fillCpu ? plainPod(cpu, 0) : plainPod(0, memory);

    assertEquals(50, new BalancedAllocationScorer().score(pod, node("n", cpu, memory)));
    Statistics.label("filled").collect(fillCpu ? "cpu" : "memory");
    Statistics.label("filled").coverage(c -> {
      c.check("cpu").count(n -> n > 0);
      c.check("memory").count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return ScorerFixtures.resourcePods();
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return ScorerFixtures.resourceNodes();
  }

  @Property
  @Label("preparing the scorer first, as kube's PreScore, gives the same scores as scoring directly")
  void preparedAgreesWithUnprepared(
      @ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node, @ForAll("nodes") NodeInfo other) {
    var scorer = new BalancedAllocationScorer();
    var nodes = List.of(node, other);

    var scores = ScorerFixtures.scores(scorer, pod, nodes);
    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), scores);
    Statistics.label("pod").collect(scores.equals(List.of(0L, 0L)) ? "skipped" : "scored");
    Statistics.label("pod").coverage(c -> {
      c.check("skipped").count(n -> n > 0);
      c.check("scored").count(n -> n > 0);
    });
  }

  @Property
  @Label("the score, computed in place per node, is kube's formula over the arrays of amounts and allocatable")
  void scoreIsTheFormulaOverArrays(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var resources = List.of(
        ScoredResource.of(ScoredResource.CPU),
        ScoredResource.of(ScoredResource.MEMORY),
        ScoredResource.of(ScoredResource.EPHEMERAL_STORAGE),
        ScoredResource.of(ScorerFixtures.GPU));
    // What kube's calculateNodeAllocatableRequest gives, resource by resource; an extended resource the pod
    // does not request is skipped like one the node does not offer.
    long[] podRequests = {
      pod.requests().milliCpu(),
      pod.requests().memory(),
      pod.requests().ephemeralStorage(),
      pod.requests().extended(ScorerFixtures.GPU)
    };
    long[] allocated = {
      node.requested().milliCpu(),
      node.requested().memory(),
      node.requested().ephemeralStorage(),
      node.requested().extended(ScorerFixtures.GPU)
    };
    long[] allocatable = {
      node.allocatable().milliCpu(),
      node.allocatable().memory(),
      node.allocatable().ephemeralStorage(),
      podRequests[3] == 0 ? 0 : node.allocatable().extended(ScorerFixtures.GPU)
    };
    var requested = new long[4];
    for (int i = 0; i < 4; i++) {
      long sum = allocated[i] + podRequests[i];
      requested[i] = sum < 0 ? Long.MAX_VALUE : sum;
    }
    boolean nothing = Arrays.stream(podRequests).allMatch(amount -> amount == 0);
    long expected = nothing
        ? 0
        : 50 + (50 + ResourceAllocation.balance(requested, allocatable)
            - ResourceAllocation.balance(allocated, allocatable)) / 2;

    assertEquals(expected, new BalancedAllocationScorer(resources).score(pod, node));
    long offered = Arrays.stream(allocatable).filter(amount -> amount != 0).count();
    Statistics.label("resources counted").collect(nothing ? "pod skipped" : offered < 3 ? offered : "3");
    Statistics.label("resources counted").coverage(c -> {
      c.check("pod skipped").count(n -> n > 0);
      c.check(2L).count(n -> n > 0);
      c.check("3").count(n -> n > 0);
    });
  }
}
