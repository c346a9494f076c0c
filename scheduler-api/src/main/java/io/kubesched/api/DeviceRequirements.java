package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What an exact request or one sub-request of a prioritized list asks for: kube's {@code ExactDeviceRequest} and
 * {@code DeviceSubRequest}, which share these fields.
 *
 * @param deviceClassName the class every device must belong to
 * @param selectors CEL expressions every device must also satisfy
 * @param allocationMode how many devices
 * @param count the number of devices for {@link AllocationMode#EXACT_COUNT}
 * @param adminAccess whether the devices are for administration (allocated even when in use); never set on a
 *     sub-request
 * @param tolerations the device taints tolerated
 * @param capacityRequests how much of each capacity one device must provide (consumable capacity)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceRequirements(
    String deviceClassName,
    List<String> selectors,
    AllocationMode allocationMode,
    long count,
    boolean adminAccess,
    List<DeviceToleration> tolerations,
    Map<String, Quantity> capacityRequests) {

  public DeviceRequirements {
    selectors = List.copyOf(selectors);
    tolerations = List.copyOf(tolerations);
    capacityRequests = Map.copyOf(capacityRequests);
  }
}
