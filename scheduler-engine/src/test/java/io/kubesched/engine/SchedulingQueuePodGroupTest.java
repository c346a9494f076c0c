package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.names;
import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics.PendingGroups;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link SchedulingQueue}'s pod group operations ({@link SchedulingQueue#takeGroupMembers}, {@link
 * SchedulingQueue#waitForGroup}, {@link SchedulingQueue#releaseGroup}, {@link
 * SchedulingQueue#pendingGroups}) and how the other operations treat members. Tests named after a case of
 * kube-scheduler v1.37's {@code scheduling_queue_test.go} port it onto this queue, where a group is not one
 * queued entity but its members, taken together by the loop; kube's incomplete pod group pods are the
 * parked members here. Where the outcome differs from kube's the test says so.
 */
class SchedulingQueuePodGroupTest {

  private static final Duration INITIAL = Duration.ofSeconds(1);
  private static final Duration MAX = Duration.ofSeconds(10);
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
  private static final PodGroupRef PG = new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ns1", "pg-test");
  private static final PodGroupRef OTHER = new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ns1", "pg-other");

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue = new SchedulingQueue(clock, INITIAL, MAX, FIVE_MINUTES);

  private static PodInfo info(String name, @Nullable PodGroupRef group, boolean gated) {
    return PodInfo.builder("ns1", name)
        .uid("uid-" + name)
        .podGroup(group)
        .schedulingGates(gated ? List.of("gate") : List.of())
        .build();
  }

  private static QueuedPod member(String name, @Nullable PodGroupRef group) {
    return QueuedPod.of(info(name, group, false));
  }

  private static QueuedPod member(String name) {
    return member(name, PG);
  }

  private static QueuedPod gatedMember(String name) {
    return QueuedPod.of(info(name, PG, true));
  }

  /** Adds the pod and takes it: nothing else may be active. */
  private QueuedPod addAndTake(QueuedPod pod) {
    queue.add(pod);
    var taken = queue.poll();
    assertNotNull(taken);
    assertEquals(pod.name(), taken.name(), "set-up: another pod was active");
    return taken;
  }

  private void active(QueuedPod pod) {
    queue.add(pod);
  }

  private void backoff(QueuedPod pod) {
    assertTrue(queue.requeueAfterError(addAndTake(pod)));
    assertEquals("backoff", where(queue, pod.name()));
  }

  private void unschedulable(QueuedPod pod) {
    assertTrue(queue.requeueUnschedulable(addAndTake(pod), queue.schedulingCycle()));
    assertEquals("unschedulable", where(queue, pod.name()));
  }

  private void parked(QueuedPod pod) {
    queue.waitForGroup(addAndTake(pod));
    assertEquals("gated", where(queue, pod.name()));
  }

  // --- takeGroupMembers ---

  @Test
  void the_members_waiting_anywhere_but_gated_or_held_are_taken_in_the_order_they_were_queued() {
    unschedulable(member("u"));
    parked(member("p"));
    backoff(member("b"));
    active(member("a"));
    long cycle = queue.schedulingCycle();

    var taken = queue.takeGroupMembers(PG);

    assertEquals(List.of("u", "p", "b", "a"), names(taken), "unschedulable and backoff were requeued before");
    assertEquals(cycle + 1, queue.schedulingCycle(), "the members share one new cycle");
    for (var name : List.of("u", "p", "b", "a")) {
      assertEquals("inFlight", where(queue, name));
    }
    assertEquals(new QueueDepths(0, 0, 0, 0, 4), queue.depths());
  }

  @Test
  void members_gated_held_or_in_flight_and_pods_of_other_groups_are_not_taken() {
    var inFlight = addAndTake(member("in-flight"));
    queue.add(gatedMember("gated"));
    queue.add(member("held"));
    queue.holdForPreemption("uid-held");
    queue.add(member("other", OTHER));
    queue.add(member("coscheduling", new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "ns1", "pg-test")));
    queue.add(member("single", null));
    queue.add(new QueuedPod("uid-unreadable", "ns1", "unreadable", 0, "default-scheduler"));

