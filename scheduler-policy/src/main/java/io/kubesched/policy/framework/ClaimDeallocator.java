package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.Decision;
import io.kubesched.api.PodInfo;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * An optional capability of the filter a {@link PreFilter} prepares for one pod: the PostFilter of kube-scheduler's
 * DynamicResources plugin, which, when no node fits the pod, picks one of the pod's claims whose allocation stood in
 * the way and asks for it to be deallocated so that the next attempt can allocate it elsewhere. The policy asks it
 * once, after its filters found no node and before preemption (kube's default profile runs DynamicResources'
 * PostFilter first), and puts the answer in {@link Decision.Unschedulable#claimDeallocations()}; the loop writes it.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ClaimDeallocator {

  /**
   * Called from the scheduling thread once the filters have been asked about every node they were to see and none
   * fitted.
   *
   * @param pod the pod this filter was prepared for
   * @return the claim to deallocate; empty when none would help
   */
  Optional<ClaimDeallocation> claimToDeallocate(PodInfo pod);
}
