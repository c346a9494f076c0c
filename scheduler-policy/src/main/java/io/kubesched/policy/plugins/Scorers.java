package io.kubesched.policy.plugins;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.dynamicresources.DynamicResourcesScorer;
import io.kubesched.policy.plugins.imagelocality.ImageLocalityScorer;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityScorer;
import io.kubesched.policy.plugins.nodelabel.NodeLabelScorer;
import io.kubesched.policy.plugins.noderesources.BalancedAllocationScorer;
import io.kubesched.policy.plugins.noderesources.LeastAllocatedScorer;
import io.kubesched.policy.plugins.noderesources.MostAllocatedScorer;
import io.kubesched.policy.plugins.noderesources.RequestedToCapacityRatioScorer;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadScorer;
import io.kubesched.policy.plugins.selectorspread.SelectorSpreadScorer;
import io.kubesched.policy.plugins.tainttoleration.TaintTolerationScorer;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The built-in scorers, each with kube-scheduler's semantics, and kube-scheduler's default set of them.
 *
 * <p>Every method returns a new, immutable, thread-safe scorer. Where kube has a {@code PreScore}, the scorer is
 * a {@link PreScorer} too; the {@code SelectorSpread} and {@code ImageLocality} scorers
 * score only through {@link PreScorer#prepare}, the others also directly. Whoever runs a
 * prepared scorer must ask it, not the scorer it came from, whether it is a {@link
 * ScoreNormalizer} (the prepared scorers of normalising scorers are).
 *
 * <p>Each method returns the plugin as a {@link Scorer}; what else it is (a {@code PreScorer}, a {@code
 * ScoreNormalizer}) the policy finds out for itself. The plugins' classes live in packages of their own that
 * the module does not export: they are not API.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class Scorers {

  private Scorers() {}

  /**
   * kube-scheduler's default profile (v1 {@code default_plugins.go}), restricted to the scores this library
   * implements, in kube's order and with kube's weights: {@code TaintToleration} 3, {@code NodeAffinity} 2,
   * {@code NodeResourcesFit} (LeastAllocated over CPU and memory) 1, {@code VolumeBinding} (storage capacity
   * scoring, on by default since 1.37) 1, {@code PodTopologySpread} (system default constraints) 2, {@code
   * InterPodAffinity} 2, {@code DynamicResources} (prioritized lists) 2, {@code NodeResourcesBalancedAllocation} 1,
   * {@code ImageLocality} 1.
   *
   * @return the weighted scorers, a new immutable list
   */
  public static List<WeightedScorer> defaults() {
    return List.of(
        new WeightedScorer(taintToleration(), 3),
        new WeightedScorer(nodeAffinity(), 2),
        new WeightedScorer(leastAllocated(), 1),
        new WeightedScorer(volumeBinding(), 1),
        new WeightedScorer(podTopologySpread(), 2),
        new WeightedScorer(interPodAffinity(), 2),
        new WeightedScorer(dynamicResources(), 2),
        new WeightedScorer(balancedAllocation(), 1),
        new WeightedScorer(imageLocality(), 1));
  }

  /**
   * @return kube-scheduler's {@code VolumeBinding} score with its default shape: nodes where the pod's volumes
   *     leave more of a storage class's capacity free score higher
   */
  public static Scorer volumeBinding() {
    return new VolumeBindingScorer();
  }

  /**
   * @return kube-scheduler's {@code DynamicResources} score: nodes where the pod's prioritized-list requests get an
   *     earlier alternative score higher
   */
  public static Scorer dynamicResources() {
    return new DynamicResourcesScorer();
  }

  /** @return {@link LeastAllocatedScorer} over CPU and memory, weight 1 each */
  public static Scorer leastAllocated() {
    return new LeastAllocatedScorer();
  }

  /**
   * @return {@link LeastAllocatedScorer} over {@code resources}
   * @throws IllegalArgumentException if {@code resources} is empty
   */
  public static Scorer leastAllocated(List<ScoredResource> resources) {
    return new LeastAllocatedScorer(resources);
  }

  /** @return {@link MostAllocatedScorer} over CPU and memory, weight 1 each */
  public static Scorer mostAllocated() {
    return new MostAllocatedScorer();
  }

  /**
   * @return {@link MostAllocatedScorer} over {@code resources}
   * @throws IllegalArgumentException if {@code resources} is empty
   */
  public static Scorer mostAllocated(List<ScoredResource> resources) {
    return new MostAllocatedScorer(resources);
  }

  /**
   * @return {@link RequestedToCapacityRatioScorer} with {@code shape} over {@code resources}
   * @throws IllegalArgumentException if {@code shape} is empty or not strictly increasing in utilization, or
   *     {@code resources} is empty
   */
  public static Scorer requestedToCapacityRatio(
      List<ShapePoint> shape, List<ScoredResource> resources) {
    return new RequestedToCapacityRatioScorer(shape, resources);
  }

  /** @return {@link BalancedAllocationScorer} over CPU and memory */
  public static Scorer balancedAllocation() {
    return new BalancedAllocationScorer();
  }

  /**
   * @return {@link BalancedAllocationScorer} over {@code resources}
   * @throws IllegalArgumentException if {@code resources} is empty, repeats a resource or has a weight other
   *     than 1
   */
  public static Scorer balancedAllocation(List<ScoredResource> resources) {
    return new BalancedAllocationScorer(resources);
  }

  /** @return {@link NodeAffinityScorer} of the pod's own preferred terms */
  public static Scorer nodeAffinity() {
    return new NodeAffinityScorer();
  }

  /**
   * @return {@link NodeAffinityScorer} that also scores {@code addedPreferred} for every pod
   * @throws IllegalArgumentException if a term's weight is outside 1..100
   */
  public static Scorer nodeAffinity(List<PreferredSchedulingTerm> addedPreferred) {
    return new NodeAffinityScorer(addedPreferred);
  }

  /** @return {@link TaintTolerationScorer} */
  public static Scorer taintToleration() {
    return new TaintTolerationScorer();
  }

  /**
   * @return {@link NodeLabelScorer} favouring nodes that have {@code label} ({@code presence}) or lack it
   * @throws IllegalArgumentException if {@code label} is empty
   */
  public static Scorer nodeLabel(String label, boolean presence) {
    return new NodeLabelScorer(label, presence);
  }

  /** @return {@link SelectorSpreadScorer} */
  public static Scorer selectorSpread() {
    return new SelectorSpreadScorer();
  }

  /** @return {@link PodTopologySpreadScorer} with the system default constraints */
  public static Scorer podTopologySpread() {
    return new PodTopologySpreadScorer();
  }

  /** @return {@link PodTopologySpreadScorer} with these arguments */
  public static Scorer podTopologySpread(PodTopologySpreadArgs args) {
    return new PodTopologySpreadScorer(args);
  }

  /** @return {@link InterPodAffinityScorer} with kube's defaults (hard pod affinity weight 1) */
  public static Scorer interPodAffinity() {
    return new InterPodAffinityScorer();
  }

  /**
   * @return {@link InterPodAffinityScorer} with kube's {@code InterPodAffinityArgs}
   * @throws IllegalArgumentException if {@code hardPodAffinityWeight} is outside 0..100
   */
  public static Scorer interPodAffinity(
      int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods) {
    return new InterPodAffinityScorer(hardPodAffinityWeight, ignorePreferredTermsOfExistingPods);
  }

  /** @return {@link ImageLocalityScorer} */
  public static Scorer imageLocality() {
    return new ImageLocalityScorer();
  }
}
