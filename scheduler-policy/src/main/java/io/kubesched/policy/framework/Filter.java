package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
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
}
