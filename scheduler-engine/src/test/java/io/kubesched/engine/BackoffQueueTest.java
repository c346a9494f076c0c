package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** {@link BackoffQueue} on its own: the order its head comes in, and the instant it leaves. */
class BackoffQueueTest {

  private final BackoffQueue backoff = new BackoffQueue(100, 1_000);

  /** An entry queued at {@code now} after {@code failures} attempts that found no node; not added. */
  private QueueEntry failed(String name, long arrival, long now, int failures) {
    var entry = new QueueEntry(SchedulingQueueTest.pod(name));
    entry.unschedulableAttempts = failures;
    entry.arrival = arrival;
    entry.queuedAt = now;
    entry.backoffEnds = backoff.backoffEnds(entry, now);
    return entry;
  }

  /** As {@link #failed}, added to the backoff queue. */
  private QueueEntry backingOff(String name, long arrival, long now, int failures) {
    var entry = failed(name, arrival, now, failures);
    backoff.add(entry);
    return entry;
  }

  @Test
  void the_backoff_that_ends_first_is_the_head_whatever_came_first() {
    var late = backingOff("late", 0, 0, 3);
    var early = backingOff("early", 1, 0, 1);

    assertEquals(400, late.backoffEnds);
    assertEquals(100, early.backoffEnds);
    assertEquals(101, backoff.nextDue());
    assertSame(early, backoff.pollCompleted(101));
    assertSame(late, backoff.pollCompleted(401));
  }

  @Test
  void backoffs_that_end_at_the_same_instant_leave_in_the_order_they_were_queued() {
    var second = backingOff("second", 7, 0, 2);
    var first = backingOff("first", 6, 100, 1);

    assertEquals(QueueEntry.Place.BACKOFF, first.place);
    assertEquals(200, first.backoffEnds);
    assertEquals(200, second.backoffEnds);
    assertSame(first, backoff.pollCompleted(201));
    assertSame(second, backoff.pollCompleted(201));
    assertEquals(Long.MAX_VALUE, backoff.nextDue());
  }

  @Test
  void the_head_stays_until_its_backoff_has_passed_not_when_it_ends() {
    var entry = backingOff("p", 0, 50, 1);

    assertNull(backoff.pollCompleted(150));
    assertEquals(1, backoff.size());
    assertSame(entry, backoff.pollCompleted(151));
    assertEquals(0, backoff.size());
  }

  @Test
  void an_entry_that_never_failed_is_not_backing_off_and_one_with_errors_counts_them() {
    var fresh = failed("fresh", 0, 0, 0);
    var erring = failed("erring", 1, 0, 5);
    erring.consecutiveErrors = 2;

    assertEquals(0, fresh.backoffEnds);
    assertFalse(BackoffQueue.isBackingOff(fresh, 0));
    assertEquals(200, backoff.backoffEnds(erring, 0));
  }
}
