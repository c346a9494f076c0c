package io.kubesched.engine;

/**
 * The pods with scheduling gates (kube-scheduler's {@code SchedulingGates} PreEnqueue plugin, whose pods
 * its {@code unschedulablePods} map keeps apart as gated), in the order they were queued. Nothing here is
 * handed out, and neither an event nor a timeout moves it: only an update of the pod that removes its last
 * gate, which the {@link SchedulingQueue} handles.
 *
 * <p>Guarded by the queue's lock; not thread-safe on its own.
 */
final class GatedPods extends SubQueue {

  GatedPods() {
    super(QueueEntry.Place.GATED, ARRIVAL_ORDER);
  }
}
