package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.ClaimAllocation;
import java.util.List;
import org.apiguardian.api.API;

/**
 * An optional capability of the filter a {@link PreFilter} prepares for one pod: what must be written to the pod's
 * ResourceClaims if it goes to a given node, as kube-scheduler's DynamicResources plugin remembers the allocations
 * its Filter found for its Reserve and PreBind. The policy asks it once, for the node it chose, and puts the answer
 * in {@link Decision.Bind#claimAllocations()}; the binding side writes each claim's allocation and adds the pod to
 * its {@code reservedFor} before it binds the pod.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ClaimAllocator {

  /**
   * Called from the scheduling thread for the chosen node, after this filter accepted it.
   *
   * @param node the node the pod goes to
   * @return one entry per claim of the pod, in the pod's order: the new allocation for a claim that was not
   *     allocated, a {@code null} allocation for one that was (the pod is only added to its {@code reservedFor});
   *     empty if the pod has no claim
   */
  List<ClaimAllocation> claimAllocations(NodeInfo node);
}
