package io.kubesched.engine;

import java.util.function.BiPredicate;

/**
 * The waiting pods marked as preempting, as kube-scheduler's DefaultPreemption PreEnqueue keeps a preemptor
 * out of the active queue while its victims are being evicted (it answers {@code waiting for the preemption
 * for this pod to be finished}). Nothing here is handed out, and no event, update or timeout moves it: each
 * move that would have sent a pod to active or backoff is only {@linkplain QueueEntry#moveSuppressed
 * remembered}, and done when the {@link SchedulingQueue} lifts the mark. The queue shows these pods as
 * unschedulable. In the order they were queued.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own.
 */
final class HeldPods extends SubQueue {

  HeldPods() {
    super(QueueEntry.Place.HELD, ARRIVAL_ORDER);
  }

  /**
   * An event that would move the unschedulable pods it may help: the held pods it would have moved (those
   * that would be unschedulable now, not gated nor already due to move) remember it.
   *
   * @param onlyWaitingForPods whether the event concerns only pods whose hint waits for bound pods
   * @param helps whether the event may help this pod with this hint
   */
  void suppressMoves(boolean onlyWaitingForPods, BiPredicate<QueuedPod, QueueingHint> helps) {
    for (var entry : entries()) {
      if (!entry.moveSuppressed
          && !entry.pod.gated()
          && (!onlyWaitingForPods || entry.hint.waitsForAssignedPods())
          && helps.test(entry.pod, entry.hint)) {
        entry.moveSuppressed = true;
      }
    }
  }
}
