package io.kubesched.policy.plugins.dynamicresources;

import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLASS_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.EXTENDED_RESOURCE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.IN_USE_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NAMESPACE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.OTHER_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM_WITH_PRIORITIZED_LIST;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_OWNER;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_UID;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_TEMPLATE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_TEMPLATE_IN_STATUS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE_SLICE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_TWO_CLAIM_NAMES;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.allocation;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.boundClaim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.boundClaim2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.failedBindingClaim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.failedBindingClaim2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.claim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.deleting;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.exact;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.nodeWithExtended;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.pod;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.podRequesting;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.prioritized;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.requirements;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.resources;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.snapshot;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.withController;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.ContainerRequests;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.ExtendedResourceClaim.RequestMapping;
import io.kubesched.api.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.framework.ClaimAllocator;
import io.kubesched.policy.framework.ClaimDeallocator;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.dynamicresources.structured.Allocator;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code TestPlugin} (dynamicresources_test.go), the cases of PreEnqueue, PreFilter and Filter and the plan
 * for Reserve/PreBind, under kube's names. Allocation runs through {@link FirstFreeDevices} until the structured
 * allocator lands; the cases that need CEL run with it.
 */
class DynamicResourcesFilterTest {

  private final FirstFreeDevices allocator = new FirstFreeDevices();
  private final DynamicResourcesFilter plugin = new DynamicResourcesFilter(allocator);

  private Filter prepare(
      PodInfo pod, List<NodeInfo> nodes, List<ResourceClaim> claims, List<DeviceClass> classes,
      List<ResourceSlice> slices) {
    return plugin.prepare(pod, snapshot(nodes, resources(slices, classes, claims)));
  }

  private Filter prepare(PodInfo pod, List<ResourceClaim> claims, List<DeviceClass> classes, List<ResourceSlice> slices) {
    return prepare(pod, List.of(WORKER_NODE), claims, classes, slices);
  }

