package io.kubesched.engine;

import java.util.List;

/**
 * Which pods a {@link SchedulingQueue} holds where, at one instant, for tests and debugging. Immutable.
 *
 * @param active the pods ready to be taken, in the order {@link SchedulingQueue#take()} hands them out
 * @param backoff the pods waiting out their backoff, the soonest to end first
 * @param unschedulable the pods waiting for a cluster event, the longest waiting first
 * @param gated the pods with scheduling gates, never handed out while they have one, and the pods waiting
 *     for their pod group, in arrival order
 * @param inFlight the pods taken and not yet requeued or done, in no particular order
 */
public record QueueContents(
    List<QueuedPod> active,
    List<QueuedPod> backoff,
    List<QueuedPod> unschedulable,
    List<QueuedPod> gated,
    List<QueuedPod> inFlight) {

  public QueueContents {
    active = List.copyOf(active);
    backoff = List.copyOf(backoff);
    unschedulable = List.copyOf(unschedulable);
    gated = List.copyOf(gated);
    inFlight = List.copyOf(inFlight);
  }
}
