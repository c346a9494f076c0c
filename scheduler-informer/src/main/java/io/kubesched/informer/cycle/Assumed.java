package io.kubesched.informer.cycle;

import io.kubesched.api.ClaimAllocation;
import java.util.List;

/**
 * An attempt whose pod the scheduling thread has assumed on the node it chose (kube-scheduler's assumed pod and
 * {@code ScheduleResult.SuggestedHost}): what the {@link BindingCycle} binds, and what it tells once bound.
 * Immutable; handed from the scheduling thread to a binding thread.
 *
 * @param attempt the attempt that chose the node
 * @param nodeName the node the pod is assumed on in the cache
 * @param claimAllocations what to write to the pod's ResourceClaims before it is bound (allocations assumed in the
 *     {@link ClaimAssumptions}); empty for a pod without claims
 */
public record Assumed(Attempt attempt, String nodeName, List<ClaimAllocation> claimAllocations) {

  public Assumed {
    claimAllocations = List.copyOf(claimAllocations);
  }

  /** An assumed pod without claims. */
  public Assumed(Attempt attempt, String nodeName) {
    this(attempt, nodeName, List.of());
  }

  /** @return this assumed pod with claims to write before it is bound */
  public Assumed withClaimAllocations(List<ClaimAllocation> claimAllocations) {
    return new Assumed(attempt, nodeName, claimAllocations);
  }

  /** @return the pod's uid */
  public String uid() {
    return attempt.uid();
  }

  /** @return the pod's {@code namespace/name}, for the log */
  public String key() {
    return attempt.key();
  }
}
