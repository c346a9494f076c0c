package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A device a driver published in a {@link ResourceSlice}: kube's {@code Device}, with the fields the scheduler
 * reads.
 *
 * @param name the device's name, unique in its pool
 * @param attributes its attributes by qualified name as written (with or without the driver's domain)
 * @param capacity its capacities by qualified name as written
 * @param consumesCounters what allocating it consumes of the pool's shared counters
 * @param nodeSelection which nodes reach it, when its slice selects per device ({@link
 *     ResourceSlice#perDeviceNodeSelection}); {@link NodeSelection#NONE} otherwise
 * @param taints its taints as published in the slice ({@link DeviceTaintRule}s add more)
 * @param bindsToNode whether an allocation of it is limited to the node the pod is scheduled to
 * @param bindingConditions the conditions that must be true on the claim before the pod is bound
 * @param bindingFailureConditions the conditions that, when true, fail the binding
 * @param allowMultipleAllocations whether several claims may share it (consumable capacity)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Device(
    String name,
    Map<String, DeviceAttribute> attributes,
    Map<String, DeviceCapacity> capacity,
    List<CounterConsumption> consumesCounters,
    NodeSelection nodeSelection,
    List<DeviceTaint> taints,
    boolean bindsToNode,
    List<String> bindingConditions,
    List<String> bindingFailureConditions,
    boolean allowMultipleAllocations) {

  public Device {
    attributes = Map.copyOf(attributes);
    capacity = Map.copyOf(capacity);
    consumesCounters = List.copyOf(consumesCounters);
    taints = List.copyOf(taints);
    bindingConditions = List.copyOf(bindingConditions);
    bindingFailureConditions = List.copyOf(bindingFailureConditions);
  }

  /** @return a device with only a name, attributes and capacity */
  public static Device of(String name, Map<String, DeviceAttribute> attributes, Map<String, DeviceCapacity> capacity) {
    return new Device(
        name, attributes, capacity, List.of(), NodeSelection.NONE, List.of(), false, List.of(), List.of(), false);
  }
}
