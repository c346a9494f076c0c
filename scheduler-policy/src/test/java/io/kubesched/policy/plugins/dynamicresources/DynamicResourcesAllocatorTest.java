package io.kubesched.policy.plugins.dynamicresources;

import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLASS_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DRIVER;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE2_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM_WITH_PRIORITIZED_LIST;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_OWNER;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE_SLICE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.allocation;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.claim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.exact;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.node;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.requirements;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.resources;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.framework.ClaimAllocator;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code TestPlugin} cases that reach allocation, under kube's names, with the structured allocator and the
 * CEL selectors the library runs ({@link DynamicResourcesFilter#DynamicResourcesFilter()}).
 */
class DynamicResourcesAllocatorTest {

  private static final String ATTR_NAME = "healthy";
  /** kube's {@code brokenSelector}: an attribute only the second and third nodes' devices have. */
  private static final String BROKEN_SELECTOR = "device.attributes[\"" + DRIVER + "\"]." + ATTR_NAME;
  /**
   * kube's message up to the hint its CEL package appends to a missing key (". consider using CEL optional chaining
   * …", dynamic-resource-allocation/cel/errors.go); the hint is the CEL package's to add, so only what the plugin
   * passes on is checked here.
   */
  private static final String CEL_ERROR =
      "selector #0 on device some-driver/worker/instance-1: CEL runtime error: no such key: healthy";

  private final DynamicResourcesFilter plugin = new DynamicResourcesFilter();

  private static ResourceSlice sliceWithHealthy(String node, boolean healthy) {
    var device = Device.of("instance-1", Map.of(ATTR_NAME, new DeviceAttribute.BoolValue(healthy)), Map.of());
    return new ResourceSlice(node + "-" + DRIVER, DRIVER, new ResourcePool(node, 1, 1), NodeSelection.node(node),
        false, List.of(device), List.of());
  }

  private static ResourceClaim breakCelInClaim(ResourceClaim claim) {
    var exactly = claim.requests().get(0).exactly();
    var broken = new DeviceRequirements(exactly.deviceClassName(), List.of(BROKEN_SELECTOR), exactly.allocationMode(),
        exactly.count(), exactly.adminAccess(), exactly.tolerations(), exactly.capacityRequests());
    return DraFixtures.claim(claim.name(), claim.controller(), DeviceRequest.exactly("req-1", broken));
  }

  private Filter prepare(List<NodeInfo> nodes, List<ResourceClaim> claims, List<DeviceClass> classes,
      List<ResourceSlice> slices) {
    return plugin.prepare(POD_WITH_CLAIM_NAME, snapshot(nodes, resources(slices, classes, claims)));
  }

  private static AllocationResult planned(Filter prepared, NodeInfo node) {
    var planned = assertInstanceOf(ClaimAllocator.class, prepared).claimAllocations(node);
    assertEquals(1, planned.size());
    return planned.get(0).allocation();
  }

  private static void assertDevices(AllocationResult result, String request, String... devices) {
    assertEquals(
        java.util.Arrays.stream(devices).map(d -> List.of(request, DRIVER, NODE_NAME, d)).toList(),
        result.devices().stream().map(d -> List.of(d.request(), d.driver(), d.pool(), d.device())).toList());
  }

  @Test
  @DisplayName("no-resources")
  void noResources() {
    var prepared = prepare(List.of(WORKER_NODE), List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of());

    var rejected = assertInstanceOf(FilterResult.Rejected.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.code());
    assertEquals("cannot allocate all claims", rejected.reasons().get(0).message());
  }

  @Test
  @DisplayName("with-resources")
  void withResources() {
    var prepared =
        prepare(List.of(WORKER_NODE), List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    var result = planned(prepared, WORKER_NODE);
    assertDevices(result, "req-1", "instance-1");
    assertTrue(NodeSelectors.matchesAny(result.nodeSelector(), WORKER_NODE));
    assertTrue(!NodeSelectors.matchesAny(result.nodeSelector(), WORKER_NODE2), "pinned to the slice's node");
  }

  @Test
  @DisplayName("exhausted-resources-in-informer-cache")
  void exhaustedResourcesInInformerCache() {
    var otherAllocated = claim("other", null, exact("req-1", CLASS_NAME, 1))
        .withAllocation(allocation(NODE_NAME, "req-1", "instance-1"));
    var prepared = prepare(List.of(WORKER_NODE), List.of(PENDING_CLAIM, otherAllocated), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    var rejected = assertInstanceOf(FilterResult.Rejected.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertEquals("cannot allocate all claims", rejected.reasons().get(0).message());
  }

  @Test
  @DisplayName("claim-with-prioritized-list")
  void claimWithPrioritizedList() {
    var prepared = prepare(List.of(WORKER_NODE), List.of(PENDING_CLAIM_WITH_PRIORITIZED_LIST), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertDevices(planned(prepared, WORKER_NODE), "req-1/subreq-1", "instance-1");
  }

  @Test
  @DisplayName("claim-parameters-CEL-runtime-error")
  void claimParametersCelRuntimeError() {
    var prepared = prepare(List.of(WORKER_NODE), List.of(breakCelInClaim(PENDING_CLAIM)), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    var failed = assertInstanceOf(FilterResult.Failed.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertTrue(failed.message().startsWith("claim default/my-pod-my-resource: " + CEL_ERROR), failed.message());
  }

  @Test
  @DisplayName("class-parameters-CEL-runtime-error")
  void classParametersCelRuntimeError() {
    var broken = new DeviceClass(CLASS_NAME, List.of(BROKEN_SELECTOR), List.of(), null);
    var prepared = prepare(List.of(WORKER_NODE), List.of(PENDING_CLAIM), List.of(broken), List.of(WORKER_NODE_SLICE));

    var failed = assertInstanceOf(FilterResult.Failed.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertTrue(failed.message().startsWith("class my-resource-class: " + CEL_ERROR), failed.message());
  }

  @Test
  @DisplayName("CEL-runtime-error-for-one-of-two-nodes")
  void celRuntimeErrorForOneOfTwoNodes() {
    var prepared = prepare(List.of(WORKER_NODE, WORKER_NODE2), List.of(breakCelInClaim(PENDING_CLAIM)),
        List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE, sliceWithHealthy(NODE2_NAME, true)));

    assertInstanceOf(FilterResult.Failed.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE2).fits(), "the second node's device has the attribute");
  }

  @Test
  @DisplayName("single-claim-prioritized-list-scoring")
  void singleClaimPrioritizedListScoring() {
    var claim = claim(CLAIM_NAME, POD_OWNER, new DeviceRequest("req-1", null, List.of(
        new DeviceRequest.SubRequest("subreq-1", new DeviceRequirements(CLASS_NAME,
            List.of("device.attributes[\"" + DRIVER + "\"]." + ATTR_NAME), io.kubesched.api.AllocationMode.EXACT_COUNT,
            1, false, List.of(), Map.of())),
        new DeviceRequest.SubRequest("subreq-2", requirements(CLASS_NAME, 1)))));
    var nodes = List.of(WORKER_NODE, WORKER_NODE2);
    var cluster = snapshot(nodes, resources(
        List.of(sliceWithHealthy(NODE_NAME, true), sliceWithHealthy(NODE2_NAME, false)),
        List.of(DEVICE_CLASS), List.of(claim)));

    var filter = plugin.prepare(POD_WITH_CLAIM_NAME, cluster);
    assertTrue(filter.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertTrue(filter.filter(POD_WITH_CLAIM_NAME, WORKER_NODE2).fits());
    var prepared = new DynamicResourcesScorer().prepare(POD_WITH_CLAIM_NAME, nodes, cluster);
    var scores = new long[] {prepared.score(POD_WITH_CLAIM_NAME, WORKER_NODE),
        prepared.score(POD_WITH_CLAIM_NAME, WORKER_NODE2)};
    assertArrayEquals(new long[] {8, 7}, scores);
    ((ScoreNormalizer) prepared).normalize(POD_WITH_CLAIM_NAME, nodes, scores);
    assertArrayEquals(new long[] {100, 87}, scores);
  }

  @Test
  @DisplayName("an allocated claim is not given to the allocator again")
  void allocatedClaimNotReallocated() {
    var allocated = PENDING_CLAIM.withAllocation(allocation(NODE_NAME, "req-1", "instance-1"));
    var prepared = prepare(List.of(WORKER_NODE, node(NODE2_NAME)), List.of(allocated), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertNull(planned(prepared, WORKER_NODE));
  }
}
