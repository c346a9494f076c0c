package io.kubesched.api;

import java.util.List;
import java.util.Map;

/**
 * A placement policy: given a pod and the nodes, the node to bind it to, or why none fits.
 *
 * <p>The controller calls it from its single scheduling thread, one pod at a time, with a consistent
 * snapshot in which every earlier decision is already counted. It should be a pure function of its
 * arguments: no I/O, no blocking, no state shared with other threads. If it throws, the pod is reported as
 * failed and retried later with backoff; the controller goes on with other pods.
 */
@FunctionalInterface
public interface FinderFunc {

  /**
   * @param pod the pod to place, never yet bound
   * @param nodes every node the scheduler knows of, each with the pods already placed on it; may be empty
   * @return {@link Decision#bind(String) bind} to one of {@code nodes}, or {@link
   *     Decision#unschedulable(Map) unschedulable} with the reasons
   */
  Decision find(PodInfo pod, List<NodeInfo> nodes);
}
