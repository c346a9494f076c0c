package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What must be written to one of a pod's claims before the pod is bound (kube's DynamicResources PreBind): the
 * allocation the policy made, if the claim was not allocated yet, and the pod added to {@code reservedFor}. A
 * {@link io.kubesched.api.Decision.Bind} carries one per claim of the pod.
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid
 * @param allocation the new allocation; {@code null} when the claim is already allocated
 * @param create for the claim the scheduler creates for the pod's extended resources, what to create (its name is
 *     then {@link ExtendedResourceClaim#NAME_BEFORE_CREATION} and its uid a placeholder until it is created);
 *     {@code null} for a claim that exists
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimAllocation(
    String namespace,
    String name,
    String uid,
    @Nullable AllocationResult allocation,
    @Nullable ExtendedResourceClaim create) {

  /** What to write to an existing claim. */
  public ClaimAllocation(String namespace, String name, String uid, @Nullable AllocationResult allocation) {
    this(namespace, name, uid, allocation, null);
  }

  /** @return this entry for the claim once created as {@code name} with {@code uid}: an existing claim from then on */
  public ClaimAllocation created(String name, String uid) {
    return new ClaimAllocation(namespace, name, uid, allocation, null);
  }
}
