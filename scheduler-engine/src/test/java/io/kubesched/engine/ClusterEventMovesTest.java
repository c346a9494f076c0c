package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.RetryHint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.TopologySpreadConstraint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which waiting pods each targeted cluster event moves. */
class ClusterEventMovesTest {

  private static final LabelSelector WEB = LabelSelector.of(Map.of("app", "web"));

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue =
      new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));
  private final ClusterEventMoves moves = new ClusterEventMoves(queue);

  @BeforeEach
  void parkPods() {
    park("affine", QueueingHint.of(
        PodInfo.builder("default", "affine")
            .podAffinity(new PodAffinity(List.of(PodAffinityTerm.of(WEB, "zone")), List.of()))
            .build()));
    park("spread", QueueingHint.of(
        PodInfo.builder("default", "spread")
            .topologySpreadConstraints(
                List.of(TopologySpreadConstraint.of(1, "zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, WEB)))
            .build()));
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build()));
    park("claims", QueueingHint.POD_UPDATE_ONLY);
  }

  private void park(String name, QueueingHint hint) {
    queue.add(new QueuedPod("uid-" + name, "default", name, 0, "s"));
    assertEquals(name, queue.poll().name());
    queue.requeueUnschedulable(new QueuedPod("uid-" + name, "default", name, 0, "s"), queue.schedulingCycle(), hint);
  }

  private Map<String, String> places() {
    return Map.of(
        "affine", where(queue, "affine"),
        "spread", where(queue, "spread"),
        "plain", where(queue, "plain"),
        "claims", where(queue, "claims"));
  }

  @Test
  void a_bound_pod_that_matches_moves_the_pods_with_affinity_to_it_or_spreading_over_it() {
    moves.assignedPodAdded("default", Map.of("app", "web"));

    assertEquals(
        Map.of("affine", "backoff", "spread", "backoff", "plain", "unschedulable", "claims", "unschedulable"),
        places());
  }

  @Test
  void a_bound_pod_that_matches_nothing_moves_nothing() {
    moves.assignedPodAdded("default", Map.of("app", "db"));
    moves.assignedPodAdded("other", Map.of("app", "web"));

    assertEquals(
        Map.of("affine", "unschedulable", "spread", "unschedulable", "plain", "unschedulable", "claims",
            "unschedulable"),
        places());
  }

  @Test
  void a_bound_pod_relabelled_to_match_moves_them_and_one_updated_otherwise_does_not() {
    moves.assignedPodUpdated("default", Map.of("app", "web"), Map.of("app", "web"));
    assertEquals("unschedulable", where(queue, "affine"));

    moves.assignedPodUpdated("default", Map.of("app", "db"), Map.of("app", "web"));

    assertEquals(
        Map.of("affine", "backoff", "spread", "backoff", "plain", "unschedulable", "claims", "unschedulable"),
        places());
  }

  @Test
  void a_node_or_pod_change_moves_only_the_pods_whose_rejecting_filters_register_it() {
    // "plain" was turned away by NodeResourcesFit alone (kube's Node Add|UpdateNodeAllocatable, AssignedPod Delete)
    queue.delete("uid-plain");
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build()).withRetriedOn(ClusterChange.of(
        ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE, ClusterChange.ASSIGNED_POD_DELETED),
        RetryHint.ALWAYS));

    queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE, ClusterChange.of(ClusterChange.NODE_LABELS));
    assertEquals(
        Map.of("affine", "backoff", "spread", "backoff", "plain", "unschedulable", "claims", "unschedulable"),
        places(), "a label patch: every other pod is retried on any change");

    queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE, Set.of());
    assertEquals("unschedulable", where(queue, "plain"), "nothing changed, nothing moves");

    queue.moveOnClusterChange(
        ClusterEvent.NODE_UPDATE, ClusterChange.of(ClusterChange.NODE_LABELS, ClusterChange.NODE_ALLOCATABLE));
    assertEquals("backoff", where(queue, "plain"));
  }

  @Test
  void a_pod_deleted_moves_a_pod_its_filters_retry_on_it() {
    queue.delete("uid-plain");
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build())
        .withRetriedOn(ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_TAINTS), RetryHint.ALWAYS));

    queue.moveOnClusterChange(ClusterEvent.ASSIGNED_POD_DELETE, ClusterChange.of(ClusterChange.ASSIGNED_POD_DELETED));
    assertEquals("unschedulable", where(queue, "plain"), "TaintToleration registers no pod delete");

    queue.moveOnClusterChange(ClusterEvent.NODE_ADD, ClusterChange.of(ClusterChange.NODE_ADDED));
    assertEquals("backoff", where(queue, "plain"));
  }

  @Test
  void a_change_of_a_registered_kind_moves_a_pod_only_if_its_hint_says_it_may_help() {
    queue.delete("uid-plain");
    var asked = new java.util.ArrayList<ClusterUpdate>();
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build())
        .withRetriedOn(ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE), update -> {
          asked.add(update);
          return update instanceof ClusterUpdate.NodeAdded added && added.node().name().equals("big");
        }));

    var small = NodeInfo.builder("small").build();
    var relabelled = NodeInfo.builder("small").labels(Map.of("zone", "a")).build();
    queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE,
        new ClusterUpdate.NodeUpdated(small, relabelled, ClusterChange.of(ClusterChange.NODE_LABELS)));
    assertEquals(List.of(), asked, "a kind no rejector registers: the hint is not asked");
    queue.moveOnClusterChange(ClusterEvent.NODE_ADD, new ClusterUpdate.NodeAdded(small));
    assertEquals("unschedulable", where(queue, "plain"), "the hint says this node cannot help");
    assertEquals(1, asked.size());

    queue.moveOnClusterChange(ClusterEvent.NODE_ADD, new ClusterUpdate.NodeAdded(NodeInfo.builder("big").build()));
    assertEquals("backoff", where(queue, "plain"));
  }

  @Test
  void an_event_during_an_attempt_sends_the_pod_to_backoff_only_if_it_would_have_moved_it_waiting() {
    var pod = new QueuedPod("uid-busy", "default", "busy", 0, "s");
    var waitsForCpu = QueueingHint.of(PodInfo.builder("default", "busy").build()).withRetriedOn(
        ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE), RetryHint.ALWAYS);
    var before = NodeInfo.builder("n").build();
    var relabelled = NodeInfo.builder("n").labels(Map.of("zone", "a")).build();

    queue.add(pod);
    queue.poll();
    long cycle = queue.schedulingCycle();
    queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE,
        new ClusterUpdate.NodeUpdated(before, relabelled, ClusterChange.of(ClusterChange.NODE_LABELS)));
    queue.requeueUnschedulable(pod, cycle, waitsForCpu);
    assertEquals("unschedulable", where(queue, "busy"), "a label patch during its attempt cannot help it");

    queue.delete("uid-busy");
    queue.add(pod);
    queue.poll();
    long next = queue.schedulingCycle();
    queue.moveOnClusterChange(ClusterEvent.NODE_ADD, new ClusterUpdate.NodeAdded(before));
    queue.requeueUnschedulable(pod, next, waitsForCpu);
    assertEquals("backoff", where(queue, "busy"), "a node added during its attempt may help it");
  }

  @Test
  void an_attempt_older_than_the_events_kept_counts_any_change_dropped_since() {
    var pod = new QueuedPod("uid-slow", "default", "slow", 0, "s");
    var waitsForCpu = QueueingHint.of(PodInfo.builder("default", "slow").build()).withRetriedOn(
        ClusterChange.of(ClusterChange.NODE_ALLOCATABLE), RetryHint.ALWAYS);
    var before = NodeInfo.builder("n").build();
    var relabelled = NodeInfo.builder("n").labels(Map.of("zone", "a")).build();
    queue.add(pod);
    queue.poll();
    long cycle = queue.schedulingCycle();
    for (int i = 0; i <= MoveRequests.KEPT; i++) { // one more than kept: the first is dropped
      queue.moveOnClusterChange(ClusterEvent.NODE_UPDATE,
          new ClusterUpdate.NodeUpdated(before, relabelled, ClusterChange.of(ClusterChange.NODE_LABELS)));
    }
    queue.requeueUnschedulable(pod, cycle, waitsForCpu);
    assertEquals("backoff", where(queue, "slow"), "a change dropped unseen may have helped it");
  }

  @Test
  void a_hint_that_throws_moves_the_pod() {
    queue.delete("uid-plain");
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build())
        .withRetriedOn(ClusterChange.of(ClusterChange.NODE_ADDED), update -> {
          throw new IllegalStateException("a filter of one's own that fails");
        }));

    queue.moveOnClusterChange(ClusterEvent.NODE_ADD, new ClusterUpdate.NodeAdded(NodeInfo.builder("n").build()));
    assertEquals("backoff", where(queue, "plain"), "never lost for a failing hint");
  }

  @Test
  void a_node_deleted_moves_the_pods_that_spread_over_its_domain() {
    moves.nodeDeleted(Map.of("zone", "a"));

    assertEquals(
        Map.of("affine", "unschedulable", "spread", "backoff", "plain", "unschedulable", "claims", "unschedulable"),
        places());
  }

  @Test
  void a_namespace_changed_moves_its_pods_but_not_one_only_its_update_can_help() {
    moves.namespaceChanged("other");
    assertEquals("unschedulable", where(queue, "plain"));

    moves.namespaceChanged("default");

    assertEquals(
        Map.of("affine", "backoff", "spread", "backoff", "plain", "backoff", "claims", "unschedulable"), places());
  }
}
