package io.kubesched.api;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * Hears what the scheduler does with each pod, for progress displays, tests and metrics. Every method has
 * an empty default, so implement only what you need.
 *
 * <p>Threads: every call comes from one thread of the controller's own, {@code kubesched-listener-<name>}
 * (where {@code <name>} is the controller's first scheduler name), one call at a time, never from the
 * scheduling or binding threads, which hand the calls over and go on. Calls are delivered in the order the
 * controller made them, so the calls about one pod arrive in the order of its attempts. None is dropped,
 * however slow the listener: keep it quick all the same, as calls wait for it. An exception thrown here is
 * logged and the next call is delivered.
 *
 * <p>At close: the controller stops scheduling, waits for the bindings in flight, then delivers every call
 * they made before its {@code close()} returns (up to its shutdown timeout); no call comes after that. A
 * listener may close the controller itself.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface SchedulingListener {

  /** Ignores everything. */
  SchedulingListener NONE = new SchedulingListener() {};

  /**
   * The pod is bound to {@code nodeName}.
   *
   * @param pod the pod
   * @param nodeName the node it is bound to
   */
  default void bound(PodInfo pod, String nodeName) {}

  /**
   * The pod fits on no node now; it stays pending and is tried again when the cluster changes or its
   * backoff ends.
   *
   * @param pod the pod
   * @param message why, in kube-scheduler's shape ({@code "0/3 nodes are available: 3 Insufficient cpu."})
   */
  default void unschedulable(PodInfo pod, String message) {}

  /**
   * Scheduling the pod failed for a reason other than fit: the pod cannot be read (a malformed quantity),
   * the {@link FinderFunc} threw or named an unknown node, or the binding failed. The loop goes on.
   *
   * @param podKey the pod as {@code namespace/name}
   * @param error what went wrong; a {@link MalformedObjectException} names the field and value
   */
  default void failed(String podKey, Exception error) {}
}
