package io.kubesched.engine;

/**
 * One pod's state in a {@link SchedulingQueue}: the pod as the queue keeps it, where it waits, and what
 * orders it and decides its backoff. kube-scheduler keeps the same in its {@code QueuedPodInfo}.
 *
 * <p>Guarded by the queue's lock; not thread-safe on its own. The fields a {@link SubQueue} sorts by
 * ({@link #pod}'s priority, {@link #arrival}, {@link #backoffEnds}, {@link #queuedAt}) change only while
 * the entry is in no sub-queue that sorts by them (held pods are sorted by arrival only), or the sub-queue
 * loses it.
 */
final class QueueEntry {

  /** Where an entry is: in one of the sub-queues, or handed out to the worker. */
  enum Place {
    ACTIVE,
    BACKOFF,
    UNSCHEDULABLE,
    GATED,
    /** Waiting while marked {@link #preempting}: in {@link HeldPods}, shown as unschedulable. */
    HELD,
    /** Waiting for its pod group: in {@link ParkedPods}, shown as gated. */
    PARKED,
    IN_FLIGHT
  }

  QueuedPod pod;
  Place place = Place.ACTIVE;
  /** Elapsed nanos when the pod was last queued: added while unknown, or requeued after an attempt. */
  long queuedAt;
  /** Stamped with {@link #queuedAt}: orders entries queued at the same instant as they arrived. */
  long arrival;
  /** The last instant of the backoff; the pod is backing off while now is not after it. */
  long backoffEnds;
  int unschedulableAttempts;
  int consecutiveErrors;
  /**
   * Whether the pod was updated, or activated, since it was last handed out: its attempt may have missed
   * what changed. Reset when it is handed out.
   */
  boolean updatedInFlight;
  /**
   * Whether the pod is marked as preempting (kube's DefaultPreemption PreEnqueue): victims are being
   * evicted for it, and until the mark is lifted it is never handed out. While it waits it is {@link
   * Place#HELD}.
   */
  boolean preempting;
  /**
   * Whether something would have moved the pod to active or backoff while it was {@link Place#HELD} (an
   * event, an update, a timeout, a failed attempt that missed an event): lifting the mark then does that
   * move. Reset when the mark is lifted.
   */
  boolean moveSuppressed;
  /** Which events may help the pod, as of its last attempt that found no node. */
  QueueingHint hint = QueueingHint.ANY_CHANGE;

  QueueEntry(QueuedPod pod) {
    this.pod = pod;
  }

  /**
   * @return the failures the backoff counts: the consecutive errors if the last attempt ended in one, else
   *     the attempts that found no node
   */
  int failures() {
    return consecutiveErrors > 0 ? consecutiveErrors : unschedulableAttempts;
  }
}
