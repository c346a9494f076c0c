package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A scorer with the weight its normalised scores are multiplied by before the scores of all scorers are
 * summed per node, as a score plugin's {@code weight} in a kube-scheduler profile.
 *
 * @param scorer the scorer
 * @param weight its weight, at least 1
 */
@API(status = MAINTAINED, since = "0.1.0")
public record WeightedScorer(Scorer scorer, int weight) {

  /**
   * @throws NullPointerException if {@code scorer} is null
   * @throws IllegalArgumentException if {@code weight} is less than 1
   */
  public WeightedScorer {
    Objects.requireNonNull(scorer, "scorer must not be null");
    if (weight < 1) {
      throw new IllegalArgumentException(
          "weight of scorer " + scorer.name() + " must be at least 1, was " + weight);
    }
  }
}
