package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The pending pods that preemption has nominated to nodes: room is being made for each on its node while its
 * victims terminate (kube-scheduler's nominator). A decision for another pod counts the nominated pods of
 * equal or higher priority as if they were already on their nodes, so that a lower-priority pod does not take
 * the room.
 *
 * <p>Immutable; {@link #with} and {@link #without} return new instances, so a scheduler can hand the current
 * one to each decision without copying.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Nominations {

  /** No pod nominated anywhere. */
  public static final Nominations NONE = new Nominations(Map.of(), Map.of());

  private final Map<String, List<PodInfo>> byNode;
  private final Map<String, String> nodeByUid;

  private Nominations(Map<String, List<PodInfo>> byNode, Map<String, String> nodeByUid) {
    this.byNode = byNode;
    this.nodeByUid = nodeByUid;
  }

  /**
   * @param pods each nominated pod, with its node in {@link PodInfo#nominatedNodeName()}; pods without one are
   *     left out
   * @return those nominations, in the order given
   */
  public static Nominations of(List<PodInfo> pods) {
    var result = NONE;
    for (var pod : pods) {
      if (!pod.nominatedNodeName().isEmpty()) {
        result = result.with(pod, pod.nominatedNodeName());
      }
    }
    return result;
  }

  /** @return the pods nominated to {@code nodeName}, in the order they were nominated */
  public List<PodInfo> on(String nodeName) {
    return byNode.getOrDefault(nodeName, List.of());
  }

  /** @return the node {@code uid}'s pod is nominated to, or empty if none */
  public String nodeOf(String uid) {
    return nodeByUid.getOrDefault(uid, "");
  }

  /** @return whether no pod is nominated */
  public boolean isEmpty() {
    return nodeByUid.isEmpty();
  }

  /** @return how many pods are nominated */
  public int size() {
    return nodeByUid.size();
  }

  /**
   * @return these nominations with {@code pod} nominated to {@code nodeName} (and nowhere else: a nomination
   *     elsewhere, or an older version of the pod, is replaced); {@code nodeName} empty removes it
   */
  public Nominations with(PodInfo pod, String nodeName) {
    var base = without(pod.uid());
    if (nodeName.isEmpty()) {
      return base;
    }
    var nodes = new HashMap<>(base.byNode);
    var list = new ArrayList<>(nodes.getOrDefault(nodeName, List.of()));
    list.add(pod);
    nodes.put(nodeName, List.copyOf(list));
    var uids = new HashMap<>(base.nodeByUid);
    uids.put(pod.uid(), nodeName);
    return new Nominations(Map.copyOf(nodes), Map.copyOf(uids));
  }

  /** @return these nominations without the pod of {@code uid}; this instance if it is not nominated */
  public Nominations without(String uid) {
    var node = nodeByUid.get(uid);
    if (node == null) {
      return this;
    }
    var nodes = new HashMap<>(byNode);
    var rest = nodes.get(node).stream().filter(p -> !p.uid().equals(uid)).toList();
    if (rest.isEmpty()) {
      nodes.remove(node);
    } else {
      nodes.put(node, rest);
    }
    var uids = new HashMap<>(nodeByUid);
    uids.remove(uid);
    return new Nominations(Map.copyOf(nodes), Map.copyOf(uids));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Nominations other && byNode.equals(other.byNode);
  }

  @Override
  public int hashCode() {
    return byNode.hashCode();
  }

  @Override
  public String toString() {
    return "Nominations" + byNode;
  }
}
