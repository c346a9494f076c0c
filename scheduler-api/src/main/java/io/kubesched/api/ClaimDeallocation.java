package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A ResourceClaim whose allocation is to be cleared so that a pod no node fits can have it allocated elsewhere
 * (kube-scheduler's DynamicResources PostFilter): the claim is allocated, its allocation reaches none of the nodes
 * the pod could use, and it is reserved for no pod but perhaps this one. A {@link Decision.Unschedulable} carries
 * it; the loop then clears the claim's {@code status.allocation}, {@code status.reservedFor} and {@code
 * status.devices} with one status update conditioned on {@code resourceVersion}, so a claim changed since the
 * decision is left as it is.
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid
 * @param resourceVersion the version the decision saw
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimDeallocation(String namespace, String name, String uid, String resourceVersion) {

  /** kube-scheduler's PostFilter status after it deallocated a claim, added to the pod's message. */
  public static final String COMPLETED = "deallocation of ResourceClaim completed";

  /** @return the deallocation of {@code claim} as the decision saw it */
  public static ClaimDeallocation of(ResourceClaim claim) {
    return new ClaimDeallocation(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion());
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }
}
