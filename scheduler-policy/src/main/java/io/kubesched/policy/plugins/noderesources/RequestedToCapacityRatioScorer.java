package io.kubesched.policy.plugins.noderesources;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.helper.ScoringShape;
import java.util.List;

/**
 * Scores nodes by a user-defined function of their utilization: kube-scheduler's {@code NodeResourcesFit}
 * plugin with the {@code RequestedToCapacityRatio} scoring strategy (formerly the {@code
 * RequestedToCapacityRatio} plugin and {@code RequestedToCapacityRatioPriority}).
 *
 * <p>The function is given as {@linkplain ShapePoint shape points} (utilization 0..100 → score 0..10) joined by
 * straight lines and flat beyond the first and last point; scores are scaled by 10 to 0..100. Per resource,
 * the utilization is {@code requested * 100 / allocatable} in whole percent ({@code requested} being what the
 * node's pods take plus what the pod asks, over {@code allocatable} counting as 100), mapped through the
 * function in integer arithmetic. The node's score is the weighted average of the resources whose mapped score
 * is above 0 (a resource scoring 0 does not count, nor does its weight), rounded half up. CPU and memory count
 * the {@linkplain PodInfo#nonZeroRequests() non-zero requests}. A resource the node has none of is skipped, and
 * so is an extended resource the pod does not request.
 *
 * <p>Scores lie in {@code 0..}{@link Scorer#MAX_SCORE}; no normalisation. As kube's {@code PreScore}, {@link
 * #prepare} computes the pod's requests once; {@link #score} computes them itself, with the same result.
 * Immutable and thread-safe, and so are the scorers it prepares.
 */
public final class RequestedToCapacityRatioScorer implements Scorer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "RequestedToCapacityRatio";

  /** The highest score of a shape point, kube-scheduler's {@code MaxCustomPriorityScore}. */
  public static final int MAX_SHAPE_SCORE = ShapePoint.MAX_SHAPE_SCORE;

  /** The highest utilization of a shape point. */
  public static final int MAX_UTILIZATION = ShapePoint.MAX_UTILIZATION;

  private final ScoringShape shape;
  private final ResourceAllocation allocation;

  /**
   * @param shape the scoring function's points, in strictly increasing utilization
   * @param resources the resources to score and their weights
   * @throws IllegalArgumentException if {@code shape} is empty or not strictly increasing in utilization, or
   *     {@code resources} is empty
   */
  public RequestedToCapacityRatioScorer(List<ShapePoint> shape, List<ScoredResource> resources) {
    this.shape = new ScoringShape(NAME, shape);
    this.allocation = ResourceAllocation.nonZero(NAME, resources);
  }

  /** @return the scoring function's points, as given (scores 0..10) */
  public List<ShapePoint> shape() {
    return shape.points();
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
    return ratio(allocation.podRequests(pod), node);
  }

  /** @return a scorer of {@code pod} on any node, with the pod's requests computed once */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    return allocation.prepare(NAME, pod, this::ratio);
  }

  private long ratio(long[] podRequests, NodeInfo node) {
    return allocation.requestedToCapacityRatio(podRequests, node, shape);
  }
}
