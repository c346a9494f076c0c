package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.AllocatedDeviceStatus;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.ClaimOutcome;
import io.kubesched.engine.QueueDepths;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.ClaimAssumptions;
import io.kubesched.informer.cycle.ClaimPort;
import java.util.ArrayList;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * ResourceClaims in the loop (kube's DynamicResources Reserve, PreBind and Unreserve): the allocations a decision
 * carries are assumed before the next decision, written to each claim before the pod is bound, and given back
 * (the pod taken out of the claims written) when a write or the binding fails. Cycles run inline with fake ports.
 */
public class ClaimAllocationCycleTest {

  private static final String NAME = "my-scheduler";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<String> events = new ArrayList<>();
  private final List<String> heard = new ArrayList<>();
  private final Map<String, ClaimOutcome> outcomes = new java.util.HashMap<>();
  private BindOutcome bindOutcome = new BindOutcome.Bound("n1", false);
  private @Nullable Decision decision;
  /** The claims as the informers show them, by name (what the wait for binding conditions reads). */
  private final Map<String, ResourceClaim> seen = new java.util.concurrent.ConcurrentHashMap<>();

  private ClaimAllocation gpu = new ClaimAllocation("default", "gpu", "uid-gpu", allocation("gpu-0"));
  private static final ClaimAllocation SHARED = new ClaimAllocation("default", "shared", "uid-shared", null);
  /** The claim for the pod's extended resources, as the policy hands it out before it exists. */
  private static final ClaimAllocation EXTENDED = new ClaimAllocation("default",
      ExtendedResourceClaim.NAME_BEFORE_CREATION, "extended-resources-uid-p", allocation("gpu-1"),
      new ExtendedResourceClaim("p", "uid-p", List.of(),
          List.of(new ExtendedResourceClaim.RequestMapping("c", "example.com/gpu", "container-0-request-0"))));
  private List<ClaimAllocation> decided = List.of(gpu, SHARED);
  private ClaimOutcome creation = new ClaimOutcome.Created("p-extended-resources-x", "uid-x");
  private ClaimOutcome statusWrite = new ClaimOutcome.Written();

  private final FinderFunc withClaims =
      new FinderFunc() {
        @Override
        public Decision find(PodInfo pod, List<NodeInfo> nodes) {
          return decision != null ? decision : new Decision.Bind("n1").withClaimAllocations(decided);
        }

        @Override
        public Set<ClusterData> reads() {
          return Set.of(ClusterData.RESOURCE_CLAIMS);
        }
      };

  private final ClaimPort claims =
      new ClaimPort() {
        @Override
        public ClaimOutcome reserve(ClaimAllocation claim, String podName, String podUid) {
          events.add("reserve " + claim.name() + (claim.allocation() == null ? "" : " with allocation") + " for "
              + podName);
          return outcomes.getOrDefault(claim.name(), new ClaimOutcome.Written());
        }

        @Override
        public void unreserve(ClaimAllocation claim, String podUid) {
          events.add("unreserve " + claim.name() + " for " + podUid);
        }

        @Override
        public ClaimOutcome create(ClaimAllocation claim) {
          events.add("create the claim for " + java.util.Objects.requireNonNull(claim.create()).podName());
          return creation;
        }

        @Override
        public ClaimOutcome writePodStatus(ClaimAllocation created, String podName, String podUid) {
          events.add("status of " + podName + " names " + created.name());
          return statusWrite;
        }

        @Override
        public void delete(ClaimAllocation created) {
          events.add("delete " + created.name());
        }

        @Override
        public boolean deallocate(ClaimDeallocation claim) {
          events.add("deallocate " + claim.name() + " at version " + claim.resourceVersion());
          return true;
        }
      };

  private final ClaimAssumptions assumptions =
      new ClaimAssumptions() {
        @Override
        public void assume(String podUid, List<ClaimAllocation> allocations) {
          events.add("assume " + allocations.stream().map(ClaimAllocation::name).toList() + " for " + podUid);
        }

        @Override
        public void forget(String podUid) {
          events.add("forget " + podUid);
        }

        @Override
        public void created(String podUid, String placeholderUid, ClaimAllocation created) {
          events.add("assumed " + placeholderUid + " as " + created.name() + " for " + podUid);
        }

        @Override
        public Optional<ResourceClaim> current(String namespace, String name) {
          return Optional.ofNullable(seen.get(name));
        }
      };

  private final SchedulingListener listener =
      new SchedulingListener() {
        @Override
        public void bound(PodInfo pod, String nodeName) {
          heard.add("bound " + pod.name() + " to " + nodeName);
        }

        @Override
        public void failed(String podKey, Exception error) {
          heard.add("failed " + podKey + ": " + error.getMessage());
        }

        @Override
        public void unschedulable(PodInfo pod, String message) {
          heard.add("unschedulable " + pod.name() + ": " + message);
        }
      };

  private static AllocationResult allocation(String device) {
    return new AllocationResult(
        List.of(new DeviceAllocation("gpu", "gpu.example.com", "n1", device, false, List.of(), List.of(), List.of(),
            null, Map.of())),
        List.of(), null, null);
  }

  private LoopParts parts() {
    BindPort port =
        (pod, nodeName) -> {
          events.add("bind " + pod.getMetadata().getName() + " to " + nodeName);
          return bindOutcome;
        };
    var parts =
        FakeLoop.of(TestSettings.forFakeCluster(NAME), withClaims, clock::get, port).listener(listener)
            .claims(claims, assumptions).create();
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n1"));
    parts.handlers().pods().onAdd(SchedulingLoopPartsTest.pod("p"));
    return parts;
  }

  private static void scheduleNext(LoopParts parts) throws InterruptedException {
    parts.scheduling().scheduleOne(parts.queue().poll());
  }

  @Test
  void the_allocations_are_assumed_then_written_to_every_claim_before_the_pod_is_bound() throws Exception {
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        List.of("assume [gpu, shared] for uid-p", "reserve gpu with allocation for p", "reserve shared for p",
            "bind p to n1"),
        events, "no forget: the allocations stay assumed until the watch shows them written");
    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), parts.queue().depths());
  }

  @Test
  void a_claim_write_that_fails_takes_the_pod_out_of_the_claims_written_and_requeues_it() throws Exception {
    outcomes.put("shared", new ClaimOutcome.Failed("claim default/shared got deleted in the meantime"));
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        List.of("assume [gpu, shared] for uid-p", "reserve gpu with allocation for p", "reserve shared for p",
            "unreserve gpu for uid-p", "forget uid-p"),
        events, "never bound; the first claim given up, the allocations given back");
    assertEquals(
        List.of("failed default/p: running PreBind plugin \"DynamicResources\": claim default/shared got deleted in"
            + " the meantime"),
        heard);
    assertFalse(parts.cache().isAssumed("uid-p"));
    assertEquals(1, parts.queue().depths().backoff(), "retried after backoff");
  }

  /** kube's DynamicResources PreBind with binding conditions: the claims written, then the wait. */
  private static final String CONDITION = "condition";
  private static final String FAILED = "failed";

  private static AllocationResult allocationWithBindingConditions(@Nullable Instant allocated) {
    return new AllocationResult(
        List.of(new DeviceAllocation("gpu", "gpu.example.com", "n1", "gpu-0", false, List.of(), List.of(CONDITION),
            List.of(FAILED), null, Map.of())),
        List.of(), null, allocated);
  }

  /** The claim {@code gpu} as the watch shows it once written, with {@code conditions} on its device. */
  private void seenGpu(@Nullable Instant allocated, AllocatedDeviceStatus.Condition... conditions) {
    seen.put("gpu", new ResourceClaim("default", "gpu", "uid-gpu", "2", null, Map.of(), List.of(), List.of(),
        List.of(), allocationWithBindingConditions(allocated), List.of(), false,
        conditions.length == 0 ? List.of()
            : List.of(new AllocatedDeviceStatus("gpu.example.com", "n1", "gpu-0", null, List.of(conditions)))));
    seen.put("shared", new ResourceClaim("default", "shared", "uid-shared", "2", null, Map.of(), List.of(),
        List.of(), List.of(), allocation("other-0"), List.of(), false));
  }

  private static AllocatedDeviceStatus.Condition condition(String type, String status) {
    return new AllocatedDeviceStatus.Condition(type, status, type.equals(FAILED) ? "NoLink" : "", "fabric down");
  }

  /** A pod whose claim {@code gpu} is allocated a device with binding conditions, seen with no status yet. */
  private LoopParts partsWithBindingConditions() {
    gpu = new ClaimAllocation("default", "gpu", "uid-gpu", allocationWithBindingConditions(null));
    decided = List.of(gpu, SHARED);
    seenGpu(Instant.now());
    return parts();
  }

  @Test
  @DisplayName("bound-claim-with-succeeded-binding-conditions: bound once the device's conditions are True")
  void boundClaimWithSucceededBindingConditions() throws Exception {
    var parts = partsWithBindingConditions();

    scheduleNext(parts);

    assertEquals(List.of("assume [gpu, shared] for uid-p", "reserve gpu with allocation for p", "reserve shared for p"),
        events, "written, then waiting: not bound yet");
    assertEquals(1, parts.binding().deviceWaits());
    seenGpu(Instant.now(), condition(CONDITION, "False"), condition(FAILED, "False"));
    parts.binding().checkDeviceWaits();
    assertEquals(1, parts.binding().deviceWaits(), "a condition False: still waiting");

    seenGpu(Instant.now(), condition(CONDITION, "True"), condition(FAILED, "False"));
    parts.binding().checkDeviceWaits();

    assertEquals("bind p to n1", events.get(events.size() - 1));
    assertEquals(List.of("bound p to n1"), heard);
    assertEquals(0, parts.binding().deviceWaits());
  }

  @Test
  @DisplayName("bound-claim-with-failed-binding: a failure condition True fails PreBind; the pod leaves its claims")
  void boundClaimWithFailedBinding() throws Exception {
    var parts = partsWithBindingConditions();
    scheduleNext(parts);
    events.clear();

    seenGpu(Instant.now(), condition(CONDITION, "False"), condition(FAILED, "True"));
    parts.binding().checkDeviceWaits();

    assertEquals(List.of("unreserve gpu for uid-p", "unreserve shared for uid-p", "forget uid-p"), events,
        "never bound; the allocation stays for the next attempt's PostFilter to deallocate");
    assertEquals(List.of("failed default/p: running PreBind plugin \"DynamicResources\": device binding failed:"
        + " claim=gpu, reason=NoLink, message=\"fabric down\""), heard);
    assertEquals(1, parts.queue().depths().backoff(), "retried after backoff");
    assertFalse(parts.cache().isAssumed("uid-p"));
  }

  @Test
  @DisplayName("prebind-fail-with-binding-timeout: the claim's allocation is older than the binding timeout")
  void prebindFailWithBindingTimeout() throws Exception {
    var parts = partsWithBindingConditions();
    scheduleNext(parts);
    events.clear();

    seenGpu(Instant.now().minus(ResourceClaim.DEFAULT_BINDING_TIMEOUT).minusSeconds(1),
        condition(CONDITION, "False"), condition(FAILED, "False"));
    parts.binding().checkDeviceWaits();

    assertEquals(List.of("failed default/p: running PreBind plugin \"DynamicResources\": device binding timeout:"
        + " claim=gpu"), heard);
    assertEquals(List.of("unreserve gpu for uid-p", "unreserve shared for uid-p", "forget uid-p"), events);
  }

  @Test
  @DisplayName("bind-claim-with-binding-conditions: no driver sets the conditions; the wait ends at the timeout")
  void bindClaimWithBindingConditions() throws Exception {
    var parts = partsWithBindingConditions();
    scheduleNext(parts);
    parts.binding().checkDeviceWaits();
    assertEquals(1, parts.binding().deviceWaits(), "no status.devices entry yet: waiting");

    clock.addAndGet(ResourceClaim.DEFAULT_BINDING_TIMEOUT.toNanos());
    parts.binding().checkDeviceWaits();

    assertEquals(List.of("failed default/p: running PreBind plugin \"DynamicResources\": device binding timeout:"
        + " context deadline exceeded"), heard);
    assertEquals(0, parts.binding().deviceWaits());
  }

  @Test
  void a_pod_deleted_while_its_devices_are_awaited_leaves_its_claims_and_is_not_bound() throws Exception {
    var parts = partsWithBindingConditions();
    scheduleNext(parts);
    events.clear();

    parts.handlers().pods().onDelete(SchedulingLoopPartsTest.pod("p"), false);
    parts.binding().checkDeviceWaits();

    assertEquals(List.of("unreserve gpu for uid-p", "unreserve shared for uid-p", "forget uid-p"), events);
    assertEquals(List.of(), heard);
  }

  @Test
  void a_binding_that_fails_after_the_claims_were_written_takes_the_pod_out_of_them_again() throws Exception {
    bindOutcome = new BindOutcome.Failed("connection refused");
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        List.of("assume [gpu, shared] for uid-p", "reserve gpu with allocation for p", "reserve shared for p",
            "bind p to n1", "unreserve gpu for uid-p", "unreserve shared for uid-p", "forget uid-p"),
        events);
    assertFalse(parts.cache().isAssumed("uid-p"));
    assertTrue(heard.get(0).startsWith("failed default/p: binding pod default/p to node n1 failed"), heard.toString());
  }

  /** The events of a pod whose claim for extended resources was created and written, then {@code then}. */
  private static List<String> createdAndWritten(String... then) {
    var events = new ArrayList<>(List.of("assume [gpu, <extended-resources>] for uid-p",
        "reserve gpu with allocation for p", "create the claim for p",
        "reserve p-extended-resources-x with allocation for p",
        "assumed extended-resources-uid-p as p-extended-resources-x for uid-p",
        "status of p names p-extended-resources-x"));
    events.addAll(List.of(then));
    return events;
  }

  @Test
  void the_claim_for_extended_resources_is_created_written_named_in_the_pod_s_status_then_the_pod_bound()
      throws Exception {
    decided = List.of(gpu, EXTENDED);
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        createdAndWritten("bind p to n1"),
        events, "no forget: the created claim's devices stay assumed until the watch shows them");
    assertEquals(List.of("bound p to n1"), heard);
  }

  @Test
  void a_binding_that_fails_deletes_the_claim_created_for_extended_resources() throws Exception {
    decided = List.of(gpu, EXTENDED);
    bindOutcome = new BindOutcome.Failed("connection refused");
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        createdAndWritten("bind p to n1", "unreserve gpu for uid-p",
            "delete p-extended-resources-x", "forget uid-p"),
        events);
  }

  @Test
  void a_pod_status_that_cannot_be_written_deletes_the_claim_and_requeues_the_pod() throws Exception {
    decided = List.of(gpu, EXTENDED);
    statusWrite = new ClaimOutcome.Failed("update pod default/p ExtendedResourceClaimStatus: pods \"p\" not found");
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        createdAndWritten("unreserve gpu for uid-p", "delete p-extended-resources-x",
            "forget uid-p"),
        events);
    assertEquals(List.of("failed default/p: running PreBind plugin \"DynamicResources\": update pod default/p"
        + " ExtendedResourceClaimStatus: pods \"p\" not found"), heard);
    assertEquals(1, parts.queue().depths().backoff());
  }

  @Test
  void a_claim_that_cannot_be_created_leaves_nothing_to_delete() throws Exception {
    decided = List.of(gpu, EXTENDED);
    creation = new ClaimOutcome.Failed("create claim for extended resources default/: forbidden");
    var parts = parts();

    scheduleNext(parts);

    assertEquals(
        List.of("assume [gpu, <extended-resources>] for uid-p", "reserve gpu with allocation for p",
            "create the claim for p", "unreserve gpu for uid-p", "forget uid-p"),
        events);
    assertEquals(List.of("failed default/p: running PreBind plugin \"DynamicResources\": create claim for extended"
        + " resources default/: forbidden"), heard);
  }

  @Test
  void a_claim_postfilter_hands_out_is_deallocated_and_the_pod_waits_for_the_claim_event() throws Exception {
    decision = Decision.unschedulable(Map.of("n1", List.of("resourceclaim not available on the node")))
        .withClaimDeallocations(List.of(new ClaimDeallocation("default", "gpu", "uid-gpu", "42")));
    var parts = parts();

    scheduleNext(parts);

    assertEquals(List.of("deallocate gpu at version 42"), events, "nothing assumed, reserved or bound");
    assertEquals(
        List.of("unschedulable p: 0/1 nodes are available: 1 resourceclaim not available on the node. deallocation"
            + " of ResourceClaim completed"),
        heard);
    assertEquals(1, parts.queue().depths().unschedulable(), "moved again by the claim's update event");
  }
}
