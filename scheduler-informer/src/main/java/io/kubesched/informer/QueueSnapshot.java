package io.kubesched.informer;

import java.util.List;

/**
 * Which pods a {@link SchedulingQueue} holds where, at one instant, for tests and debugging. Immutable.
 *
 * @param active the pods ready to be taken, in the order {@link SchedulingQueue#take()} hands them out
 * @param backoff the pods waiting out their backoff, the soonest to end first
 * @param unschedulable the pods waiting for a cluster event, the longest waiting first
 * @param inFlight the pods taken and not yet requeued or done, in no particular order
 */
record QueueSnapshot(
    List<QueuedPod> active, List<QueuedPod> backoff, List<QueuedPod> unschedulable, List<QueuedPod> inFlight) {

  QueueSnapshot {
    active = List.copyOf(active);
    backoff = List.copyOf(backoff);
    unschedulable = List.copyOf(unschedulable);
    inFlight = List.copyOf(inFlight);
  }
}
