package io.kubesched.policy.plugins.helper;

import io.kubesched.api.NodeInfo;
import io.kubesched.policy.framework.Scorer;
import java.util.Arrays;
import java.util.List;

/**
 * kube-scheduler's {@code helper.DefaultNormalizeScore}, shared by the scorers that normalise with it, and the
 * check of the normalisers that read the nodes.
 */
public final class DefaultScoreNormalization {

  private DefaultScoreNormalization() {}

  /**
   * Scales {@code scores} in place so that the highest becomes {@link Scorer#MAX_SCORE} ({@code 100 * score /
   * max}, rounded down), then, if {@code reverse}, replaces each by {@code 100 - score}. If no score is above
   * 0, the scores stay as they are, or all become 100 if {@code reverse}.
   */
  public static void normalize(long[] scores, boolean reverse) {
    long max = 0;
    for (long score : scores) {
      max = Math.max(max, score);
    }
    if (max == 0) {
      if (reverse) {
        Arrays.fill(scores, Scorer.MAX_SCORE);
      }
      return;
    }
    for (int i = 0; i < scores.length; i++) {
      long score = Scorer.MAX_SCORE * scores[i] / max;
      scores[i] = reverse ? Scorer.MAX_SCORE - score : score;
    }
  }

  /**
   * @throws IllegalArgumentException naming {@code scorer} if {@code scores} does not hold one score per node of
   *     {@code nodes}
   */
  public static void requireOnePerNode(String scorer, List<NodeInfo> nodes, long[] scores) {
    if (scores.length != nodes.size()) {
      throw new IllegalArgumentException(
          scorer + " was asked to normalise " + scores.length + " scores for " + nodes.size() + " nodes");
    }
  }
}
