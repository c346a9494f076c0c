package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What the {@link SchedulerCache} knows under one node name, as kube-scheduler's per-node cache entry: the
 * node as the node watch shows it (if it is put), the pods counted on it, and the last {@link NodeInfo} built
 * from the two. {@link #current()} rebuilds that {@link NodeInfo} only as far as something changed since:
 * not at all while nothing did, without touching the pods where only the node object changed, and in time
 * proportional to the pods otherwise. Usage is summed afresh from the pods, never subtracted.
 *
 * <p>Not thread-safe: guarded by the cache's lock, like the {@link NodeList} that owns it.
 */
final class NodeState {

  /** The node as put, without pods; null while the node is not put (its pods wait for it). */
  private @Nullable NodeInfo node;

  /** The pods counted on the node, by uid, in the order they came. */
  private final LinkedHashMap<String, PodInfo> pods = new LinkedHashMap<>();

  /** The last {@link NodeInfo} built; null if none was built yet. */
  private @Nullable NodeInfo built;

  private boolean nodeChanged = true;
  private boolean podsChanged = true;

  /** Its index in the last node list; kept by {@link NodeList}, valid while no node was added or removed. */
  int position = -1;

  /** Whether {@link NodeList} has it among the nodes to rebuild at the next node list. */
  boolean queued;

  /** @return whether the node is put (else only its pods are known) */
  boolean isPut() {
    return node != null;
  }

  /** @return whether nothing is known under this name any more: neither the node nor a pod */
  boolean isUnused() {
    return node == null && pods.isEmpty();
  }

  /**
   * Sets the node object. Where its images equal the previous node's (or, for a node put again, those last
   * built), the previous list is kept, so that caches keyed on the list's identity stay valid.
   *
   * @param next the node without pods
   * @return whether anything changed: false if {@code next} equals the node already put
   */
  boolean setNode(NodeInfo next) {
    var previous = node;
    if (next.equals(previous)) {
      return false;
    }
    var lastBuilt = built;
    var previousImages =
        previous != null ? previous.images() : lastBuilt != null ? lastBuilt.images() : null;
    if (previousImages != null
        && previousImages != next.images()
        && previousImages.equals(next.images())) {
      // Same images in a new list: keep the old list so identity-keyed image counts stay valid.
      next =
          new NodeInfo(
              next.name(),
              next.labels(),
              next.taints(),
              next.unschedulable(),
              next.allocatable(),
              next.requested(),
              next.nonZeroRequested(),
              previousImages,
              next.pods());
    }
    node = next;
    nodeChanged = true;
    return true;
  }

  /** Marks the node not put; its pods stay and count again once a node of this name is put. */
  void clearNode() {
    node = null;
  }

  /** Counts {@code pod} here, replacing a pod of the same uid in place (keeping its position). */
  void putPod(PodInfo pod) {
    pods.put(pod.uid(), pod);
    podsChanged = true;
  }

  /**
   * Stops counting {@code pod} here.
   *
   * @return whether it was counted here (if not, nothing changed)
   */
  boolean removePod(PodInfo pod) {
    if (pods.remove(pod.uid()) == null) {
      return false;
    }
    podsChanged = true;
    return true;
  }

  /**
   * @return the node with its pods and their summed usage: the very same {@link NodeInfo} as last time if
   *     neither the node nor its pods changed since
   * @throws IllegalStateException if the node is not put
   */
  NodeInfo current() {
    var n = node;
    if (n == null) {
      throw new IllegalStateException("a node that is not put has no NodeInfo");
    }
    var last = built;
    if (last != null && !nodeChanged && !podsChanged) {
      return last;
    }
    NodeInfo fresh;
    if (last != null && !podsChanged) {
      // Only the node object changed: its pods and their sums stay as they were.
      fresh =
          new NodeInfo(
              n.name(),
              n.labels(),
              n.taints(),
              n.unschedulable(),
              n.allocatable(),
              last.requested(),
              last.nonZeroRequested(),
              n.images(),
              last.pods());
    } else {
      fresh =
          NodeInfo.builder(n.name())
              .labels(n.labels())
              .taints(n.taints())
              .unschedulable(n.unschedulable())
              .allocatable(n.allocatable())
              .images(n.images())
              .pods(new ArrayList<>(pods.values()))
              .build();
    }
    built = fresh;
    nodeChanged = false;
    podsChanged = false;
    return fresh;
  }
}
