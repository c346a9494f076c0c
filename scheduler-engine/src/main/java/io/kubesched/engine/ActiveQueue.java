package io.kubesched.engine;

import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * The pods ready to be tried, as kube-scheduler's {@code activeQueue}
 * ({@code pkg/scheduler/backend/queue/active_queue.go}): highest {@link QueuedPod#priority() priority}
 * first, then in the order they were queued (kube's {@code PrioritySort}). Popping a pod hands it out: it
 * goes in flight and starts a scheduling cycle, which this queue counts.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own.
 */
final class ActiveQueue extends SubQueue {

  /** Higher priority first, then queued earlier: kube's {@code PrioritySort}. */
  static final Comparator<QueueEntry> ORDER =
      ((Comparator<QueueEntry>) (a, b) -> Integer.compare(b.pod.priority(), a.pod.priority()))
          .thenComparingLong(e -> e.arrival);

  private final Ticker ticker;
  private long cycle;

  /** @param ticker stamps the first attempt of each pod handed out */
  ActiveQueue(Ticker ticker) {
    super(QueueEntry.Place.ACTIVE, ORDER);
    this.ticker = ticker;
  }

  /**
   * Hands out the first pod: its entry goes in flight, forgets any update made during its previous attempt,
   * and its pod counts one attempt more (the first one stamped with the ticker's time).
   *
   * @return the pod as handed out, or null if no pod is active
   */
  @Nullable QueuedPod pop() {
    var head = poll();
    if (head == null) {
      return null;
    }
    ++cycle;
    return handOut(head);
  }

  /** Starts a scheduling cycle without popping: for the members of a pod group, handed out together. */
  void startCycle() {
    ++cycle;
  }

  /**
   * Hands out an entry taken out of its sub-queue (this one or another) as {@link #pop()} does, in the
   * current scheduling cycle.
   *
   * @return the pod as handed out
   */
  QueuedPod handOut(QueueEntry entry) {
    entry.place = QueueEntry.Place.IN_FLIGHT;
    entry.updatedInFlight = false;
    entry.pod = entry.pod.withProgress(entry.pod.progress().attempted(ticker.nanoTime()));
    return entry.pod;
  }

  /** @return the number of pods handed out so far: the cycle of the pod {@link #pop()} returned last */
  long schedulingCycle() {
    return cycle;
  }
}
