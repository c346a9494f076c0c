package io.kubesched.policy;

/**
 * A scorer with the weight its scores are multiplied by before they are summed, as a score plugin's weight
 * in a kube-scheduler profile.
 *
 * @param scorer the scorer
 * @param weight its weight, at least 1
 */
public record WeightedScorer(Scorer scorer, int weight) {

  /** @throws IllegalArgumentException if {@code weight} is not positive */
  public WeightedScorer {
    if (weight < 1) {
      throw new IllegalArgumentException(
          "weight of scorer " + scorer.name() + " must be at least 1, was " + weight);
    }
  }
}
