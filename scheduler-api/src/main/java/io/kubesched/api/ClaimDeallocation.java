package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A ResourceClaim that stands in the way of a pod no node fits, to be released (kube-scheduler's DynamicResources
 * PostFilter). A {@link Decision.Unschedulable} carries it, and the loop writes it:
 *
 * <ul>
 *   <li>a deallocation ({@link #of}): the claim is allocated, its allocation reaches none of the nodes the pod could
 *       use, and it is reserved for no pod but perhaps this one; the loop clears its {@code status.allocation},
 *       {@code status.reservedFor} and {@code status.devices} with one status update conditioned on {@code
 *       resourceVersion}, so a claim changed since the decision is left as it is;
 *   <li>a deletion ({@link #deletion}): the claim the scheduler created for the pod's extended resources in an
 *       earlier attempt, which the pod cannot be placed with; the loop removes kube's finalizer and deletes it, if
 *       it still has {@code uid}.
 * </ul>
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid
 * @param resourceVersion the version the decision saw
 * @param delete whether the claim is to be deleted rather than deallocated
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimDeallocation(String namespace, String name, String uid, String resourceVersion, boolean delete) {

  /** kube-scheduler's PostFilter status after it deallocated a claim, added to the pod's message. */
  public static final String COMPLETED = "deallocation of ResourceClaim completed";

  /** kube-scheduler's PostFilter status after it deleted a pod's claim for extended resources. */
  public static final String DELETION_COMPLETED = "deletion of ResourceClaim completed";

  /** A deallocation. */
  public ClaimDeallocation(String namespace, String name, String uid, String resourceVersion) {
    this(namespace, name, uid, resourceVersion, false);
  }

  /** @return the deallocation of {@code claim} as the decision saw it */
  public static ClaimDeallocation of(ResourceClaim claim) {
    return new ClaimDeallocation(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion());
  }

  /** @return the deletion of {@code claim}, a pod's claim for extended resources left from an earlier attempt */
  public static ClaimDeallocation deletion(ResourceClaim claim) {
    return new ClaimDeallocation(claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(), true);
  }

  /** @return kube's PostFilter status once written: {@value #COMPLETED} or {@value #DELETION_COMPLETED} */
  public String completed() {
    return delete ? DELETION_COMPLETED : COMPLETED;
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }
}
