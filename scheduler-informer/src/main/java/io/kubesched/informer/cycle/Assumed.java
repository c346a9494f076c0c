package io.kubesched.informer.cycle;

/**
 * An attempt whose pod the scheduling thread has assumed on the node it chose (kube-scheduler's assumed pod and
 * {@code ScheduleResult.SuggestedHost}): what the {@link BindingCycle} binds, and what it tells once bound.
 * Immutable; handed from the scheduling thread to a binding thread.
 *
 * @param attempt the attempt that chose the node
 * @param nodeName the node the pod is assumed on in the cache
 */
public record Assumed(Attempt attempt, String nodeName) {

  /** @return the pod's uid */
  public String uid() {
    return attempt.uid();
  }

  /** @return the pod's {@code namespace/name}, for the log */
  public String key() {
    return attempt.key();
  }
}
