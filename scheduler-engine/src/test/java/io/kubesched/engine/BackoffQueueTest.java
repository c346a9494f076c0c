package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BackoffQueue} on its own: where a backoff ends (on its ordering window), the order its head comes
 * in, the instant it leaves, and which entry may leave early.
 */
class BackoffQueueTest {

  private static final long S = 1_000_000_000L;

  /** kube's defaults: 1 s doubling to 10 s, so the ordering window is kube's 1 s. */
  private final BackoffQueue backoff = new BackoffQueue(S, 10 * S);

  /** An entry of {@code priority} queued at {@code now} after {@code failures} attempts that found no node. */
  private QueueEntry failed(String name, int priority, long arrival, long now, int failures) {
    var entry = new QueueEntry(SchedulingQueueTest.pod(name, priority));
    entry.unschedulableAttempts = failures;
    entry.arrival = arrival;
    entry.queuedAt = now;
    entry.backoffEnds = backoff.backoffEnds(entry, now);
    return entry;
  }

  /** As {@link #failed}, added to the backoff queue. */
  private QueueEntry backingOff(String name, int priority, long arrival, long now, int failures) {
    var entry = failed(name, priority, arrival, now, failures);
    backoff.add(entry);
    return entry;
  }

  @Test
  void a_backoff_ends_on_the_start_of_its_window_and_lasts_until_the_window_has_passed() {
    var entry = backingOff("p", 0, 0, 10 * S + S / 2, 1); // 1 s from 10.5 s: in the window of 11 s

    assertEquals(11 * S, entry.backoffEnds);
    assertTrue(backoff.isBackingOff(entry, 11 * S + S - 1));
    assertEquals(12 * S, backoff.nextDue());
    assertNull(backoff.pollCompleted(12 * S - 1));
    assertSame(entry, backoff.pollCompleted(12 * S));
  }

  @Test
  void the_backoff_that_ends_first_is_the_head_whatever_came_first() {
    var late = backingOff("late", 0, 0, 0, 3);
    var early = backingOff("early", 0, 1, 0, 1);

    assertEquals(4 * S, late.backoffEnds);
    assertEquals(S, early.backoffEnds);
    assertEquals(2 * S, backoff.nextDue());
    assertSame(early, backoff.pollCompleted(2 * S));
    assertNull(backoff.pollCompleted(5 * S - 1));
    assertSame(late, backoff.pollCompleted(5 * S));
  }

  @Test
  void backoffs_of_one_window_leave_in_the_active_queues_order() {
    var second = backingOff("second", 0, 7, 0, 2); // ends at 2 s
    var first = backingOff("first", 0, 6, S + S / 3, 1); // 2.33 s: the same window

    assertEquals(QueueEntry.Place.BACKOFF, first.place);
    assertEquals(2 * S, first.backoffEnds);
    assertEquals(2 * S, second.backoffEnds);
    assertSame(first, backoff.pollCompleted(3 * S));
    assertSame(second, backoff.pollCompleted(3 * S));
    assertEquals(Long.MAX_VALUE, backoff.nextDue());
  }

  /** kube's TestBackoffQueueOrdering, "Pods with the same window are ordered by priority if PopFromBackoffQ is enabled". */
  @Test
  void pods_with_the_same_window_are_ordered_by_priority() {
    long now = 10 * S; // aligned with the window, as kube's fake clock
    // kube orders equal priorities by the time queued; here by arrival, stamped in that order.
    backingOff("pod0", 1, 5, now, 1);
    backingOff("pod1", 1, 4, now - S, 1);
    backingOff("pod2", 2, 3, now - 2 * S + 1_000_000, 1);
    backingOff("pod3", 1, 1, now - 2 * S, 1);
    backingOff("pod4", 2, 2, now - 2 * S, 1);
    backingOff("pod5", 1, 0, now - 3 * S, 1);

    var left = new ArrayList<String>();
    for (var entry = backoff.pollCompleted(now); entry != null; entry = backoff.pollCompleted(now)) {
      left.add(entry.pod.name());
    }

    assertEquals(List.of("pod5", "pod4", "pod2", "pod3"), left);
  }

  @Test
  void with_active_empty_the_first_pod_that_found_no_node_leaves_early_one_with_errors_does_not() {
    var erring = backingOff("erring", 10, 0, 0, 1);
    erring.consecutiveErrors = 1; // same backoff end, higher priority: the head
    var unschedulable = backingOff("unschedulable", 0, 1, 0, 1);
    var later = backingOff("later", 0, 2, 0, 2);

    assertSame(erring, backoff.peek());
    assertSame(unschedulable, backoff.pollUnschedulable());
    assertSame(later, backoff.pollUnschedulable());
    assertNull(backoff.pollUnschedulable());
    assertEquals(1, backoff.size());
  }

  @Test
  void an_entry_that_never_failed_is_not_backing_off_and_one_with_errors_counts_them() {
    var fresh = failed("fresh", 0, 0, 0, 0);
    var erring = failed("erring", 0, 1, 0, 5);
    erring.consecutiveErrors = 2;

    assertFalse(backoff.isBackingOff(fresh, 0));
    assertEquals(2 * S, backoff.backoffEnds(erring, 0));
  }

  @Test
  void an_initial_backoff_shorter_than_a_second_is_its_own_window() {
    var quick = new BackoffQueue(100, 1_000);
    var entry = new QueueEntry(SchedulingQueueTest.pod("p"));
    entry.unschedulableAttempts = 1;

    assertEquals(100, quick.backoffEnds(entry, 50)); // 150 falls in the window of 100
    entry.backoffEnds = quick.backoffEnds(entry, 50);
    quick.add(entry);
    assertEquals(200, quick.nextDue());
  }
}