  /** Asserts kube's PreEnqueue/PreFilter rejection: every node, code UnschedulableAndUnresolvable, one message. */
  private static void assertRejectedPod(Filter prepared, String message) {
    var rejected = assertInstanceOf(PreFilter.PodRejected.class, prepared);
    assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.rejection().code());
    assertEquals(message, rejected.message());
  }

  private static void assertRejected(FilterResult result, String message) {
    var rejected = assertInstanceOf(FilterResult.Rejected.class, result);
    assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.code());
    assertEquals(message, rejected.reasons().get(0).message());
  }

  /** kube's PostFilter after the filter calls made so far: the claim it deallocates, if any. */
  private static Optional<ClaimDeallocation> postFilter(Filter prepared, PodInfo pod) {
    return assertInstanceOf(ClaimDeallocator.class, prepared).claimToDeallocate(pod);
  }

  private static List<ClaimAllocation> planned(Filter prepared, NodeInfo node) {
    return assertInstanceOf(ClaimAllocator.class, prepared).claimAllocations(node);
  }

  @Test
  @DisplayName("empty")
  void empty() {
    var pod = PodInfo.builder(NAMESPACE, "foo").build();
    var prepared = prepare(pod, List.of(), List.of(), List.of());

    assertInstanceOf(PreFilter.Skipped.class, prepared);
    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    assertEquals(0, allocator.calls.get());
  }

  @Test
  @DisplayName("claim-reference")
  void claimReference() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(
        List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, ALLOCATED_CLAIM.uid(), null)),
        planned(prepared, WORKER_NODE),
        "an allocated claim is only reserved for the pod");
    assertEquals(0, allocator.calls.get(), "nothing to allocate");
  }

  @Test
  @DisplayName("claim-template")
  void claimTemplate() {
    var prepared =
        prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, WORKER_NODE).fits());
    assertEquals(List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, ALLOCATED_CLAIM.uid(), null)),
        planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("missing-claim")
  void missingClaim() {
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_TEMPLATE, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of()),
        "pod \"default/my-pod\": ResourceClaim not created yet");
  }

  @Test
  @DisplayName("a template entry the claim controller reported as needing no claim is skipped, as kube skips it")
  void claimNotNeeded() {
    var pod = DraFixtures.pod(DraFixtures.POD_NAME, DraFixtures.POD_UID,
        new io.kubesched.api.PodResourceClaim(DraFixtures.RESOURCE_NAME, null, DraFixtures.CLAIM_NAME, ""));
    var prepared = prepare(pod, List.of(), List.of(), List.of());

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    assertTrue(prepared instanceof io.kubesched.policy.framework.PreFilter.Skipped, "nothing to do: kube's Skip");
  }

  @Test
  @DisplayName("deleted-claim")
  void deletedClaim() {
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(deleting(ALLOCATED_CLAIM)), List.of(), List.of()),
        "resourceclaim \"my-pod-my-resource\" is being deleted");
  }

  @Test
  @DisplayName("wrong-claim")
  void wrongClaim() {
    var notOurs = withController(ALLOCATED_CLAIM, new Owner("Pod", "my-pod", "1234123"));
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(notOurs), List.of(), List.of()),
        "ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)");
  }

  @Test
  @DisplayName("a template's claim without a controller is not the pod's either")
  void templateClaimWithoutController() {
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(ALLOCATED_CLAIM.withAllocation(null)).stream()
            .map(c -> withController(c, null)).toList(), List.of(DEVICE_CLASS), List.of()),
        "ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)");
  }

  @Test
  @DisplayName("a claim named by the pod that does not exist")
  void claimNotFound() {
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_NAME, List.of(OTHER_CLAIM), List.of(), List.of()),
        "could not find ResourceClaim \"default/my-pod-my-resource\"");
  }

  @Test
  @DisplayName("no-resources")
  void noResources() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "cannot allocate all claims");
    assertEquals(List.of(), planned(prepared, WORKER_NODE));
    assertEquals(Optional.empty(), postFilter(prepared, POD_WITH_CLAIM_NAME), "kube's PostFilter: Unschedulable");
  }

  @Test
  @DisplayName("with-resources")
  void withResources() {
    var prepared =
        prepare(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(
        List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(),
            allocation(NODE_NAME, "req-1", "instance-1"))),
        planned(prepared, WORKER_NODE));
    assertEquals(1, allocator.calls.get(), "the node's allocation is made once, in Filter, and kept for the plan");
  }

  @Test
  @DisplayName("exhausted-resources-in-informer-cache")
  void exhaustedResourcesInInformerCache() {
    var otherAllocated = claim("other", null, exact("req-1", CLASS_NAME, 1))
        .withAllocation(allocation(NODE_NAME, "req-1", "instance-1"));
    var prepared = prepare(
        POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM, otherAllocated), List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE));

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "cannot allocate all claims");
    assertEquals(Optional.empty(), postFilter(prepared, POD_WITH_CLAIM_NAME), "kube's PostFilter: Unschedulable");
  }

  @Test
  @DisplayName("missing-class")
  void missingClass() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(), List.of());
    assertRejectedPod(prepared, "request req-1: device class my-resource-class does not exist");
    assertEquals(0, allocator.calls.get());
    assertFalse(prepared instanceof ClaimDeallocator, "kube's PostFilter: Unschedulable, nothing deallocated");
  }

  @Test
  @DisplayName("wrong-topology")
  void wrongTopology() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    // PostFilter: the claim is deallocated.
    assertEquals(Optional.of(ClaimDeallocation.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY)),
        postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("wrong-topology, reserved for this pod only: PostFilter deallocates it too")
  void wrongTopologyReservedForThePod() {
    var reserved = ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.withReservedFor(List.of(ConsumerRef.pod("my-pod", "1234")));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(reserved), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(reserved)), postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("wrong-topology, reserved for another pod: PostFilter leaves it to that pod")
  void wrongTopologyReservedForAnotherPod() {
    var reserved = ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.withReservedFor(List.of(ConsumerRef.pod("other", "5678")));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(reserved), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.empty(), postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("wrong-topology, the node never filtered by DynamicResources: nothing to deallocate")
  void wrongTopologyNotFiltered() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY), List.of(), List.of());

    assertEquals(Optional.empty(), postFilter(prepared, POD_WITH_CLAIM_NAME),
        "kube's unavailable claims are those a Filter call found so");
  }

  @Test
  @DisplayName("mix of a pending claim and one allocated elsewhere: only the allocated one is deallocated")
  void pendingAndWrongTopology() {
    var pending = claim("pending", null, exact("req-1", CLASS_NAME, 1));
    var pod = pod("my-pod", "1234", PodResourceClaim.ofClaim("a", CLAIM_NAME), PodResourceClaim.ofClaim("b", "pending"));
    var prepared = prepare(pod, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY, pending), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    assertRejected(prepared.filter(pod, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY)), postFilter(prepared, pod));
  }

  @Test
  @DisplayName("bound-claim-with-succeeded-binding-conditions")
  void boundClaimWithSucceededBindingConditions() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(boundClaim()), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(), null)),
        planned(prepared, WORKER_NODE), "only reserved: PreBind then finds its conditions met");
  }

  @Test
  @DisplayName("bound-claim-with-failed-binding")
  void boundClaimWithFailedBinding() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(failedBindingClaim()), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(failedBindingClaim())), postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("bound-claim-with-timed-out-binding")
  void boundClaimWithTimedOutBinding() {
    var allocation = DraFixtures.allocationWithBindingConditions(DraFixtures.DRIVER, "req-1", "instance-1");
    var claim = DraFixtures.withDeviceStatus(PENDING_CLAIM, new io.kubesched.api.AllocationResult(
        allocation.devices(), allocation.config(), allocation.nodeSelector(), Instant.now().minusSeconds(600 + 1)));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(claim), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(claim)), postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("a claim waiting for its binding conditions within the timeout is used (PreBind waits)")
  void boundClaimWaitingWithinTheTimeout() {
    var allocation = DraFixtures.allocationWithBindingConditions(DraFixtures.DRIVER, "req-1", "instance-1");
    var claim = DraFixtures.withDeviceStatus(PENDING_CLAIM, new io.kubesched.api.AllocationResult(
        allocation.devices(), allocation.config(), allocation.nodeSelector(), Instant.now().minusSeconds(60)),
        DraFixtures.condition(DraFixtures.BINDING_CONDITION, false));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(claim), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
  }

  @Test
  @DisplayName("bound-claim-with-mixed-binding-conditions")
  void boundClaimWithMixedBindingConditions() {
    var claim = DraFixtures.withDeviceStatus(PENDING_CLAIM,
        DraFixtures.allocationWithBindingConditions(DraFixtures.DRIVER, "req-1", "instance-1"),
        DraFixtures.condition("condition1", true), DraFixtures.condition("condition2", false));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(claim), List.of(), List.of());

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(claim)), postFilter(prepared, POD_WITH_CLAIM_NAME));
  }

  @Test
  @DisplayName("bound-claim-without-binding-conditions")
  void boundClaimWithoutBindingConditions() {
    var prepared = prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(),
        List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, WORKER_NODE).fits());
  }

  @Test
  @DisplayName("multi-claims-binding-conditions-all-success")
  void multiClaimsBindingConditionsAllSuccess() {
    var prepared = prepare(POD_WITH_TWO_CLAIM_NAMES, List.of(boundClaim(), boundClaim2()), List.of(DEVICE_CLASS),
        List.of());

    assertTrue(prepared.filter(POD_WITH_TWO_CLAIM_NAMES, WORKER_NODE).fits());
  }

  @Test
  @DisplayName("multi-claims-binding-conditions-one-fail")
  void multiClaimsBindingConditionsOneFail() {
    var prepared = prepare(POD_WITH_TWO_CLAIM_NAMES, List.of(boundClaim(), failedBindingClaim2()),
        List.of(DEVICE_CLASS), List.of());

    assertRejected(prepared.filter(POD_WITH_TWO_CLAIM_NAMES, WORKER_NODE), "resourceclaim not available on the node");
    assertEquals(Optional.of(ClaimDeallocation.of(failedBindingClaim2())),
        postFilter(prepared, POD_WITH_TWO_CLAIM_NAMES));
  }

  @Test
  @DisplayName("good-topology")
  void goodTopology() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(), null)),
        planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("reserved-okay")
  void reservedOkay() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(IN_USE_CLAIM), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
  }

  @Test
  @DisplayName("a claim reserved for another pod is shared: kube 1.37's CanBeReserved sets no limit")
  void reservedForAnotherPod() {
    var other = IN_USE_CLAIM.withReservedFor(List.of(io.kubesched.api.ConsumerRef.pod("other", "5678")));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(other), List.of(), List.of());

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(), null)),
        planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("claim-with-request-with-unknown-device-class")
  void claimWithRequestWithUnknownDeviceClass() {
    var unknown = claim(CLAIM_NAME, null, exact("req-1", "does-not-exist", 1));
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_NAME, List.of(unknown), List.of(), List.of()),
        "request req-1: device class does-not-exist does not exist");
  }

  @Test
  @DisplayName("claim-with-prioritized-list-unknown-device-class")
  void claimWithPrioritizedListUnknownDeviceClass() {
    var unknown = claim(CLAIM_NAME, null,
        prioritized("req-1", new DeviceRequest.SubRequest("subreq-1", requirements("does-not-exist", 1))));
    assertRejectedPod(
        prepare(POD_WITH_CLAIM_NAME, List.of(unknown), List.of(), List.of()),
        "request req-1/subreq-1: device class does-not-exist does not exist");
  }

  @Test
  @DisplayName("claim-with-prioritized-list")
  void claimWithPrioritizedList() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM_WITH_PRIORITIZED_LIST), List.of(DEVICE_CLASS),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
    assertEquals(
        List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM_WITH_PRIORITIZED_LIST.uid(),
            allocation(NODE_NAME, "req-1/subreq-1", "instance-1"))),
        planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("a request with neither exact requirements nor alternatives is kube's unknown request type")
  void unknownRequestType() {
    var odd = claim(CLAIM_NAME, null, new DeviceRequest("req-1", null, List.of()));
    assertRejectedPod(prepare(POD_WITH_CLAIM_NAME, List.of(odd), List.of(DEVICE_CLASS), List.of()),
        "resource claim default/my-pod-my-resource, request req-1: unknown request type");
  }

  @Test
  @DisplayName("a request without a class is kube's error, not a rejection")
  void requestWithoutClass() {
    var odd = claim(CLAIM_NAME, null, exact("req-1", "", 1));
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(odd), List.of(DEVICE_CLASS), List.of());

    var failed = assertInstanceOf(FilterResult.Failed.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertEquals("request req-1: unsupported request type", failed.message());
  }

  @Test
  @DisplayName("an allocator error (a CEL failure, say) makes the attempt an error")
  void allocatorError() {
    var failing = new DynamicResourcesFilter(resources -> (node, claims) -> new Allocator.Outcome.Failed("boom"));
    var prepared = failing.prepare(POD_WITH_CLAIM_NAME,
        snapshot(List.of(WORKER_NODE), resources(List.of(), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM))));

    var failed = assertInstanceOf(FilterResult.Failed.class, prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE));
    assertEquals("boom", failed.message());
  }

  @Test
  @DisplayName("an unsuitable node with the allocator's reason (kube's ErrFailedAllocationOnNode) shows that reason")
  void allocatorReasonForTheNode() {
    var unsuitable = new DynamicResourcesFilter(
        resources -> (node, claims) -> new Allocator.Outcome.Unsuitable("invalid resource pools were encountered"));
    var prepared = unsuitable.prepare(POD_WITH_CLAIM_NAME,
        snapshot(List.of(WORKER_NODE), resources(List.of(), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM))));

    assertRejected(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE), "invalid resource pools were encountered");
    assertEquals(List.of(), planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("kube allocates before it checks allocated claims' nodes: cannot allocate wins on a node failing both")
  void allocationBeforeTopology() {
    var pod = pod("my-pod", "1234", PodResourceClaim.ofClaim("a", CLAIM_NAME), PodResourceClaim.ofClaim("b", "b"));
    var pending = claim("b", null, exact("req-1", CLASS_NAME, 1));
    var prepared = prepare(pod, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY, pending), List.of(DEVICE_CLASS),
        List.of());

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot allocate all claims");
  }

  @Test
  @DisplayName("a pod with an allocated and a pending claim plans both, in the pod's order")
  void mixOfAllocatedAndPending() {
    var pod = pod("my-pod", "1234", PodResourceClaim.ofClaim("b", "b"), PodResourceClaim.ofClaim("a", CLAIM_NAME));
    var pending = claim("b", null, exact("req-1", CLASS_NAME, 1));
    var allocated = claim(CLAIM_NAME, null, exact("req-1", CLASS_NAME, 1))
        .withAllocation(allocation(NODE_NAME, "req-1", "instance-1"));
    var prepared = prepare(pod, List.of(allocated, pending), List.of(DEVICE_CLASS),
        List.of(DraFixtures.slice(NODE_NAME, "instance-1", "instance-2")));

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    assertEquals(
        List.of(
            new ClaimAllocation(NAMESPACE, "b", pending.uid(), allocation(NODE_NAME, "req-1", "instance-2")),
            new ClaimAllocation(NAMESPACE, CLAIM_NAME, allocated.uid(), null)),
        planned(prepared, WORKER_NODE));
  }

  @Test
  @DisplayName("two entries naming one claim share it: one allocation, one entry")
  void twoEntriesOneClaim() {
    var pod = pod("my-pod", "1234", PodResourceClaim.ofClaim("a", CLAIM_NAME), PodResourceClaim.ofClaim("b", CLAIM_NAME));
    var prepared = prepare(pod, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    assertEquals(1, planned(prepared, WORKER_NODE).size());
  }

  @Test
  @DisplayName("extended-resource-name-with-node-resource")
  void extendedResourceNameWithNodeResource() {
    var node = nodeWithExtended(NODE_NAME, EXTENDED_RESOURCE_NAME, 1);
    var pod = podRequesting(EXTENDED_RESOURCE_NAME, 1);
    var prepared = prepare(pod, List.of(node), List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME), List.of());

    assertTrue(prepared.filter(pod, node).fits(), "a device plugin offers it there: nothing for DRA to do");
  }

  @Test
  @DisplayName("non-DRA-extended-resource-name-with-zero-allocatable")
  void nonDraExtendedResourceNameWithZeroAllocatable() {
    var pod = podRequesting("example.com/other", 1);
    var prepared = prepare(pod, List.of(WORKER_NODE), List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of());

    assertInstanceOf(PreFilter.Skipped.class, prepared, "no class backs it: NodeResourcesFit's to check");
  }

  /** The one claim to create in {@code planned}, after asserting it is the last entry. */
  private static ClaimAllocation toCreate(List<ClaimAllocation> planned) {
    var last = planned.get(planned.size() - 1);
    assertEquals(ExtendedResourceClaim.NAME_BEFORE_CREATION, last.name());
    assertEquals(NAMESPACE, last.namespace());
    return last;
  }

  private static DeviceRequest exactRequest(String name, String className, long count) {
    return DeviceRequest.exactly(name, DraFixtures.requirements(className, count));
  }

  @Test
  @DisplayName("extended-resource-name-no-resource")
  void extendedResourceNameNoResource() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var prepared = prepare(pod, List.of(WORKER_NODE), List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of());

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot allocate all claims");
  }

  @Test
  @DisplayName("extended-resource-name-with-resources")
  void extendedResourceNameWithResources() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var prepared = prepare(pod, List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    var planned = planned(prepared, WORKER_NODE);
    assertEquals(1, planned.size());
    var claim = toCreate(planned);
    var create = java.util.Objects.requireNonNull(claim.create());
    assertEquals(new ExtendedResourceClaim(POD_NAME, POD_UID,
            List.of(exactRequest("container-0-request-0", CLASS_NAME, 1)),
            List.of(new RequestMapping("con0", EXTENDED_RESOURCE_NAME, "container-0-request-0"))),
        create);
    assertEquals("my-pod-extended-resources-", create.generateName());
    assertEquals(1, java.util.Objects.requireNonNull(claim.allocation()).devices().size());
  }

  @Test
  @DisplayName("extended-resource-name-with-zero-allocatable")
  void extendedResourceNameWithZeroAllocatable() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var node = nodeWithExtended(NODE_NAME, EXTENDED_RESOURCE_NAME, 0);
    var prepared = prepare(pod, List.of(node), List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(pod, node).fits());
    assertEquals(List.of(exactRequest("container-0-request-0", CLASS_NAME, 1)),
        java.util.Objects.requireNonNull(toCreate(planned(prepared, node)).create()).requests());
  }

  @Test
  @DisplayName("extended-resource-one-device-plugin-one-dra")
  void extendedResourceOneDevicePluginOneDra() {
    var second = EXTENDED_RESOURCE_NAME + "2";
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L, second, 1L));
    var node = nodeWithExtended(NODE_NAME, EXTENDED_RESOURCE_NAME, 1);
    var class2 = new DeviceClass(CLASS_NAME + "2", List.of(), List.of(), second);
    var prepared = prepare(pod, List.of(node), List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME, class2),
        List.of(WORKER_NODE_SLICE));

    assertTrue(prepared.filter(pod, node).fits());
    var create = java.util.Objects.requireNonNull(toCreate(planned(prepared, node)).create());
    assertEquals(List.of(exactRequest("container-0-request-1", CLASS_NAME + "2", 1)), create.requests(),
        "only the resource no device plugin offers there");
  }

  @Test
  @DisplayName("implicit-extended-resource-name-with-resources")
  void implicitExtendedResourceNameWithResources() {
    var implicit = PodClaims.IMPLICIT_EXTENDED_RESOURCE_PREFIX + CLASS_NAME;
    var pod = DraFixtures.podWithContainers(Map.of(implicit, 1L, EXTENDED_RESOURCE_NAME, 2L));
    var prepared = prepare(pod, List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(DraFixtures.slice(NODE_NAME, "instance-1", "instance-2", "instance-3", "instance-4")));

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    var claim = toCreate(planned(prepared, WORKER_NODE));
    assertEquals(
        List.of(exactRequest("container-0-request-0", CLASS_NAME, 1), exactRequest("container-0-request-1", CLASS_NAME, 2)),
        java.util.Objects.requireNonNull(claim.create()).requests());
    assertEquals(3, java.util.Objects.requireNonNull(claim.allocation()).devices().size());
  }

  @Test
  @DisplayName("implicit-extended-resource-name-two-containers-with-resources")
  void implicitExtendedResourceNameTwoContainersWithResources() {
    var implicit = PodClaims.IMPLICIT_EXTENDED_RESOURCE_PREFIX + CLASS_NAME;
    var pod = DraFixtures.podWithContainers(Map.of(implicit, 1L), Map.of(EXTENDED_RESOURCE_NAME, 2L));
    var prepared = prepare(pod, List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(DraFixtures.slice(NODE_NAME, "instance-1", "instance-2", "instance-3", "instance-4")));

    assertTrue(prepared.filter(pod, WORKER_NODE).fits());
    var create = java.util.Objects.requireNonNull(toCreate(planned(prepared, WORKER_NODE)).create());
    assertEquals(
        List.of(exactRequest("container-0-request-0", CLASS_NAME, 1), exactRequest("container-1-request-0", CLASS_NAME, 2)),
        create.requests());
    assertEquals(
        List.of(new RequestMapping("con0", implicit, "container-0-request-0"),
            new RequestMapping("con1", EXTENDED_RESOURCE_NAME, "container-1-request-0")),
        create.requestMappings());
  }

  @Test
  @DisplayName("extended-resource-name-with-resources-has-claim")
  void extendedResourceNameWithResourcesHasClaim() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var existing = new ResourceClaim(NAMESPACE, "my-pod-extended-resources-0", "claim-uid", "1", POD_OWNER,
        Map.of(ExtendedResourceClaim.ANNOTATION, "true"), List.of(exactRequest("container-0-request-0", CLASS_NAME, 1)),
        List.of(), List.of(), DraFixtures.ALLOCATION_RESULT, List.of(), false);
    var prepared = prepare(pod, List.of(existing), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(WORKER_NODE_SLICE));

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot schedule extended resource claim");
    var deletion = postFilter(prepared, pod).orElseThrow();
    assertEquals(ClaimDeallocation.deletion(existing), deletion);
    assertEquals("deletion of ResourceClaim completed", deletion.completed());
  }

  @Test
  @DisplayName("extended-resource-name-with-resources-delete-claim")
  void extendedResourceNameWithResourcesDeleteClaim() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var onNode2 = new ResourceClaim(NAMESPACE, "my-pod-extended-resources-0", "claim-uid", "1", POD_OWNER,
        Map.of(ExtendedResourceClaim.ANNOTATION, "true"), List.of(exactRequest("container-0-request-0", CLASS_NAME, 1)),
        List.of(), List.of(), DraFixtures.ALLOCATION_RESULT2, List.of(), false);
    var prepared = prepare(pod, List.of(onNode2), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(WORKER_NODE_SLICE));

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot schedule extended resource claim");
    assertEquals(Optional.of(ClaimDeallocation.deletion(onNode2)), postFilter(prepared, pod));
  }

  @Test
  @DisplayName("a pod without a claim for extended resources from an earlier attempt has none deleted")
  void noStaleExtendedClaimNoDeletion() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L));
    var prepared = prepare(pod, List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME), List.of());

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot allocate all claims");
    assertEquals(Optional.empty(), postFilter(prepared, pod));
  }

  @Test
  @DisplayName("a node lacking an extended resource no class backs is kube's cannot fit resource")
  void cannotFitResource() {
    var pod = DraFixtures.podWithContainers(Map.of(EXTENDED_RESOURCE_NAME, 1L, "example.com/other", 1L));
    var prepared = prepare(pod, List.of(), List.of(DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(WORKER_NODE_SLICE));

    assertRejected(prepared.filter(pod, WORKER_NODE), "cannot fit resource");
  }

  @Test
  @DisplayName("the plugin reads the four kinds of DRA objects")
  void reads() {
    assertEquals(
        Set.of(ClusterData.RESOURCE_CLAIMS, ClusterData.RESOURCE_SLICES, ClusterData.DEVICE_CLASSES,
            ClusterData.DEVICE_TAINT_RULES),
        new DynamicResourcesFilter().reads());
    assertEquals(new DynamicResourcesFilter().reads(), new DynamicResourcesScorer().reads());
  }

  @Test
  @DisplayName("an owner check passes for the pod's own template claim")
  void ownTemplateClaim() {
    var own = withController(PENDING_CLAIM, POD_OWNER);
    var prepared =
        prepare(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(own), List.of(DEVICE_CLASS), List.of(WORKER_NODE_SLICE));
    assertTrue(prepared.filter(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, WORKER_NODE).fits());
  }

  @Test
  @DisplayName("a claim not owned by the pod is fine when the pod names it directly")
  void namedClaimNeedsNoOwner() {
    var prepared = prepare(POD_WITH_CLAIM_NAME, List.of(CLAIM.withAllocation(allocation(NODE_NAME, "req-1", "i"))),
        List.of(), List.of());
    assertTrue(prepared.filter(POD_WITH_CLAIM_NAME, WORKER_NODE).fits());
  }
}