    assertEquals(List.of(), queue.takeGroupMembers(PG));
    assertEquals("gated", where(queue, "gated"));
    assertEquals("unschedulable", where(queue, "held"));
    assertEquals("active", where(queue, "other"));
    assertEquals("active", where(queue, "coscheduling"), "a group of the same name from the other source");
    assertEquals("active", where(queue, "single"));
    assertEquals("active", where(queue, "unreadable"));
    assertTrue(queue.requeueUnschedulable(inFlight, queue.schedulingCycle()), "the one in flight stays in flight");
  }

  // --- groupMembers ---

  @Test
  void group_members_lists_what_a_group_attempt_would_try_and_the_one_in_flight_without_moving_them() {
    var inFlight = addAndTake(member("in-flight"));
    unschedulable(member("u"));
    parked(member("p"));
    active(member("a"));
    queue.add(gatedMember("gated"));
    queue.add(member("held"));
    queue.holdForPreemption("uid-held");
    queue.add(member("other", OTHER));
    long cycle = queue.schedulingCycle();
    var depths = queue.depths();

    var members = queue.groupMembers(PG);

    assertEquals(List.of("in-flight", "u", "p", "a"), names(members));
    assertEquals(depths, queue.depths(), "nothing moved");
    assertEquals(cycle, queue.schedulingCycle(), "no cycle began");
    assertEquals(0, members.get(3).progress().attempts(), "no attempt was counted");
    assertEquals(List.of(), queue.groupMembers(new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ns1", "none")));
    assertTrue(queue.requeueUnschedulable(inFlight, queue.schedulingCycle()), "the one in flight stays in flight");
  }

  @Test
  void a_member_taken_counts_an_attempt_as_after_take_and_returns_as_a_taken_pod_does() {
    clock.advance(Duration.ofSeconds(3));
    queue.add(member("m"));

    var taken = queue.takeGroupMembers(PG).get(0);

    assertEquals(1, taken.progress().attempts());
    assertEquals(clock.nanoTime(), taken.progress().initialAttemptNanos(), "the first attempt is stamped");
    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));
    assertEquals("unschedulable", where(queue, "m"), "no event since it was taken");

    var again = queue.takeGroupMembers(PG).get(0);
    assertEquals(2, again.progress().attempts());
    assertEquals(taken.progress().initialAttemptNanos(), again.progress().initialAttemptNanos());
  }

  @Test
  void an_event_while_a_member_taken_with_its_group_is_in_flight_sends_its_failure_to_backoff() {
    queue.add(member("m"));
    long cycle = queue.schedulingCycle();
    var taken = queue.takeGroupMembers(PG).get(0);

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    assertTrue(queue.requeueUnschedulable(taken, cycle));

    assertEquals("backoff", where(queue, "m"), "the move request cycle rule applies");
  }

  @Test
  void an_event_before_the_members_are_taken_is_not_missed_by_their_attempt() {
    queue.add(member("leader"));
    queue.add(member("m"));
    var leader = queue.poll();
    long leaderCycle = queue.schedulingCycle();
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    var taken = queue.takeGroupMembers(PG).get(0);

    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));
    assertTrue(queue.requeueUnschedulable(leader, leaderCycle));

    assertEquals("unschedulable", where(queue, "m"), "the group's attempt started after the event");
    assertEquals("backoff", where(queue, "leader"), "with the leader's earlier cycle the event counts");
  }

  @Test
  void taking_no_member_starts_no_cycle() {
    long cycle = queue.schedulingCycle();

    assertEquals(List.of(), queue.takeGroupMembers(PG));

    assertEquals(cycle, queue.schedulingCycle());
  }

  @Test
  void an_update_of_a_member_in_flight_is_kept_and_sends_its_failure_to_backoff() {
    queue.add(member("m"));
    var taken = queue.takeGroupMembers(PG).get(0);

    var updated = QueuedPod.of(info("m", PG, false).toBuilder().labels(Map.of("v", "2")).build());
    queue.add(updated);
    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));

    assertEquals("backoff", where(queue, "m"));
    assertEquals(updated.info(), queue.contents().backoff().get(0).info(), "the queue keeps the update");
  }

  @Test
  void a_member_taken_from_backoff_is_tried_with_its_group_before_its_backoff_ends() {
    backoff(member("b"));

    assertEquals(List.of("b"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  void taking_and_parking_members_leaves_their_nominations() {
    var nominated = QueuedPod.of(info("n", PG, false).toBuilder().nominatedNodeName("node1").build());
    queue.add(nominated);

    var taken = queue.takeGroupMembers(PG).get(0);
    assertEquals("node1", queue.nominations().nodeOf("uid-n"));
    queue.waitForGroup(taken);
    assertEquals("node1", queue.nominations().nodeOf("uid-n"));
  }

  @Test
  void a_member_updated_into_another_group_is_that_groups_member() {
    queue.add(member("m"));
    queue.add(member("m", OTHER));

    assertEquals(List.of(), queue.takeGroupMembers(PG));
    assertEquals(List.of("m"), names(queue.takeGroupMembers(OTHER)));
  }

  @Test
  void a_status_update_naming_another_group_moves_the_member_there() {
    queue.add(member("m"));
    queue.observe(info("m", OTHER, false));

    assertEquals(0, queue.releaseGroup(PG));
    assertEquals(List.of(), queue.takeGroupMembers(PG));
    assertEquals(List.of("m"), names(queue.takeGroupMembers(OTHER)));
  }

  // --- waitForGroup ---

  @Test
  void a_parked_member_keeps_its_backoff_failures_and_its_attempt_count() {
    queue.add(member("m"));
    var first = queue.poll();
    assertTrue(queue.requeueUnschedulable(first, queue.schedulingCycle()));
    clock.advance(Duration.ofMinutes(6));
    queue.flush();
    var second = queue.poll();
    assertNotNull(second);
    assertEquals(2, second.progress().attempts());

    queue.waitForGroup(second);

    var parked = queue.contents().gated().get(0);
    assertEquals(1, parked.progress().attempts(), "parking takes back the attempt its taking counted");
    assertEquals(first.progress().initialAttemptNanos(), parked.progress().initialAttemptNanos());

    var third = queue.takeGroupMembers(PG).get(0);
    assertEquals(2, third.progress().attempts(), "the attempt in which its group is tried counts");
  }

  @Test
  void a_parked_member_returned_unschedulable_backs_off_for_its_second_failure() {
    unschedulable(member("m"));
    var taken = queue.takeGroupMembers(PG).get(0);
    queue.waitForGroup(taken);
    var again = queue.takeGroupMembers(PG).get(0);
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    assertTrue(queue.requeueUnschedulable(again, queue.schedulingCycle()));

    // Two failures: two seconds, as without parking, to the end of the window they end in (the clock is
    // on a whole second).
    clock.advance(INITIAL.multipliedBy(3).minusNanos(1));
    queue.flush();
    assertEquals("backoff", where(queue, "m"), "two failures: two seconds, as without parking");
    clock.advance(Duration.ofNanos(1));
    queue.flush();
    assertEquals("active", where(queue, "m"));
  }

  @Test
  void a_never_tried_parked_member_is_as_never_taken() {
    var taken = addAndTake(member("m"));
    queue.waitForGroup(taken);

    assertEquals(QueuedPod.Progress.NONE, queue.contents().gated().get(0).progress());
  }

  @Test
  void a_parked_member_keeps_the_progress_the_loop_returns_with_it() {
    var taken = addAndTake(member("m"));
    queue.waitForGroup(taken.withProgress(taken.progress().withLastMessage("waiting for the group")));

    assertEquals("waiting for the group", queue.contents().gated().get(0).progress().lastMessage());
  }

  @Test
  void parked_members_are_moved_by_no_event_and_no_timeout() {
    parked(member("m"));

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> true);
    queue.moveUnschedulableIf(ClusterEvent.NODE_ADD, (pod, hint) -> true);
    clock.advance(FIVE_MINUTES.multipliedBy(2));
    queue.flush();

    assertEquals("gated", where(queue, "m"));
    assertEquals(null, queue.poll(), "a parked member is never taken alone");
  }

  @Test
  void waiting_for_a_group_is_ignored_for_a_pod_not_in_flight() {
    var taken = addAndTake(member("m"));
    assertTrue(queue.requeueAfterError(taken));

    queue.waitForGroup(taken);
    assertEquals("backoff", where(queue, "m"));

    queue.delete("uid-m");
    queue.waitForGroup(taken);
    assertEquals("nowhere", where(queue, "m"));
  }

  @Test
  void a_pod_naming_no_group_cannot_wait_for_one() {
    var taken = addAndTake(member("single", null));

    var thrown = assertThrows(IllegalArgumentException.class, () -> queue.waitForGroup(taken));
    assertEquals("pod ns1/single cannot wait for its group: it names none", thrown.getMessage());
    assertEquals("inFlight", where(queue, "single"));
  }

  @Test
  void a_member_that_left_its_group_while_in_flight_is_queued_instead_of_parked() {
    var taken = addAndTake(member("m"));
    queue.add(member("m", null));

    queue.waitForGroup(taken);

    assertEquals("active", where(queue, "m"), "its latest version is a single pod, never released by a group");
  }

  @Test
  void a_member_gated_while_in_flight_waits_for_its_gate_not_its_group() {
    var taken = addAndTake(member("m"));
    queue.add(gatedMember("m"));

    queue.waitForGroup(taken);
    assertEquals(0, queue.releaseGroup(PG));
    assertEquals("gated", where(queue, "m"));

    queue.add(member("m"));
    assertEquals("active", where(queue, "m"), "removing the gate queues it");
  }

  @Test
  void a_member_held_while_in_flight_is_held_and_queued_once_released() {
    var taken = addAndTake(member("m"));
    queue.holdForPreemption("uid-m");

    queue.waitForGroup(taken);
    assertEquals("unschedulable", where(queue, "m"));
    assertEquals(List.of(), queue.takeGroupMembers(PG));

    queue.releasePreemption("uid-m", false);
    assertEquals("active", where(queue, "m"));
  }

  @Test
  void holding_a_parked_member_holds_it_and_releasing_it_queues_it() {
    parked(member("m"));

    queue.holdForPreemption("uid-m");
    assertEquals("unschedulable", where(queue, "m"));
    assertEquals(0, queue.releaseGroup(PG));

    queue.releasePreemption("uid-m", false);
    assertEquals("active", where(queue, "m"));
  }

  // --- releaseGroup ---

  @Test
  void releasing_a_group_moves_its_parked_members_only() {
    parked(member("p1"));
    parked(member("other", OTHER));
    unschedulable(member("u"));
    parked(member("p2"));

    assertEquals(2, queue.releaseGroup(PG));

    assertEquals(List.of("p1", "p2"), names(queue.contents().active()), "in the order they were queued");
    assertEquals("gated", where(queue, "other"));
    assertEquals("unschedulable", where(queue, "u"));
    assertEquals(0, queue.releaseGroup(PG), "nothing parked is left");
  }

  @Test
  void a_released_member_goes_to_active_its_backoff_notwithstanding() {
    unschedulable(member("m"));
    queue.waitForGroup(queue.takeGroupMembers(PG).get(0));

    assertEquals(1, queue.releaseGroup(PG));

    assertEquals("active", where(queue, "m"));
  }

  @Test
  void releasing_a_group_wakes_a_waiting_take() throws Exception {
    parked(member("m"));
    var taking = CompletableFuture.supplyAsync(() -> {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(50);
    assertFalse(taking.isDone(), "nothing to take while the member is parked");

    queue.releaseGroup(PG);

    assertEquals("m", taking.get(5, TimeUnit.SECONDS).name());
  }

  @Test
  void a_closed_queue_takes_and_releases_nothing() {
    parked(member("p"));
    queue.add(member("a"));
    queue.close();

    assertEquals(List.of(), queue.takeGroupMembers(PG));
    assertEquals(0, queue.releaseGroup(PG));
  }

  // --- pendingGroups, depths ---

  @Test
  void pending_groups_count_groups_waiting_for_members_and_groups_waiting_to_fit() {
    assertEquals(new PendingGroups(0, 0), queue.pendingGroups());
    var third = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "ns1", "pg-third");

    parked(member("p1"));
    parked(member("p2"));
    unschedulable(member("u"));
    backoff(member("b", OTHER));
    unschedulable(member("u3", third));
    queue.add(member("a", new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "ns1", "pg-active")));
    queue.add(member("single", null));

    assertEquals(
        new PendingGroups(1, 2),
        queue.pendingGroups(),
        "pg-test has parked members (and an unschedulable one); pg-other and pg-third failed; pg-active neither");

    queue.releaseGroup(PG);
    assertEquals(new PendingGroups(0, 3), queue.pendingGroups(), "pg-test: two active, one unschedulable");
    queue.delete("uid-b");
    assertEquals(new PendingGroups(0, 2), queue.pendingGroups());
    queue.takeGroupMembers(PG);
    assertEquals(new PendingGroups(0, 1), queue.pendingGroups(), "pg-test is in flight");
  }

  @Test
  void parked_members_show_as_gated_among_the_gated_pods_in_arrival_order() {
    parked(member("p1"));
    queue.add(QueuedPod.of(info("g", null, true)));
    parked(member("p2"));

    assertEquals(List.of("p1", "g", "p2"), names(queue.contents().gated()));
    assertEquals(new QueueDepths(0, 0, 0, 3, 0), queue.depths());
    assertEquals(3, queue.size());
  }

  // --- Ports of kube's pod group member cases ---

  @Test
  @DisplayName("TestAddPodGroupMember: first member added (ungated), creates new pod group in activeQ")
  void a_first_member_is_active() {
    queue.add(member("pod1"));

    assertEquals("active", where(queue, "pod1"));
  }

  @Test
  @DisplayName("TestAddPodGroupMember: first member added (gated), creates new pod group directly in unschedulableEntities")
  void a_first_gated_member_is_gated() {
    queue.add(gatedMember("pod1"));

    assertEquals("gated", where(queue, "pod1"));
    assertEquals(List.of(), queue.takeGroupMembers(PG));
  }

  @Test
  @DisplayName("TestAddPodGroupMember: existing pod in incompletePodGroupPods, stays in incompletePodGroupPods")
  void a_new_member_beside_a_parked_one_is_active_and_the_loop_takes_both() {
    parked(member("pod1"));

    queue.add(member("pod2"));

    // kube keeps both incomplete; here the new member is queued, and the loop that takes it takes pod1 with it.
    var leader = queue.poll();
    assertEquals("pod2", leader.name());
    assertEquals(List.of("pod1"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete from incompletePodGroupPods")
  void deleting_a_parked_member_forgets_it() {
    parked(member("pod1"));

    assertNotNull(queue.delete("uid-pod1"));

    assertEquals("nowhere", where(queue, "pod1"));
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), queue.depths());
    assertEquals(new PendingGroups(0, 0), queue.pendingGroups());
    assertEquals(0, queue.releaseGroup(PG));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete one pod from incompletePodGroupPods with multiple pods")
  void deleting_one_parked_member_leaves_the_others_parked() {
    parked(member("pod1"));
    parked(member("pod2"));

    queue.delete("uid-pod1");

    assertEquals(List.of("pod2"), names(queue.contents().gated()));
    assertEquals(1, queue.releaseGroup(PG));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete one pod of a size-2 group in activeQ, decreases size and keeps in activeQ")
  void deleting_one_active_member_leaves_the_other_to_take() {
    queue.add(member("pod1"));
    queue.add(member("pod2"));

    queue.delete("uid-pod1");

    assertEquals(List.of("pod2"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete one pod of a size-2 group in backoffQ, keeps group in backoffQ")
  void deleting_one_backing_off_member_leaves_the_other_in_backoff() {
    backoff(member("pod1"));
    backoff(member("pod2"));

    queue.delete("uid-pod1");

    assertEquals("backoff", where(queue, "pod2"));
    assertEquals(new PendingGroups(0, 1), queue.pendingGroups());
  }

  @Test
  @DisplayName(
      "TestDeletePodGroupMember: delete one pod of a size-2 group in unschedulableEntities, decreases size and keeps"
          + " in unschedulableEntities")
  void deleting_one_unschedulable_member_leaves_the_other_unschedulable() {
    unschedulable(member("pod1"));
    unschedulable(member("pod2"));

    queue.delete("uid-pod1");

    assertEquals("unschedulable", where(queue, "pod2"));
    assertEquals(List.of("pod2"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete a pod that doesn't exist in any queue or pending map")
  void deleting_an_unknown_member_changes_nothing() {
    parked(member("pod1"));

    assertEquals(null, queue.delete("uid-pod-not-found"));

    assertEquals("gated", where(queue, "pod1"));
  }

  @Test
  @DisplayName("TestDeletePodGroupMember: delete one gated pod from a group where another gated pod remains, group stays gated")
  void deleting_one_gated_member_leaves_the_other_gated() {
    queue.add(gatedMember("pod2"));
    queue.add(gatedMember("pod3"));

    queue.delete("uid-pod2");

    assertEquals("gated", where(queue, "pod3"));
    assertEquals(List.of(), queue.takeGroupMembers(PG));
  }

  @Test
  @DisplayName("TestUpdatePodGroupMember: update pod in incompletePodGroupPods")
  void updating_a_parked_member_queues_it() {
    parked(member("pod2"));
    var updated = QueuedPod.of(info("pod2", PG, false).toBuilder().labels(Map.of("v", "2")).build());

    queue.add(updated);

    // kube keeps it incomplete with the new version; here it is queued, and parked again if still incomplete.
    assertEquals("active", where(queue, "pod2"));
    assertEquals(updated.info(), queue.contents().active().get(0).info());
  }

  @Test
  @DisplayName("TestUpdatePodGroupMember: gated pod update without removal of gate, keeps pod group in unschedulableEntities as gated")
  void updating_a_parked_member_to_carry_gates_gates_it() {
    parked(member("pod1"));

    queue.add(gatedMember("pod1"));

    assertEquals("gated", where(queue, "pod1"));
    assertEquals(0, queue.releaseGroup(PG), "gated by its gates now, not parked");
  }

  @Test
  @DisplayName("TestUpdatePodGroupMember: update pod in activeQ, keeps pod group in activeQ")
  void updating_an_active_member_keeps_it_active() {
    queue.add(member("pod1"));
    queue.add(member("pod1"));

    assertEquals("active", where(queue, "pod1"));
    assertEquals(List.of("pod1"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  @DisplayName("TestUpdatePodGroupMember: gated pod update (removal of gate), ungates and moves pod group to activeQ")
  void removing_a_members_gate_makes_it_takeable() {
    queue.add(gatedMember("pod1"));

    queue.add(member("pod1"));

    assertEquals(List.of("pod1"), names(queue.takeGroupMembers(PG)));
  }

  @Test
  @DisplayName("TestActivatePodGroupMember: activate pod in incompletePodGroupPods is a no-op")
  void activating_a_parked_member_leaves_it_parked() {
    parked(member("pod1"));

    queue.releasePreemption("uid-pod1", true);

    assertEquals("gated", where(queue, "pod1"));
    assertEquals(1, queue.releaseGroup(PG));
  }

  @Test
  @DisplayName("TestActivatePodGroupMember: activate pod group in flight (popped), pod group remains in flight but tracks event")
  void activating_a_member_in_flight_sends_its_failure_to_backoff() {
    queue.add(member("pod1"));
    queue.add(member("pod2"));
    var leader = queue.poll();
    var other = queue.takeGroupMembers(PG).get(0);

    queue.releasePreemption("uid-pod1", true);

    assertTrue(queue.requeueUnschedulable(leader, queue.schedulingCycle()));
    assertTrue(queue.requeueUnschedulable(other, queue.schedulingCycle()));
    assertEquals("backoff", where(queue, "pod1"));
    assertEquals("unschedulable", where(queue, "pod2"), "the activation was pod1's only");
  }

  @Test
  @DisplayName("TestMoveAllToActiveOrBackoffQueuePodGroupMember: event of interest moves ungated pod group from unschedulableEntities to activeQ")
  void an_event_moves_unschedulable_members_but_not_parked_ones() {
    unschedulable(member("pod1"));
    parked(member("pod2"));
    clock.advance(MAX);

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);

    assertEquals("active", where(queue, "pod1"));
    assertEquals("gated", where(queue, "pod2"));
  }

  @Test
  @DisplayName(
      "TestFlushUnschedulableEntitiesLeftoverPodGroupMember: flushing unschedulable leftover for gated pod group after"
          + " max duration keeps it in unschedulableEntities as gated")
  void the_unschedulable_timeout_leaves_parked_and_gated_members() {
    parked(member("pod1"));
    queue.add(gatedMember("pod2"));
    unschedulable(member("pod3"));
    clock.advance(FIVE_MINUTES.plusNanos(1));

    queue.flush();

    assertEquals("gated", where(queue, "pod1"));
    assertEquals("gated", where(queue, "pod2"));
    assertEquals("active", where(queue, "pod3"));
  }

  @Test
  @DisplayName(
      "TestAddUnschedulablePodIfNotPresentPodGroupMember: requeuing a pod group members after PodGroup was deleted moves"
          + " them to incompletePodGroupPods")
  void members_taken_together_are_parked_together() {
    queue.add(member("pod1"));
    queue.add(member("pod2"));
    var leader = queue.poll();
    var other = queue.takeGroupMembers(PG).get(0);

    queue.waitForGroup(leader);
    queue.waitForGroup(other);

    assertEquals(List.of("pod1", "pod2"), names(queue.contents().gated()));
    assertEquals(new PendingGroups(1, 0), queue.pendingGroups());
  }

  @Test
  @DisplayName("TestAddPodGroup: add pod group moves pods from incompletePodGroupPods to activeQ")
  void a_group_appearing_releases_its_parked_members() {
    parked(member("pod1"));
    parked(member("pod2"));

    assertEquals(2, queue.releaseGroup(PG));

    assertEquals(List.of("pod1", "pod2"), names(queue.contents().active()));
  }

  @Test
  @DisplayName("TestAddPodGroup: add pod group moves gated pods from incompletePodGroupPods to unschedulableEntities")
  void a_group_appearing_leaves_its_gated_members_gated() {
    queue.add(gatedMember("pod1"));

    assertEquals(0, queue.releaseGroup(PG));

    assertEquals("gated", where(queue, "pod1"));
  }

  @Test
  @DisplayName("TestAddPodGroup: add pod group without waiting pods")
  void a_group_appearing_without_members_moves_nothing() {
    assertEquals(0, queue.releaseGroup(PG));
    assertEquals(List.of(), queue.takeGroupMembers(PG));
  }

  @Test
  @DisplayName("TestUpdatePodGroup: update in-flight pod group")
  void a_group_update_leaves_its_members_in_flight() {
    var taken = addAndTake(member("pod1"));

    assertEquals(0, queue.releaseGroup(PG));

    assertEquals("inFlight", where(queue, "pod1"));
    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));
  }

  @Test
  @DisplayName("TestUpdatePodGroup: update unschedulable pod group")
  void a_group_update_leaves_unschedulable_members_alone() {
    unschedulable(member("pod1"));
    unschedulable(member("pod2"));

    assertEquals(0, queue.releaseGroup(PG));

    assertEquals("unschedulable", where(queue, "pod1"));
    assertEquals("unschedulable", where(queue, "pod2"));
  }

  @Test
  void the_same_pod_value_is_handed_out_as_the_queue_keeps_it() {
    queue.add(member("m"));
    var taken = queue.takeGroupMembers(PG).get(0);

    assertSame(taken, queue.contents().inFlight().get(0));
  }
}
