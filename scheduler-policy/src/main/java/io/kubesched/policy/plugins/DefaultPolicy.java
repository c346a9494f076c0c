package io.kubesched.policy.plugins;

import io.kubesched.policy.Policy;

/**
 * kube-scheduler's default profile as far as this library implements it: the filters of {@link
 * Filters#defaults()}, the scorers of {@link Scorers#defaults()} with kube's weights, the adaptive percentage
 * of nodes to score. What it leaves out (inter-pod affinity, topology spread, volume binding, dynamic
 * resources) is listed in the module's documentation.
 */
public final class DefaultPolicy {

  private DefaultPolicy() {}

  /** @return the default policy, with a random seed for ties */
  public static Policy create() {
    return builder().build();
  }

  /**
   * @return a builder holding the default filters and scorers, to change one thing, e.g. {@code
   *     DefaultPolicy.builder().removeScorer("ImageLocality").seed(42).build()}
   */
  public static Policy.Builder builder() {
    return Policy.builder().filters(Filters.defaults()).scorers(Scorers.defaults());
  }
}
