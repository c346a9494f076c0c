package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Whether a change of the cluster may let a pod no node fitted fit now: what a {@link Decision.Unschedulable}
 * tells the scheduling queue beyond the kinds of change it is {@linkplain Decision.Unschedulable#retriedOn()
 * retried on} (kube-scheduler's queueing hint functions of the plugins that rejected the pod, each answering
 * {@code Queue} or {@code QueueSkip}).
 *
 * <p>The queue calls it on an informer thread, under its lock, once per waiting pod and node or bound-pod change
 * of a kind the pod is retried on: it must be quick, must not block and must not call back into the scheduler. A
 * hint that throws is taken to say {@code true}. Implementations are immutable and safe to call from any thread.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@FunctionalInterface
public interface RetryHint {

  /** The hint of a decision that says nothing finer: every change of a kind the pod is retried on moves it. */
  RetryHint ALWAYS = update -> true;

  /**
   * @param update a node or bound-pod change of a kind the pod is retried on
   * @return false only if the change cannot let the pod fit anywhere it did not fit before
   */
  boolean mayHelp(ClusterUpdate update);
}
