package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.CounterConsumption;
import io.kubesched.api.CounterSet;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceConstraint;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.OpaqueConfig;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The fixtures of kube's {@code allocatortesting/allocator_testing.go} in Java: the same names and constants, so a
 * ported case reads like kube's.
 */
final class KubeFixtures {

  private KubeFixtures() {}

  static final String region1 = "region-1";
  static final String region2 = "region-2";
  static final String node1 = "node-1";
  static final String node2 = "node-2";
  static final String classA = "class-a";
  static final String classB = "class-b";
  static final String driverA = "driver-a";
  static final String driverB = "driver-b";
  static final String pool1 = "pool-1";
  static final String pool2 = "pool-2";
  static final String pool3 = "pool-3";
  static final String pool4 = "pool-4";
  static final String req0 = "req-0";
  static final String req1 = "req-1";
  static final String req2 = "req-2";
  static final String req3 = "req-3";
  static final String subReq0 = "subReq-0";
  static final String subReq1 = "subReq-1";
  static final String req0SubReq0 = "req-0/subReq-0";
  static final String req0SubReq1 = "req-0/subReq-1";
  static final String req1SubReq0 = "req-1/subReq-0";
  static final String req1SubReq1 = "req-1/subReq-1";
  static final String claim0 = "claim-0";
  static final String claim1 = "claim-1";
  static final String slice1 = "slice-1";
  static final String slice2 = "slice-2";
  static final String slice3 = "slice-3";
  static final String slice4 = "slice-4";
  static final String device0 = "device-0";
  static final String device1 = "device-1";
  static final String device2 = "device-2";
  static final String device3 = "device-3";
  static final String device4 = "device-4";
  static final String counterSet1 = "counter-set-1";
  static final String counterSet2 = "counter-set-2";
  static final String capacity0 = "capacity-0";
  static final String capacity1 = "capacity-1";
  static final String fieldNameKey = "metadata.name";
  static final String regionKey = "region";
  static final String planetKey = "planet";
  static final String planetValueEarth = "earth";

  static final Quantity zero = Quantity.of(0);
  static final Quantity one = Quantity.of(1);
  static final Quantity two = Quantity.of(2);
  static final Quantity three = Quantity.of(3);
  static final Quantity four = Quantity.of(4);
  static final Quantity pointOne = q("100m");
  static final Quantity pointTwo = q("200m");
  static final Quantity pointTwoFive = q("250m");
  static final Quantity pointThree = q("300m");

  static Quantity q(String text) {
    return Quantity.parse(text);
  }

  // Node selection as kube's fixtures pass it: a node name, all nodes, per device, or a selector.
  static final Object nodeSelectionAll = "nodeSelectionAll";
  static final Object nodeSelectionPerDevice = "nodeSelectionPerDevice";

  static NodeInfo node(String name, String region) {
    return NodeInfo.builder(name).labels(Map.of(regionKey, region, planetKey, planetValueEarth)).build();
  }

  static DeviceClass deviceClass(String name, String driver) {
    return new DeviceClass(name, List.of("device.driver == \"" + driver + "\""), List.of(), null);
  }

  static DeviceClass classWithAllowMultipleAllocations(String name, String driver, boolean multiple) {
    return new DeviceClass(
        name,
        List.of("device.driver == \"" + driver + "\" && device.allowMultipleAllocations == " + multiple),
        List.of(),
        null);
  }

  static OpaqueConfig deviceConfiguration(String driver, String attribute) {
    return new OpaqueConfig(driver, "{\"" + attribute + "\":\"" + attribute + "Value\"}");
  }

  static DeviceClass classWithConfig(String name, String driver, String attribute) {
    return new DeviceClass(
        name, List.of("device.driver == \"" + driver + "\""), List.of(deviceConfiguration(driver, attribute)), null);
  }

  static DeviceRequirements requirements(String deviceClass, long count, String... selectors) {
    return new DeviceRequirements(
        deviceClass, List.of(selectors), AllocationMode.EXACT_COUNT, count, false, List.of(), Map.of());
  }

  static DeviceRequest request(String name, String deviceClass, long count, String... selectors) {
    return DeviceRequest.exactly(name, requirements(deviceClass, count, selectors));
  }

