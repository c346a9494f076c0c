package io.kubesched.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a placement policy knows of a node, including the pods already placed on it (bound, or chosen by
 * this scheduler and being bound).
 *
 * @param name the node's name
 * @param labels the node's labels
 * @param taints the node's taints
 * @param unschedulable whether the node is cordoned ({@code spec.unschedulable})
 * @param allocatable what the node offers to pods ({@code status.allocatable})
 * @param requested the sum of the requests of {@code pods}
 * @param pods the pods placed on the node
 */
public record NodeInfo(
    String name,
    Map<String, String> labels,
    List<Taint> taints,
    boolean unschedulable,
    Resources allocatable,
    Resources requested,
    List<PodInfo> pods) {

  public NodeInfo {
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    pods = List.copyOf(pods);
  }

  /**
   * @return a node whose {@code requested} is the sum of the requests of {@code pods}
   */
  public static NodeInfo of(
      String name,
      Map<String, String> labels,
      List<Taint> taints,
      boolean unschedulable,
      Resources allocatable,
      List<PodInfo> pods) {
    var requested = Resources.ZERO;
    for (var pod : pods) {
      requested = requested.plus(pod.requests());
    }
    return new NodeInfo(name, labels, taints, unschedulable, allocatable, requested, pods);
  }

  /** @return this node with {@code pod} placed on it as well */
  public NodeInfo withPod(PodInfo pod) {
    var morePods = new ArrayList<>(pods);
    morePods.add(pod);
    return new NodeInfo(
        name, labels, taints, unschedulable, allocatable, requested.plus(pod.requests()), morePods);
  }

  /** @return the host ports the node's pods bind */
  public List<HostPort> usedHostPorts() {
    return pods.stream().flatMap(pod -> pod.hostPorts().stream()).toList();
  }
}
