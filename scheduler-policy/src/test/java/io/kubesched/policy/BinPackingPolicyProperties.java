package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import io.kubesched.testkit.PolicyContract;
import java.util.List;

/**
 * The contract sample of docs/testing.md, run: jqwik checks every rule of {@link PolicyContract} on it, and
 * {@code TestingPageSampleTest} checks that the page shows exactly this class.
 */
// SAMPLE-BEGIN
class BinPackingPolicyProperties implements PolicyContract {
  private static final List<Filter> FILTERS = Filters.defaults();

  @Override
  public FinderFunc policy(long seed) {
    return DefaultPolicy.builder().removeScorer("NodeResourcesLeastAllocated")
        .scorer(Scorers.mostAllocated(), 1).seed(seed).build();
  }

  @Override
  public boolean feasible(PodInfo pod, NodeInfo node, ClusterSnapshot cluster) { // the rules it must never break
    for (Filter filter : FILTERS) {
      Filter forPod = filter instanceof PreFilter preFilter ? preFilter.prepare(pod, cluster) : filter;
      if (!forPod.filter(pod, node).fits()) {
        return false;
      }
    }
    return true;
  }
}
// SAMPLE-END
