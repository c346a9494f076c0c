package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Example tests for {@link SchedulingQueue}, most of them ports of kube-scheduler v1.37's
 * {@code scheduling_queue_test.go} and {@code backoff_queue_test.go} cases (named after the Go test) for
 * the parts this queue has: no queueing hints, pre-enqueue plugins, nominations or pod groups.
 */
class SchedulingQueueTest {

  private static final Duration INITIAL = Duration.ofSeconds(1);
  /**
   * kube's backoff ordering window: a backoff lasts until the end of the window it ends in. The fake clock
   * starts on a whole second, so a whole-second backoff from a whole second lasts one window more.
   */
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration MAX = Duration.ofSeconds(10);
  /** kube-scheduler's {@code podMaxInUnschedulablePodsDuration}. */
  private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);
  private static final int LOW = 0;
  private static final int MID = 100;
  private static final int HIGH = 1000;

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue = new SchedulingQueue(clock, INITIAL, MAX, FIVE_MINUTES);

  static QueuedPod pod(String name, int priority) {
    return new QueuedPod("uid-" + name, "ns", name, priority, "default-scheduler");
  }

  static QueuedPod pod(String name) {
    return pod(name, LOW);
  }

  /**
   * Where the queue holds the pod with this name: active, backoff, unschedulable, gated, inFlight or
   * nowhere.
   */
  static String where(SchedulingQueue queue, String name) {
    var snapshot = queue.contents();
    var found = new ArrayList<String>();
    if (names(snapshot.active()).contains(name)) {
      found.add("active");
    }
    if (names(snapshot.backoff()).contains(name)) {
      found.add("backoff");
    }
    if (names(snapshot.unschedulable()).contains(name)) {
      found.add("unschedulable");
    }
    if (names(snapshot.gated()).contains(name)) {
      found.add("gated");
    }
    if (names(snapshot.inFlight()).contains(name)) {
      found.add("inFlight");
    }
    assertTrue(found.size() <= 1, name + " is in more than one place: " + found);
    return found.isEmpty() ? "nowhere" : found.get(0);
  }

  /** The pod version the queue holds, without the progress it keeps of the pod's attempts. */
  static @Nullable QueuedPod version(@Nullable QueuedPod pod) {
    return pod == null ? null : pod.withProgress(QueuedPod.Progress.NONE);
  }

  static List<QueuedPod> versions(List<QueuedPod> pods) {
    return pods.stream().map(pod -> pod.withProgress(QueuedPod.Progress.NONE)).toList();
  }

  static List<String> names(List<QueuedPod> pods) {
    return pods.stream().map(QueuedPod::name).toList();
  }

  private String where(String name) {
    return where(queue, name);
  }

  private List<String> takeAll() {
    var taken = new ArrayList<String>();
    for (var pod = queue.poll(); pod != null; pod = queue.poll()) {
      taken.add(pod.name());
    }
    return taken;
  }

  /** Adds the pod, takes it (it must be the head) and reports it unschedulable, with no event meanwhile. */
  private void failUnschedulable(QueuedPod pod) {
    queue.add(pod);
    assertEquals(pod, version(queue.poll()));
    assertTrue(queue.requeueUnschedulable(pod, queue.schedulingCycle()));
  }

  // --- Active queue order (TestPriorityQueue_Add, TestPriorityQueue_AddWithReversePriorityLessFunc) ---

  @Test
  void pods_are_taken_highest_priority_first() {
    queue.add(pod("mid", MID));
    queue.add(pod("low", LOW));
    queue.add(pod("high", HIGH));

    assertEquals(List.of("high", "mid", "low"), takeAll());
  }

  @Test
  void pods_of_one_priority_are_taken_in_the_order_they_were_queued() {
    queue.add(pod("a"));
    clock.advance(Duration.ofMillis(1));
    queue.add(pod("b"));
    queue.add(pod("c")); // same instant as b: arrival decides

    assertEquals(List.of("a", "b", "c"), takeAll());
  }

  @Test
  void a_pod_added_twice_is_queued_once_with_its_latest_version() {
    queue.add(pod("a", LOW));
    queue.add(pod("b", MID));
    queue.add(pod("a", HIGH));

    assertEquals(2, queue.size());
    assertEquals(pod("a", HIGH), version(queue.poll()), "the update's priority re-sorts it");
    assertEquals(pod("b", MID), version(queue.poll()));
    assertNull(queue.poll());
  }

  // --- TestRecentlyTriedPodsGoBack, TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod ---

  @Test
  void a_pod_that_failed_goes_behind_the_pods_of_its_priority_queued_before_it_came_back() {
    for (int i = 0; i < 5; i++) {
      queue.add(pod("p" + i, HIGH));
    }
    clock.advance(Duration.ofNanos(1000));
    var tried = queue.poll();
    assertEquals("p0", tried.name());
    assertTrue(queue.requeueUnschedulable(tried, queue.schedulingCycle()));
    clock.advance(MAX);
    queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);

    assertEquals(List.of("p1", "p2", "p3", "p4", "p0"), takeAll());
  }

  @Test
  void a_pod_failing_again_and_again_does_not_block_a_newer_pod() {
    var unschedulable = pod("unschedulable", HIGH);
    failUnschedulable(unschedulable);
    clock.advance(INITIAL.plusSeconds(1));
    queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);

    assertEquals(unschedulable, version(queue.poll()));
    long cycle = queue.schedulingCycle();
    var newer = pod("newer", HIGH);
    queue.add(newer); // arrives while the unschedulable pod is being tried
    assertTrue(queue.requeueUnschedulable(unschedulable, cycle));
    clock.advance(INITIAL.plusSeconds(1));
    queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);

    assertEquals(newer, version(queue.poll()), "newer was queued before the second failure");
  }

  // --- TestHighPriorityBackoff ---

  @Test
  void an_unschedulable_high_priority_pod_does_not_block_others_while_it_backs_off() {
    queue.add(pod("mid", MID));
    queue.add(pod("high", HIGH));
    var high = queue.poll();
    assertEquals("high", high.name());
    assertTrue(queue.requeueUnschedulable(high, queue.schedulingCycle()));

    queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);

    assertEquals("backoff", where("high"));
    assertEquals("mid", queue.poll().name());
  }

  // --- TestPriorityQueue_Pop (SchedulerPopFromBackoffQ, on by default since kube 1.33) ---

  /** "individual pod, GenericWorkload disabled, PopFromBackoffQ enabled, pops from both activeQ and backoffQ". */
  @Test
  void pops_from_both_activeQ_and_backoffQ() {
    queue.add(pod("hpp", HIGH));
    queue.add(pod("hpp2", HIGH));
    queue.add(pod("unsched", LOW));
    var backoffPod = queue.poll();
    long backoffPodCycle = queue.schedulingCycle();
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD); // missed by its attempt: backoff
    assertTrue(queue.requeueUnschedulable(backoffPod, backoffPodCycle));
    assertTrue(queue.requeueAfterError(queue.poll())); // hpp2: the error backoff
    assertTrue(queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle())); // unsched
    queue.add(pod("mpp", MID));
    assertEquals(List.of("hpp", "hpp2"), names(queue.contents().backoff()));
    assertEquals("unschedulable", where("unsched"));

    assertEquals(List.of("mpp", "hpp"), takeAll());
    assertEquals(List.of("hpp2"), names(queue.contents().backoff()), "an error backoff is waited out");
  }

  // --- Backoff: TestBackoffQueue_calculateBackoffDuration, TestBackoffQueue_getBackoffTime, TestBackOffFlow ---

  static Stream<Arguments> backoffDurations() {
    return Stream.of(
        Arguments.of(Named.of("no backoff before the first failure", 0), 1L, 32L, 0L),
        Arguments.of(Named.of("normal: 3 * 2^4", 5), 3L, 1000L, 48L),
        Arguments.of(Named.of("hitting max backoff duration", 16), 1L, 32L, 32L),
        Arguments.of(Named.of("overflow 32 bit", 32), 1L, (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE),
        Arguments.of(Named.of("overflow 64 bit", 64), 1L, Long.MAX_VALUE, Long.MAX_VALUE),
        Arguments.of(Named.of("far past any shift", Integer.MAX_VALUE), 1L, 32L, 32L));
  }

  @ParameterizedTest
  @MethodSource("backoffDurations")
  void the_backoff_doubles_per_failure_up_to_the_maximum(
      int failures, long initialNanos, long maxNanos, long expectedNanos) {
    assertEquals(expectedNanos, SchedulingQueue.backoffNanos(initialNanos, maxNanos, failures));
  }

  @Test
  void each_failed_attempt_backs_off_twice_as_long_up_to_ten_seconds() {
    queue.add(pod("p"));
    for (long seconds : new long[] {1, 2, 4, 8, 10, 10, 10}) {
      var taken = queue.poll();
      assertEquals(pod("p"), version(taken));
      assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));
      queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);
      assertEquals("backoff", where("p"));

      clock.advance(Duration.ofSeconds(seconds).plus(WINDOW).minusNanos(1));
      queue.flush();
      assertEquals("backoff", where("p"), "still backing off at the last instant of the window " + seconds + " s ends in");
      clock.advance(Duration.ofNanos(1));
      queue.flush();
      assertEquals("active", where("p"), "out of backoff when the window " + seconds + " s ends in has passed");
    }
  }

  @Test
  void after_an_error_the_backoff_counts_consecutive_errors_not_unschedulable_attempts() {
    queue.add(pod("p"));
    for (int i = 0; i < 2; i++) { // two unschedulable attempts: the next would back off 4 s
      assertTrue(queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle()));
      clock.advance(MAX.plus(WINDOW));
      queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    }
    assertTrue(queue.requeueAfterError(queue.poll()));
    clock.advance(INITIAL.plus(WINDOW).minusNanos(1));
    assertNull(queue.poll(), "an error backoff is never cut short");
    clock.advance(Duration.ofNanos(1));
    assertEquals(pod("p"), version(queue.poll()), "the first error backs off 1 s");

    assertTrue(queue.requeueUnschedulable(pod("p"), queue.schedulingCycle()));
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    clock.advance(Duration.ofSeconds(4).plus(WINDOW).minusNanos(1));
    queue.flush();
    assertEquals("backoff", where("p"), "errors forgotten: the third unschedulable attempt backs off 4 s");
    clock.advance(Duration.ofNanos(1));
    queue.flush();
    assertEquals("active", where("p"));
  }

  @Test
  void a_pod_whose_attempt_failed_with_an_error_waits_out_its_backoff_whatever_happens() {
    queue.add(pod("p"));
    assertTrue(queue.requeueAfterError(queue.poll()));
    assertEquals("backoff", where("p"));

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    assertNull(queue.poll(), "not taken early from backoff, though active is empty: it erred");
    clock.advance(INITIAL.plus(WINDOW));
    assertEquals(pod("p"), version(queue.poll()));
  }

  // --- TestPodTimestamp: "add one pod to BackoffQ and move it to activeQ" ---

  @Test
  void a_pod_back_from_backoff_keeps_its_place_before_pods_queued_after_its_failure() {
    queue.add(pod("failed"));
    assertTrue(queue.requeueAfterError(queue.poll()));
    clock.advance(Duration.ofMillis(1));
    queue.add(pod("later"));
    clock.advance(Duration.ofSeconds(3));

    assertEquals(List.of("failed", "later"), takeAll());
  }

  // --- TestPriorityQueue_AddUnschedulablePodIfNotPresent and the move request cycle ---

  @Test
  void a_pod_that_found_no_node_waits_as_unschedulable_when_nothing_happened_meanwhile() {
    queue.add(pod("unschedulable", LOW));
    var taken = queue.poll();
    queue.add(pod("high", HIGH));

    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));

    assertEquals("unschedulable", where("unschedulable"));
    assertEquals(List.of("high"), takeAll());
  }

  @Test
  void pods_in_flight_when_an_event_arrives_go_to_backoff_not_unschedulable() {
    // TestPriorityQueue_AddUnschedulablePodIfNotPresent_Backoff
    for (int i = 0; i < 10; i++) {
      queue.add(pod("pod" + i, i));
    }
    var inFlight = new ArrayList<QueuedPod>();
    for (int i = 9; i > 0; i--) {
      var taken = queue.poll();
      assertEquals("pod" + i, taken.name());
      inFlight.add(taken);
    }
    queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULABLE_TIMEOUT);
    long oldCycle = queue.schedulingCycle();
    assertEquals("pod0", queue.poll().name());

    for (var pod : inFlight) {
      assertTrue(queue.requeueUnschedulable(pod, oldCycle));
    }

    for (var pod : inFlight) {
      assertEquals("backoff", where(pod.name()), pod.name());
    }
  }

  @Test
  void an_event_before_the_pod_was_taken_does_not_count_for_its_attempt() {
    queue.add(pod("p"));
    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    var taken = queue.poll();

    assertTrue(queue.requeueUnschedulable(taken, queue.schedulingCycle()));

    assertEquals("unschedulable", where("p"));
  }

  @Test
  void a_pod_updated_while_in_flight_goes_to_backoff_with_its_latest_version() {
    // TestPriorityQueue_UpdateWhenInflight
    queue.add(pod("p", LOW));
    var taken = queue.poll();
    long cycle = queue.schedulingCycle();
    queue.add(pod("p", HIGH));
    assertEquals("inFlight", where("p"), "an update does not queue a pod that is being scheduled");

    assertTrue(queue.requeueUnschedulable(taken, cycle));

    assertEquals(List.of(pod("p", HIGH)), versions(queue.contents().backoff()));
  }

  @Test
  void a_cycle_not_started_yet_is_refused() {
    queue.add(pod("p"));
    var taken = queue.poll();

    var error =
        assertThrows(IllegalArgumentException.class, () -> queue.requeueUnschedulable(taken, 2));
    assertEquals("cycleAtTake 2 is not a scheduling cycle started so far (0..1)", error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> queue.requeueUnschedulable(taken, -1));
  }

  @Test
  void a_pod_not_in_flight_is_not_requeued() {
    queue.add(pod("queued"));

    assertFalse(queue.requeueUnschedulable(pod("queued"), 0));
    assertFalse(queue.requeueAfterError(pod("never-seen")));
    assertEquals("active", where("queued"));
  }

  // --- TestPriorityQueue_Update ---

  static Stream<Arguments> updates() {
    return Stream.of(
        update(
            "a pod that is not in the queue goes to active",
            "active",
            (queue, clock) -> pod("p", MID)),
        update(
            "a pod in active stays in active",
            "active",
            (queue, clock) -> {
              queue.add(pod("p", HIGH));
              return pod("p", HIGH);
            }),
        update(
            "a pod in backoff that is still backing off stays in backoff",
            "backoff",
            (queue, clock) -> {
              queue.add(pod("p", MID));
              queue.requeueAfterError(queue.poll());
              return pod("p", MID);
            }),
        update(
            "an unschedulable pod whose backoff has not passed moves to backoff",
            "backoff",
            (queue, clock) -> {
              queue.add(pod("p", MID));
              queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle());
              return pod("p", MID);
            }),
        update(
            "an unschedulable pod whose backoff has passed moves to active",
            "active",
            (queue, clock) -> {
              queue.add(pod("p", MID));
              queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle());
              clock.advance(MAX);
              return pod("p", MID);
            }),
        update(
            "a pod in flight is not added to any queue",
            "inFlight",
            (queue, clock) -> {
              queue.add(pod("p", MID));
              queue.poll();
              return pod("p", MID);
            }));
  }

  private static Arguments update(
      String name, String expectedPlace, BiFunction<SchedulingQueue, FakeTicker, QueuedPod> prepare) {
    return Arguments.of(Named.of(name, prepare), expectedPlace);
  }

  @ParameterizedTest
  @MethodSource("updates")
  void an_update_keeps_one_entry_and_moves_an_unschedulable_pod(
      BiFunction<SchedulingQueue, FakeTicker, QueuedPod> prepare, String expectedPlace) {
    var updated = prepare.apply(queue, clock);

    queue.add(updated);

    assertEquals(expectedPlace, where("p"));
    var depths = queue.depths();
    assertEquals(1, depths.waiting() + depths.inFlight());
  }

  // --- TestPriorityQueue_Delete ---

  static Stream<Arguments> deletions() {
    return Stream.of(
        deletion("from active", (queue, clock) -> queue.add(pod("p1"))),
        deletion(
            "from backoff",
            (queue, clock) -> {
              queue.add(pod("p1"));
              queue.requeueAfterError(queue.poll());
            }),
        deletion(
            "from unschedulable",
            (queue, clock) -> {
              queue.add(pod("p1"));
              queue.requeueUnschedulable(queue.poll(), queue.schedulingCycle());
            }),
        deletion(
            "while in flight",
            (queue, clock) -> {
              queue.add(pod("p1"));
              queue.poll();
            }));
  }

  private static Arguments deletion(String name, BiConsumer<SchedulingQueue, FakeTicker> prepare) {
    return Arguments.of(Named.of(name, prepare));
  }

  @ParameterizedTest
  @MethodSource("deletions")
  void a_deleted_pod_is_removed_wherever_it_is_and_others_stay(
      BiConsumer<SchedulingQueue, FakeTicker> prepare) {
    prepare.accept(queue, clock);
    queue.add(pod("p2"));
    String p2Before = where("p2");

    assertNotNull(queue.delete("uid-p1"));

    assertEquals("nowhere", where("p1"));
    assertEquals(p2Before, where("p2"));
    assertFalse(queue.requeueUnschedulable(pod("p1"), queue.schedulingCycle()), "nothing to requeue");
    assertFalse(queue.requeueAfterError(pod("p1")));
    assertEquals("nowhere", where("p1"));
  }

  @Test
  void deleting_a_pod_the_queue_does_not_know_changes_nothing() {
    failUnschedulable(pod("p1"));

    assertNull(queue.delete("uid-p2"));

    assertEquals("unschedulable", where("p1"));
  }

  @Test
  void a_done_pod_is_forgotten_with_its_backoff() {
    queue.add(pod("p"));
    assertTrue(queue.requeueAfterError(queue.poll())); // 1 s
    clock.advance(INITIAL.plus(WINDOW));
    assertTrue(queue.requeueAfterError(queue.poll())); // 2 s
    clock.advance(Duration.ofSeconds(2).plus(WINDOW));
    var taken = queue.poll();

    assertTrue(queue.done(taken.uid()));
    assertEquals(new QueueDepths(0, 0, 0, 0, 0), queue.depths());

    queue.add(pod("p"));
    assertTrue(queue.requeueAfterError(queue.poll()));
    clock.advance(INITIAL.plus(WINDOW));
    assertEquals(pod("p"), version(queue.poll()), "the backoff starts again at 1 s, not 4 s");
  }

  // --- TestPriorityQueue_MoveAllToActiveOrBackoffQueue (without queueing hints: every event moves all) ---

  @Test
  void an_event_moves_every_unschedulable_pod_to_backoff_or_active() {
    failUnschedulable(pod("unschedulable", LOW));
    failUnschedulable(pod("high", HIGH));
    queue.add(pod("erring", HIGH));
    assertTrue(queue.requeueAfterError(queue.poll()));
    assertEquals(new QueueDepths(0, 1, 2, 0, 0), queue.depths());

    assertEquals(2, queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD));
    queue.add(pod("mid", MID));

    assertEquals(new QueueDepths(1, 3, 0, 0, 0), queue.depths(), "all three are still backing off");
    assertEquals("mid", queue.poll().name());
    queue.done("uid-mid");

    clock.advance(MAX);
    assertEquals(3, queue.flush());
    assertEquals(List.of("high", "erring", "unschedulable"), takeAll(), "high failed before erring");
  }

  @Test
  void an_event_moves_unschedulable_pods_whose_backoff_passed_straight_to_active() {
    failUnschedulable(pod("a"));
    failUnschedulable(pod("b", HIGH));
    clock.advance(MAX);

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);

    assertEquals(List.of("b", "a"), names(queue.contents().active()));
  }

  // --- TestHighPriorityFlushUnschedulableEntitiesLeftover, TestPriorityQueue_initPodMaxInUnschedulablePodsDuration ---

  @Test
  void unschedulable_pods_are_tried_again_after_five_minutes_without_any_event() {
    failUnschedulable(pod("high", HIGH));
    failUnschedulable(pod("mid", MID));

    clock.advance(FIVE_MINUTES.plusSeconds(1));

    assertEquals(List.of("high", "mid"), takeAll());
  }

  static Stream<Arguments> maxInUnschedulable() {
    return Stream.of(
        Arguments.of(Named.of("the default, five minutes", FIVE_MINUTES)),
        Arguments.of(Named.of("a user-defined thirty seconds", Duration.ofSeconds(30))));
  }

  @ParameterizedTest
  @MethodSource("maxInUnschedulable")
  void a_flush_moves_the_pods_left_unschedulable_too_long_oldest_first(Duration maxInUnschedulable) {
    var configured = new SchedulingQueue(clock, INITIAL, MAX, maxInUnschedulable);
    configured.add(pod("pod2"));
    configured.requeueUnschedulable(configured.poll(), configured.schedulingCycle());
    clock.advance(Duration.ofSeconds(1));
    configured.add(pod("pod1"));
    configured.requeueUnschedulable(configured.poll(), configured.schedulingCycle());
    clock.advance(Duration.ofSeconds(1));

    clock.advance(maxInUnschedulable);
    configured.flush();

    assertEquals(List.of("pod2", "pod1"), names(configured.contents().active()));
  }

  @Test
  void a_pod_stays_unschedulable_until_strictly_more_than_the_timeout_has_passed() {
    var configured = new SchedulingQueue(clock, INITIAL, MAX, Duration.ofSeconds(30));
    configured.add(pod("p"));
    configured.requeueUnschedulable(configured.poll(), configured.schedulingCycle());

    clock.advance(Duration.ofSeconds(30));
    assertEquals(0, configured.flush());
    assertEquals("unschedulable", where(configured, "p"));
    clock.advance(Duration.ofNanos(1));
    assertEquals(1, configured.flush());
    assertEquals("active", where(configured, "p"));
  }

  @Test
  void a_timed_out_pod_still_backing_off_goes_to_backoff() {
    var configured =
        new SchedulingQueue(clock, Duration.ofSeconds(3), Duration.ofSeconds(60), Duration.ofSeconds(2));
    configured.add(pod("p"));
    assertTrue(configured.requeueUnschedulable(configured.poll(), configured.schedulingCycle()));

    clock.advance(Duration.ofSeconds(2).plusNanos(1));

    assertEquals(1, configured.flush());
    assertEquals("backoff", where(configured, "p"), "its 3 s backoff outlasts the 2 s timeout");
  }

  // --- Depths, closing, the worker's blocking take (TestSchedulingQueue_Close) ---

  @Test
  void depths_count_each_sub_queue_and_the_pods_in_flight() {
    failUnschedulable(pod("unschedulable"));
    queue.add(pod("erring"));
    queue.requeueAfterError(queue.poll());
    queue.add(pod("flying"));
    queue.poll();
    queue.add(pod("ready-1"));
    queue.add(pod("ready-2"));

    assertEquals(new QueueDepths(2, 1, 1, 0, 1), queue.depths());
    assertEquals(4, queue.size());
  }

  @Test
  void a_closed_queue_accepts_and_hands_out_nothing() {
    queue.add(pod("a"));
    var taken = queue.poll();
    queue.add(pod("b"));

    queue.close();
    queue.add(pod("c"));

    assertNull(queue.poll());
    assertFalse(queue.requeueAfterError(taken));
    assertEquals(List.of("b"), names(queue.contents().active()));
  }

  @Test
  void take_waits_until_a_pod_is_ready_and_returns_null_once_closed() throws Exception {
    // Real time and real waits, but nothing about how long they take is asserted.
    var realTime =
        new SchedulingQueue(Ticker.SYSTEM, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofMillis(2));

    var taken = CompletableFuture.supplyAsync(() -> takeQuietly(realTime));
    realTime.add(pod("a"));
    assertEquals(pod("a"), version(taken.get(10, TimeUnit.SECONDS)), "an add wakes a waiting take");

    assertTrue(realTime.requeueUnschedulable(pod("a"), realTime.schedulingCycle()));
    var retried = CompletableFuture.supplyAsync(() -> takeQuietly(realTime));
    assertEquals(pod("a"), version(retried.get(10, TimeUnit.SECONDS)), "the take wakes itself when the timeout ends");

    var afterClose = CompletableFuture.supplyAsync(() -> takeQuietly(realTime));
    realTime.close();
    assertNull(afterClose.get(10, TimeUnit.SECONDS), "close wakes a waiting take");
  }

  private static QueuedPod takeQuietly(SchedulingQueue queue) {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  // --- The queued pod's progress: the one place the loop keeps per-pod state ---

  @Test
  void each_take_counts_an_attempt_and_stamps_the_first() {
    queue.add(pod("p", LOW));
    clock.advance(Duration.ofSeconds(3));
    long firstTake = clock.nanoTime();
    var first = queue.poll();
    assertEquals(new QueuedPod.Progress(1, firstTake, null, null), first.progress());

    queue.requeueAfterError(first);
    clock.advance(MAX);
    var second = queue.poll();

    assertEquals(2, second.progress().attempts());
    assertEquals(firstTake, second.progress().initialAttemptNanos(), "the first attempt's time stays");
  }

  @Test
  void an_update_keeps_the_progress_and_a_requeue_keeps_the_update() {
    queue.add(pod("p", LOW));
    var taken = queue.poll();
    queue.add(pod("p", HIGH)); // updated while in flight: a new version, never taken
    queue.requeueAfterError(taken.withProgress(taken.progress().withUnconfirmedNode("n1")));

    var removed = queue.delete(taken.uid());

    assertEquals(HIGH, removed.priority(), "the update's fields");
    assertEquals(new QueuedPod.Progress(1, taken.progress().initialAttemptNanos(), "n1", null), removed.progress());
    assertNull(queue.delete(taken.uid()), "gone with all its state");
  }
}
