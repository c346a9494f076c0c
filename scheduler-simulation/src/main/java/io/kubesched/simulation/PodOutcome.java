package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.PodInfo;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a simulation did with one pod: placed it on a node, left it pending (and why, in kube-scheduler's words),
 * or placed it and then evicted it for a pod of higher priority. Immutable.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface PodOutcome {

  /** @return the pod as the simulation was given it (with no node) */
  PodInfo pod();

  /**
   * Placed on a node.
   *
   * @param nodeName the node
   * @param preempted the pods evicted to make room for it (none without preemption)
   */
  record Placed(PodInfo pod, String nodeName, List<PodInfo> preempted) implements PodOutcome {
    public Placed {
      preempted = List.copyOf(preempted);
    }
  }

  /**
   * Not placed: no node fits it, the library refuses it, it waits for its scheduling gates, or its policy failed
   * on it.
   *
   * @param message why, as kube-scheduler would report it in the pod's {@code PodScheduled} condition (for example
   *     {@code 0/3 nodes are available: 3 Insufficient cpu.}), or the policy's error
   * @param nominatedNodeName the node where preemption made room for it and that it waits for; empty if none
   */
  record Pending(PodInfo pod, String message, String nominatedNodeName) implements PodOutcome {}

  /**
   * Placed, then evicted to make room for a pod of higher priority.
   *
   * @param nodeName the node it was placed on, then evicted from
   * @param preemptor the {@code namespace/name} of the pod it made room for
   */
  record Preempted(PodInfo pod, String nodeName, String preemptor) implements PodOutcome {}
}
