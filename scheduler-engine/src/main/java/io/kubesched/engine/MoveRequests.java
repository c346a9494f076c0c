package io.kubesched.engine;

import java.util.ArrayDeque;
import java.util.function.BiPredicate;

/**
 * Which events arrived while pods were in flight, as kube-scheduler's in-flight events: an attempt that finds no
 * node goes to backoff rather than unschedulable if an event since it was handed out would have moved it, had it
 * been waiting (kube's {@code determineSchedulingHintForInFlightPod}): each event is kept with the test the queue
 * applied to the waiting pods ({@link #missedBy}).
 *
 * <p>The last {@value #KEPT} events are kept (an attempt lasts milliseconds; a pod group's trial longer); for an
 * attempt older than the oldest kept, an event dropped since counts as one that may help it, as before events were
 * kept: any cluster change unless its hint is {@link QueueingHint#POD_UPDATE_ONLY}, any event about bound pods if
 * its hint waits for them.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own.
 */
final class MoveRequests {

  /** How many events are kept; bounds the memory, not the precision of ordinary attempts. */
  static final int KEPT = 256;

  /** One event: the cycle current when it came, and whom it moved. */
  private record Event(long cycle, boolean onlyWaitingForPods, boolean clusterChange,
      BiPredicate<QueuedPod, QueueingHint> helps) {}

  private final ArrayDeque<Event> events = new ArrayDeque<>();
  /** The cycle of the newest event dropped, of each kind; -1 when none was. */
  private long droppedClusterChange = -1;
  private long droppedPodEvent = -1;

  /**
   * Records an event during {@code cycle}.
   *
   * @param onlyWaitingForPods whether it moves only pods whose hint waits for bound pods
   * @param clusterChange whether it is a cluster change (else an event about bound pods)
   * @param helps whom it moves, as for the waiting pods; cheap and pure
   */
  void event(long cycle, boolean onlyWaitingForPods, boolean clusterChange, BiPredicate<QueuedPod, QueueingHint> helps) {
    if (events.size() == KEPT) {
      var dropped = events.removeFirst();
      if (dropped.clusterChange) {
        droppedClusterChange = dropped.cycle;
      } else {
        droppedPodEvent = dropped.cycle;
      }
    }
    events.addLast(new Event(cycle, onlyWaitingForPods, clusterChange, helps));
  }

  /**
   * @param entry an in-flight entry, with the hint its attempt returned it with
   * @param cycleAtTake the scheduling cycle at which it was handed out
   * @return whether something that may help it happened since it was handed out: an update of the pod, or an
   *     event that would have moved it from the unschedulable pods
   */
  boolean missedBy(QueueEntry entry, long cycleAtTake) {
    if (entry.updatedInFlight
        || (droppedClusterChange >= cycleAtTake && entry.hint.movedByClusterChange())
        || (droppedPodEvent >= cycleAtTake && entry.hint.waitsForAssignedPods())) {
      return true;
    }
    var newestFirst = events.descendingIterator();
    while (newestFirst.hasNext()) {
      var event = newestFirst.next();
      if (event.cycle < cycleAtTake) {
        return false;
      }
      if ((!event.onlyWaitingForPods || entry.hint.waitsForAssignedPods()) && event.helps.test(entry.pod, entry.hint)) {
        return true;
      }
    }
    return false;
  }
}
