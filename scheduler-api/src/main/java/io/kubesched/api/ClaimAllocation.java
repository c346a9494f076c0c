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
 * @param create for the claim the scheduler creates for the pod's extended resources, what to create; {@code null}
 *     for a claim of the pod's spec. Until it is created its name is {@link ExtendedResourceClaim#NAME_BEFORE_CREATION}
 *     and its uid a placeholder ({@link #toCreate()}); once created, {@link #created} gives its name and uid
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimAllocation(
    String namespace,
    String name,
    String uid,
    @Nullable AllocationResult allocation,
    @Nullable ExtendedResourceClaim create) {

  /** What to write to a claim of the pod's spec. */
  public ClaimAllocation(String namespace, String name, String uid, @Nullable AllocationResult allocation) {
    this(namespace, name, uid, allocation, null);
  }

  /**
   * The claim this entry creates, as the scheduler shows it until the watch does: allocated and reserved for the
   * pod, so its devices count as taken between the decision and the watch's event, whether it is created yet or not.
   *
   * @param pod the consumer it is reserved for
   * @return the claim; {@code null} for an entry that creates none or carries no allocation
   */
  public @Nullable ResourceClaim assumedCreatedClaim(ConsumerRef pod) {
    if (create == null || allocation == null) {
      return null;
    }
    return new ResourceClaim(
        namespace, name, uid, "", new Owner("Pod", create.podName(), create.podUid()),
        java.util.Map.of(ExtendedResourceClaim.ANNOTATION, "true"), create.requests(), java.util.List.of(),
        java.util.List.of(), allocation, java.util.List.of(pod), false);
  }

  /** @return whether this is the claim for extended resources, not created yet */
  public boolean toCreate() {
    return create != null && name.equals(ExtendedResourceClaim.NAME_BEFORE_CREATION);
  }

  /**
   * @return this entry for the claim for extended resources once created as {@code name} with {@code uid}
   * @throws IllegalStateException if this is not a claim to create
   */
  public ClaimAllocation created(String name, String uid) {
    if (!toCreate()) {
      throw new IllegalStateException("claim " + namespace + "/" + this.name + " is not one to create");
    }
    return new ClaimAllocation(namespace, name, uid, allocation, create);
  }
}
