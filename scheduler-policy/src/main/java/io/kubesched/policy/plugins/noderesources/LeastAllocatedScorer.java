package io.kubesched.policy.plugins.noderesources;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.List;

/**
 * Favours nodes with the most room left: kube-scheduler's {@code NodeResourcesFit} plugin with the {@code
 * LeastAllocated} scoring strategy (formerly the {@code NodeResourcesLeastAllocated} plugin, and before that
 * {@code LeastRequestedPriority}).
 *
 * <p>Per resource, {@code (allocatable - requested) * 100 / allocatable} in integer arithmetic (0 if the pod
 * does not fit), where {@code requested} is what the node's pods take plus what the pod asks; the node's score
 * is the weighted average, rounded down. CPU and memory count the {@linkplain PodInfo#nonZeroRequests()
 * non-zero requests}, so pods without requests still spread. A resource the node has none of is skipped, and
 * so is an extended resource the pod does not request.
 *
 * <p>Scores lie in {@code 0..}{@link Scorer#MAX_SCORE}; no normalisation. As kube's {@code PreScore}, {@link
 * #prepare} computes the pod's requests once; {@link #score} computes them itself, with the same result.
 * Immutable and thread-safe, and so are the scorers it prepares.
 */
public final class LeastAllocatedScorer implements Scorer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "NodeResourcesLeastAllocated";

  private final ResourceAllocation allocation;

  /** A scorer of CPU and memory, weight 1 each, as kube-scheduler's default profile. */
  public LeastAllocatedScorer() {
    this(ScoredResource.defaults());
  }

  /**
   * @param resources the resources to score and their weights
   * @throws IllegalArgumentException if {@code resources} is empty
   */
  public LeastAllocatedScorer(List<ScoredResource> resources) {
    this.allocation = ResourceAllocation.nonZero(NAME, resources);
  }

  /** @return the resources scored and their weights */
  public List<ScoredResource> resources() {
    return allocation.resources();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return allocation.leastAllocated(allocation.podRequests(pod), node);
  }

  /** @return a scorer of {@code pod} on any node, with the pod's requests computed once */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    return allocation.prepare(NAME, pod, allocation::leastAllocated);
  }
}
