package io.kubesched.binder;

/**
 * How {@link Preempter#preempt} ended for one victim. Every expected case is a value here; none an exception.
 * {@link #DELETED} and {@link #GONE} are the only values of their records.
 */
public sealed interface VictimOutcome {

  /** The victim was deleted now: its graceful termination has begun. */
  VictimOutcome DELETED = new Deleted();

  /**
   * There was nothing to delete: the victim is gone, was created again under its name (another uid), or was
   * already being deleted. The room is being made all the same, and the victim gets no {@code Preempted}
   * event (kube-scheduler sends none when the victim is gone).
   */
  VictimOutcome GONE = new Gone();

  /**
   * @param message what went wrong, naming the pod and the server's answer
   * @return the outcome of a write that failed
   */
  static Failed failed(String message) {
    return new Failed(message);
  }

  /** See {@link #DELETED}. */
  record Deleted() implements VictimOutcome {}

  /** See {@link #GONE}. */
  record Gone() implements VictimOutcome {}

  /**
   * A write was refused or got no answer; the victim may still run. The preemption failed: kube-scheduler
   * then sends the preemptor back to the active queue at once.
   *
   * @param message what went wrong, naming the pod and the server's answer ("deleting pod ns/name failed:
   *     500: ...")
   */
  record Failed(String message) implements VictimOutcome {}
}
