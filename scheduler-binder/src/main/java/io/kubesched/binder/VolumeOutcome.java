package io.kubesched.binder;

/** How one volume write of {@link VolumeWriter} ended. Every expected case is a value here; none an exception. */
public sealed interface VolumeOutcome {

  /** The object shows what was asked for: written now, or already (an earlier write whose answer was lost). */
  record Written() implements VolumeOutcome {}

  /**
   * The write did not take, and will not by being repeated as it is: the object is gone, taken by another
   * claim, was changed meanwhile (an optimistic concurrency conflict), or the server refused or did not answer.
   * The pod's volume binding has failed and the pod is to be tried again.
   *
   * @param detail what the server said, in kube-scheduler's words where it has any (an API error's message)
   */
  record Failed(String detail) implements VolumeOutcome {}
}
