package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.names;
import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.TopologySpreadConstraint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link SchedulingQueue}'s gated sub-queue (kube's SchedulingGates PreEnqueue) and its {@link QueueingHint}s:
 * which events move which unschedulable pods.
 */
class SchedulingQueueGatesAndHintsTest {

  private static final Duration INITIAL = Duration.ofSeconds(1);
  private static final Duration MAX = Duration.ofSeconds(10);
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue = new SchedulingQueue(clock, INITIAL, MAX, TIMEOUT);

  private static QueuedPod pod(String name) {
    return new QueuedPod("uid-" + name, "ns", name, 0, "default-scheduler", false);
  }

  private static QueuedPod gated(String name) {
    return new QueuedPod("uid-" + name, "ns", name, 0, "default-scheduler", true);
  }

  /** Adds, takes and returns the pod as unschedulable with {@code hint}, no event in between. */
  private void failUnschedulable(QueuedPod pod, QueueingHint hint) {
    queue.add(pod);
    var taken = queue.poll();
    assertEquals(pod.name(), taken.name());
    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle(), hint));
    assertEquals("unschedulable", where(queue, pod.name()));
  }

  // --- Scheduling gates ---

  @Test
  void gatedSetUponCreationAndUnsetUponUpdate() {
    queue.add(gated("p"));

    assertEquals("gated", where(queue, "p"));
    assertNull(queue.poll(), "a gated pod is never handed out");

    queue.add(pod("p"));

    assertEquals("active", where(queue, "p"));
    assertEquals(pod("p"), SchedulingQueueTest.version(queue.poll()));
  }

  @Test
  void a_gated_pod_stays_gated_through_cluster_events_timeouts_and_updates_that_keep_a_gate() {
    queue.add(gated("p"));

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> true);
    queue.moveUnschedulableIf(ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> true);
    clock.advance(TIMEOUT.multipliedBy(2));
    queue.flush();
    queue.add(new QueuedPod("uid-p", "ns", "p", 100, "default-scheduler", true));

    assertEquals("gated", where(queue, "p"));
    assertEquals(100, queue.contents().gated().get(0).priority(), "the queue keeps the latest version");
    assertNull(queue.poll());
  }

  @Test
  void the_update_that_removes_the_last_gate_moves_the_pod_to_active_at_once_in_its_arrival_order() {
    queue.add(gated("first"));
    queue.add(pod("second"));

    queue.add(pod("first"));

    assertEquals(List.of("first", "second"), names(queue.contents().active()), "arrival counts from the first add");
  }

  @Test
  void gated_pods_are_counted_apart_and_in_the_pending_total() {
    queue.add(gated("a"));
    queue.add(gated("b"));
    queue.add(pod("c"));

    assertEquals(new QueueDepths(1, 0, 0, 2, 0), queue.depths());
    assertEquals(3, queue.size());
    assertEquals(List.of("a", "b"), names(queue.contents().gated()));
  }

  @Test
  void a_deleted_gated_pod_is_forgotten() {
    queue.add(gated("p"));

    assertNotNull(queue.delete("uid-p"));

    assertEquals(new QueueDepths(0, 0, 0, 0, 0), queue.depths());
  }

  @Test
  void a_pod_gated_while_in_flight_returns_to_gated_whatever_its_attempt_says() {
    queue.add(pod("a"));
    queue.add(pod("b"));
    var a = queue.poll();
    var b = queue.poll();
    queue.add(gated("a"));
    queue.add(gated("b"));

    queue.requeueUnschedulable(a, queue.schedulingCycle());
    queue.requeueAfterError(b);

    assertEquals(List.of("a", "b"), names(queue.contents().gated()));
  }

  // --- Queueing hints ---

  @Test
  void an_event_about_bound_pods_moves_only_the_pods_waiting_for_them_that_it_helps() {
    var helped = hintFor(PodInfo.builder("ns", "helped").labels(Map.of("app", "web")));
    var notHelped = hintFor(PodInfo.builder("ns", "other").labels(Map.of("app", "db")));
    failUnschedulable(pod("helped"), helped);
    failUnschedulable(pod("other"), notHelped);
    failUnschedulable(pod("plain"), QueueingHint.ANY_CHANGE);

    int moved = queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> hint == helped);

    assertEquals(1, moved);
    assertEquals("backoff", where(queue, "helped"));
    assertEquals("unschedulable", where(queue, "other"));
    assertEquals("unschedulable", where(queue, "plain"), "a bound pod cannot help a pod without affinity");
  }

  @Test
  void a_pod_with_an_unsupported_feature_is_moved_by_no_cluster_event_only_by_its_update_or_the_timeout() {
    failUnschedulable(pod("claims"), QueueingHint.POD_UPDATE_ONLY);

    assertEquals(0, queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD));
    assertEquals(0, queue.moveUnschedulableIf(ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> hint.movedByClusterChange()));
    assertEquals("unschedulable", where(queue, "claims"));

    clock.advance(TIMEOUT.plusNanos(1));
    assertEquals(1, queue.flush());
    assertEquals("active", where(queue, "claims"));

    assertTrue(queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle(), QueueingHint.POD_UPDATE_ONLY));
    queue.add(pod("claims"));
    assertEquals("backoff", where(queue, "claims"), "an update moves it");
  }

  @Test
  void a_pod_in_flight_during_an_event_about_bound_pods_goes_to_backoff_only_if_it_waits_for_pods() {
    var waits = hintFor(PodInfo.builder("ns", "a").labels(Map.of("app", "web")));
    queue.add(pod("a"));
    queue.add(pod("b"));
    var a = queue.poll();
    long cycleA = queue.schedulingCycle();
    var b = queue.poll();
    long cycleB = queue.schedulingCycle();

    queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> true);

    assertTrue(queue.requeueUnschedulable(a, cycleA, waits));
    assertTrue(queue.requeueUnschedulable(b, cycleB, QueueingHint.ANY_CHANGE));
    assertEquals("backoff", where(queue, "a"), "its attempt may have missed the bound pod");
    assertEquals("unschedulable", where(queue, "b"));
  }

  @Test
  void a_cluster_change_in_flight_does_not_spare_a_pod_only_its_update_can_help() {
    queue.add(pod("a"));
    var a = queue.poll();
    long cycle = queue.schedulingCycle();

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);

    assertTrue(queue.requeueUnschedulable(a, cycle, QueueingHint.POD_UPDATE_ONLY));
    assertEquals("unschedulable", where(queue, "a"));
  }

  @Test
  void a_rare_event_moves_the_pods_its_predicate_picks() {
    failUnschedulable(pod("a"), QueueingHint.ANY_CHANGE);
    failUnschedulable(new QueuedPod("uid-b", "other", "b", 0, "s", false), QueueingHint.ANY_CHANGE);

    assertEquals(1, queue.moveUnschedulableIf(ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> pod.namespace().equals("other")));

    assertEquals("unschedulable", where(queue, "a"));
    assertEquals("backoff", where(queue, "b"));
  }

  // --- A profile's policy replaced ---

  @Test
  void a_new_policy_moves_its_profiles_unschedulable_pods_whatever_their_hint_and_no_other_pod() {
    failUnschedulable(new QueuedPod("uid-claims", "ns", "claims", 0, "one", false), QueueingHint.POD_UPDATE_ONLY);
    failUnschedulable(new QueuedPod("uid-full", "ns", "full", 0, "one", false), QueueingHint.ANY_CHANGE);
    failUnschedulable(new QueuedPod("uid-other", "ns", "other", 0, "two", false), QueueingHint.ANY_CHANGE);
    queue.add(new QueuedPod("uid-gated", "ns", "gated", 0, "one", true));

    assertEquals(2, queue.moveProfile(ClusterEvent.POLICY_CHANGE, "one"));

    assertEquals("backoff", where(queue, "claims"), "the new policy may read what the old one refused");
    assertEquals("backoff", where(queue, "full"));
    assertEquals("unschedulable", where(queue, "other"), "another profile's policy did not change");
    assertEquals("gated", where(queue, "gated"));
  }

  @Test
  void a_pod_in_flight_when_its_policy_is_replaced_goes_to_backoff_if_the_old_policy_found_no_node() {
    queue.add(new QueuedPod("uid-a", "ns", "a", 0, "one", false));
    queue.add(new QueuedPod("uid-b", "ns", "b", 0, "two", false));
    var a = queue.poll();
    long cycleA = queue.schedulingCycle();
    var b = queue.poll();
    long cycleB = queue.schedulingCycle();

    assertEquals(0, queue.moveProfile(ClusterEvent.POLICY_CHANGE, "one"));

    assertTrue(queue.requeueUnschedulable(a, cycleA, QueueingHint.POD_UPDATE_ONLY));
    assertTrue(queue.requeueUnschedulable(b, cycleB, QueueingHint.ANY_CHANGE));
    assertEquals("backoff", where(queue, "a"), "its attempt used the policy just replaced");
    assertEquals("unschedulable", where(queue, "b"), "its policy did not change");
  }

  /** A hint that waits for bound pods: required affinity to pods with the same labels as {@code pod}. */
  private static QueueingHint hintFor(PodInfo.Builder pod) {
    var term = PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone");
    var info =
        pod.podAffinity(new PodAffinity(List.of(term), List.of()))
            .topologySpreadConstraints(
                List.of(TopologySpreadConstraint.of(1, "zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, null)))
            .build();
    var hint = QueueingHint.of(info);
    assertTrue(hint.waitsForAssignedPods());
    return hint;
  }
}
