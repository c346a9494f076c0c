package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.testkit.KubeArbitraries;
import io.kubesched.testkit.PolicyContract;
import io.kubesched.testkit.Scenario;
import java.util.List;
import net.jqwik.api.Arbitrary;

/**
 * The default policy keeps the contract users' policies are held to, with its own filters as the judge (each
 * {@link PreFilter} prepared for the pod over the scenario's snapshot, as the policy prepares it), on pods
 * that carry pod affinity, anti-affinity, spread constraints and gates, over nodes with topology labels.
 */
class DefaultPolicyContractProperties implements PolicyContract {

  private static final List<Filter> FILTERS = Filters.defaults();

  @Override
  public FinderFunc policy(long seed) {
    return DefaultPolicy.builder().seed(seed).build();
  }

  @Override
  public boolean feasible(PodInfo pod, NodeInfo node, ClusterSnapshot cluster) {
    for (var filter : FILTERS) {
      var used = filter instanceof PreFilter preFilter ? preFilter.prepare(pod, cluster) : filter;
      if (!used.filter(pod, node).fits()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Arbitrary<Scenario> scenarios() {
    return KubeArbitraries.scenarios()
        .withPods(KubeArbitraries.pods().withPlacementConstraints())
        .withClusters(KubeArbitraries.clusters().withTopology());
  }
}
