package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.noderesources.BalancedAllocationScorer;
import io.kubesched.policy.plugins.noderesources.LeastAllocatedScorer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The factory of built-in scorers, and kube-scheduler's default profile (v1 default_plugins.go, 1.37). */
class ScorersTest {

  @Test
  void the_defaults_are_kube_schedulers_default_scores_that_we_implement_with_its_weights() {
    var defaults = Scorers.defaults();
    var namesAndWeights = defaults.stream()
        .map(w -> Map.entry(w.scorer().name(), w.weight()))
        .toList();
    assertEquals(List.of(
        Map.entry("TaintToleration", 3),
        Map.entry("NodeAffinity", 2),
        Map.entry("NodeResourcesLeastAllocated", 1),
        Map.entry("VolumeBinding", 1),
        Map.entry("PodTopologySpread", 2),
        Map.entry("InterPodAffinity", 2),
        Map.entry("DynamicResources", 2),
        Map.entry("NodeResourcesBalancedAllocation", 1),
        Map.entry("ImageLocality", 1)), namesAndWeights);
  }

  @Test
  void the_default_resource_scores_look_at_cpu_and_memory_with_weight_1() {
    var fit = assertInstanceOf(LeastAllocatedScorer.class, Scorers.defaults().get(2).scorer());
    var balanced = assertInstanceOf(BalancedAllocationScorer.class, Scorers.defaults().get(7).scorer());
    var cpuAndMemory = List.of(new ScoredResource("cpu", 1), new ScoredResource("memory", 1));
    assertEquals(cpuAndMemory, fit.resources());
    assertEquals(cpuAndMemory, balanced.resources());
  }

  @Test
  void each_factory_method_returns_the_scorer_it_names() {
    var shape = List.of(new ShapePoint(0, 0));
    assertEquals(List.of(
            "NodeResourcesLeastAllocated", "NodeResourcesLeastAllocated", "NodeResourcesMostAllocated",
            "NodeResourcesMostAllocated", "RequestedToCapacityRatio", "NodeResourcesBalancedAllocation",
            "NodeResourcesBalancedAllocation", "NodeAffinity", "NodeAffinity", "TaintToleration", "NodeLabel",
            "SelectorSpread", "ImageLocality", "PodTopologySpread", "PodTopologySpread", "InterPodAffinity",
            "InterPodAffinity"),
        List.of(
            Scorers.leastAllocated(), Scorers.leastAllocated(ScoredResource.defaults()), Scorers.mostAllocated(),
            Scorers.mostAllocated(ScoredResource.defaults()),
            Scorers.requestedToCapacityRatio(shape, ScoredResource.defaults()), Scorers.balancedAllocation(),
            Scorers.balancedAllocation(ScoredResource.defaults()), Scorers.nodeAffinity(),
            Scorers.nodeAffinity(List.of()), Scorers.taintToleration(), Scorers.nodeLabel("l", true),
            Scorers.selectorSpread(), Scorers.imageLocality(), Scorers.podTopologySpread(),
            Scorers.podTopologySpread(PodTopologySpreadArgs.list(List.of())), Scorers.interPodAffinity(),
            Scorers.interPodAffinity(5, true))
            .stream().map(Scorer::name).toList());
  }

  @Test
  void a_weighted_scorer_needs_a_weight_of_at_least_1() {
    var e = assertThrows(IllegalArgumentException.class, () -> new WeightedScorer(Scorers.taintToleration(), 0));
    assertEquals("weight of scorer TaintToleration must be at least 1, was 0", e.getMessage());
    assertEquals(1, new WeightedScorer(Scorers.taintToleration(), 1).weight());
  }

  @Test
  void a_weighted_scorer_needs_a_scorer() {
    var e = assertThrows(NullPointerException.class, () -> new WeightedScorer(nullScorer(), 1));
    assertEquals("scorer must not be null", e.getMessage());
  }

  private static Scorer nullScorer() {
    return null;
  }
}
