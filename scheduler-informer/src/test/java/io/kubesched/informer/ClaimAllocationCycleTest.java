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
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.ClaimOutcome;
import io.kubesched.engine.QueueDepths;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.ClaimAssumptions;
import io.kubesched.informer.cycle.ClaimPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
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

  private ClaimAllocation gpu = new ClaimAllocation("default", "gpu", "uid-gpu", allocation("gpu-0"));
  private static final ClaimAllocation SHARED = new ClaimAllocation("default", "shared", "uid-shared", null);

  private final FinderFunc withClaims =
      new FinderFunc() {
        @Override
        public Decision find(PodInfo pod, List<NodeInfo> nodes) {
          return decision != null ? decision : new Decision.Bind("n1").withClaimAllocations(List.of(gpu, SHARED));
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

  @Test
  void devices_with_binding_conditions_are_refused_before_anything_is_written() throws Exception {
    gpu = new ClaimAllocation("default", "gpu", "uid-gpu", new AllocationResult(
        List.of(new DeviceAllocation("gpu", "gpu.example.com", "n1", "gpu-0", false, List.of(), List.of("attached"),
            List.of(), null, Map.of())),
        List.of(), null, null));
    var parts = parts();

    scheduleNext(parts);

    assertEquals(List.of("assume [gpu, shared] for uid-p", "forget uid-p"), events);
    assertEquals(
        List.of("failed default/p: running PreBind plugin \"DynamicResources\": device gpu.example.com/n1/gpu-0 has"
            + " binding conditions, which kubesched does not wait for yet"),
        heard);
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
