package io.kubesched.policy.plugins.dynamicresources.structured;

import static io.kubesched.policy.plugins.dynamicresources.structured.KubeFixtures.*;

import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.ClaimConfig;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceId;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
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
      var newer = sliceWithDevices("slice-1-obsolete", node1, new io.kubesched.api.ResourcePool(pool1, 2, 2), driverA,
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

  static final String nonExistentAttribute = driverA + "/NonExistentAttribute";
  static final String boolAttribute = driverA + "/boolAttribute";
  static final String stringAttribute = driverA + "/stringAttribute";
  static final String versionAttribute = driverA + "/driverVersion";
  static final String intAttribute = driverA + "/numa";

  static Map<String, io.kubesched.api.DeviceAttribute> attrs(Object... kv) {
    var map = new LinkedHashMap<String, io.kubesched.api.DeviceAttribute>();
    for (int i = 0; i < kv.length; i += 2) {
      map.put((String) kv[i], (io.kubesched.api.DeviceAttribute) kv[i + 1]);
    }
    return map;
  }

  static DeviceRequest allMode(DeviceRequest request) {
    var r = request.exactly();
    return DeviceRequest.exactly(request.name(), new io.kubesched.api.DeviceRequirements(
        r.deviceClassName(), r.selectors(), AllocationMode.ALL, r.count(), r.adminAccess(), r.tolerations(), r.capacityRequests()));
  }

  static {
    tc("with-constraint", () -> {
      var all = attrs("driverVersion", version("1.0.0"), "numa", integer(1), "stringAttribute", string("stringAttributeValue"), "boolAttribute", bool(true));
      return new KubeCase()
          .claims(claimWithRequests(claim0, List.of(matchAttribute(intAttribute), matchAttribute(versionAttribute),
              matchAttribute(stringAttribute), matchAttribute(boolAttribute)), request(req0, classA, 1), request(req1, classA, 1)))
          .classes(deviceClass(classA, driverA))
          .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, all), device(device2, null, all)))
          .expect(allocationResult(localNodeSelector(node1),
              deviceAllocationResult(req0, driverA, pool1, device1, false),
              deviceAllocationResult(req1, driverA, pool1, device2, false)));
    });
    tc("with-constraint-non-existent-attribute", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA, matchAttribute(nonExistentAttribute)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectNone());
    tc("with-constraint-not-matching-int-attribute", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(intAttribute)), request(req0, classA, 2)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("numa", integer(1))), device(device2, null, attrs("numa", integer(2)))))
        .expectNone());
    tc("with-constraint-not-matching-int-attribute-all-devices", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(intAttribute)), allMode(request(req0, classA, 0))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("numa", integer(1))), device(device2, null, attrs("numa", integer(2)))))
        .expectError("claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied"));
    tc("partitionable-all-mode-constraint-must-error-with-reserved-counter", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(intAttribute)), allMode(request(req0, classA, 0))))
        .classes(deviceClass(classA, driverA))
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, attrs("numa", integer(1))),
                device(device2, null, attrs("numa", integer(2))).withDeviceCounterConsumption(
                    deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, Map.of("c", q("1")))))
        .expectError("claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied"));
    tc("with-constraint-not-matching-string-attribute", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(stringAttribute)), request(req0, classA, 2)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("stringAttribute", string("stringAttributeValue"))),
            device(device2, null, attrs("stringAttribute", string("stringAttributeValue2")))))
        .expectNone());
    tc("with-constraint-not-matching-bool-attribute", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(boolAttribute)), request(req0, classA, 2)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("boolAttribute", bool(true))), device(device2, null, attrs("boolAttribute", bool(false)))))
        .expectNone());
    tc("with-constraint-not-matching-version-attribute", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(versionAttribute)), request(req0, classA, 2)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("driverVersion", version("1.0.0"))), device(device2, null, attrs("driverVersion", version("2.0.0")))))
        .expectNone());
    tc("with-constraint-for-request", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(versionAttribute, req0)), request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("driverVersion", version("1.0.0"))), device(device2, null, attrs("driverVersion", version("2.0.0")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req1, driverA, pool1, device2, false))));
    tc("with-constraint-for-request-retry", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(versionAttribute, req0), matchAttribute(stringAttribute)),
            request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("driverVersion", version("1.0.0"), "stringAttribute", string("a"))),
            device(device2, null, attrs("driverVersion", version("2.0.0"), "stringAttribute", string("b"))),
            device(device3, null, attrs("driverVersion", version("3.0.0"), "stringAttribute", string("b")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req1, driverA, pool1, device3, false))));
    tc("with-class-device-config", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(classWithConfig(classA, driverA, "classAttribute"))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0, driverA, pool1, device1, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLASS, List.of(), deviceConfiguration(driverA, "classAttribute"))))));
    tc("with-class-device-config-with-multiple-request-and-configs", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(), request(req0, classA, 1), request(req1, classA, 1), request(req2, classB, 1)))
        .classes(classWithConfig(classA, driverA, "classAttribute-A"), classWithConfig(classB, driverB, "classAttribute-B"))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2), sliceWithOneDevice(slice2, node1, pool1, driverB))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0, driverA, pool1, device0, false),
                deviceAllocationResult(req1, driverA, pool1, device1, false),
                deviceAllocationResult(req2, driverB, pool1, device1, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLASS, List.of(req0, req1), deviceConfiguration(driverA, "classAttribute-A")),
                new ClaimConfig(ClaimConfig.FROM_CLASS, List.of(req2), deviceConfiguration(driverB, "classAttribute-B"))))));
    tc("with-claim-config-for-two-requests", () -> new KubeCase()
        .claims(claimWithConfigs(claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1), request(req2, classA, 1)),
            deviceClaimConfig(List.of(req0, req1), deviceConfiguration(driverA, "deviceAttribute"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 3))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0, driverA, pool1, device0, false),
                deviceAllocationResult(req1, driverA, pool1, device1, false),
                deviceAllocationResult(req2, driverA, pool1, device2, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of(req0, req1), deviceConfiguration(driverA, "deviceAttribute"))))));
    tc("claim-with-device-config", () -> new KubeCase()
        .claims(claimWithDeviceConfig(claim0, req0, classA, driverA, "deviceAttribute"))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResultWithConfig(localNodeSelector(node1), driverA, ClaimConfig.FROM_CLAIM, "deviceAttribute",
            deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("unknown-selector", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1, "")))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("CEL expression empty (unsupported selector type?)"));
    tc("unknown-constraint", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA, new io.kubesched.api.DeviceConstraint(List.of(), null, null)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expectError("empty constraint (unsupported constraint type?)"));
    tc("too-many-devices-single-request", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 500))
        .classes(deviceClass(classA, driverA))
        .expectError("exceeds the claim limit"));
    tc("many-devices-okay", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, Search.MAX_RESULTS))
        .classes(deviceClass(classA, driverA))
        .expectNone());
    tc("too-many-devices-total", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, Search.MAX_RESULTS), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, Search.MAX_RESULTS + 1))
        .expectError("exceeds the claim limit"));
    tc("exact-count-total-overflows-claim-limit", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, Long.MAX_VALUE / 2 + 1), request(req1, classA, Long.MAX_VALUE / 2 + 1)))
        .classes(deviceClass(classA, driverA))
        .expectError("exceeds the claim limit"));
    tc("exact-count-total-would-wrap-to-zero", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, Long.MAX_VALUE / 2 + 1), request(req1, classA, Long.MAX_VALUE / 2 + 1),
            request(req2, classA, Long.MAX_VALUE / 2 + 1), request(req3, classA, Long.MAX_VALUE / 2 + 1)))
        .classes(deviceClass(classA, driverA))
        .expectError("exceeds the claim limit"));
    tc("exact-count-sum-exceeds-claim-limit", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 20), request(req1, classA, 20)))
        .classes(deviceClass(classA, driverA))
        .expectError("request " + req1 + ": adding 20 devices exceeds the claim limit"));
    tc("exact-count-sum-exactly-fills-claim-limit", () -> {
      var results = new java.util.ArrayList<>(multipleDeviceAllocationResults(req0, driverA, pool1, Search.MAX_RESULTS / 2, 0));
      results.addAll(multipleDeviceAllocationResults(req1, driverA, pool1, Search.MAX_RESULTS / 2, Search.MAX_RESULTS / 2));
      return new KubeCase()
          .claims(claimWithRequests(claim0, null, request(req0, classA, Search.MAX_RESULTS / 2), request(req1, classA, Search.MAX_RESULTS / 2)))
          .classes(deviceClass(classA, driverA))
          .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, Search.MAX_RESULTS))
          .expect(allocationResult(localNodeSelector(node1), results));
    });
    tc("all-devices-invalid-CEL", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 500))
        .classes(deviceClass(classA, driverA))
        .expectError("exceeds the claim limit"));
    tc("prioritized-list-first-unavailable", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("prioritized-list-non-available", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classB, 2), subRequest(subReq1, classA, 2))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA), sliceWithOneDevice(slice2, node1, pool2, driverB))
        .expectNone());
    tc("prioritized-list-device-config", () -> new KubeCase()
        .claims(claimWithConfigs(
            claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 2))),
            deviceClaimConfig(List.of(req0SubReq0), deviceConfiguration(driverA, "foo")),
            deviceClaimConfig(List.of(req0SubReq1), deviceConfiguration(driverB, "bar"))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverB, device(device1, null, Map.of()), device(device2, null, Map.of())))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false), deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of(), deviceConfiguration(driverB, "bar"))))));
    tc("prioritized-list-class-config", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classA, 2), subRequest(subReq1, classB, 2))))
        .classes(classWithConfig(classA, driverA, "foo"), classWithConfig(classB, driverB, "bar"))
        .slices(sliceWithDevices(slice1, node1, pool1, driverB, device(device1, null, null), device(device2, null, null)),
            sliceWithDevices(slice2, node1, pool2, driverA, device(device3, null, null)))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false), deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLASS, List.of(), deviceConfiguration(driverB, "bar"))))));
    tc("claim-config-scoped-to-subrequests-of-one-request", () -> new KubeCase()
        .claims(claimWithConfigs(
            claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)), request(req1, classA, 1)),
            deviceClaimConfig(List.of(req0SubReq0, req0SubReq1), deviceConfiguration(driverA, "scoped"))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0SubReq0, driverA, pool1, device0, false), deviceAllocationResult(req1, driverA, pool1, device1, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of(req0SubReq0, req0SubReq1), deviceConfiguration(driverA, "scoped"))))));
    tc("claim-config-covering-all-requests-is-cleared", () -> new KubeCase()
        .claims(claimWithConfigs(
            claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)), request(req1, classA, 1)),
            deviceClaimConfig(List.of(req0SubReq0, req1), deviceConfiguration(driverA, "all"))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2))
        .expect(allocationResultWithConfigs(localNodeSelector(node1),
            List.of(deviceAllocationResult(req0SubReq0, driverA, pool1, device0, false), deviceAllocationResult(req1, driverA, pool1, device1, false)),
            List.of(new ClaimConfig(ClaimConfig.FROM_CLAIM, List.of(), deviceConfiguration(driverA, "all"))))));
    tc("prioritized-list-subrequests-with-allocation-mode-all", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .allocated(id(driverA, pool1, device1))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false))));
    tc("prioritized-list-allocation-mode-all-multiple-requests", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1), requestWithPrioritizedList(req1,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false))));
  }

  static final String taintKey = "taint-key";
  static final String taintValue = "taint-value";
  static final String taintValue2 = "taint-value-2";
  static final io.kubesched.api.DeviceTaint taintNone = taint(taintKey, taintValue, io.kubesched.api.DeviceTaint.Effect.NONE);
  static final io.kubesched.api.DeviceTaint taintNoSchedule = taint(taintKey, taintValue, io.kubesched.api.DeviceTaint.Effect.NO_SCHEDULE);
  static final io.kubesched.api.DeviceTaint taintNoExecute = taint(taintKey, taintValue2, io.kubesched.api.DeviceTaint.Effect.NO_EXECUTE);
  static final io.kubesched.api.DeviceToleration tolerationNoSchedule =
      new io.kubesched.api.DeviceToleration(taintKey, "Exists", "", io.kubesched.api.DeviceTaint.Effect.NO_SCHEDULE, null);
  static final io.kubesched.api.DeviceToleration tolerationNoExecute =
      new io.kubesched.api.DeviceToleration(taintKey, "Equal", taintValue2, io.kubesched.api.DeviceTaint.Effect.NO_EXECUTE, null);
  static final io.kubesched.api.DeviceToleration tolerationNoScheduleKey1 =
      new io.kubesched.api.DeviceToleration("key1", "Exists", "", io.kubesched.api.DeviceTaint.Effect.NO_SCHEDULE, null);

  static ResourceSlice counters(String name, Object pool, String driver, String set, String counter, String value) {
    return sliceWithCounterSets(name, node1, pool, driver, counterSet(set, Map.of(counter, q(value))));
  }

  static {
    tc("empty", () -> new KubeCase().expectNone());
    tc("prioritized-list-too-many-in-first-subrequest", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classB, 500), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithOneDevice(slice1, node1, pool1, driverA))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("prioritized-list-minimum-sum-exceeds-claim-limit", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 20),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, 20), subRequest(subReq1, classA, 24))))
        .classes(deviceClass(classA, driverA))
        .expectError("request " + req1 + ": adding 20 devices exceeds the claim limit"));
    tc("prioritized-list-overflowing-first-subrequest-is-pruned", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1),
            requestWithPrioritizedList(req1, subRequest(subReq0, classA, Long.MAX_VALUE), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false)))
        .steps(8));
    tc("partitionable-devices-single-device", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("memory", q("4Gi"))))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, Map.of("memory", q("8Gi")))))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("partitionable-devices-counter-quantities-are-not-modified", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .allocated(id(driverA, pool1, device1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("9000000000000000000")))),
                device(device2, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            counters(slice2, resourcePool(pool1, 2), driverA, counterSet1, "c", "10000000000000000000"))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false))));
    tc("partitionable-devices-counter-cache-scoped-by-pool-ID", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1), exactClaim(claim1, req1, classB, 1))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            counters(slice2, resourcePool(pool1, 2), driverA, counterSet1, "c", "1"),
            sliceWithDevices(slice3, node1, resourcePool(pool1, 2), driverB,
                device(device2, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("2"))))),
            counters(slice4, resourcePool(pool1, 2), driverB, counterSet1, "c", "2"))
        .expect(
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
            allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverB, pool1, device2, false))));
    tc("partitionable-devices-counter-cache-not-crossed-between-driver-schemas", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1), exactClaim(claim1, req1, classB, 1))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            counters(slice2, resourcePool(pool1, 2), driverA, counterSet1, "c", "1"),
            sliceWithDevices(slice3, node1, resourcePool(pool1, 2), driverB,
                device(device2, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, Map.of("d", q("2"))))),
            counters(slice4, resourcePool(pool1, 2), driverB, counterSet2, "d", "1"))
        .expectNone());
    tc("partitionable-devices-taint-releases-counter", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withTaints(taintNoSchedule).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1")))),
                device(device2, null, null).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            counters(slice2, resourcePool(pool1, 2), driverA, counterSet1, "c", "1"))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false))));
    tc("partitionable-devices-constraint-releases-counter", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(stringAttribute)), request(req0, classA, 2)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, attrs("stringAttribute", string("red"))).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1")))),
                device(device2, null, attrs("stringAttribute", string("blue"))).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1")))),
                device(device3, null, attrs("stringAttribute", string("blue"))).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", q("1"))))),
            counters(slice2, resourcePool(pool1, 2), driverA, counterSet1, "c", "2"))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req0, driverA, pool1, device3, false))));
  }

  static io.kubesched.api.CounterConsumption cc(String set, String... kv) {
    var map = new LinkedHashMap<String, io.kubesched.api.Quantity>();
    for (int i = 0; i < kv.length; i += 2) {
      map.put(kv[i], q(kv[i + 1]));
    }
    return deviceCounterConsumption(set, map);
  }

  static io.kubesched.api.CounterSet cs(String set, String... kv) {
    // kube's counterSet(name, nil): a set without counters.
    var map = new LinkedHashMap<String, io.kubesched.api.Quantity>();
    for (int i = 0; i < kv.length; i += 2) {
      map.put(kv[i], q(kv[i + 1]));
    }
    return counterSet(set, map);
  }

  static {
    tc("partitionable-devices-multiple-devices", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req1, driverA, pool1, device3, false))));
    tc("partitionable-devices-multiple-counters", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(
                    cc(counterSet1, "memory", "4Gi", "cpus", "6"), cc(counterSet2, "cpus", "4", "memory", "2Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(
                    cc(counterSet1, "memory", "6Gi", "cpus", "4"), cc(counterSet2, "cpus", "6", "memory", "6Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(
                    cc(counterSet1, "memory", "4Gi", "cpus", "4"), cc(counterSet2, "cpus", "4", "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                cs(counterSet1, "cpus", "8", "memory", "18Gi"), cs(counterSet2, "cpus", "12", "memory", "18Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req1, driverA, pool1, device3, false))));
    tc("partitionable-devices-multiple-pools", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "6", "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "4", "memory", "6Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "4", "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "cpus", "8", "memory", "18Gi")),
            sliceWithDevices(slice3, node1, resourcePool(pool2, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "6", "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "1", "memory", "7Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "cpus", "1", "memory", "7Gi"))),
            sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverA, cs(counterSet1, "cpus", "8", "memory", "18Gi")))
        .allocated(id(driverA, pool1, device2), id(driverA, pool1, device3), id(driverA, pool2, device1))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool2, device2, false),
            deviceAllocationResult(req1, driverA, pool2, device3, false))));
    tc("partitionable-devices-unused-counters-in-counter-set", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "5Gi")),
                device(device2, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")),
                device(device3, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi", "unused", "1Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req0, driverA, pool1, device3, false))));
  }

  static {
    tc("partitionable-devices-no-capacity-available", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "16Gi"))),
            sliceWithCounterSets(slice2, node1, pool1, driverA, cs(counterSet1, "memory", "18Gi")))
        .allocated(id(driverA, pool1, device2))
        .expectNone());
    tc("partitionable-devices-overallocated-capacity-pool", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "20Gi"))),
            sliceWithCounterSets(slice2, node1, pool1, driverA, cs(counterSet1, "memory", "18Gi")))
        .allocated(id(driverA, pool1, device2))
        .expectNone());
    tc("partitionable-devices-per-device-node-selection-node-selector", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withNodeSelection(nodeLabelSelector(regionKey, region1))),
            sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "18Gi")))
        .expect(allocationResult(nodeLabelSelector(regionKey, region1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("partitionable-devices-per-device-node-selection-node-selector-multiple-devices", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 3), request(req1, classB, 3)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(
            sliceWithDevices(slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withNodeSelection(nodeLabelSelector(regionKey, region1)),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")).withNodeSelection(node1),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi")).withNodeSelection(nodeSelectionAll)),
            sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "18Gi")),
            sliceWithDevices(slice3, node1, resourcePool(pool2, 2), driverB,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet2, "memory", "4Gi")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet2, "memory", "4Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet2, "memory", "4Gi"))),
            sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverB, cs(counterSet2, "memory", "12Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req0, driverA, pool1, device3, false),
            deviceAllocationResult(req1, driverB, pool2, device1, false),
            deviceAllocationResult(req1, driverB, pool2, device2, false),
            deviceAllocationResult(req1, driverB, pool2, device3, false))));
    tc("tainted-two-devices", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withTaints(taintNoSchedule), device(device2, null, null).withTaints(taintNoExecute)))
        .expectNone());
    tc("tainted-one-device-two-taints", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNoSchedule, taintNoExecute)))
        .expectNone());
    tc("tainted-two-devices-tolerated", () -> new KubeCase()
        .claims(claimWithTolerations(claimWithRequest(claim0, req0, classA), tolerationNoExecute))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withTaints(taintNoSchedule), device(device2, null, null).withTaints(taintNoExecute)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false, tolerationNoExecute))));
    tc("tainted-two-devices-prioritized-list-tolerated", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1, tolerationNoExecute))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withTaints(taintNoSchedule), device(device2, null, null).withTaints(taintNoExecute)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false, tolerationNoExecute))));
  }

  static {
    tc("tainted-no-effect", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNone)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("tainted-one-device-two-taints-both-tolerated", () -> new KubeCase()
        .claims(claimWithTolerations(claimWithRequest(claim0, req0, classA), tolerationNoSchedule, tolerationNoExecute))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNoSchedule, taintNoExecute)))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false, tolerationNoSchedule, tolerationNoExecute))));
    tc("tainted-prioritized-list", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNoSchedule)))
        .expectNone());
    tc("tainted-admin-access", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, adminRequest(request(req0, classA, 1))))
        .allocated(id(driverA, pool1, device1), id(driverA, pool1, device2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNoSchedule)))
        .expectNone());
    tc("tainted-all-devices-single", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withTaints(taintNoSchedule)))
        .expectNone());
    tc("prioritized-list-allocation-mode-all", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classA, 1))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null)))
        .allocated(id(driverA, pool1, device2))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))));
    tc("max-number-devices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, Search.MAX_RESULTS))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, Search.MAX_RESULTS))
        .expect(allocationResult(localNodeSelector(node1), multipleDeviceAllocationResults(req0, driverA, pool1, Search.MAX_RESULTS, 0))));
  }

  static io.kubesched.api.DeviceAllocation bc(String request, String device, List<String> conditions, List<String> failure,
      io.kubesched.api.DeviceToleration... tolerations) {
    return deviceRequestAllocationResultWithBindingConditions(request, driverA, pool1, device, conditions, failure, tolerations);
  }

  static {
    tc("prioritized-list-max-allocation-limit-request", () -> {
      var results = new java.util.ArrayList<>(multipleDeviceAllocationResults(req0SubReq1, driverA, pool1, Search.MAX_RESULTS / 2, 0));
      results.addAll(multipleDeviceAllocationResults(req1SubReq1, driverA, pool1, Search.MAX_RESULTS / 2, Search.MAX_RESULTS / 2));
      return new KubeCase()
          .claims(claimWithRequests(claim0, null,
              requestWithPrioritizedList(req0, subRequest(subReq0, classA, Search.MAX_RESULTS), subRequest(subReq1, classA, Search.MAX_RESULTS / 2)),
              requestWithPrioritizedList(req1, subRequest(subReq0, classA, Search.MAX_RESULTS), subRequest(subReq1, classA, Search.MAX_RESULTS / 2))))
          .classes(deviceClass(classA, driverA))
          .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, Search.MAX_RESULTS * 2))
          .expect(allocationResult(localNodeSelector(node1), results))
          .steps(75);
    });
    tc("prioritized-list-max-allocation-allocation-mode-all", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null,
            requestWithPrioritizedList(req0, withAllocationMode(subRequest(subReq0, classA, 0), AllocationMode.ALL), subRequest(subReq1, classA, 2)),
            request(req1, classB, 2)))
        .classes(deviceClass(classA, driverA), deviceClass(classB, driverB))
        .slices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, Search.MAX_RESULTS - 1),
            sliceWithMultipleDevices(slice2, node1, pool2, driverB, 2))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0SubReq1, driverA, pool1, "device-0", false),
            deviceAllocationResult(req0SubReq1, driverA, pool1, "device-1", false),
            deviceAllocationResult(req1, driverB, pool2, "device-0", false),
            deviceAllocationResult(req1, driverB, pool2, "device-1", false)))
        .steps(42));
    tc("device-binding-conditions", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))))
        .expect(allocationResult(localNodeSelector(node1), bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")))));
    tc("binding-conditions-multiple-devices", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 2), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed")),
            device(device2, null, null).withBindingConditions(List.of("IsPrepare2"), List.of("BindingFailed2")),
            device(device3, null, null).withBindingConditions(List.of("IsPrepare3"), List.of("BindingFailed3"))))
        .expect(allocationResult(localNodeSelector(node1),
            bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")),
            bc(req0, device2, List.of("IsPrepare2"), List.of("BindingFailed2")),
            bc(req1, device3, List.of("IsPrepare3"), List.of("BindingFailed3")))));
    tc("binding-conditions-with-and-without", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, request(req0, classA, 1), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null),
            device(device2, null, null).withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            bc(req1, device2, List.of("IsPrepare"), List.of("BindingFailed")))));
    tc("node-restriction", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool1, driverA,
            device(device1, null, null).withBindsToNode(true)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("partitionable-devices-with-binding-conditions", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1), bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")))));
    tc("partitionable-devices-with-binding-conditions-multiple", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare2"), List.of("BindingFailed2"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")),
            bc(req0, device2, List.of("IsPrepare2"), List.of("BindingFailed2")))));
    tc("partitionable-devices-with-binding-conditions-some-devices-no-conditions", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 3))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "2Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed")),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "2Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsReady"), List.of("BindingTimeout"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")),
            bc(req0, device2, List.of(), List.of()),
            bc(req0, device3, List.of("IsReady"), List.of("BindingTimeout")))));
    tc("partitionable-devices-with-binding-conditions-multi-slices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(
            sliceWithDevices(slice4, node1, resourcePool(pool1, 4), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))),
            sliceWithCounterSets(slice3, node1, resourcePool(pool1, 4), driverA, cs(counterSet1, "memory", "8Gi")),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 4), driverA,
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet2, "memory", "4Gi"))),
            sliceWithCounterSets(slice1, node1, resourcePool(pool1, 4), driverA, cs(counterSet2, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            bc(req0, device2, List.of(), List.of()),
            bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed")))));
    tc("partitionable-devices-with-binding-conditions-and-taints", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 2))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))
                    .withTaints(taint("key1", "value1", io.kubesched.api.DeviceTaint.Effect.NO_SCHEDULE)),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, pool1, driverA, cs(counterSet1, "memory", "8Gi")))
        .expectNone());
    tc("partitionable-devices-with-binding-conditions-and-taints-tolerated", () -> new KubeCase()
        .claims(claimWithTolerations(exactClaim(claim0, req0, classA, 2), tolerationNoScheduleKey1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))
                    .withBindingConditions(List.of("IsPrepare"), List.of("BindingFailed"))
                    .withTaints(taint("key1", "value1", io.kubesched.api.DeviceTaint.Effect.NO_SCHEDULE)),
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "4Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "memory", "8Gi")))
        .expect(allocationResult(localNodeSelector(node1),
            bc(req0, device1, List.of("IsPrepare"), List.of("BindingFailed"), tolerationNoScheduleKey1),
            bc(req0, device2, List.of(), List.of(), tolerationNoScheduleKey1))));
  }

  static io.kubesched.api.DeviceAllocation shared(String request, String device, io.kubesched.api.@org.jspecify.annotations.Nullable Quantity consumed) {
    return withConsumedCapacity(deviceAllocationResult(request, driverA, pool1, device, false), true,
        consumed == null ? Map.of() : Map.of(capacity0, consumed));
  }

  static ResourceClaim capacityClaim(String name, io.kubesched.api.@org.jspecify.annotations.Nullable Quantity quantity) {
    return claimWithRequests(name, null, withCapacityRequest(request(req0, classA, 1), quantity));
  }

  static final io.kubesched.api.DeviceClass multiClassA = classWithAllowMultipleAllocations(classA, driverA, true);

  static KubeCase allocatedCapacity(KubeCase c, DeviceId id, io.kubesched.api.Quantity consumed) {
    c.allocatedShares = Map.of(id, List.of(Map.of(capacity0, consumed)));
    return c;
  }

  static {
    tc("consumable-capacity-multi-allocatable-device-with-missing-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity1, one), null).withAllowMultipleAllocations()))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), one)))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity1, one), null).withAllowMultipleAllocations()))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, null), capacityClaim(claim1, null))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, null)),
            allocationResult(localNodeSelector(node1), shared(req0, device1, null))));
    tc("consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, null), capacityClaim(claim1, null))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, one), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, one)),
            allocationResult(localNodeSelector(node1), shared(req0, device2, one))));
    tc("consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block", () -> new KubeCase()
        .claims(capacityClaim(claim0, null), capacityClaim(claim1, null))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations()))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one), capacityClaim(claim1, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, one)),
            allocationResult(localNodeSelector(node1), shared(req0, device1, one))));
    tc("consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, null), capacityClaim(claim1, null))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two)),
            allocationResult(localNodeSelector(node1), shared(req0, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-with-zero-request-policy", () -> new KubeCase()
        .claims(capacityClaim(claim0, null), capacityClaim(claim1, null))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, Map.of(capacity0, one), List.of())))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, zero)),
            allocationResult(localNodeSelector(node1), shared(req0, device1, zero))));
    tc("consumable-capacity-multi-allocatable-device-violates-zero-request-policy", () -> new KubeCase()
        .claims(capacityClaim(claim0, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, Map.of(capacity0, one), List.of())))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one), capacityClaim(claim1, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two)),
            allocationResult(localNodeSelector(node1), shared(req0, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-with-range-policy-step", () -> new KubeCase()
        .claims(capacityClaim(claim0, three))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, four))));
    tc("consumable-capacity-range-policy-request-above-int64-rejected", () -> new KubeCase()
        .claims(capacityClaim(claim0, q("18446744073709551616")))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expectError("cannot be represented"));
    tc("consumable-capacity-range-policy-rounded-value-overflow-rejected", () -> new KubeCase()
        .claims(capacityClaim(claim0, q("9223372036854775807")))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expectError("cannot be represented"));
    tc("consumable-capacity-range-policy-overflow-aborts-not-skip", () -> new KubeCase()
        .claims(capacityClaim(claim0, q("18446744073709551616")))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four)),
            device(device2, Map.of(capacity0, q("36893488147419103232")), null).withAllowMultipleAllocations()))
        .expectError("cannot be represented"));
    tc("consumable-capacity-range-policy-allocation-mode-all-overflow-aborts", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), q("18446744073709551616"))))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expectError("cannot be represented"));
    tc("consumable-capacity-negative-request-aborts", () -> new KubeCase()
        .claims(capacityClaim(claim0, q("-5")))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity0, q("10")), null).withAllowMultipleAllocations()))
        .expectError("negative"));
    tc("consumable-capacity-multi-allocatable-device-with-valid-values-policy", () -> new KubeCase()
        .claims(capacityClaim(claim0, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, Map.of(capacity0, four), List.of(two))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up", () -> new KubeCase()
        .claims(capacityClaim(claim0, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, Map.of(capacity0, three), List.of(three))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, three))));
    tc("consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one), capacityClaim(claim1, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy", () -> new KubeCase()
        .claims(capacityClaim(claim0, q("6")))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, q("10")))))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining", () -> allocatedCapacity(new KubeCase()
        .claims(capacityClaim(claim0, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two))), id(driverA, pool1, device1), two));
  }

  static {
    tc("consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device", () -> allocatedCapacity(new KubeCase()
        .claims(capacityClaim(claim0, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two)),
            device(device2, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device2, two))), id(driverA, pool1, device1), two));
    tc("consumable-capacity-with-multi-allocatable-device-backtrack", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(matchAttribute(stringAttribute)),
                withCapacityRequest(request(req0, classA, 1), two), withCapacityRequest(request(req1, classA, 1), two)),
            capacityClaim(claim1, two))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device2, null, attrs("stringAttribute", string("stringAttributeValue1"))).withAllowMultipleAllocations()
                .withCapacityRequestPolicyRange(Map.of(capacity0, two)),
            device(device1, null, attrs("stringAttribute", string("stringAttributeValue2"))).withAllowMultipleAllocations()
                .withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two), shared(req1, device1, two)),
            allocationResult(localNodeSelector(node1), shared(req0, device2, two))));
    tc("consumable-capacity-multi-allocatable-device-with-subrequest", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, requestWithPrioritizedList(req0,
            withCapacityRequest(subRequest(subReq0, classA, 1), four), withCapacityRequest(subRequest(subReq1, classA, 1), two))))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0SubReq1, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity", () -> allocatedCapacity(new KubeCase()
        .claims(capacityClaim(claim0, two))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone(), id(driverA, pool1, device1), two));
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), two)))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations(),
            device(device2, null, null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), two)))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two))));
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(request(req0, classA, 1), one), withCapacityRequest(allDeviceRequest(req1, classA), one)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, one), shared(req1, device1, one), shared(req1, device2, one))));
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient", () -> allocatedCapacity(new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), one)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, two), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, one), shared(req0, device2, one))), id(driverA, pool1, device1), one));
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(request(req0, classA, 1), one), withCapacityRequest(allDeviceRequest(req1, classA), one)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, one), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expectNone());
    tc("consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient", () -> allocatedCapacity(new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(allDeviceRequest(req0, classA), one)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, one), null).withAllowMultipleAllocations(),
            device(device2, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expectNone(), id(driverA, pool1, device1), one));
    tc("consumable-capacity-dedicated-device-with-consumable-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one))
        .classes(classWithAllowMultipleAllocations(classA, driverA, false))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity0, one), null)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request", () -> new KubeCase()
        .claims(capacityClaim(claim0, one), capacityClaim(claim1, one))
        .classes(classWithAllowMultipleAllocations(classA, driverA, false))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone());
    tc("consumable-capacity-requests-are-not-modified", () -> new KubeCase()
        .claims(claimWithRequests(claim0, null, withCapacityRequest(request(req0, classA, 1), two),
            withCapacityRequest(request(req1, classA, 1), q("1000000000000000000000"))))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, Map.of(capacity0, new io.kubesched.api.DeviceCapacity(q("1000000000000000000002"),
                new io.kubesched.api.DeviceCapacity.RequestPolicy(q("1000000000000000000000"), List.of(),
                    new io.kubesched.api.DeviceCapacity.Range(two, null, null)))), null).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two), shared(req1, device1, q("1000000000000000000000")))));
    tc("allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector", () -> new KubeCase()
        .claims(capacityClaim(claim0, one))
        .classes(classWithAllowMultipleAllocations(classA, driverA, false))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, Map.of(capacity0, one), null).withAllowMultipleAllocations()))
        .expectNone());
    tc("allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated", () -> new KubeCase()
        .allocated(id(driverA, pool1, device1))
        .claims(capacityClaim(claim0, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone());
    tc("allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable", () -> allocatedCapacity(new KubeCase()
        .claims(capacityClaim(claim0, one))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone(), id(driverA, pool1, device1), one));
  }

  static {
    tc("partitionable-consumable-capacity-shared-device-counter-not-recharged", () -> {
      var c = new KubeCase()
          .claims(exactClaim(claim0, req0, classA, 1))
          .classes(deviceClass(classA, driverA))
          .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                  device(device1, null, null).withAllowMultipleAllocations().withDeviceCounterConsumption(cc(counterSet1, "c", "1"))),
              sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "c", "1")))
          .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, null)));
      c.allocatedShares = Map.of(id(driverA, pool1, device1), List.of(Map.of()));
      return c;
    });
    tc("with-distinct-constraints", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(boolAttribute, req0, req1),
                distinctAttribute(versionAttribute, req0, req1, req2), distinctAttribute(intAttribute, req0, req1, req2, req3)),
            request(req0, classA, 1), request(req1, classA, 1), request(req2, classA, 1), request(req3, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("driverVersion", version("1.0.0"), "numa", integer(0), "boolAttribute", bool(true))).withAllowMultipleAllocations(),
            device(device2, null, attrs("driverVersion", version("1.0.1"), "numa", integer(1), "boolAttribute", bool(false))).withAllowMultipleAllocations(),
            device(device3, null, attrs("driverVersion", version("1.0.2"), "numa", integer(2), "boolAttribute", bool(true))).withAllowMultipleAllocations(),
            device(device4, null, attrs("driverVersion", version("1.0.0"), "numa", integer(3), "boolAttribute", bool(true))).withAllowMultipleAllocations()))
        .expect(allocationResult(localNodeSelector(node1),
            shared(req0, device1, null), shared(req1, device2, null), shared(req2, device3, null), shared(req3, device4, null))));
    tc("distinct-constraint-single-request-count-3-not-distinct", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(stringAttribute)), request(req0, classA, 3)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("stringAttribute", string("value1"))),
            device(device2, null, attrs("stringAttribute", string("value2"))),
            device(device3, null, attrs("stringAttribute", string("value1")))))
        .expectNone());
    tc("distinct-constraint-single-request-count-3-all-distinct", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(stringAttribute)), request(req0, classA, 3)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("stringAttribute", string("value1"))),
            device(device2, null, attrs("stringAttribute", string("value2"))),
            device(device3, null, attrs("stringAttribute", string("value3")))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req0, driverA, pool1, device3, false))));
    tc("distinct-constraint-two-requests-with-count-not-distinct", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(stringAttribute, req0, req1)), request(req0, classA, 2), request(req1, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("stringAttribute", string("value1"))),
            device(device2, null, attrs("stringAttribute", string("value2"))),
            device(device3, null, attrs("stringAttribute", string("value1")))))
        .expectNone());
    tc("with-distinct-constraints-attribute-not-set", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(boolAttribute, req0)), request(req0, classA, 1)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withAllowMultipleAllocations()))
        .expectNone());
    tc("distinct-constraint-single-request-multiple-devices-attribute-not-set", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(intAttribute)), request(req0, classA, 3)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null), device(device3, null, null)))
        .expectNone());
    tc("distinct-constraint-single-request-not-enough-distinct-values", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(intAttribute)), request(req0, classA, 3)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("numa", integer(1))), device(device2, null, attrs("numa", integer(2))),
            device(device3, null, attrs("numa", integer(2))), device(device4, null, attrs("numa", integer(2)))))
        .expectNone());
    tc("distinct-constraint-single-request-multiple-devices-attribute-set", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(intAttribute)), request(req0, classA, 3)))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("numa", integer(1))), device(device2, null, attrs("numa", integer(2))),
            device(device3, null, attrs("numa", integer(1))), device(device4, null, attrs("numa", integer(3)))))
        .expect(allocationResult(localNodeSelector(node1),
            deviceAllocationResult(req0, driverA, pool1, device1, false),
            deviceAllocationResult(req0, driverA, pool1, device2, false),
            deviceAllocationResult(req0, driverA, pool1, device4, false))));
    tc("distinct-constraint-one-multi-allocatable-device-with-distinct-constraint", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(stringAttribute)),
            withCapacityRequest(request(req0, classA, 1), one), withCapacityRequest(request(req1, classA, 1), one)))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, attrs("stringAttribute", string("stringAttributeValue"))).withAllowMultipleAllocations()
                .withCapacityRequestPolicyRange(Map.of(capacity0, two))))
        .expectNone());
    tc("distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint", () -> new KubeCase()
        .claims(claimWithRequests(claim0, List.of(distinctAttribute(stringAttribute)),
            withCapacityRequest(request(req0, classA, 1), two), withCapacityRequest(request(req1, classA, 1), two)))
        .classes(multiClassA)
        .slices(
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device1, null, attrs("stringAttribute", string("stringAttributeValue1"))).withAllowMultipleAllocations()
                    .withCapacityRequestPolicyRange(Map.of(capacity0, four))),
            sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                device(device2, null, attrs("stringAttribute", string("stringAttributeValue2"))).withAllowMultipleAllocations()
                    .withCapacityRequestPolicyRange(Map.of(capacity0, four))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, two), shared(req1, device2, two))));
    tc("consumable-capacity-fractional-range-gate-enabled-round-up", () -> new KubeCase()
        .claims(capacityClaim(claim0, pointTwoFive))
        .classes(multiClassA)
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null).withAllowMultipleAllocations().withFractionalCapacityRequestPolicyRange(Map.of(capacity0, one))))
        .expect(allocationResult(localNodeSelector(node1), shared(req0, device1, pointThree))));
  }

  static ResourceSlice gen(String name, String node, String device, long generation) {
    return sliceWithDevices(name, node, new io.kubesched.api.ResourcePool(pool1, generation, 2), driverA, device(device, null, null));
  }

  static {
    tc("allocation-mode-all-with-multi-host-resource-pool", () -> new KubeCase()
        .claims(allClaim(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node2, resourcePool(pool1, 2), driverA, device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("multi-host-resource-pool-with-stale-slice-for-current-node", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(gen(slice1, node1, device1, 1), gen(slice2, node2, device2, 2))
        .expectNone());
    tc("multi-host-resource-pool-complete-update-from-node-1-to-node-2", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(gen(slice1, node1, device1, 1), gen(slice1, node1, device2, 1), gen(slice2, node2, device1, 2), gen(slice2, node2, device2, 2))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("multi-host-resource-pool-complete-update-from-node-2-to-node-1", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(gen(slice1, node2, device1, 1), gen(slice1, node2, device2, 1), gen(slice2, node1, device1, 2), gen(slice2, node1, device2, 2))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("multi-host-resource-pool-incomplete-update-from-node-1-to-node-2", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(gen(slice1, node1, device1, 1), gen(slice1, node1, device2, 1), gen(slice2, node2, device1, 2))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))));
    tc("multi-host-resource-pool-incomplete-update-from-node-2-to-node-1", () -> new KubeCase()
        .claims(claimWithRequest(claim0, req0, classA))
        .classes(deviceClass(classA, driverA))
        .slices(gen(slice1, node2, device1, 1), gen(slice1, node2, device2, 1), gen(slice2, node1, device1, 2))
        .expectNone());
    tc("partitionable-devices-same-counter-set-name-in-different-resource-slices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 4), driverA, device(device1, null, null)),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 4), driverA, cs(counterSet1)),
            sliceWithDevices(slice3, node1, resourcePool(pool1, 4), driverA, device(device2, null, null)),
            sliceWithCounterSets(slice4, node1, resourcePool(pool1, 4), driverA, cs(counterSet1)))
        .expectUnsuitable("invalid resource pools were encountered"));
    tc("partitionable-devices-device-counter-consumption-references-unknown-counter-set", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null).withDeviceCounterConsumption(cc(counterSet2))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1)))
        .expectUnsuitable("invalid resource pools were encountered"));
    tc("partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "8Gi"))),
            sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, cs(counterSet1, "other-memory", "8Gi")))
        .expectUnsuitable("invalid resource pools were encountered"));
    tc("partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "8Gi"))),
            sliceWithCounterSets(slice2, node1, pool2, driverA, cs(counterSet1, "memory", "8Gi")))
        .expectUnsuitable("invalid resource pools were encountered"));
  }

  static {
    tc("partitionable-devices-devices-consume-counter-set-in-different-nodes", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA, cs(counterSet1, "memory", "8Gi")),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi"))),
            sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
                device(device2, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi")),
                device(device3, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "2Gi"))))
        .allocated(id(driverA, pool1, device1))
        .node(node(node2, region1))
        .expect(allocationResult(localNodeSelector(node2), deviceAllocationResult(req0, driverA, pool1, device3, false))));
    tc("partitionable-devices-validation-error-on-non-targeting-slice", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA, cs(counterSet1, "memory", "8Gi")),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 3), driverA,
                device(device1, fromCounters, null).withDeviceCounterConsumption(cc(counterSet1, "memory", "6Gi"))),
            sliceWithDevices(slice3, node2, resourcePool(pool1, 3), driverA,
                device(device3, null, null).withDeviceCounterConsumption(cc(counterSet2, "memory", "6Gi"))))
        .expectUnsuitable("invalid resource pools were encountered"));
    tc("different-resourceslices-in-pool-can-target-different-nodes", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node2, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false))));
    tc("invalid-pool-is-ok-if-devices-can-be-allocated-from-other", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA, device(device2, null, null)))
        .expect(allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool2, device2, false))));
    tc("invalid-pool-is-error-if-no-other-device-can-be-allocated", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice3, node1, resourcePool(pool2, 1), driverA, device(device2, null, null)))
        .allocated(id(driverA, pool2, device2))
        .expectUnsuitable("invalid resource pools were encountered"));
    tc("no-allocation-from-incomplete-pools", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 1))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)))
        .expectNone());
    tc("check-combinations-within-single-request-single-pool-single-slice", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 5))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA,
            device(device1, null, null), device(device2, null, null), device(device3, null, null), device(device4, null, null)))
        .expectNone()
        .steps(16));
    tc("check-combinations-within-single-request-single-pool-multiple-slices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 5))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null), device(device2, null, null)),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device3, null, null), device(device4, null, null)))
        .expectNone()
        .steps(16));
    tc("check-combinations-within-single-request-multiple-pools-multiple-slices", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 5))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device2, null, null)),
            sliceWithDevices(slice3, node1, pool2, driverA, device(device3, null, null), device(device4, null, null)))
        .expectNone()
        .steps(16));
    tc("check-combinations-within-single-request-many-pools", () -> new KubeCase()
        .claims(exactClaim(claim0, req0, classA, 5))
        .classes(deviceClass(classA, driverA))
        .slices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null)),
            sliceWithDevices(slice2, node1, pool2, driverA, device(device2, null, null)),
            sliceWithDevices(slice3, node1, pool3, driverA, device(device3, null, null)),
            sliceWithDevices(slice4, node1, pool4, driverA, device(device4, null, null)))
        .expectNone()
        .steps(16));
  }
}
