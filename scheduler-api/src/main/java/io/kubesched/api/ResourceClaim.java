package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A request for devices: kube's {@code ResourceClaim}, with the fields the scheduler reads and writes.
 *
 * @param namespace its namespace
 * @param name its name
 * @param uid its uid
 * @param resourceVersion the version the informer saw; what a status write is conditioned on
 * @param controller the claim's controlling owner (the pod, for a claim made from a template); {@code null} when
 *     none
 * @param annotations its annotations (kube marks the claim it creates for extended resources)
 * @param requests its requests
 * @param constraints its constraints across requests
 * @param config its configuration for the drivers
 * @param allocation its allocation; {@code null} while not allocated
 * @param reservedFor the consumers it is reserved for
 * @param deleting whether it has a deletion timestamp
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ResourceClaim(
    String namespace,
    String name,
    String uid,
    String resourceVersion,
    @Nullable Owner controller,
    Map<String, String> annotations,
    List<DeviceRequest> requests,
    List<DeviceConstraint> constraints,
    List<ClaimConfig> config,
    @Nullable AllocationResult allocation,
    List<ConsumerRef> reservedFor,
    boolean deleting) {

  public ResourceClaim {
    annotations = Map.copyOf(annotations);
    requests = List.copyOf(requests);
    constraints = List.copyOf(constraints);
    config = List.copyOf(config);
    reservedFor = List.copyOf(reservedFor);
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }

  /** @return this claim with {@code allocation} (what the scheduler assumed before the watch shows it) */
  public ResourceClaim withAllocation(@Nullable AllocationResult allocation) {
    return new ResourceClaim(
        namespace, name, uid, resourceVersion, controller, annotations, requests, constraints, config, allocation,
        reservedFor, deleting);
  }

  /**
   * This claim after the scheduler's Reserve of {@code allocation} for {@code pod}: the pod in {@code reservedFor}
   * (once), and the allocation when one is given and this claim shows none yet (an allocation it already shows stays:
   * the watch has the write, or another's, by then).
   *
   * @param pod the consumer the claim is reserved for, compared by uid
   * @param allocation what the decision writes to this claim; its namespace, name and uid are not checked here
   * @return the claim so reserved; this one when it shows both already
   */
  public ResourceClaim reservedBy(ConsumerRef pod, ClaimAllocation allocation) {
    var claim = this;
    if (allocation.allocation() != null && this.allocation == null) {
      claim = claim.withAllocation(allocation.allocation());
    }
    for (var consumer : reservedFor) {
      if (consumer.uid().equals(pod.uid())) {
        return claim;
      }
    }
    var reserved = new java.util.ArrayList<ConsumerRef>(reservedFor.size() + 1);
    reserved.addAll(reservedFor);
    reserved.add(pod);
    return claim.withReservedFor(reserved);
  }

  /** @return this claim reserved for {@code consumers} */
  public ResourceClaim withReservedFor(List<ConsumerRef> consumers) {
    return new ResourceClaim(
        namespace, name, uid, resourceVersion, controller, annotations, requests, constraints, config, allocation,
        consumers, deleting);
  }
}
