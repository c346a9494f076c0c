package io.kubesched.policy.plugins.dynamicresources.structured;

import static io.kubesched.policy.plugins.dynamicresources.structured.KubeFixtures.*;

import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.dra.AllocationMode;
import io.kubesched.api.dra.DeviceId;
import io.kubesched.api.dra.ResourceClaim;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * kube's allocator test table ({@code k8s.io/dynamic-resource-allocation@v0.37.2/structured/internal/
 * allocatortesting/allocator_testing.go}) under kube's case names, run against the port with kube 1.37's default
 * features. Cases that switch a default-on feature off ({@code *-disabled}, {@code *-without-feature-gate}) or need
 * an alpha feature (compatibility groups, list-typed or derived attributes, optional node operations) do not
 * apply and are not ported. Cases whose selectors need more CEL than a driver check live in {@code
 * AllocatorTestingCelTest}.
 */
class AllocatorTestingTest {

  static final Map<String, Supplier<KubeCase>> CASES = new LinkedHashMap<>();

  private static void tc(String name, Supplier<KubeCase> tc) {
    if (CASES.put(name, tc) != null) {
      throw new IllegalStateException("duplicate case " + name);
    }
  }

  static DeviceId id(String driver, String pool, String device) {
    return new DeviceId(driver, pool, device);
  }

  static ResourceClaim allClaim(String name, String request, String deviceClass) {
    return claimWithRequests(name, null, allDeviceRequest(request, deviceClass));
  }

  static ResourceClaim exactClaim(String name, String request, String deviceClass, long count) {
    return claimWithRequests(name, null, request(request, deviceClass, count));
  }

