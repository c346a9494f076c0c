package io.kubesched.policy.plugins.dynamicresources;

import java.util.Map;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.ResourceClaim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.CLASS_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.DEVICE_CLASS;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NAMESPACE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE2_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.NODE_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.PENDING_CLAIM;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.POD_WITH_CLAIM_NAME;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.WORKER_NODE2;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.allocation;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.claim;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.exact;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.pod;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.resources;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.slice;
import static io.kubesched.policy.plugins.dynamicresources.DraFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.GroupDecision;
import io.kubesched.policy.GroupPlacement;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The plugin in a policy: what the decision carries, the explain table, pod groups, the default profile. */
class DynamicResourcesPolicyTest {

  private static Policy policy() {
    var allocator = new FirstFreeDevices();
    return Policy.builder()
        .filters(Filters.defaults().stream()
            .map(f -> f.name().equals(DynamicResourcesFilter.NAME) ? (Filter) new DynamicResourcesFilter(allocator) : f)
            .toList())
        .scorer(new DynamicResourcesScorer(allocator), 2)
        .preemption(io.kubesched.policy.PreemptionArgs.DEFAULT)
        .seed(1)
        .build();
  }

  @Test
  @DisplayName("the decision binds where the devices are and carries the allocation to write")
  void bindCarriesTheAllocation() {
    var cluster = snapshot(List.of(WORKER_NODE, WORKER_NODE2), resources(
        List.of(slice(NODE2_NAME, "instance-1")), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM)));

    var bind = assertInstanceOf(Decision.Bind.class, policy().find(POD_WITH_CLAIM_NAME, cluster));

