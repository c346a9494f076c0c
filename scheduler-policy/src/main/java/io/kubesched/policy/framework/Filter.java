package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Decides whether a pod may run on a node, as a kube-scheduler filter plugin does.
 *
 * <p>A filter is a pure function of its arguments: no I/O, no blocking, no mutable state. The {@link
 * io.kubesched.policy.Policy} calls it once per pod and node, in the order the filters were configured, and stops at
 * the first filter that does not {@link FilterResult#fits() fit}. A policy {@linkplain
 * io.kubesched.policy.Policy#withParallelism sharing its node loop out} calls one filter (as it is, or as its {@link
 * PreFilter#prepare} returned it) concurrently for different nodes of one pod, so it must be safe for that: reading
 * only its arguments and state computed before the node loop is.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface Filter {

  /** @return the filter's name, as explanations and Policy files show it */
  String name();

  /**
   * @param pod the pod to place
   * @param node a node, with the pods already placed on it (bound or assumed)
   * @return {@link FilterResult#fit()}, a rejection with its reasons, or an error if the filter cannot
   *     decide (never an error for an expected rejection)
   */
  FilterResult filter(PodInfo pod, NodeInfo node);

  /**
   * @return the parts of the cluster beyond nodes and pods this plugin reads from the {@link
   *     io.kubesched.api.ClusterSnapshot} (see {@link io.kubesched.api.FinderFunc#reads()}); none by default
   */
  default Set<ClusterData> reads() {
    return Set.of();
  }

  /**
   * The node and bound-pod changes that may let a pod this filter rejected fit (kube-scheduler's {@code
   * EventsToRegister}): the queue retries such a pod on another change only if another filter that rejected it
   * registers that one. A filter must register every change to what it reads of a node or its pods; a change it
   * does not register is taken never to turn one of its rejections into a fit.
   *
   * @return the changes; {@link ClusterChange#ALL} by default, so a filter of one's own is retried on every change
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default Set<ClusterChange> retriedOn() {
    return ClusterChange.ALL;
  }

  /**
   * Whether a change this filter {@linkplain #retriedOn() registers} may let a pod it rejected fit now
   * (kube-scheduler's queueing hint function: {@code Queue} or {@code QueueSkip}). The scheduling queue asks it
   * only about a change of a kind this filter registers, and moves the pod if one of the filters that rejected it
   * says so. Kube's built-in plugins answer as kube 1.37's do (NodeResourcesFit says no to a node whose allocatable
   * cannot hold the pod, NodeAffinity to a node relabelled that matched before or matches not now), or say yes
   * where kube's hint would leave a pod waiting that the change lets fit (docs/policy.md lists where).
   *
   * <p>Called on an informer thread under the queue's lock, on this filter as configured (never on one {@link
   * PreFilter#prepare} returned): it must be quick, pure and must not block. One that throws is taken to say yes.
   *
   * @param pod the waiting pod, which this filter rejected on some node or before any
   * @param update the change, of a kind this filter registers
   * @return false only if the change cannot turn one of this filter's rejections of {@code pod} into a fit; true by
   *     default, so a filter of one's own is retried on every change it registers
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    return true;
  }
}
