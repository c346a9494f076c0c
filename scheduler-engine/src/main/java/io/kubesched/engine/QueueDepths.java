package io.kubesched.engine;

/**
 * How many pods a {@link SchedulingQueue} holds where, at one instant: kube-scheduler's
 * {@code scheduler_pending_pods} gauge by queue, plus the pods handed out and not yet returned.
 *
 * @param active pods ready to be taken
 * @param backoff pods waiting out their backoff
 * @param unschedulable pods whose last attempt found no node, waiting for a cluster event or the timeout
 * @param gated pods with scheduling gates, waiting for an update that removes the last one, and pods waiting
 *     for their pod group
 * @param inFlight pods taken by the worker and neither requeued nor done yet
 */
public record QueueDepths(int active, int backoff, int unschedulable, int gated, int inFlight) {

  /** @throws IllegalArgumentException if a count is negative */
  public QueueDepths {
    if (active < 0 || backoff < 0 || unschedulable < 0 || gated < 0 || inFlight < 0) {
      throw new IllegalArgumentException(
          "queue depths must not be negative: active=" + active + ", backoff=" + backoff
              + ", unschedulable=" + unschedulable + ", gated=" + gated + ", inFlight=" + inFlight);
    }
  }

  /** @return the pods waiting in one of the four places, not counting those in flight */
  public int waiting() {
    return active + backoff + unschedulable + gated;
  }
}
