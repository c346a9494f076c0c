package io.kubesched.policy;

import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import org.apiguardian.api.API;

/**
 * kube-scheduler's default profile as far as this library implements it: the filters of {@link
 * Filters#defaults()}, the scorers of {@link Scorers#defaults()} with kube's weights, the adaptive percentage
 * of nodes to score, and preemption ({@code DefaultPreemption}) with kube's default {@link
 * PreemptionArgs#DEFAULT}. It reads namespaces (pod affinity's namespace selectors) and the selectors of
 * Services, ReplicationControllers, ReplicaSets and StatefulSets (system default topology spreading): see {@link
 * Policy#reads()}, the storage objects (claims, volumes, storage classes, CSI nodes, drivers and capacities) for
 * volume binding, zones and attach limits, PodDisruptionBudgets for preemption, and ResourceClaims,
 * ResourceSlices, DeviceClasses and DeviceTaintRules for dynamic resource allocation. What it leaves out (node
 * declared features) is listed in docs/policy.md.
 */
@API(status = STABLE, since = "0.1.0")
public final class DefaultPolicy {

  private DefaultPolicy() {}

  /** @return the default policy, with a random seed for ties */
  public static Policy create() {
    return builder().build();
  }

  /**
   * @return a builder holding the default filters, scorers and preemption, to change one thing, e.g. {@code
   *     DefaultPolicy.builder().removeScorer("ImageLocality").seed(42).build()} or {@code
   *     DefaultPolicy.builder().noPreemption().build()}
   */
  public static Policy.Builder builder() {
    return Policy.builder()
        .filters(Filters.defaults())
        .scorers(Scorers.defaults())
        .preemption(PreemptionArgs.DEFAULT);
  }
}
