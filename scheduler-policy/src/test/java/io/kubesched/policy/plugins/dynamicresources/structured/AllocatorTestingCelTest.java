package io.kubesched.policy.plugins.dynamicresources.structured;

import static io.kubesched.policy.plugins.dynamicresources.structured.AllocatorTestingTest.*;
import static io.kubesched.policy.plugins.dynamicresources.structured.KubeFixtures.*;

import io.kubesched.api.AllocationMode;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The cases of kube's allocator test table whose selectors need CEL beyond a driver check (capacities, attributes,
 * compile errors), run through the real {@link io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors}.
 */
class AllocatorTestingCelTest {

  static final Map<String, Supplier<KubeCase>> CASES = new LinkedHashMap<>();

  private static void tc(String name, Supplier<KubeCase> tc) {
    if (CASES.put(name, tc) != null) {
      throw new IllegalStateException("duplicate case " + name);
    }
  }

  @TestFactory
  Stream<DynamicTest> kubeCases() {
    return CASES.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> e.getValue().get().run()));
  }

  static String memoryAtLeast(String quantity) {
    return "device.capacity[\"" + driverA + "\"].memory.compareTo(quantity(\"" + quantity + "\")) >= 0";
  }

  static String attributeIs(String attribute, String value) {
    return "device.attributes[\"" + driverA + "\"]." + attribute + " == \"" + value + "\"";
  }

  static DeviceRequest withSelectors(DeviceRequest request, String... selectors) {
    var r = request.exactly();
    return DeviceRequest.exactly(request.name(), new DeviceRequirements(r.deviceClassName(), List.of(selectors),
        r.allocationMode(), r.count(), r.adminAccess(), r.tolerations(), r.capacityRequests()));
  }

  static D mem(String name, String memory) {
    return device(name, Map.of("memory", q(memory)), Map.of());
  }

  static D versioned(String name, String memory, String version) {
    return device(name, Map.of("memory", q(memory)), Map.of("driverVersion", version(version)));
  }

  static {
    tc("small-and-large", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, memoryAtLeast("1Gi")), request(req1, classA, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device1, "1Gi"), mem(device2, "2Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1, driverA, pool1, device2, false))));
    tc("small-and-large-backtrack-requests", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, memoryAtLeast("1Gi")), request(req1, classA, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device2, "2Gi"), mem(device1, "1Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1, driverA, pool1, device2, false))));
    tc("small-and-large-backtrack-claims", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, memoryAtLeast("1Gi"))),
            claimWithRequests(claim1, null, request(req1, classA, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device2, "2Gi"), mem(device1, "1Gi")))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2, false))));
    tc("invalid-CEL-one-device", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, "noSuchVar")))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("undeclared reference"));
    tc("invalid-CEL-one-device-class", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(new DeviceClass(classA, List.of("noSuchVar"), List.of(), null))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("undeclared reference"));
    tc("invalid-CEL-all-devices", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, allMode(request(req0, classA, 1, "noSuchVar"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("undeclared reference"));
    tc("prioritized-list-subrequests-with-expressions", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, memoryAtLeast("1Gi")),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("4Gi")), subRequest(subReq1, classA, 2, memoryAtLeast("2Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device1, "2Gi"), mem(device2, "2Gi"), mem(device3, "1Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device3, false),
            deviceAllocationResult(req1SubReq1, driverA, pool1, device1, false),
            deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false))));
    tc("prioritized-list-subrequests-with-constraints-ref-parent-request", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(versionAttribute, req0, req1)), request(req0, classA, 1, memoryAtLeast("8Gi")),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("2Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("1Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, versioned(device1, "8Gi", "1.0.0")),
            sliceWithDevices(slice2, node1, pool2, driverA, versioned(device2, "2Gi", "2.0.0"), versioned(device3, "1Gi", "1.0.0")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1SubReq1, driverA, pool2, device3, false))));
    tc("prioritized-list-subrequests-with-constraints-ref-sub-request", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(versionAttribute, req0, req1SubReq0)), request(req0, classA, 1, memoryAtLeast("8Gi")),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("2Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("1Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, versioned(device1, "8Gi", "1.0.0")),
            sliceWithDevices(slice2, node1, pool2, driverA, versioned(device2, "2Gi", "2.0.0")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1SubReq1, driverA, pool2, device2, false))));
    tc("prioritized-list-multi-request", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req1, classA, 1, memoryAtLeast("8Gi")),
            requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memoryAtLeast("8Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device1, "8Gi")), sliceWithDevices(slice2, node1, pool2, driverA, mem(device2, "4Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req1, driverA, pool1, device1, false), deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false))));
    tc("prioritized-list-with-backtracking", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null,
            requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memoryAtLeast("8Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi"))),
            request(req1, classA, 1, memoryAtLeast("8Gi"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, mem(device1, "8Gi")), sliceWithDevices(slice2, node1, pool2, driverA, mem(device2, "4Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false), deviceAllocationResult(req1, driverA, pool1, device1, false))));
    tc("partitionable-devices-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false))));
    tc("partitionable-devices-per-device-node-selection-nodename", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null,
            requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")).withNodeSelection(node1),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")).withNodeSelection(node2)),
            sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "18Gi")))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("partitionable-devices-devices-on-different-nodes-consume-same-counter-set", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null,
            requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("2Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA, cs(counterSet1, "memory", "8Gi")),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "2Gi"))),
            sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
                device(device3, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi"))))
        .allocated(id(driverA, pool1, device3))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false))));
    tc("prioritized-list-allocation-mode-all-with-selectors", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0, attributeIs("generation", "v6")), AllocationMode.ALL),
            withAllocationMode(subRequest(subReq1, classA, 0, attributeIs("generation", "v5")), AllocationMode.ALL))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, Map.of("generation", string("v5")))))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("prioritized-list-allocation-mode-all-with-selectors-multiple-pools", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0, attributeIs("generation", "v6")), AllocationMode.ALL),
            withAllocationMode(subRequest(subReq1, classA, 0, attributeIs("generation", "v5")), AllocationMode.ALL))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, Map.of("generation", string("v5")))),
            sliceWithDevices(slice2, node1, pool2, driverA, device(device1, null, Map.of("generation", string("v5")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false), deviceAllocationResult(req0SubReq1, driverA, pool2, device1, false))));
    tc("prioritized-list-allocation-mode-all-with-selectors-multiple-pools-across-nodes", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0, attributeIs("generation", "v6")), AllocationMode.ALL),
            withAllocationMode(subRequest(subReq1, classA, 0, attributeIs("generation", "v5")), AllocationMode.ALL))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, Map.of("generation", string("v5")))),
            sliceWithDevices(slice2, node2, pool2, driverA, device(device1, null, Map.of("generation", string("v5"))),
                device(device2, null, Map.of("generation", string("v6")))))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("prioritized-list-allocation-mode-all-with-selectors-deviceclass-subset", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0, attributeIs("generation", "v6")), AllocationMode.ALL),
            withAllocationMode(subRequest(subReq1, classA, 0, attributeIs("generation", "v5")), AllocationMode.ALL))))
        .classes(new DeviceClass(classA, List.of("device.driver == \"" + driverA + "\" && device.attributes[\"" + driverA + "\"].selected"), List.of(), null))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, Map.of("generation", string("v6"), "selected", bool(false))),
            device(device2, null, Map.of("generation", string("v5"), "selected", bool(false))),
            device(device3, null, Map.of("generation", string("v5"), "selected", bool(true)))))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device3, false))));
    tc("check-combinations-with-backtracking", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req1, classA, 2), request(req2, classA, 1, attributeIs("type", "X"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, Map.of("type", string("X"))), device(device2, null, Map.of("type", string("Y"))),
            device(device3, null, Map.of("type", string("Y")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req1, driverA, pool1, device2, false), deviceAllocationResult(req1, driverA, pool1, device3, false),
            deviceAllocationResult(req2, driverA, pool1, device1, false)))
        .steps(12));
    tc("check-combinations-with-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null,
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 3, attributeIs("type", "Y")), subRequest(subReq1, classA, 2)),
            requestWithPrioritizedList(req2, subRequest(subReq0, classA, 2), subRequest(subReq1, classA, 1, attributeIs("type", "X")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, Map.of("type", string("X"))), device(device2, null, Map.of("type", string("Y"))),
            device(device3, null, Map.of("type", string("Y")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false), deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false),
            deviceAllocationResult("req-2/subReq-1", driverA, pool1, device1, false)))
        .steps(26));
    tc("allow-multiple-allocations-with-shared-device-counter-cross-cycle", () -> {
      var c = new KubeCase()
          .claims(claimWithRequests(claim0, null, withSelectors(withCapacityRequest(request(req0, classA, 1), one), attributeIs("mode", "b"))))
          .classes(multiClassA)
          .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                  device(device1, fromCounters, Map.of("mode", string("a"))).withDeviceCounterConsumption(cc(counterSet1, capacity0, "1")).withAllowMultipleAllocations(),
                  device(device2, fromCounters, Map.of("mode", string("b"))).withDeviceCounterConsumption(cc(counterSet1, capacity0, "1")).withAllowMultipleAllocations()),
              sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, capacity0, "1")))
          .expectNone();
      c.allocatedShares = Map.of(id(driverA, pool1, device1), List.of(Map.of(capacity0, one)));
      return c;
    });
  }

  static io.kubesched.api.DeviceAllocation sharedWith(String request, String device, Map<String, io.kubesched.api.Quantity> consumed) {
    return withConsumedCapacity(deviceAllocationResult(request, driverA, pool1, device, false), true, consumed);
  }

  static String capacityAtLeast(String name, String quantity) {
    return "device.capacity[\"" + driverA + "\"][\"" + name + "\"].compareTo(quantity(\"" + quantity + "\")) >= 0";
  }

  static {
    tc("partitionable-devices-multiple-capacity-pools", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"), cc(counterSet2, "cpus", "4")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi"), cc(counterSet2, "cpus", "6")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"), cc(counterSet2, "cpus", "4"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "18Gi"), cs(counterSet2, "cpus", "8")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false), deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false))));
    tc("partitionable-devices-with-attribute-selector", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 2), request(req1, classA, 1, "device.attributes[\"" + driverA + "\"].special")))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, Map.of("special", bool(true))).withDeviceCounterConsumption(cc(counterSet1, "cpu1", "1"), cc(counterSet2, "mem", "10Gi")),
                device(device2, null, Map.of("special", bool(false))).withDeviceCounterConsumption(cc(counterSet1, "cpu2", "1"), cc(counterSet2, "mem", "10Gi")),
                device(device3, null, Map.of("special", bool(false))).withDeviceCounterConsumption(cc(counterSet1, "cpu3", "1"), cc(counterSet2, "mem", "10Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                cs(counterSet1, "cpu1", "1", "cpu2", "1", "cpu3", "1"), cs(counterSet2, "mem", "30Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false), deviceAllocationResult(req0, driverA, pool1, device3, false),
            deviceAllocationResult(req1, driverA, pool1, device1, false))));
    tc("partitionable-consumable-capacity-backtrack-releases-counter", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, attributeIs("kind", "shared")), request(req1, classA, 1, attributeIs("kind", "counteronly"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, Map.of("kind", string("shared"))).withAllowMultipleAllocations().withDeviceCounterConsumption(cc(counterSet1, "c", "1")),
                device(device2, null, Map.of("kind", string("shared"))),
                device(device3, null, Map.of("kind", string("counteronly"))).withDeviceCounterConsumption(cc(counterSet1, "c", "1"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "c", "1")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false), deviceAllocationResult(req1, driverA, pool1, device3, false))));
    tc("consumable-capacity-rejection-rolls-back-constraints", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withSelectors(withCapacityRequest(request(req0, classA, 1), two), attributeIs("stringAttribute", "cap"))),
            claimWithRequests(claim1, List.of(matchAttribute(stringAttribute)), requestWithPrioritizedList(req0,
                withCapacityRequest(withAllocationMode(subRequest(subReq0, classA, 1, attributeIs("stringAttribute", "cap")), AllocationMode.ALL), two),
                subRequest(subReq1, classA, 1, attributeIs("stringAttribute", "fb")))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, two), Map.of("stringAttribute", string("cap"))).withAllowMultipleAllocations(),
            device(device2, null, Map.of("stringAttribute", string("fb")))))
        .expect(allocationResult(localNodeSelector(node1), sharedWith(req0, device1, Map.of(capacity0, two))),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false))));
    tc("partitionable-empty-capacity-multiple-share-backtrack-keeps-counter-ownership", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, attributeIs("kind", "shared"))),
            claimWithRequests(claim1, List.of(matchAttribute(stringAttribute, req1, req2)),
                request(req1, classA, 1, attributeIs("kind", "shared") + " || " + attributeIs("kind", "fallback")),
                request(req2, classA, 1, attributeIs("kind", "gate")),
                request(req3, classA, 1, attributeIs("kind", "shared"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, Map.of("kind", string("shared"), "stringAttribute", string("red"))).withAllowMultipleAllocations()
                    .withDeviceCounterConsumption(cc(counterSet1, "c", "1")),
                device(device2, null, Map.of("kind", string("fallback"), "stringAttribute", string("blue"))),
                device(device3, null, Map.of("kind", string("gate"), "stringAttribute", string("blue")))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "c", "1")))
        .expect(allocationResult(localNodeSelector(node1), sharedWith(req0, device1, Map.of())),
            allocationResult(localNodeSelector(node1),
                deviceAllocationResult(req1, driverA, pool1, device2, false), deviceAllocationResult(req2, driverA, pool1, device3, false),
                sharedWith(req3, device1, Map.of()))));
    tc("allow-multiple-allocations-with-partitionable-device", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, memoryAtLeast("6Gi")), subRequest(subReq1, classA, 1, memoryAtLeast("4Gi")))))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")).withAllowMultipleAllocations(),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")).withAllowMultipleAllocations(),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")).withAllowMultipleAllocations()),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            sharedWith(req0, device1, Map.of("memory", q("4Gi"))), sharedWith(req1SubReq1, device3, Map.of("memory", q("4Gi"))))));
    tc("consumable-capacity-with-partitionable-device-multiple-capacity-pools", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(request(req0, classA, 1), one), withCapacityRequest(request(req2, classA, 1), two),
            requestWithPrioritizedList(req1,
                withCapacityRequest(subRequest(subReq0, classA, 1, capacityAtLeast(capacity0, "4")), one),
                withCapacityRequest(subRequest(subReq1, classA, 1, capacityAtLeast(capacity0, "2")), one))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, capacity0, "2"), cc(counterSet2, capacity1, "4"))
                    .withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity1, four)),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, capacity0, "4"), cc(counterSet2, capacity1, "4"))
                    .withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity1, four)),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, capacity0, "2"), cc(counterSet2, capacity1, "4"))
                    .withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity1, four))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, capacity0, "4"), cs(counterSet2, capacity1, "8")))
        .expect(allocationResult(localNodeSelector(node1),
            sharedWith(req0, device1, Map.of(capacity0, one, capacity1, two)),
            sharedWith(req2, device3, Map.of(capacity0, two, capacity1, two)),
            sharedWith(req1SubReq1, device1, Map.of(capacity0, one, capacity1, two)))));
    tc("with-distinct-constraints-with-subrequests", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(boolAttribute, req0, req1)),
            requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, "device.attributes[\"" + driverA + "\"].boolAttribute"), subRequest(subReq1, classA, 1)),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, "device.attributes[\"" + driverA + "\"].boolAttribute"), subRequest(subReq1, classA, 1)),
            requestWithPrioritizedList(req2, subRequest(subReq0, classA, 1, "device.attributes[\"" + driverA + "\"].boolAttribute"), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, Map.of("boolAttribute", bool(true))).withAllowMultipleAllocations(),
            device(device2, null, Map.of("boolAttribute", bool(false))).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1),
            sharedWith(req0SubReq0, device1, Map.of()), sharedWith(req1SubReq1, device2, Map.of()), sharedWith("req-2/subReq-0", device1, Map.of()))));
    tc("check-combinations-with-backtracking-across-slices-and-pools", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req1, classA, 2), request(req2, classA, 1, attributeIs("type", "X"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, Map.of("type", string("X")))),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, null, Map.of("type", string("Y")))),
            sliceWithDevices(slice3, node1, pool2, driverA,
                device(device3, null, Map.of("type", string("Y"))).withBindingConditions(List.of("IsPrepare"), List.of())))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req1, driverA, pool1, device2, false),
            deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool2, device3, List.of("IsPrepare"), List.of()),
            deviceAllocationResult(req2, driverA, pool1, device1, false)))
        .steps(12));
  }
}
