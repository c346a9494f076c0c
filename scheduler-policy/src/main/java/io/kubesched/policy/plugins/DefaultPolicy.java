package io.kubesched.policy.plugins;

import io.kubesched.policy.Policy;

/**
 * kube-scheduler's default profile as far as this library implements it: the filters of {@link
 * Filters#defaults()}, the scorers of {@link Scorers#defaults()} with kube's weights, the adaptive percentage
 * of nodes to score. It reads namespaces (pod affinity's namespace selectors) and the selectors of Services,
 * ReplicationControllers, ReplicaSets and StatefulSets (system default topology spreading): see {@link
 * Policy#reads()}, and the storage objects (claims, volumes, storage classes, CSI nodes, drivers and
 * capacities) for volume binding, zones and attach limits. What it leaves out (dynamic resources,
 * preemption) is listed in docs/policy.md; the controller refuses pods that need those.
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
