package io.kubesched.policy.plugins;

import io.kubesched.policy.Scorer;
import java.util.Arrays;

/** kube-scheduler's {@code helper.DefaultNormalizeScore}, shared by the scorers that normalise with it. */
final class DefaultScoreNormalization {

  private DefaultScoreNormalization() {}

  /**
   * Scales {@code scores} in place so that the highest becomes {@link Scorer#MAX_SCORE} ({@code 100 * score /
   * max}, rounded down), then, if {@code reverse}, replaces each by {@code 100 - score}. If no score is above
   * 0, the scores stay as they are, or all become 100 if {@code reverse}.
   */
  static void normalize(long[] scores, boolean reverse) {
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
}
