package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.adapter.AllocationResults;
import io.kubesched.adapter.ExtendedResourceClaims;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.binder.ClaimOutcome;
import io.kubesched.binder.ClaimWriter;
import io.kubesched.binder.TokenBucket;
import java.time.Clock;
import java.util.Objects;

/**
 * Where the {@link BindingCycle} writes a pod's ResourceClaims before it binds the pod (kube's DynamicResources
 * PreBind), creating first the claim for its extended resources backed by DRA, and takes the pod out of them again
 * after a failure (its Unreserve, which deletes the claim it created), and where {@link ClaimDeallocations}
 * deallocates a claim no node can use (its PostFilter): {@link #toApiServer} in production, a fake in the loop's
 * unit tests. Called on binding and preemption threads, several at once.
 */
public interface ClaimPort {

  /**
   * Writes {@code claim}'s allocation, if it has one, and the pod into its {@code reservedFor}.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  ClaimOutcome reserve(ClaimAllocation claim, String podName, String podUid) throws InterruptedException;

  /**
   * Takes the pod out of {@code claim}'s {@code reservedFor}; best effort.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  void unreserve(ClaimAllocation claim, String podUid) throws InterruptedException;

  /**
   * Creates the claim for the pod's extended resources ({@code claim.create()}, kube's PreBind for its special claim).
   *
   * @return {@link ClaimOutcome.Created} with its name and uid, or {@link ClaimOutcome.Failed}
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  default ClaimOutcome create(ClaimAllocation claim) throws InterruptedException {
    return new ClaimOutcome.Failed("this claim port creates no claims");
  }

  /**
   * Writes the pod's {@code status.extendedResourceClaimStatus}: the created claim's name and its request mappings.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  default ClaimOutcome writePodStatus(ClaimAllocation created, String podName, String podUid)
      throws InterruptedException {
    return new ClaimOutcome.Failed("this claim port writes no pod status");
  }

  /**
   * Deletes a claim this scheduler created for the pod's extended resources (kube's Unreserve); best effort.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  default void delete(ClaimAllocation created) throws InterruptedException {}

  /**
   * Clears {@code claim}'s allocation and reservations if it is still as the decision saw it, or deletes it if it
   * is {@linkplain ClaimDeallocation#delete() to be deleted} and still has its uid (kube's DynamicResources
   * PostFilter); best effort.
   *
   * @return whether the claim was deallocated or deleted
   * @throws InterruptedException if the thread is interrupted (the loop is closing)
   */
  boolean deallocate(ClaimDeallocation claim) throws InterruptedException;

  /** @return the port that writes through a {@link ClaimWriter}, each write taking a token of {@code writes} */
  static ClaimPort toApiServer(KubernetesClient client, TokenBucket writes, Clock clock) {
    var writer = new ClaimWriter(client, writes, clock);
    return new ClaimPort() {
      @Override
      public ClaimOutcome reserve(ClaimAllocation claim, String podName, String podUid) throws InterruptedException {
        var allocation = claim.allocation();
        return writer.reserve(
            claim.namespace(), claim.name(), claim.uid(),
            allocation == null ? null : AllocationResults.toFabric8(allocation), podName, podUid);
      }

      @Override
      public void unreserve(ClaimAllocation claim, String podUid) throws InterruptedException {
        writer.unreserve(claim.namespace(), claim.name(), claim.uid(), podUid);
      }

      @Override
      public ClaimOutcome create(ClaimAllocation claim) throws InterruptedException {
        return writer.create(ExtendedResourceClaims.toFabric8(claim.namespace(), Objects.requireNonNull(claim.create())));
      }

      @Override
      public ClaimOutcome writePodStatus(ClaimAllocation created, String podName, String podUid)
          throws InterruptedException {
        return writer.writeExtendedResourceClaimStatus(created.namespace(), podName, podUid, created.name(),
            ExtendedResourceClaims.mappings(Objects.requireNonNull(created.create())));
      }

      @Override
      public void delete(ClaimAllocation created) throws InterruptedException {
        writer.delete(created.namespace(), created.name(), created.uid());
      }

      @Override
      public boolean deallocate(ClaimDeallocation claim) throws InterruptedException {
        return claim.delete()
            ? writer.delete(claim.namespace(), claim.name(), claim.uid())
            : writer.deallocate(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion());
      }
    };
  }
}
