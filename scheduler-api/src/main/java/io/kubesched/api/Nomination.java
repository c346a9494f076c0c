package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What an unschedulable decision does to the pod's nomination ({@code status.nominatedNodeName}): keep it,
 * clear it, or nominate the pod to a node where room is being made by preempting victims.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Nomination {

  /** Leave the pod's nomination as it is (kube-scheduler: the pod was not eligible to preempt). */
  Nomination KEEP = new Keep();

  /** Remove the pod's nomination, if it has one (kube-scheduler: no preemption, or it found no node). */
  Nomination CLEAR = new Clear();

  /** Leave the pod's nomination as it is. */
  record Keep() implements Nomination {}

  /** Remove the pod's nomination. */
  record Clear() implements Nomination {}

  /**
   * Nominate the pod to {@code nodeName} and preempt {@code victims} there.
   *
   * @param nodeName the node where room is made
   * @param victims the pods to evict from it, most important first; never empty, each of lower priority than
   *     the pod
   */
  record To(String nodeName, List<PodInfo> victims) implements Nomination {

    /** @throws IllegalArgumentException if {@code nodeName} is blank or there is no victim */
    public To {
      if (nodeName.isBlank()) {
        throw new IllegalArgumentException("nodeName must not be blank");
      }
      if (victims.isEmpty()) {
        throw new IllegalArgumentException("a nomination to " + nodeName + " needs at least one victim");
      }
      victims = List.copyOf(victims);
    }
  }
}
