package io.kubesched.policy.plugins.dynamicresources.structured;

import static io.kubesched.policy.plugins.dynamicresources.structured.KubeFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DeviceToleration;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What the port adds around kube's allocator: taint rules, the allocated state from claims, threads, messages. */
class AllocatorTest {

  /** The real CEL compiler and cache, shared as the scheduler shares it across attempts. */
  static final io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors SELECTORS =
      io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors.create();

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private static Allocator allocator(List<ResourceSlice> slices, List<ResourceClaim> claims, List<DeviceTaintRule> rules) {
    return Allocator.create(
        DynamicResources.of(slices, List.of(deviceClass(classA, driverA)), claims, rules), SELECTORS, CLOCK);
  }

  private static List<String> devices(Allocator.Outcome outcome) {
    var allocated = assertInstanceOf(Allocator.Outcome.Allocated.class, outcome);
    var names = new ArrayList<String>();
    for (var result : allocated.results()) {
      result.devices().forEach(d -> names.add(d.deviceId().toString()));
    }
    return names;
  }

  private static final ResourceSlice TWO_DEVICES =
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null));
  private static final NodeInfo NODE = node(node1, region1);

  @Test
  void aTaintRuleTaintsTheDevicesItSelectsAsKubesSliceTrackerDoes() {
    var rule = new DeviceTaintRule("r", driverA, pool1, device1, taint("k", "v", DeviceTaint.Effect.NO_SCHEDULE));
    var outcome = allocator(List.of(TWO_DEVICES), List.of(), List.of(rule)).allocate(NODE, List.of(claimWithRequest(claim0, req0, classA)));
    assertEquals(List.of("driver-a/pool-1/device-2"), devices(outcome));
  }

  @Test
  void aTaintRuleOnEveryDeviceOfTheDriverLeavesNothingUntolerated() {
    var rule = new DeviceTaintRule("r", driverA, null, null, taint("k", "v", DeviceTaint.Effect.NO_EXECUTE));
    var allocator = allocator(List.of(TWO_DEVICES), List.of(), List.of(rule));
    assertInstanceOf(Allocator.Outcome.Unsuitable.class, allocator.allocate(NODE, List.of(claimWithRequest(claim0, req0, classA))));
    var tolerating = claimWithTolerations(
        claimWithRequest(claim0, req0, classA), new DeviceToleration("k", "Exists", "", null, null));
    assertEquals(List.of("driver-a/pool-1/device-1"), devices(allocator.allocate(NODE, List.of(tolerating))));
  }

  @Test
  void aTaintRuleForAnotherDriverOrAnEffectOfNoneChangesNothing() {
    var other = new DeviceTaintRule("r", driverB, null, null, taint("k", "v", DeviceTaint.Effect.NO_SCHEDULE));
    var none = new DeviceTaintRule("n", null, null, null, taint("k", "v", DeviceTaint.Effect.NONE));
    var outcome = allocator(List.of(TWO_DEVICES), List.of(), List.of(other, none)).allocate(NODE, List.of(claimWithRequest(claim0, req0, classA)));
    assertEquals(List.of("driver-a/pool-1/device-1"), devices(outcome));
  }

  private static ResourceClaim allocatedWith(String name, DeviceAllocation... devices) {
    return claimWithRequest(name, req0, classA).withAllocation(new AllocationResult(List.of(devices), List.of(), null, null));
  }

  @Test
  void devicesOfOtherClaimsAllocationsAreTakenButAdminAccessHoldsNone() {
    var taken = allocatedWith("other", deviceAllocationResult(req0, driverA, pool1, device1, false));
    var admin = allocatedWith("admin", deviceAllocationResult(req0, driverA, pool1, device2, true));
    var outcome = allocator(List.of(TWO_DEVICES), List.of(taken, admin), List.of()).allocate(NODE, List.of(claimWithRequest(claim0, req0, classA)));
    assertEquals(List.of("driver-a/pool-1/device-2"), devices(outcome));
  }

  @Test
  void aMissingClassFailsWithKubesMessage() {
    var claim = new ResourceClaim("ns", claim0, "u", "1", null, Map.of(), List.of(request(req0, "missing", 1)),
        List.of(), List.of(), null, List.of(), false);
    var failed = assertInstanceOf(Allocator.Outcome.Failed.class, allocator(List.of(TWO_DEVICES), List.of(), List.of()).allocate(NODE, List.of(claim)));
    assertEquals(
        "claim ns/claim-0, request req-0: could not retrieve device class missing: deviceclass.resource.k8s.io \"missing\" not found",
        failed.message());
  }

  @Test
  void aSelectorThatDoesNotCompileFailsTheAttemptNamingTheClass() {
    // A compiler that refuses every expression: what kube reports for a stored expression it cannot compile.
    var slices = List.of(TWO_DEVICES);
    var allocator = Allocator.create(
        DynamicResources.of(slices, List.of(deviceClass(classA, driverA)), List.of(), List.of()),
        expression -> { throw new io.kubesched.policy.plugins.dynamicresources.cel.SelectorException("undeclared reference to 'x'"); },
        CLOCK);
    var failed = assertInstanceOf(Allocator.Outcome.Failed.class, allocator.allocate(NODE, List.of(claimWithRequest(claim0, req0, classA))));
    assertEquals("class class-a: selector #0: CEL compile error: undeclared reference to 'x'", failed.message());
  }

  @Test
  void theFactoryTakesKubesCelCacheAndAClassWithoutSelectorsNeedsNoCel() {
    var allocator = Allocator.create(
        DynamicResources.of(List.of(TWO_DEVICES), List.of(new io.kubesched.api.DeviceClass(classA, List.of(), List.of(), null)),
            List.of(), List.of()),
        DeviceSelectors.create(), CLOCK);
    assertEquals(List.of("driver-a/pool-1/device-1"), devices(allocator.allocate(NODE, List.of(claimWithRequest(claim0, req0, classA)))));
  }

  @Test
  void aCacheEvaluatesASelectorOncePerDeviceAndSeesEveryClaimChange() {
    var evaluations = new java.util.concurrent.atomic.AtomicInteger();
    SelectorCompiler counting = expression -> new io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelector() {
      @Override
      public String expression() {
        return expression;
      }

      @Override
      public boolean matches(String driver, io.kubesched.api.Device device) {
        evaluations.incrementAndGet();
        return true;
      }
    };
    var cache = new Allocator.Cache();
    var slices = List.of(TWO_DEVICES);
    var classes = List.of(deviceClass(classA, driverA));
    var claim = claimWithRequest(claim0, req0, classA);

    var first = Allocator.create(DynamicResources.of(slices, classes, List.of(), List.of()), counting, CLOCK, cache);
    assertEquals(List.of("driver-a/pool-1/device-1"), devices(first.allocate(NODE, List.of(claim))));
    int afterFirst = evaluations.get();

    var taken = allocatedWith("other", deviceAllocationResult(req0, driverA, pool1, device1, false));
    var second = Allocator.create(DynamicResources.of(slices, classes, List.of(taken), List.of()), counting, CLOCK, cache);
    assertEquals(List.of("driver-a/pool-1/device-2"), devices(second.allocate(NODE, List.of(claim))),
        "the claim allocated since is seen through the cache");
    var third = Allocator.create(DynamicResources.of(slices, classes, List.of(), List.of()), counting, CLOCK, cache);
    assertEquals(List.of("driver-a/pool-1/device-1"), devices(third.allocate(NODE, List.of(claim))),
        "and so is its removal");
    assertEquals(afterFirst + 1, evaluations.get(), "only device-2, not evaluated before, was evaluated again");

    var republished = sliceWithDevices(slice1, node1, pool1, driverA, device(device1, null, null), device(device2, null, null));
    var fourth = Allocator.create(DynamicResources.of(List.of(republished), classes, List.of(), List.of()), counting, CLOCK, cache);
    devices(fourth.allocate(NODE, List.of(claim)));
    assertEquals(afterFirst + 2, evaluations.get(), "a device of a new slice object is evaluated again");
  }

  @Test
  void concurrentCallsForManyNodesAnswerAsSequentialOnes() throws Exception {
    var slices = new ArrayList<ResourceSlice>();
    var nodes = new ArrayList<NodeInfo>();
    for (int n = 0; n < 40; n++) {
      var nodeName = "node-" + n;
      nodes.add(node(nodeName, region1));
      var pool = new io.kubesched.api.ResourcePool("pool-" + n, 1, 2);
      var devices = new ArrayList<D>();
      for (int d = 0; d <= n % 4; d++) {
        devices.add(device("device-" + d, null, Map.of("numa", integer(d % 2)))
            .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, Map.of("c", one))));
      }
      slices.add(sliceWithDevices("s-" + n, nodeName, pool, driverA, devices.toArray(D[]::new)));
      slices.add(sliceWithCounterSets("c-" + n, nodeName, pool, driverA, counterSet(counterSet1, Map.of("c", two))));
    }
    var claims = List.of(claimWithRequests(claim0, List.of(matchAttribute(driverA + "/numa")), request(req0, classA, 2)));
    var allocator = allocator(slices, List.of(), List.of());
    var sequential = new ArrayList<String>();
    for (var node : nodes) {
      sequential.add(String.valueOf(allocator.allocate(node, claims)));
    }
    var pool = Executors.newFixedThreadPool(4);
    try {
      var futures = new ArrayList<Future<String>>();
      for (int round = 0; round < 5; round++) {
        for (var node : nodes) {
          futures.add(pool.submit((Callable<String>) () -> String.valueOf(allocator.allocate(node, claims))));
        }
      }
      for (int i = 0; i < futures.size(); i++) {
        assertEquals(sequential.get(i % nodes.size()), futures.get(i).get());
      }
    } finally {
      pool.shutdownNow();
    }
    // Nodes with two devices of one numa node can place the claim, the others cannot: both answers occur.
    assertNotEquals(sequential.get(0), sequential.get(2));
  }
}