    assertEquals(NODE2_NAME, bind.nodeName());
    assertEquals(
        List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(),
            allocation(NODE2_NAME, "req-1", "instance-1"))),
        bind.claimAllocations());
  }

  @Test
  @DisplayName("an allocated claim pins the pod to its node and is only reserved")
  void allocatedClaimPins() {
    var cluster = snapshot(List.of(WORKER_NODE2, WORKER_NODE), resources(List.of(), List.of(), List.of(ALLOCATED_CLAIM)));

    var bind = assertInstanceOf(Decision.Bind.class, policy().find(POD_WITH_CLAIM_NAME, cluster));

    assertEquals(NODE_NAME, bind.nodeName());
    assertEquals(List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, ALLOCATED_CLAIM.uid(), null)),
        bind.claimAllocations());
  }

  @Test
  @DisplayName("no node with devices: kube's message per node, unresolvable, so preemption is not tried")
  void noDevicesAnywhere() {
    var cluster = snapshot(List.of(WORKER_NODE, WORKER_NODE2), resources(
        List.of(), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM)));

    var refused = assertInstanceOf(Decision.Unschedulable.class, policy().find(POD_WITH_CLAIM_NAME, cluster));

    assertEquals(List.of("cannot allocate all claims"), refused.reasonsByNode().get(NODE_NAME));
    assertEquals("0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2"
        + " Preemption is not helpful for scheduling.", refused.message(2));
    assertEquals(java.util.Set.of(NODE_NAME, NODE2_NAME), refused.unresolvableNodes());
  }

  @Test
  @DisplayName("a claim allocated where the pod cannot go is deallocated by PostFilter, before preemption")
  void idleClaimElsewhereIsDeallocated() {
    var cluster = snapshot(List.of(WORKER_NODE), resources(
        List.of(), List.of(), List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY)));

    var refused = assertInstanceOf(Decision.Unschedulable.class, policy().find(POD_WITH_CLAIM_NAME, cluster));

    assertEquals(List.of(ClaimDeallocation.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY)), refused.claimDeallocations());
    assertEquals("0/1 nodes are available: 1 resourceclaim not available on the node. deallocation of ResourceClaim"
        + " completed, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        refused.message(1));
  }

  @Test
  @DisplayName("a claim for extended resources left from an earlier attempt is deleted by PostFilter")
  void staleExtendedResourceClaimIsDeleted() {
    var pod = DraFixtures.podWithContainers(Map.of(DraFixtures.EXTENDED_RESOURCE_NAME, 1L));
    var stale = new ResourceClaim(NAMESPACE, "my-pod-extended-resources-0", "claim-uid", "1", DraFixtures.POD_OWNER,
        Map.of(ExtendedResourceClaim.ANNOTATION, "true"),
        List.of(DeviceRequest.exactly("container-0-request-0", DraFixtures.requirements(CLASS_NAME, 1))),
        List.of(), List.of(), DraFixtures.ALLOCATION_RESULT, List.of(), false);
    var cluster = snapshot(List.of(WORKER_NODE), resources(
        List.of(slice(NODE_NAME, "instance-1")), List.of(DraFixtures.DEVICE_CLASS_WITH_EXTENDED_RESOURCE_NAME),
        List.of(stale)));

    var refused = assertInstanceOf(Decision.Unschedulable.class, policy().find(pod, cluster));

    assertEquals(List.of(ClaimDeallocation.deletion(stale)), refused.claimDeallocations());
    assertEquals("0/1 nodes are available: 1 cannot schedule extended resource claim. deletion of ResourceClaim"
        + " completed, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        refused.message(1));
  }

  @Test
  @DisplayName("a pod group's member deallocates nothing on its own (kube's group cycle runs no per-pod PostFilter)")
  void groupMemberDeallocatesNothing() {
    var cluster = snapshot(List.of(WORKER_NODE), resources(
        List.of(), List.of(), List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY)));
    var group = PodGroup.of(new PodGroupRef(PodGroupRef.Source.values()[0], NAMESPACE, "g"), 1);

    var refused = assertInstanceOf(GroupDecision.Unschedulable.class,
        GroupPlacement.place(group, List.of(POD_WITH_CLAIM_NAME), 0, cluster, policy()));

    var member = refused.unfitted().get(POD_WITH_CLAIM_NAME.uid());
    assertEquals(List.of(), member.claimDeallocations());
    assertEquals("0/1 nodes are available: 1 resourceclaim not available on the node.", member.message(1));
  }

  @Test
  @DisplayName("the explain table shows DynamicResources per node")
  void explainShowsThePlugin() {
    var cluster = snapshot(List.of(WORKER_NODE, WORKER_NODE2), resources(
        List.of(slice(NODE2_NAME, "instance-1")), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM)));

    var explanation = policy().explain(POD_WITH_CLAIM_NAME, cluster);

    var worker = explanation.node(NODE_NAME).orElseThrow();
    var outcome = worker.filters().stream().filter(f -> f.filter().equals("DynamicResources")).findFirst().orElseThrow();
    assertEquals("cannot allocate all claims",
        assertInstanceOf(io.kubesched.policy.framework.FilterResult.Rejected.class, outcome.result())
            .reasons().get(0).message());
    assertTrue(explanation.node(NODE2_NAME).orElseThrow().feasible());
    assertTrue(explanation.toTable().contains("DynamicResources"), explanation.toTable());
  }

  @Test
  @DisplayName("a claim shared by two members of one pod group is allocated once, for the first, and reserved for both")
  void sharedClaimInAGroupIsAllocatedOnce() {
    var shared = claim("shared", null, exact("req-1", CLASS_NAME, 1));
    var first = pod("first", "uid-1", PodResourceClaim.ofClaim("gpu", "shared"));
    var second = pod("second", "uid-2", PodResourceClaim.ofClaim("gpu", "shared"));
    var cluster = snapshot(List.of(WORKER_NODE, WORKER_NODE2), resources(
        List.of(slice(NODE2_NAME, "instance-1")), List.of(DEVICE_CLASS), List.of(shared)));
    var group = PodGroup.of(new PodGroupRef(PodGroupRef.Source.values()[0], NAMESPACE, "g"), 2);

    var placed = assertInstanceOf(GroupDecision.Placed.class,
        GroupPlacement.place(group, List.of(first, second), 0, cluster, policy()));

    var binds = placed.fitted().stream().map(GroupDecision.Member::bind).toList();
    assertEquals(List.of(NODE2_NAME, NODE2_NAME), binds.stream().map(Decision.Bind::nodeName).toList());
    assertEquals(allocation(NODE2_NAME, "req-1", "instance-1"), binds.get(0).claimAllocations().get(0).allocation());
    assertEquals(new ClaimAllocation(NAMESPACE, "shared", shared.uid(), null), binds.get(1).claimAllocations().get(0));
  }

  @Test
  @DisplayName("ClaimAllocations.apply allocates and reserves the claims a decision names, and nothing else")
  void applyAllocatesAndReserves() {
    var other = claim("other", null, exact("req-1", CLASS_NAME, 1));
    var resources = resources(List.of(), List.of(DEVICE_CLASS), List.of(PENDING_CLAIM, other));
    var alloc = allocation(NODE_NAME, "req-1", "instance-1");

    var applied = ClaimAllocations.apply(resources, POD_WITH_CLAIM_NAME,
        List.of(new ClaimAllocation(NAMESPACE, CLAIM_NAME, PENDING_CLAIM.uid(), alloc)));

    var claim = applied.claim(NAMESPACE, CLAIM_NAME).orElseThrow();
    assertEquals(alloc, claim.allocation());
    assertEquals(List.of(ConsumerRef.pod("my-pod", "1234")), claim.reservedFor());
    assertEquals(other, applied.claim(NAMESPACE, "other").orElseThrow());
  }

  @Test
  @DisplayName("DefaultPolicy runs DynamicResources after InterPodAffinity and scores it with weight 2, as kube")
  void defaultPolicyHasThePlugin() {
    var policy = DefaultPolicy.create();
    var filters = policy.filters().stream().map(Filter::name).toList();
    assertEquals(
        List.of("InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"),
        filters.subList(filters.size() - 3, filters.size()), "NodeDeclaredFeatures is appended after all, as kube");
    var scorers = policy.scorers().stream().map(s -> s.scorer().name() + ":" + s.weight()).toList();
    assertEquals(List.of("TaintToleration:3", "NodeAffinity:2", "NodeResourcesLeastAllocated:1",
        "VolumeBinding:1", "PodTopologySpread:2", "InterPodAffinity:2", "DynamicResources:2", "NodeResourcesBalancedAllocation:1",
        "ImageLocality:1"), scorers);
    assertTrue(policy.reads().containsAll(new DynamicResourcesFilter().reads()));
    assertEquals(DynamicResourcesScorer.class, Scorers.dynamicResources().getClass());
  }
}
