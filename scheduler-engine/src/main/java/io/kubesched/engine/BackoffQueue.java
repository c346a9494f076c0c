package io.kubesched.engine;

import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * The pods waiting out their backoff, as kube-scheduler's {@code backoffQueue}
 * ({@code pkg/scheduler/backend/queue/backoff_queue.go}), the one whose backoff ends first at the head
 * (then in the order they were queued). The backoff is {@code initialBackoff} doubled per
 * {@linkplain QueueEntry#failures() failure} after the first, at most {@code maxBackoff}; a pod that has
 * never failed has none. A pod leaves only once its backoff has passed, never earlier.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own. Time is the queue's
 * elapsed nanos, passed in.
 */
final class BackoffQueue extends SubQueue {

  private static final Comparator<QueueEntry> ORDER =
      Comparator.<QueueEntry>comparingLong(e -> e.backoffEnds).thenComparingLong(e -> e.arrival);

  private final long initialNanos;
  private final long maxNanos;

  /**
   * @param initialNanos the backoff after the first failure; positive
   * @param maxNanos the longest backoff; not less than {@code initialNanos}
   */
  BackoffQueue(long initialNanos, long maxNanos) {
    super(QueueEntry.Place.BACKOFF, ORDER);
    this.initialNanos = initialNanos;
    this.maxNanos = maxNanos;
  }

  /** @return the last instant of the backoff of an entry queued {@code now}, as its failures stand */
  long backoffEnds(QueueEntry entry, long now) {
    return now + backoffNanos(initialNanos, maxNanos, entry.failures());
  }

  /** @return whether the entry has failed and its backoff, as stamped, has not passed at {@code now} */
  static boolean isBackingOff(QueueEntry entry, long now) {
    return entry.failures() > 0 && now <= entry.backoffEnds;
  }

  /** @return the head taken out if its backoff has passed at {@code now}, else null (and nothing moves) */
  @Nullable QueueEntry pollCompleted(long now) {
    var head = peek();
    return head == null || isBackingOff(head, now) ? null : poll();
  }

  /** @return the first instant at which the head's backoff has passed, or Long.MAX_VALUE if empty */
  long nextDue() {
    var head = peek();
    return head == null ? Long.MAX_VALUE : head.backoffEnds + 1;
  }

  /** As {@link SchedulingQueue#backoffNanos(long, long, int)}, which documents it for the users. */
  static long backoffNanos(long initialNanos, long maxNanos, int failures) {
    if (failures <= 0) {
      return 0;
    }
    int shift = failures - 1;
    // Compare before shifting, so that neither the shift nor the product can overflow.
    if (shift >= Long.SIZE - 1 || initialNanos > maxNanos >> shift) {
      return maxNanos;
    }
    return initialNanos << shift;
  }
}
