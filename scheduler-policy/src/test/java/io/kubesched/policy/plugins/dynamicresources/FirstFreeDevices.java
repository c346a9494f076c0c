package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceId;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.plugins.dynamicresources.structured.Allocator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the structured allocator in the plugin's tests, until that allocator is merged: the first free
 * devices of the node's slices (by slice, then device order) for each exact request and the first alternative of a
 * prioritized list that fits, ignoring selectors; a device is free unless a claim of the snapshot holds it or this
 * call already took it. It counts its calls.
 */
final class FirstFreeDevices implements NodeAllocator.Factory {

  final AtomicInteger calls = new AtomicInteger();

  @Override
  public NodeAllocator create(DynamicResources resources) {
    var taken = new HashSet<DeviceId>();
    for (var claim : resources.claims()) {
      var allocation = claim.allocation();
      if (allocation != null) {
        allocation.devices().forEach(d -> taken.add(d.deviceId()));
      }
    }
    return (node, claims) -> {
      calls.incrementAndGet();
      return allocate(resources, Set.copyOf(taken), node, claims);
    };
  }

  private static Allocator.Outcome allocate(
      DynamicResources resources, Set<DeviceId> taken, NodeInfo node, List<ResourceClaim> claims) {
    var used = new HashSet<>(taken);
    var results = new ArrayList<AllocationResult>();
    for (var claim : claims) {
      var devices = new ArrayList<DeviceAllocation>();
      for (var request : claim.requests()) {
        var exactly = request.exactly();
        List<DeviceAllocation> picked = null;
        if (exactly != null) {
          if (resources.deviceClass(exactly.deviceClassName()).isEmpty()) {
            return new Allocator.Outcome.Failed("device class " + exactly.deviceClassName() + " does not exist");
          }
          picked = pick(resources, used, node, exactly, request.name());
        } else {
          for (var sub : request.firstAvailable()) {
            picked = pick(resources, used, node, sub.requirements(), request.name() + "/" + sub.name());
            if (picked != null) {
              break;
            }
          }
        }
        if (picked == null) {
          return new Allocator.Outcome.Unsuitable();
        }
        picked.forEach(d -> used.add(d.deviceId()));
        devices.addAll(picked);
      }
      results.add(DraFixtures.allocationOf(node.name(), devices));
    }
    return new Allocator.Outcome.Allocated(results);
  }

  private static List<DeviceAllocation> pick(
      DynamicResources resources, Set<DeviceId> used, NodeInfo node, DeviceRequirements wanted, String request) {
    var picked = new ArrayList<DeviceAllocation>();
    for (var slice : resources.slices()) {
      var selection = slice.nodeSelection();
      if (!selection.allNodes() && !node.name().equals(selection.nodeName())) {
        continue;
      }
      for (var device : slice.devices()) {
        var id = new DeviceId(slice.driver(), slice.pool().name(), device.name());
        if (picked.size() < wanted.count() && !used.contains(id)
            && picked.stream().noneMatch(p -> p.deviceId().equals(id))) {
          picked.add(new DeviceAllocation(request, slice.driver(), slice.pool().name(), device.name(), false,
              List.of(), List.of(), List.of(), null, Map.of()));
        }
      }
    }
    return picked.size() == wanted.count() ? picked : null;
  }
}
