package io.kubesched.engine;

/**
 * Which events arrived while pods were in flight, as kube-scheduler's {@code moveRequestCycle}: the
 * scheduling cycle current at the last cluster change and at the last event about bound pods. An attempt
 * taken at or before such a cycle may have missed what the event changed, so a failure of it must not
 * park the pod as unschedulable.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own.
 */
final class MoveRequests {

  private long clusterChangeCycle = -1;
  /** The cycle of the last event about bound pods ({@link SchedulingQueue#moveWaitingForPods}). */
  private long podEventCycle = -1;

  /** Records a cluster change (a node added or changed, a pod removed, ...) during {@code cycle}. */
  void clusterChange(long cycle) {
    clusterChangeCycle = cycle;
  }

  /** Records an event about bound pods during {@code cycle}. */
  void podEvent(long cycle) {
    podEventCycle = cycle;
  }

  /**
   * @param entry an in-flight entry, with the hint its attempt returned it with
   * @param cycleAtTake the scheduling cycle at which it was handed out
   * @return whether something that may help it happened since it was handed out: an update of the pod, a
   *     cluster change unless its hint is {@link QueueingHint#POD_UPDATE_ONLY}, or an event about bound
   *     pods if its hint {@linkplain QueueingHint#waitsForAssignedPods() waits for them}
   */
  boolean missedBy(QueueEntry entry, long cycleAtTake) {
    return entry.updatedInFlight
        || (clusterChangeCycle >= cycleAtTake && entry.hint.movedByClusterChange())
        || (podEventCycle >= cycleAtTake && entry.hint.waitsForAssignedPods());
  }
}
