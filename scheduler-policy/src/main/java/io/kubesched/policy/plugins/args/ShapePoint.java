package io.kubesched.policy.plugins.args;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;


/**
 * A point of a scoring function of utilization, kube-scheduler's {@code UtilizationShapePoint}: the shape of
 * {@link io.kubesched.policy.plugins.Scorers#requestedToCapacityRatio} and of the volume binding scorer's capacity
 * scoring. Points are joined by straight lines and the function is flat beyond the first and last point.
 *
 * @param utilization a utilization in percent, 0..{@value #MAX_UTILIZATION}
 * @param score the score at that utilization, 0..{@value #MAX_SHAPE_SCORE}
 */
@API(status = MAINTAINED, since = "0.1.0")
public record ShapePoint(int utilization, int score) {

  /** The highest score of a shape point, kube-scheduler's {@code MaxCustomPriorityScore}. */
  public static final int MAX_SHAPE_SCORE = 10;

  /** The highest utilization of a shape point. */
  public static final int MAX_UTILIZATION = 100;

  /** @throws IllegalArgumentException if either value is out of its range */
  public ShapePoint {
    if (utilization < 0 || utilization > MAX_UTILIZATION) {
      throw new IllegalArgumentException(
          "shape point utilization must be in 0.." + MAX_UTILIZATION + ", was " + utilization);
    }
    if (score < 0 || score > MAX_SHAPE_SCORE) {
      throw new IllegalArgumentException(
          "shape point score must be in 0.." + MAX_SHAPE_SCORE + ", was " + score);
    }
  }
}
