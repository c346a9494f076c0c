package io.kubesched.policy;

import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.DefaultPolicy;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.testkit.PolicyContract;
import java.util.List;

/** The default policy keeps the contract users' policies are held to, with its own filters as the judge. */
class DefaultPolicyContractProperties implements PolicyContract {

  private static final List<Filter> FILTERS = Filters.defaults();

  @Override
  public FinderFunc policy(long seed) {
    return DefaultPolicy.builder().seed(seed).build();
  }

  @Override
  public boolean feasible(PodInfo pod, NodeInfo node) {
    return FILTERS.stream().allMatch(filter -> filter.filter(pod, node).fits());
  }
}
