package io.kubesched.policy.plugins.noderesources;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.List;

/**
 * Favours nodes whose resources the pod leaves better balanced: kube-scheduler's {@code
 * NodeResourcesBalancedAllocation} plugin as of 1.37 (formerly {@code BalancedResourceAllocation}).
 *
 * <p>For each resource the node offers, the fraction {@code requested / allocatable} is taken, capped at 1; a
 * node's balance is {@code (1 - std) * 100} truncated, {@code std} being the population standard deviation of
 * the fractions (for two resources {@code |f1 - f2| / 2}). The score compares the balance with the pod
 * ({@code withPod}) and without it ({@code withoutPod}): {@code 50 + (50 + withPod - withoutPod) / 2}, so 75
 * when the pod does not change the balance, up to 100 when it evens the node out, down to 50 when it skews it.
 *
 * <p>Unlike the other resource scores, this one reads what pods actually {@linkplain PodInfo#requests()
 * request}, without the non-zero defaults. A pod that requests none of the scored resources is skipped by kube
 * (to avoid piling best-effort pods onto one node); here it scores 0 on every node, which ranks nodes the same.
 * A resource the node has none of is skipped, and so is an extended resource the pod does not request.
 *
 * <p>Scores lie in {@code 50..}{@link Scorer#MAX_SCORE}, or 0 for such a pod; no normalisation. As kube's
 * {@code PreScore}, {@link #prepare} computes the pod's requests once; {@link #score} computes them itself,
 * with the same result. Immutable and thread-safe, and so are the scorers it prepares.
 */
public final class BalancedAllocationScorer implements Scorer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "NodeResourcesBalancedAllocation";

  /** What a skipped plugin adds to every node's total. */
  private static final Scorer SKIPPED = new Scorer() {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return 0;
    }
  };

  private final ResourceAllocation allocation;

  /** A scorer of CPU and memory, as kube-scheduler's default profile. */
  public BalancedAllocationScorer() {
    this(ScoredResource.defaults());
  }

  /**
   * @param resources the resources to balance; weights must be 1, as kube-scheduler validates (the formula has
   *     no use for weights)
   * @throws IllegalArgumentException if {@code resources} is empty, names a resource twice or has a weight
   *     other than 1
   */
  public BalancedAllocationScorer(List<ScoredResource> resources) {
    ResourceAllocation.requireDistinct(NAME, resources);
    for (var resource : resources) {
      if (resource.weight() != 1) {
        throw new IllegalArgumentException(
            NAME + " weight of resource " + resource.name() + " must be 1, was " + resource.weight());
      }
    }
    this.allocation = ResourceAllocation.plain(NAME, resources);
  }

  /** @return the resources balanced */
  public List<ScoredResource> resources() {
    return allocation.resources();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    long[] podRequests = allocation.podRequests(pod);
    if (ResourceAllocation.requestsNothing(podRequests)) {
      return 0;
    }
    return allocation.balancedAllocation(podRequests, node);
  }

  /**
   * @return a scorer of {@code pod} on any node, with the pod's requests computed once; for a pod requesting
   *     none of the resources, one that scores every node 0 (kube skips the plugin for such a pod)
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    if (ResourceAllocation.requestsNothing(allocation.podRequests(pod))) {
      return SKIPPED;
    }
    return allocation.prepare(NAME, pod, allocation::balancedAllocation);
  }
}
