package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.DeviceId;
import io.kubesched.api.ResourceClaim;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the claims' allocations already hold: kube's {@code AllocatedState} as the DynamicResources plugin builds it
 * ({@code foreachAllocatedDevice} in {@code allocateddevices.go}). Devices allocated for admin access are not
 * counted; a device allocated with a share id is a shared device whose consumed capacities add up.
 *
 * <p>Immutable after construction; shared by every thread of one {@link Allocator}.
 */
final class AllocatedState {

  /** One share of a device that allows multiple allocations: kube's {@code SharedDeviceID}. */
  record SharedDevice(DeviceId id, String shareId) {}

  private final Set<DeviceId> dedicated;
  private final Set<SharedDevice> shared;
  private final Set<DeviceId> sharedDevices;
  private final Map<DeviceId, Map<String, BigDecimal>> aggregatedCapacity;

  private AllocatedState(
      Set<DeviceId> dedicated,
      Set<SharedDevice> shared,
      Map<DeviceId, Map<String, BigDecimal>> aggregatedCapacity) {
    this.dedicated = Set.copyOf(dedicated);
    this.shared = Set.copyOf(shared);
    var ids = new HashSet<DeviceId>();
    shared.forEach(s -> ids.add(s.id()));
    this.sharedDevices = Set.copyOf(ids);
    var copy = new HashMap<DeviceId, Map<String, BigDecimal>>();
    aggregatedCapacity.forEach((id, caps) -> copy.put(id, Map.copyOf(caps)));
    this.aggregatedCapacity = Map.copyOf(copy);
  }

  /** @return the devices the allocations of {@code claims} hold */
  static AllocatedState of(List<ResourceClaim> claims) {
    var dedicated = new HashSet<DeviceId>();
    var shared = new HashSet<SharedDevice>();
    var capacity = new HashMap<DeviceId, Map<String, BigDecimal>>();
    for (var claim : claims) {
      var allocation = claim.allocation();
      if (allocation == null) {
        continue;
      }
      for (var result : allocation.devices()) {
        if (result.adminAccess()) {
          continue;
        }
        var id = result.deviceId();
        var shareId = result.shareId();
        if (shareId != null) {
          shared.add(new SharedDevice(id, shareId));
          if (!result.consumedCapacity().isEmpty()) {
            var sum = capacity.computeIfAbsent(id, k -> new HashMap<>());
            result.consumedCapacity().forEach((name, q) -> sum.merge(name, q.value(), BigDecimal::add));
          }
          continue;
        }
        dedicated.add(id);
      }
    }
    return new AllocatedState(dedicated, shared, capacity);
  }

  /** @return whether the device is allocated to a claim exclusively */
  boolean isDedicated(DeviceId id) {
    return dedicated.contains(id);
  }

  /** @return the shares of devices allocated to several claims */
  Set<SharedDevice> shared() {
    return shared;
  }

  /** @return whether any share of the device is allocated */
  boolean hasShare(DeviceId id) {
    return sharedDevices.contains(id);
  }

  /** @return what the shares of the device consume, by capacity name; {@code null} when none is recorded */
  @Nullable Map<String, BigDecimal> aggregatedCapacity(DeviceId id) {
    return aggregatedCapacity.get(id);
  }

  /** @return whether the device is allocated in any way: kube's {@code IsDeviceAllocated} */
  boolean isAllocated(DeviceId id) {
    return dedicated.contains(id) || sharedDevices.contains(id) || aggregatedCapacity.containsKey(id);
  }
}
