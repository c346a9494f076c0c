package io.kubesched.policy.plugins.helper;

import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ShapePoint;
import java.util.List;

/**
 * A scoring function of utilization given by shape points joined by straight lines, flat beyond the first and
 * last point, with shape scores 0..10 scaled to 0..100: kube's {@code helper.BuildBrokenLinearFunction}, which
 * both {@link io.kubesched.policy.plugins.noderesources.RequestedToCapacityRatioScorer} and {@link
 * io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer} score with. Immutable.
 */
public final class ScoringShape {

  private final List<ShapePoint> points;
  private final long[] utilizations;
  private final long[] scores;

  /**
   * @param plugin the scorer's name, for the messages
   * @throws IllegalArgumentException if {@code points} is empty or not strictly increasing in utilization
   */
  public ScoringShape(String plugin, List<ShapePoint> points) {
    if (points.isEmpty()) {
      throw new IllegalArgumentException(plugin + " needs at least one shape point");
    }
    this.points = List.copyOf(points);
    this.utilizations = new long[points.size()];
    this.scores = new long[points.size()];
    for (int i = 0; i < points.size(); i++) {
      var point = points.get(i);
      if (i > 0 && point.utilization() <= points.get(i - 1).utilization()) {
        throw new IllegalArgumentException(
            plugin + " shape points must be in strictly increasing utilization, but point " + i
                + " has utilization " + point.utilization() + " after " + points.get(i - 1).utilization());
      }
      utilizations[i] = point.utilization();
      scores[i] = (long) point.score() * (Scorer.MAX_SCORE / ShapePoint.MAX_SHAPE_SCORE);
    }
  }

  /** @return the points, as given (scores 0..10) */
  public List<ShapePoint> points() {
    return points;
  }

  /** @return the score 0..100 at {@code utilization} (in percent) */
  public long score(long utilization) {
    return brokenLinear(utilizations, scores, utilization);
  }

  /** kube's broken linear function over the points {@code (utilizations[i], scores[i])}, at {@code p}. */
  public static long brokenLinear(long[] utilizations, long[] scores, long p) {
    for (int i = 0; i < utilizations.length; i++) {
      if (p <= utilizations[i]) {
        if (i == 0) {
          return scores[0];
        }
        return scores[i - 1]
            + (scores[i] - scores[i - 1]) * (p - utilizations[i - 1])
                / (utilizations[i] - utilizations[i - 1]);
      }
    }
    return scores[scores.length - 1];
  }
}
