package io.kubesched.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;

/**
 * The pods whose last attempt found no node, as kube-scheduler's unschedulable pods map
 * ({@code pkg/scheduler/backend/queue/unschedulable_entities.go}), in the order they were queued. They
 * leave when an event may help them (their {@link QueueEntry#hint hint} says which) or when they have
 * waited longer than {@code maxInUnschedulable}. The entries whose hint {@linkplain
 * QueueingHint#waitsForAssignedPods() waits for bound pods} are indexed apart, so that an event about bound
 * pods looks at them only.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own. Time is the queue's
 * elapsed nanos, passed in.
 */
final class UnschedulablePods extends SubQueue {

  private final long maxInUnschedulableNanos;
  private final TreeSet<QueueEntry> waitingForPods = new TreeSet<>(ARRIVAL_ORDER);

  /** @param maxInUnschedulableNanos how long a pod may wait here without any event; positive */
  UnschedulablePods(long maxInUnschedulableNanos) {
    super(QueueEntry.Place.UNSCHEDULABLE, ARRIVAL_ORDER);
    this.maxInUnschedulableNanos = maxInUnschedulableNanos;
  }

  @Override
  void add(QueueEntry entry) {
    super.add(entry);
    if (entry.hint.waitsForAssignedPods()) {
      waitingForPods.add(entry);
    }
  }

  @Override
  void remove(QueueEntry entry) {
    super.remove(entry);
    waitingForPods.remove(entry);
  }

  /**
   * @return the longest waiting entry, taken out, if it has waited longer than {@code maxInUnschedulable}
   *     at {@code now}; else null (and nothing moves)
   */
  @Nullable QueueEntry pollOverdue(long now) {
    // Sorted by the time they were queued, so the head is the only one to look at.
    var head = peek();
    if (head == null || !isOverdue(head, now)) {
      return null;
    }
    remove(head);
    return head;
  }

  /**
   * @return whether an entry queued at its {@link QueueEntry#queuedAt} has waited longer than {@code
   *     maxInUnschedulable} at {@code now}, here or not
   */
  boolean isOverdue(QueueEntry entry, long now) {
    return now - entry.queuedAt > maxInUnschedulableNanos;
  }

  /** @return the first instant at which the head has waited too long, or Long.MAX_VALUE if empty */
  long nextDue() {
    var head = peek();
    return head == null ? Long.MAX_VALUE : head.queuedAt + maxInUnschedulableNanos + 1;
  }

  /**
   * Takes out the entries that an event may help, in the order they were queued.
   *
   * @param onlyWaitingForPods whether to look only at the entries whose hint waits for bound pods
   * @param helps whether the event may help this pod with this hint
   * @return the entries taken out; their places are for the caller to set
   */
  List<QueueEntry> removeIf(boolean onlyWaitingForPods, BiPredicate<QueuedPod, QueueingHint> helps) {
    var moving = new ArrayList<QueueEntry>();
    for (var entry : onlyWaitingForPods ? waitingForPods : entries()) {
      if (helps.test(entry.pod, entry.hint)) {
        moving.add(entry);
      }
    }
    moving.forEach(this::remove);
    return moving;
  }
}
