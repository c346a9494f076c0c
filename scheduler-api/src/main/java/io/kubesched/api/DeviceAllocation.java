package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One device allocated for one request: kube's {@code DeviceRequestAllocationResult}.
 *
 * @param request the request's name, {@code request/subRequest} for an alternative of a prioritized list
 * @param driver the device's driver
 * @param pool the device's pool
 * @param device the device's name
 * @param adminAccess whether it was allocated for administration
 * @param tolerations the request's tolerations, copied
 * @param bindingConditions the device's binding conditions, copied
 * @param bindingFailureConditions the device's binding failure conditions, copied
 * @param shareId for a device allocated to several claims, this allocation's share; {@code null} otherwise
 * @param consumedCapacity what this allocation consumes of the device's capacities (consumable capacity)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceAllocation(
    String request,
    String driver,
    String pool,
    String device,
    boolean adminAccess,
    List<DeviceToleration> tolerations,
    List<String> bindingConditions,
    List<String> bindingFailureConditions,
    @Nullable String shareId,
    Map<String, Quantity> consumedCapacity) {

  public DeviceAllocation {
    tolerations = List.copyOf(tolerations);
    bindingConditions = List.copyOf(bindingConditions);
    bindingFailureConditions = List.copyOf(bindingFailureConditions);
    consumedCapacity = Map.copyOf(consumedCapacity);
  }

  /** @return the device's identity, {@code driver/pool/device} */
  public DeviceId deviceId() {
    return new DeviceId(driver, pool, device);
  }
}
