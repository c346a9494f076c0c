package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.ResourceSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The slices as the allocator reads them: with the {@link DeviceTaintRule}s' taints patched in (kube's slice
 * tracker), and indexed by the node they are published for (kube's {@code slicesOnNode}). Immutable.
 *
 * @param all every slice, patched
 * @param onNode the slices published for one node, by node name
 * @param shared the slices for no particular node (all nodes, a node selector, or per device)
 */
record SliceIndex(List<ResourceSlice> all, Map<String, List<ResourceSlice>> onNode, List<ResourceSlice> shared) {

  /** @return the index of {@code slices} with {@code rules} applied */
  static SliceIndex of(List<ResourceSlice> slices, List<DeviceTaintRule> rules) {
    var patched = new ArrayList<ResourceSlice>(slices.size());
    for (var slice : slices) {
      patched.add(withTaintRules(slice, rules));
    }
    var onNode = new HashMap<String, List<ResourceSlice>>();
    var shared = new ArrayList<ResourceSlice>();
    for (var slice : patched) {
      var nodeName = slice.nodeSelection().nodeName();
      if (nodeName == null || nodeName.isEmpty()) {
        shared.add(slice);
      } else {
        onNode.computeIfAbsent(nodeName, k -> new ArrayList<>(1)).add(slice);
      }
    }
    return new SliceIndex(List.copyOf(patched), Map.copyOf(onNode), List.copyOf(shared));
  }

  /** @return the slices of the node, then those for no particular node, as kube concatenates them */
  List<ResourceSlice> forNode(String nodeName) {
    var local = onNode.getOrDefault(nodeName, List.of());
    if (local.isEmpty()) {
      return shared;
    }
    if (shared.isEmpty()) {
      return local;
    }
    var both = new ArrayList<ResourceSlice>(local.size() + shared.size());
    both.addAll(local);
    both.addAll(shared);
    return both;
  }

  /** kube's slice tracker: each matching rule's taint appended to the device's own, in the rules' order. */
  private static ResourceSlice withTaintRules(ResourceSlice slice, List<DeviceTaintRule> rules) {
    if (rules.isEmpty()) {
      return slice;
    }
    boolean changed = false;
    var devices = new ArrayList<Device>(slice.devices().size());
    for (var device : slice.devices()) {
      List<DeviceTaint> taints = null;
      for (var rule : rules) {
        if (rule.matches(slice.driver(), slice.pool().name(), device.name())) {
          if (taints == null) {
            taints = new ArrayList<>(device.taints());
          }
          taints.add(rule.taint());
        }
      }
      if (taints == null) {
        devices.add(device);
        continue;
      }
      changed = true;
      devices.add(
          new Device(
              device.name(), device.attributes(), device.capacity(), device.consumesCounters(),
              device.nodeSelection(), taints, device.bindsToNode(), device.bindingConditions(),
              device.bindingFailureConditions(), device.allowMultipleAllocations()));
    }
    if (!changed) {
      return slice;
    }
    return new ResourceSlice(
        slice.name(), slice.driver(), slice.pool(), slice.nodeSelection(), slice.perDeviceNodeSelection(), devices,
        slice.sharedCounters());
  }
}
