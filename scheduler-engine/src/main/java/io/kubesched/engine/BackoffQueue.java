package io.kubesched.engine;

import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * The pods waiting out their backoff, as kube-scheduler's {@code backoffQueue}
 * ({@code pkg/scheduler/backend/queue/backoff_queue.go}) with {@code SchedulerPopFromBackoffQ} (beta and on
 * by default since 1.33). The backoff is {@code initialBackoff} doubled per {@linkplain QueueEntry#failures()
 * failure} after the first, at most {@code maxBackoff}; a pod that has never failed has none.
 *
 * <p>Backoffs end on whole ordering windows (kube's {@code backoffQOrderingWindowDuration}, 1 s; here the
 * initial backoff if that is shorter, which kube's configuration, in whole seconds, cannot be): the end is
 * the start of the window in which queued-at plus backoff falls, and the pod is backing off until that
 * window has passed. The head is the pod whose backoff ends first, then, within one window, the one the
 * active queue would take first (higher priority, then queued earlier), so that a whole window moves to
 * active at once in active's order.
 *
 * <p>A pod whose backoff counts attempts that found no node may also be taken out early, when active is
 * empty ({@link #pollUnschedulable()}: kube's {@code popBackoff}); one that counts errors may not (kube keeps
 * those in a second heap that is never popped early).
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own. Time is the queue's
 * elapsed nanos, passed in.
 */
final class BackoffQueue extends SubQueue {

  /** kube's {@code backoffQOrderingWindowDuration}. */
  static final long ORDERING_WINDOW_NANOS = 1_000_000_000L;

  private static final Comparator<QueueEntry> ORDER =
      Comparator.<QueueEntry>comparingLong(e -> e.backoffEnds).thenComparing(ActiveQueue.ORDER);

  private final long initialNanos;
  private final long maxNanos;
  private final long windowNanos;

  /**
   * @param initialNanos the backoff after the first failure; positive
   * @param maxNanos the longest backoff; not less than {@code initialNanos}
   */
  BackoffQueue(long initialNanos, long maxNanos) {
    super(QueueEntry.Place.BACKOFF, ORDER);
    this.initialNanos = initialNanos;
    this.maxNanos = maxNanos;
    this.windowNanos = Math.min(ORDERING_WINDOW_NANOS, initialNanos);
  }

  /**
   * @return the start of the ordering window in which the backoff of an entry queued {@code now} ends, as
   *     its failures stand: it is backing off until that window has passed
   */
  long backoffEnds(QueueEntry entry, long now) {
    return window(now + backoffNanos(initialNanos, maxNanos, entry.failures()));
  }

  /** @return whether the entry has failed and the window its backoff ends in has not passed at {@code now} */
  boolean isBackingOff(QueueEntry entry, long now) {
    return entry.failures() > 0 && entry.backoffEnds >= window(now);
  }

  /** @return the head taken out if its backoff has passed at {@code now}, else null (and nothing moves) */
  @Nullable QueueEntry pollCompleted(long now) {
    var head = peek();
    return head == null || isBackingOff(head, now) ? null : poll();
  }

  /**
   * @return the first entry in this queue's order whose backoff counts attempts that found no node (not
   *     errors), taken out whatever is left of its backoff; null if there is none
   */
  @Nullable QueueEntry pollUnschedulable() {
    for (var entry : entries()) {
      if (entry.consecutiveErrors == 0) {
        remove(entry);
        return entry;
      }
    }
    return null;
  }

  /** @return the first instant at which the head's backoff has passed, or Long.MAX_VALUE if empty */
  long nextDue() {
    var head = peek();
    return head == null ? Long.MAX_VALUE : head.backoffEnds + windowNanos;
  }

  /** @return the start of the ordering window {@code t} falls in (windows start at multiples of it) */
  private long window(long t) {
    return t - Math.floorMod(t, windowNanos);
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