  static DeviceRequest allDeviceRequest(String name, String deviceClass) {
    return DeviceRequest.exactly(
        name,
        new DeviceRequirements(deviceClass, List.of(), AllocationMode.ALL, 0, false, List.of(), Map.of()));
  }

  static DeviceRequest adminRequest(DeviceRequest request) {
    var r = request.exactly();
    return DeviceRequest.exactly(
        request.name(),
        new DeviceRequirements(
            r.deviceClassName(), r.selectors(), r.allocationMode(), r.count(), true, r.tolerations(),
            r.capacityRequests()));
  }

  static DeviceRequest withTolerations(DeviceRequest request, DeviceToleration... tolerations) {
    var r = request.exactly();
    var all = new ArrayList<>(r.tolerations());
    all.addAll(List.of(tolerations));
    return DeviceRequest.exactly(
        request.name(),
        new DeviceRequirements(
            r.deviceClassName(), r.selectors(), r.allocationMode(), r.count(), r.adminAccess(), all,
            r.capacityRequests()));
  }

  static DeviceRequest withCapacityRequest(DeviceRequest request, @Nullable Quantity quantity) {
    var r = request.exactly();
    return DeviceRequest.exactly(
        request.name(),
        new DeviceRequirements(
            r.deviceClassName(), r.selectors(), r.allocationMode(), r.count(), r.adminAccess(), r.tolerations(),
            capacityRequests(quantity)));
  }

  static Map<String, Quantity> capacityRequests(@Nullable Quantity quantity) {
    return quantity == null ? Map.of() : Map.of(capacity0, quantity);
  }

  static DeviceRequest.SubRequest subRequest(String name, String deviceClass, long count, Object... fields) {
    var selectors = new ArrayList<String>();
    var tolerations = new ArrayList<DeviceToleration>();
    for (var field : fields) {
      if (field instanceof String selector) {
        selectors.add(selector);
      } else if (field instanceof DeviceToleration toleration) {
        tolerations.add(toleration);
      } else {
        throw new IllegalArgumentException("unsupported field " + field);
      }
    }
    return new DeviceRequest.SubRequest(
        name,
        new DeviceRequirements(
            deviceClass, selectors, AllocationMode.EXACT_COUNT, count, false, tolerations, Map.of()));
  }

  static DeviceRequest.SubRequest withAllocationMode(DeviceRequest.SubRequest sub, AllocationMode mode) {
    var r = sub.requirements();
    return new DeviceRequest.SubRequest(
        sub.name(),
        new DeviceRequirements(
            r.deviceClassName(), r.selectors(), mode, r.count(), false, r.tolerations(), r.capacityRequests()));
  }

  static DeviceRequest.SubRequest withCapacityRequest(DeviceRequest.SubRequest sub, @Nullable Quantity quantity) {
    var r = sub.requirements();
    return new DeviceRequest.SubRequest(
        sub.name(),
        new DeviceRequirements(
            r.deviceClassName(), r.selectors(), r.allocationMode(), r.count(), false, r.tolerations(),
            capacityRequests(quantity)));
  }

  static DeviceRequest requestWithPrioritizedList(String name, DeviceRequest.SubRequest... subRequests) {
    return new DeviceRequest(name, null, List.of(subRequests));
  }

  static ResourceClaim claimWithRequests(
      String name, @Nullable List<DeviceConstraint> constraints, DeviceRequest... requests) {
    return new ResourceClaim(
        "", name, "uid-" + name, "1", null, Map.of(), List.of(requests),
        constraints == null ? List.of() : constraints, List.of(), null, List.of(), false);
  }

  static ResourceClaim claimWithRequest(String name, String request, String deviceClass, DeviceConstraint... constraints) {
    return claimWithRequests(name, List.of(constraints), request(request, deviceClass, 1));
  }

  static ResourceClaim claimWithConfigs(ResourceClaim claim, ClaimConfig... configs) {
    return new ResourceClaim(
        claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(), claim.controller(), claim.annotations(),
        claim.requests(), claim.constraints(), List.of(configs), claim.allocation(), claim.reservedFor(),
        claim.deleting());
  }

