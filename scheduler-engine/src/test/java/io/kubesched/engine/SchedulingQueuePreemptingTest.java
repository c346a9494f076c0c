package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinityTerm;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SchedulingQueue}'s preempting mark: kube's DefaultPreemption PreEnqueue with async preemption
 * (design item 1.28), which keeps a preemptor out of the active queue while its victims are evicted, and
 * {@code Activate} after a preemption error.
 *
 * <p>Ported from kube-scheduler v1.37's {@code default_preemption_test.go} {@code TestPreEnqueue}: the two pod
 * cases with async preemption on. Not expressible: "AsyncPreemption disabled, returns nil" (async preemption
 * is always on here, as by default in kube 1.37), and the PodGroup / CompositePodGroup cases (no pod groups).
 * The early lift once the last victim is being deleted ({@code TestIsPodRunningPreemption}) belongs to the
 * loop's preemption cycle, which calls {@link SchedulingQueue#releasePreemption}.
 */
class SchedulingQueuePreemptingTest {

  private static final Duration INITIAL = Duration.ofSeconds(1);
  /** The backoff ordering window. */
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration MAX = Duration.ofSeconds(10);
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final QueueingHint WAITS_FOR_PODS = new QueueingHint(
      true, "ns", List.of(PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone")), List.of(), List.of());

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue = new SchedulingQueue(clock, INITIAL, MAX, TIMEOUT);

  private static QueuedPod pod(String name) {
    return new QueuedPod(name, "default", name, 1000, "default-scheduler");
  }

  private static QueuedPod gated(String name) {
    return new QueuedPod(name, "default", name, 1000, "default-scheduler", true);
  }

  private String where(String name) {
    return SchedulingQueueTest.where(queue, name);
  }

  /** Adds and takes the pod; it must be the only one active. */
  private QueuedPod take(QueuedPod pod) {
    queue.add(pod);
    var taken = queue.poll();
    assertEquals(pod.name(), taken.name());
    return taken;
  }

  /** The pod as the preemption cycle finds it: in flight, its attempt nominated it and is now held. */
  private QueuedPod takeAndHold(String name) {
    var taken = take(pod(name));
    queue.holdForPreemption(name);
    return taken;
  }

  // --- TestPreEnqueue ---

  static Stream<Arguments> preEnqueue() {
    return Stream.of(
        Arguments.of("AsyncPreemption enabled, same pod, returns UnschedulableAndUnresolvable", "p", "p", true),
        Arguments.of("AsyncPreemption enabled, different pod, returns nil", "p", "p_other", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preEnqueue")
  void TestPreEnqueue(String name, String podToTriggerPreemption, String podToCheck, boolean wantBlocked) {
    var trigger = takeAndHold(podToTriggerPreemption);
    queue.requeueAfterError(trigger);
    if (!podToCheck.equals(podToTriggerPreemption)) {
      queue.add(pod(podToCheck));
    }
    clock.advance(MAX.multipliedBy(2));

    assertEquals(wantBlocked, queue.preempting(podToCheck));
    var taken = queue.poll();
    assertEquals(wantBlocked ? null : podToCheck, taken == null ? null : taken.name());
  }

  // --- Held: never handed out, every move remembered ---

  @Test
  void a_held_pod_whose_attempt_missed_nothing_waits_as_unschedulable_and_stays_there_when_released() {
    var taken = takeAndHold("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());
    assertEquals("unschedulable", where("p"));
    assertEquals(new QueueDepths(0, 0, 1, 0, 0), queue.depths(), "a held pod counts as unschedulable");

    queue.releasePreemption("p", false);

    assertFalse(queue.preempting("p"));
    assertEquals("unschedulable", where("p"), "nothing happened that may help it");
    queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE);
    assertEquals("backoff", where("p"), "the victims' deletion moves it as any unschedulable pod");
  }

  @Test
  void an_event_during_the_attempt_of_a_held_pod_is_remembered_until_the_release() {
    var taken = takeAndHold("p");
    queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE);
    queue.requeueUnschedulable(taken, queue.schedulingCycle());
    assertEquals("unschedulable", where("p"), "held, not backoff");

    queue.releasePreemption("p", false);

    assertEquals("backoff", where("p"));
    assertEquals("p", queue.poll().name(), "with active empty, taken from backoff at once (SchedulerPopFromBackoffQ)");
  }

  @Test
  void events_updates_and_timeouts_leave_a_held_pod_where_it_is() {
    var taken = takeAndHold("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    queue.moveUnschedulableIf(ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> true);
    queue.add(new QueuedPod("p", "default", "p", 2000, "default-scheduler"));
    clock.advance(TIMEOUT.multipliedBy(2));
    queue.flush();

    assertEquals("unschedulable", where("p"));
    assertNull(queue.poll());
    assertEquals(2000, queue.contents().unschedulable().get(0).priority(), "the update is kept");
  }

  static Stream<Arguments> suppressedMoves() {
    return Stream.<Arguments>of(
        Arguments.of("a cluster event", (Held) (q, c) -> q.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD)),
        Arguments.of("an update", (Held) (q, c) -> q.add(pod("p"))),
        Arguments.of("the unschedulable timeout", (Held) (q, c) -> c.advance(TIMEOUT.plusNanos(1))),
        Arguments.of(
            "the unschedulable timeout and a flush",
            (Held) (q, c) -> {
              c.advance(TIMEOUT.plusNanos(1));
              q.flush();
            }),
        Arguments.of(
            "an event about bound pods it waits for",
            (Held) (q, c) -> q.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> true)));
  }

  /** What happens to a held pod (held after it went unschedulable, waiting for bound pods). */
  interface Held {
    void happen(SchedulingQueue queue, FakeTicker clock);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("suppressedMoves")
  void a_move_suppressed_while_held_is_done_on_release(String name, Held suppressed) {
    var taken = take(pod("p"));
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), WAITS_FOR_PODS);
    queue.holdForPreemption("p");
    suppressed.happen(queue, clock);
    assertEquals("unschedulable", where("p"));

    clock.advance(INITIAL.plus(WINDOW)); // past the end of the ordering window its backoff ends in
    queue.releasePreemption("p", false);

    assertEquals("active", where("p"));
  }

  @Test
  void an_event_that_would_not_have_moved_the_held_pod_is_not_remembered() {
    var taken = take(pod("p"));
    queue.requeueUnschedulable(taken, queue.schedulingCycle(), QueueingHint.ANY_CHANGE);
    queue.holdForPreemption("p");

    queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> true);
    queue.moveUnschedulableIf(ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> false);
    queue.releasePreemption("p", false);

    assertEquals("unschedulable", where("p"));
  }

  @Test
  void an_error_while_held_sends_the_pod_to_backoff_only_once_released() {
    var taken = takeAndHold("p");
    queue.requeueAfterError(taken);
    clock.advance(MAX);
    queue.flush();
    assertEquals("unschedulable", where("p"));

    queue.releasePreemption("p", false);

    assertEquals("active", where("p"), "its backoff passed while it was held");
  }

  static Stream<Arguments> holdingWaitingPods() {
    return Stream.of(
        Arguments.of("active", "active"),
        Arguments.of("backoff", "backoff"),
        Arguments.of("unschedulable", "unschedulable"),
        Arguments.of("gated", "gated"));
  }

  @ParameterizedTest(name = "a pod held in {0} goes to {1} when released")
  @MethodSource("holdingWaitingPods")
  void holding_a_waiting_pod_parks_it_as_unschedulable_until_released(String from, String back) {
    switch (from) {
      case "active" -> queue.add(pod("p"));
      case "backoff" -> queue.requeueAfterError(take(pod("p")));
      case "unschedulable" -> queue.requeueUnschedulable(take(pod("p")), queue.schedulingCycle());
      case "gated" -> queue.add(gated("p"));
      default -> throw new IllegalArgumentException(from);
    }
    assertEquals(from, where("p"));

    queue.holdForPreemption("p");
    assertEquals("unschedulable", where("p"));
    assertTrue(queue.preempting("p"));
    assertNull(queue.poll());

    queue.releasePreemption("p", false);
    assertEquals(back, where("p"));
  }

  @Test
  void a_held_pod_updated_with_scheduling_gates_goes_to_gated_when_released_and_to_active_when_ungated() {
    var taken = takeAndHold("p");
    queue.add(gated("p"));
    queue.requeueUnschedulable(taken, queue.schedulingCycle());
    assertEquals("unschedulable", where("p"));

    queue.releasePreemption("p", true);
    assertEquals("gated", where("p"), "gates win even over activation");

    queue.add(pod("p"));
    assertEquals("backoff", where("p"));
  }

  // --- Activation after a preemption error (kube's Activate) ---

  @Test
  void an_activated_pod_goes_to_active_at_once_its_backoff_notwithstanding() {
    var taken = takeAndHold("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    queue.releasePreemption("p", true);

    assertEquals("active", where("p"));
    assertEquals("p", queue.poll().name());
  }

  @Test
  void a_pod_activated_while_in_flight_retries_after_its_backoff_instead_of_waiting_as_unschedulable() {
    var taken = takeAndHold("p");
    queue.releasePreemption("p", true);
    assertEquals("inFlight", where("p"));

    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    assertEquals("backoff", where("p"));
  }

  @Test
  void releasing_a_pod_in_flight_without_activation_only_lifts_the_mark() {
    var taken = takeAndHold("p");
    queue.releasePreemption("p", false);
    assertFalse(queue.preempting("p"));

    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    assertEquals("unschedulable", where("p"));
  }

  @Test
  void activation_without_a_mark_moves_an_unschedulable_or_backing_off_pod_to_active() {
    queue.requeueUnschedulable(take(pod("u")), queue.schedulingCycle());
    queue.requeueAfterError(take(pod("b")));
    queue.add(gated("g"));

    queue.releasePreemption("u", true);
    queue.releasePreemption("b", true);
    queue.releasePreemption("g", true);
    queue.releasePreemption("unknown", true);

    assertEquals(List.of("active", "active", "gated"), List.of(where("u"), where("b"), where("g")));
  }

  // --- Deletion, unknown pods, closing, waking ---

  @Test
  @DisplayName("a pod deleted while held is forgotten with its mark")
  void a_pod_deleted_while_held_is_forgotten_with_its_mark() {
    var taken = takeAndHold("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    assertTrue(queue.delete("p") != null);
    assertFalse(queue.preempting("p"));
    queue.releasePreemption("p", true);
    assertEquals("nowhere", where("p"), "a release after the deletion brings nothing back");

    queue.add(pod("p"));
    assertFalse(queue.preempting("p"), "a pod added again starts without the mark");
    assertEquals("p", queue.poll().name());
  }

  @Test
  void done_drops_the_mark_of_a_pod_in_flight() {
    takeAndHold("p");

    queue.done("p");

    assertFalse(queue.preempting("p"));
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), queue.depths());
  }

  @Test
  void holding_an_unknown_pod_does_nothing_and_holding_twice_is_holding_once() {
    queue.holdForPreemption("unknown");
    assertFalse(queue.preempting("unknown"));
    queue.add(pod("unknown"));
    assertFalse(queue.preempting("unknown"), "the mark is the known pod's");
    assertEquals("unknown", queue.poll().name());

    var taken = takeAndHold("p");
    queue.holdForPreemption("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());
    queue.releasePreemption("p", false);

    assertFalse(queue.preempting("p"), "one release lifts it");
  }

  @Test
  void a_closed_queue_neither_holds_nor_releases() {
    queue.add(pod("a"));
    queue.holdForPreemption("a");
    queue.add(pod("b"));
    queue.close();

    queue.holdForPreemption("b");
    queue.releasePreemption("a", true);

    assertTrue(queue.preempting("a"));
    assertFalse(queue.preempting("b"));
    assertEquals(List.of("b"), SchedulingQueueTest.names(queue.contents().active()));
  }

  @Test
  void a_release_wakes_a_waiting_take() throws Exception {
    var taken = takeAndHold("p");
    queue.requeueUnschedulable(taken, queue.schedulingCycle());
    var next = CompletableFuture.supplyAsync(() -> {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    });

    queue.releasePreemption("p", true);

    assertEquals("p", next.get(10, TimeUnit.SECONDS).name());
  }
}
