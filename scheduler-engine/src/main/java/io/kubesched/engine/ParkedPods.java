package io.kubesched.engine;

/**
 * The pods waiting for their pod group (kube-scheduler's {@code incompletePodGroupPods}, and its gang
 * PreEnqueue): the group object is not known yet, or the group has fewer members than its minimum. Nothing
 * here is handed out by {@link SchedulingQueue#take()}, and neither an event nor a timeout moves it: only
 * the {@link SchedulingQueue}'s group operations, an update of the pod and its deletion. The queue shows
 * these pods as gated. In the order they were queued.
 *
 * <p>Guarded by the queue's lock; not thread-safe on its own.
 */
final class ParkedPods extends SubQueue {

  ParkedPods() {
    super(QueueEntry.Place.PARKED, ARRIVAL_ORDER);
  }
}
