package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
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
 * @param devices what the drivers report about the allocated devices ({@code status.devices}), read for the devices'
 *     binding conditions
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
    boolean deleting,
    List<AllocatedDeviceStatus> devices) {

  /**
   * kube's default {@code DynamicResourcesArgs.bindingTimeout}: how long after its allocation a claim's devices may
   * take to meet their binding conditions (the only value this library supports).
   */
  public static final Duration DEFAULT_BINDING_TIMEOUT = Duration.ofSeconds(600);

  public ResourceClaim {
    annotations = Map.copyOf(annotations);
    requests = List.copyOf(requests);
    constraints = List.copyOf(constraints);
    config = List.copyOf(config);
    reservedFor = List.copyOf(reservedFor);
    devices = List.copyOf(devices);
  }

  /** A claim whose drivers report nothing about its devices. */
  public ResourceClaim(
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
    this(namespace, name, uid, resourceVersion, controller, annotations, requests, constraints, config, allocation,
        reservedFor, deleting, List.of());
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }

  /** @return this claim with {@code allocation} (what the scheduler assumed before the watch shows it) */
  public ResourceClaim withAllocation(@Nullable AllocationResult allocation) {
    return new ResourceClaim(
        namespace, name, uid, resourceVersion, controller, annotations, requests, constraints, config, allocation,
        reservedFor, deleting, devices);
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
        consumers, deleting, devices);
  }

  /** @return whether the claim is allocated and one of its devices has binding conditions (kube's wait in PreBind) */
  public boolean hasBindingConditions() {
    return allocation != null && allocation.devices().stream().anyMatch(d -> !d.bindingConditions().isEmpty());
  }

  /**
   * Whether the claim's devices may be used by a pod being bound (kube's {@code isClaimReadyForBinding}): device by
   * device, in the allocation's order, each device with binding conditions must have its {@code status.devices}
   * entry, none of its binding failure conditions {@code True} and all its binding conditions {@code True}. The first
   * device that is not so decides.
   *
   * @return {@link BindingState.Ready} when every device is (a claim without binding conditions is); {@link
   *     BindingState.Pending} for one not allocated or still waiting; {@link BindingState.Failed} with kube's
   *     message ({@code device binding failed: claim=<name>, reason=<reason>, message="<message>"}) when a failure
   *     condition is {@code True}
   */
  public BindingState bindingState() {
    if (allocation == null) {
      return BindingState.PENDING;
    }
    for (var allocated : allocation.devices()) {
      if (allocated.bindingConditions().isEmpty()) {
        continue;
      }
      var status = devices.stream().filter(d -> d.reportsOn(allocated)).findFirst().orElse(null);
      if (status == null) {
        return BindingState.PENDING;
      }
      for (var type : allocated.bindingFailureConditions()) {
        var failed = status.condition(type).filter(AllocatedDeviceStatus.Condition::isTrue);
        if (failed.isPresent()) {
          return new BindingState.Failed("device binding failed: claim=" + name + ", reason="
              + failed.get().reason() + ", message=" + quoted(failed.get().message()));
        }
      }
      for (var type : allocated.bindingConditions()) {
        if (!status.condition(type).map(AllocatedDeviceStatus.Condition::isTrue).orElse(false)) {
          return BindingState.PENDING;
        }
      }
    }
    return BindingState.READY;
  }

  /**
   * Whether the claim waited for its binding conditions too long (kube's {@code isClaimTimeout}): it is allocated
   * with a timestamp, has a device with binding conditions, and {@code timeout} has passed since the timestamp.
   *
   * @param now the time now
   * @param timeout kube's {@code DynamicResourcesArgs.bindingTimeout}
   */
  public boolean bindingTimedOut(Instant now, Duration timeout) {
    var allocated = allocation;
    if (allocated == null || allocated.allocationTimestamp() == null || !hasBindingConditions()) {
      return false;
    }
    return allocated.allocationTimestamp().plus(timeout).isBefore(now);
  }

  /** {@code message} quoted as Go's {@code %q} quotes printable text. */
  private static String quoted(String message) {
    return '"' + message.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }

  /** Whether a claim's devices may be used by the pod being bound: see {@link #bindingState()}. */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public sealed interface BindingState {

    /** Every device with binding conditions has them all {@code True}. */
    BindingState READY = new Ready();

    /** Not allocated, or a device's conditions are not all {@code True} yet. */
    BindingState PENDING = new Pending();

    /** Ready. */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record Ready() implements BindingState {}

    /** Waiting. */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record Pending() implements BindingState {}

    /**
     * A binding failure condition is {@code True}.
     *
     * @param message kube's message
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    record Failed(String message) implements BindingState {}
  }
}