  @TestFactory
  Stream<DynamicTest> kubeCases() {
    return CASES.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> e.getValue().get().run()));
  }

  static {
    tc("simple", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .node(node(node1, region1))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("other-node", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverB), sliceWithOneDevice(slice2, node2, pool2, driverA))
        .node(node(node2, region2))
        .expect(allocationResult(localNodeSelector(node2), deviceAllocationResult(req0, driverA, pool2, device1, false))));
    tc("devices-split-across-different-slices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverA))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool2, device1, false))));
    tc("obsolete-slice", () -> {
      var newer = sliceWithDevices("slice-1-obsolete", node1, new io.kubesched.api.dra.ResourcePool(pool1, 2, 2), driverA,
          device(device2, null, null));
      return new KubeCase()
          .claims(claimWithRequest(claim0, req0, classA))
          .classes(deviceClass(classA, driverA))
          .slices(sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA, device(device1, null, null)), newer)
          .expectNone();
    });
    tc("duplicate-slice", () -> {
      var sliceA = withPool(sliceWithOneDevice(slice1, node1, pool1, driverA), resourcePool(pool1, 2));
      var sliceB = withName(sliceA, slice1 + "-2");
      return new KubeCase()
          .claims(claimWithRequest(claim0, req0, classA))
          .classes(deviceClass(classA, driverA))
          .slices(sliceA, sliceB)
          .expectUnsuitable("invalid resource pools were encountered");
    });
    tc("no-slices", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .expectNone());
    tc("not-enough-suitable-devices", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req1, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("no-classes", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("could not retrieve device class class-a"));
    tc("unknown-class", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, "unknown-class"))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("could not retrieve device class unknown-class"));
    tc("empty-class", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, ""))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("claim claim-0, request req-0: missing device class name (unsupported request type?)"));
    tc("no-claims-to-allocate", () -> new KubeCase()
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("all-devices-single", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("all-devices-with-consumed-counters", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(
                    deviceCounterConsumption(counterSet1, Map.of("memory", q("4Gi"))))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                counterSet(counterSet1, Map.of("memory", q("8Gi")))))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("all-devices-many", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice1, node1, pool2, driverA))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool2, device1, false))));
    tc("all-devices-of-the-incomplete-pool", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(withPool(sliceWithOneDevice(slice1, node1, pool1, driverA), resourcePool(pool1, 2)))
        .expectError("claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated"));
    tc("all-devices-plus-another", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA), exactClaim(claim1, req0, classB, 1))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice1, node1, pool1, driverB))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))));
    tc("all-devices-plus-another-reversed", () -> new KubeCase()
        .claims(exactClaim(claim1, req0, classB, 1), allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice1, node1, pool1, driverB))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("all-devices-many-plus-another", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA), exactClaim(claim1, req0, classB, 1))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(
            sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)),
            sliceWithOneDevice(slice1, node1, pool1, driverB))
        .expect(
            allocationResult(localNodeSelector(node1),
                deviceAllocationResult(req0, driverA, pool1, device1, false),
                deviceAllocationResult(req0, driverA, pool1, device2, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))));
    tc("all-devices-many-plus-another-reversed", () -> new KubeCase()
        .claims(exactClaim(claim1, req0, classB, 1), allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(
            sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)),
            sliceWithOneDevice(slice1, node1, pool1, driverB))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false)),
            allocationResult(localNodeSelector(node1),
                deviceAllocationResult(req0, driverA, pool1, device1, false),
                deviceAllocationResult(req0, driverA, pool1, device2, false))));
    tc("all-devices-no-solution", () -> new KubeCase()
        .claims(exactClaim(claim1, req0, classA, 1), allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("all-devices-no-solution-reversed", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA), exactClaim(claim1, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("all-devices-slice-without-devices", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithNoDevices(slice1, node1, pool1, driverA))
        .expectNone());
    tc("all-devices-no-slices", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .expectNone());
    tc("all-devices-some-allocated", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .allocated(id(driverA, pool1, device1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expectNone());
    tc("all-devices-some-allocated-admin-access", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(allDeviceRequest(req0, classA))))
        .allocated(id(driverA, pool1, device1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, true),
            deviceAllocationResult(req0, driverA, pool1, device2, true))));
    tc("all-devices-some-allocating-admin-access", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(request(req0, classA, 1)), adminRequest(allDeviceRequest(req1, classA))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expectNone());
    tc("count-devices-some-allocated-admin-access", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(request(req0, classA, 2))))
        .allocated(id(driverA, pool1, device1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, true),
            deviceAllocationResult(req0, driverA, pool1, device2, true))));
    tc("separate-claims-share-device-admin-access", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(request(req0, classA, 1))),
            claimWithRequests(claim1, null, adminRequest(request(req0, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))));
    tc("admin-access-claims-device-allocating-for-non-admin-access", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA), claimWithRequests(claim1, null, adminRequest(request(req0, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))));
    tc("all-devices-slice-without-devices-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classB, 1))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithNoDevices(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverB))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))));
    tc("all-devices-no-slices-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classB, 1))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice2, node1, pool2, driverB))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))));
    tc("all-devices-some-allocated-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classB, 1))))
        .allocated(id(driverA, pool1, device1))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)),
            sliceWithOneDevice(slice2, node1, pool2, driverB))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))));
    tc("network-attached-device", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA))
        .expect(allocationResult(nodeLabelSelector(regionKey, region1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("unsuccessful-allocation-network-attached-device", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA))
        .node(node(node2, region2))
        .expectNone());
    tc("many-network-attached-devices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 4))
        .classes(deviceClass(classA, driverA))
        .slices(
            sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
            sliceWithOneDevice(slice1, nodeSelectionAll, pool2, driverA),
            sliceWithOneDevice(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool3, driverA),
            sliceWithOneDevice(slice1, localNodeSelector(node1), pool4, driverA))
        .expect(allocationResult(
            List.of(new NodeSelectorTerm(
                List.of(NodeSelectorRequirement.of(regionKey, NodeSelectorRequirement.Operator.IN, region1),
                    NodeSelectorRequirement.of(planetKey, NodeSelectorRequirement.Operator.IN, planetValueEarth)),
                List.of(NodeSelectorRequirement.of(fieldNameKey, NodeSelectorRequirement.Operator.IN, node1)))),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool2, device1, false),
            deviceAllocationResult(req0, driverA, pool3, device1, false),
            deviceAllocationResult(req0, driverA, pool4, device1, false))));
    tc("local-and-network-attached-devices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
            sliceWithOneDevice(slice1, node1, pool2, driverA))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool2, device1, false))));
    tc("several-different-drivers", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req0, classB))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)),
            sliceWithOneDevice(slice1, node1, pool1, driverB))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))));
    tc("already-allocated-devices", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .allocated(id(driverA, pool1, device1), id(driverA, pool1, device2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("admin-access-enabled", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(request(req0, classA, 1))))
        .allocated(id(driverA, pool1, device1), id(driverA, pool1, device2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))));
  }
}