  static ResourceClaim claimWithTolerations(ResourceClaim claim, DeviceToleration... tolerations) {
    var requests = new ArrayList<DeviceRequest>();
    for (var request : claim.requests()) {
      requests.add(withTolerations(request, tolerations));
    }
    return new ResourceClaim(
        claim.namespace(), claim.name(), claim.uid(), claim.resourceVersion(), claim.controller(), claim.annotations(),
        requests, claim.constraints(), claim.config(), claim.allocation(), claim.reservedFor(), claim.deleting());
  }

  static ResourceClaim claimWithDeviceConfig(
      String name, String request, String deviceClass, String driver, String attribute) {
    return claimWithConfigs(
        claimWithRequest(name, request, deviceClass),
        new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of(), deviceConfiguration(driver, attribute)));
  }

  static ClaimConfig deviceClaimConfig(List<String> requests, OpaqueConfig config) {
    return new ClaimConfig(ClaimConfig.FROM_CLAIM, requests, config);
  }

  static DeviceConstraint matchAttribute(String attribute, String... requests) {
    return new DeviceConstraint(List.of(requests), attribute, null);
  }

  static DeviceConstraint distinctAttribute(String attribute, String... requests) {
    return new DeviceConstraint(List.of(requests), null, attribute);
  }

  static DeviceAttribute.StringValue string(String value) {
    return new DeviceAttribute.StringValue(value);
  }

  static DeviceAttribute.IntValue integer(long value) {
    return new DeviceAttribute.IntValue(value);
  }

  static DeviceAttribute.BoolValue bool(boolean value) {
    return new DeviceAttribute.BoolValue(value);
  }

  static DeviceAttribute.VersionValue version(String value) {
    return new DeviceAttribute.VersionValue(value);
  }

  /** A device being built, as kube's {@code wrapDevice}. */
  record D(Device device, boolean capacityFromCounters) {

    D withTaints(DeviceTaint... taints) {
      var all = new ArrayList<>(device.taints());
      all.addAll(List.of(taints));
      return with(b -> b.taints = all);
    }

    D withDeviceCounterConsumption(CounterConsumption... consumptions) {
      var all = new ArrayList<>(device.consumesCounters());
      all.addAll(List.of(consumptions));
      var next = with(b -> b.consumesCounters = all);
      if (capacityFromCounters) {
        var capacity = new HashMap<String, DeviceCapacity>();
        for (var consumption : all) {
          consumption.counters().forEach((n, v) -> capacity.put(n, new DeviceCapacity(v)));
        }
        next = next.with(b -> b.capacity = capacity);
      }
      return new D(next.device, false);
    }

    D withNodeSelection(Object selection) {
      return with(b -> b.nodeSelection = nodeSelection(selection));
    }

    D withBindingConditions(List<String> conditions, List<String> failureConditions) {
      return with(b -> {
        b.bindingConditions = conditions;
        b.bindingFailureConditions = failureConditions;
      });
    }

    D withBindsToNode(boolean binds) {
      return with(b -> b.bindsToNode = binds);
    }

    D withAllowMultipleAllocations() {
      return with(b -> b.allowMultipleAllocations = true);
    }

    D withCapacityRequestPolicyRange(Map<String, Quantity> capacity) {
      return withPolicy(capacity, v -> new DeviceCapacity.RequestPolicy(two, List.of(), new DeviceCapacity.Range(two, four, two)));
    }

    D withFractionalCapacityRequestPolicyRange(Map<String, Quantity> capacity) {
      return withPolicy(
          capacity, v -> new DeviceCapacity.RequestPolicy(pointTwo, List.of(), new DeviceCapacity.Range(pointTwo, one, pointOne)));
    }

    D withCapacityRequestPolicyValidValues(Quantity defaultValue, Map<String, Quantity> capacity, List<Quantity> more) {
      var valid = new ArrayList<Quantity>();
      valid.add(defaultValue);
      valid.addAll(more);
      return withPolicy(capacity, v -> new DeviceCapacity.RequestPolicy(defaultValue, valid, null));
    }

    private D withPolicy(
        Map<String, Quantity> capacity, java.util.function.Function<Quantity, DeviceCapacity.RequestPolicy> policy) {
      var all = new LinkedHashMap<>(device.capacity());
      capacity.forEach((n, v) -> all.put(n, new DeviceCapacity(v, policy.apply(v))));
      return with(b -> b.capacity = all);
    }

    private D with(java.util.function.Consumer<Builder> change) {
      var b = new Builder(device);
      change.accept(b);
      return new D(b.build(), capacityFromCounters);
    }
  }

  private static final class Builder {
    String name;
    Map<String, DeviceAttribute> attributes;
    Map<String, DeviceCapacity> capacity;
    List<CounterConsumption> consumesCounters;
    NodeSelection nodeSelection;
    List<DeviceTaint> taints;
    boolean bindsToNode;
    List<String> bindingConditions;
    List<String> bindingFailureConditions;
    boolean allowMultipleAllocations;

    Builder(Device d) {
      name = d.name();
      attributes = d.attributes();
      capacity = d.capacity();
      consumesCounters = d.consumesCounters();
      nodeSelection = d.nodeSelection();
      taints = d.taints();
      bindsToNode = d.bindsToNode();
      bindingConditions = d.bindingConditions();
      bindingFailureConditions = d.bindingFailureConditions();
      allowMultipleAllocations = d.allowMultipleAllocations();
    }

    Device build() {
      return new Device(
          name, attributes, capacity, consumesCounters, nodeSelection, taints, bindsToNode, bindingConditions,
          bindingFailureConditions, allowMultipleAllocations);
    }
  }

  static final Object fromCounters = "fromCounters";

  /** kube's {@code device(name, capacity, attributes)}: capacity is a map of quantities, {@link #fromCounters}, or null. */
  static D device(String name, @Nullable Object capacity, @Nullable Map<String, ? extends DeviceAttribute> attributes) {
    var caps = new LinkedHashMap<String, DeviceCapacity>();
    boolean fromCountersFlag = false;
    if (capacity == fromCounters) {
      fromCountersFlag = true;
    } else if (capacity instanceof Map<?, ?> map) {
      map.forEach((k, v) -> caps.put((String) k, v instanceof DeviceCapacity dc ? dc : new DeviceCapacity((Quantity) v)));
    }
    Map<String, DeviceAttribute> attrs = attributes == null ? Map.of() : Map.copyOf(attributes);
    return new D(Device.of(name, attrs, caps), fromCountersFlag);
  }

  static CounterConsumption deviceCounterConsumption(String counterSet, Map<String, Quantity> counters) {
    return new CounterConsumption(counterSet, counters);
  }

  static CounterSet counterSet(String name, Map<String, Quantity> counters) {
    return new CounterSet(name, counters);
  }

  static ResourcePool resourcePool(String name, long count) {
    return new ResourcePool(name, 1, count);
  }

  static NodeSelection nodeSelection(Object selection) {
    if (selection == nodeSelectionAll) {
      return NodeSelection.ALL_NODES;
    }
    if (selection instanceof String nodeName) {
      return NodeSelection.node(nodeName);
    }
    @SuppressWarnings("unchecked")
    var terms = (List<NodeSelectorTerm>) selection;
    return NodeSelection.selector(terms);
  }

  static ResourceSlice slice(String name, Object nodeSelection, Object pool, String driver) {
    return sliceWithDevices(name, nodeSelection, pool, driver);
  }

  static ResourceSlice sliceWithDevices(String name, Object nodeSelection, Object pool, String driver, D... devices) {
    var resourcePool = pool instanceof ResourcePool p ? p : new ResourcePool((String) pool, 1, 1);
    var list = new ArrayList<Device>();
    for (var d : devices) {
      list.add(d.device());
    }
    boolean perDevice = nodeSelection == nodeSelectionPerDevice;
    return new ResourceSlice(
        name, driver, resourcePool, perDevice ? NodeSelection.NONE : nodeSelection(nodeSelection), perDevice, list,
        List.of());
  }

  static ResourceSlice sliceWithCounterSets(
      String name, Object nodeSelection, Object pool, String driver, CounterSet... counterSets) {
    var s = slice(name, nodeSelection, pool, driver);
    return new ResourceSlice(
        s.name(), s.driver(), s.pool(), s.nodeSelection(), s.perDeviceNodeSelection(), List.of(), List.of(counterSets));
  }

  static ResourceSlice sliceWithNoDevices(String name, Object nodeSelection, Object pool, String driver) {
    return sliceWithDevices(name, nodeSelection, pool, driver);
  }

  static ResourceSlice sliceWithOneDevice(String name, Object nodeSelection, Object pool, String driver) {
    return sliceWithDevices(name, nodeSelection, pool, driver, device(device1, null, null));
  }

  static ResourceSlice sliceWithMultipleDevices(String name, Object nodeSelection, Object pool, String driver, int count) {
    var devices = new D[count];
    for (int i = 0; i < count; i++) {
      devices[i] = device("device-" + i, null, null);
    }
    return sliceWithDevices(name, nodeSelection, pool, driver, devices);
  }

  static ResourceSlice withPool(ResourceSlice s, ResourcePool pool) {
    return new ResourceSlice(s.name(), s.driver(), pool, s.nodeSelection(), s.perDeviceNodeSelection(), s.devices(), s.sharedCounters());
  }

  static ResourceSlice withName(ResourceSlice s, String name) {
    return new ResourceSlice(name, s.driver(), s.pool(), s.nodeSelection(), s.perDeviceNodeSelection(), s.devices(), s.sharedCounters());
  }

  static DeviceAllocation deviceAllocationResult(
      String request, String driver, String pool, String device, boolean adminAccess, DeviceToleration... tolerations) {
    return new DeviceAllocation(
        request, driver, pool, device, adminAccess, List.of(tolerations), List.of(), List.of(), null, Map.of());
  }

  static DeviceAllocation withConsumedCapacity(DeviceAllocation a, boolean shared, Map<String, Quantity> consumed) {
    return new DeviceAllocation(
        a.request(), a.driver(), a.pool(), a.device(), a.adminAccess(), a.tolerations(), a.bindingConditions(),
        a.bindingFailureConditions(), shared ? fixedShareID : null, consumed);
  }

  static final String fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";

  static DeviceAllocation deviceRequestAllocationResultWithBindingConditions(
      String request, String driver, String pool, String device, List<String> conditions, List<String> failureConditions,
      DeviceToleration... tolerations) {
    return new DeviceAllocation(
        request, driver, pool, device, false, List.of(tolerations), conditions, failureConditions, null, Map.of());
  }

  static List<DeviceAllocation> multipleDeviceAllocationResults(
      String request, String driver, String pool, int count, int startIndex) {
    var results = new ArrayList<DeviceAllocation>();
    for (int i = startIndex; i < startIndex + count; i++) {
      results.add(deviceAllocationResult(request, driver, pool, "device-" + i, false));
    }
    return results;
  }

  static List<NodeSelectorTerm> nodeLabelSelector(String key, String... values) {
    return List.of(
        new NodeSelectorTerm(
            List.of(NodeSelectorRequirement.of(key, NodeSelectorRequirement.Operator.IN, values)), List.of()));
  }

  static List<NodeSelectorTerm> localNodeSelector(String nodeName) {
    return List.of(
        new NodeSelectorTerm(
            List.of(), List.of(NodeSelectorRequirement.of(fieldNameKey, NodeSelectorRequirement.Operator.IN, nodeName))));
  }

  static AllocationResult allocationResult(@Nullable List<NodeSelectorTerm> selector, DeviceAllocation... results) {
    return new AllocationResult(List.of(results), List.of(), selector, null);
  }

  static AllocationResult allocationResult(@Nullable List<NodeSelectorTerm> selector, List<DeviceAllocation> results) {
    return new AllocationResult(results, List.of(), selector, null);
  }

  static AllocationResult allocationResultWithConfig(
      @Nullable List<NodeSelectorTerm> selector, String driver, String source, String attribute, DeviceAllocation... results) {
    return new AllocationResult(
        List.of(results), List.of(new ClaimConfig(source, List.of(), deviceConfiguration(driver, attribute))), selector,
        null);
  }

  static AllocationResult allocationResultWithConfigs(
      @Nullable List<NodeSelectorTerm> selector, List<DeviceAllocation> results, List<ClaimConfig> configs) {
    return new AllocationResult(results, configs, selector, null);
  }

  static DeviceTaint taint(String key, String value, DeviceTaint.Effect effect) {
    return new DeviceTaint(key, value, effect, null);
  }
}
