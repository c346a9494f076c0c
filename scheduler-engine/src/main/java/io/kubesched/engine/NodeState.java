package io.kubesched.engine;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the {@link SchedulerCache} knows under one node name, as kube-scheduler's per-node cache entry: the
 * node as the node watch shows it (if it is put), the pods counted on it, and the last {@link NodeInfo} built
 * from the two. {@link #current()} rebuilds that {@link NodeInfo} only as far as something changed since:
 * not at all while nothing did, without touching the pods where only the node object changed. Where pods
 * were only added or replaced, the usage is the last usage plus the new pods' requests less the replaced
 * ones', and the pod list a copy (one array copy); otherwise (a pod removed, or a sum that saturated, where
 * subtracting would not be exact) usage is summed afresh from the pods. So a node that holds thousands of pods
 * (a DaemonSet's node in kube's scheduler_perf, 30 000 pods) costs an array copy per pod placed on it, not a
 * sum over its pods.
 *
 * <p>Not thread-safe: guarded by the cache's lock, like the {@link NodeList} that owns it.
 */
final class NodeState {

  /** The node as put, without pods; null while the node is not put (its pods wait for it). */
  private @Nullable NodeInfo node;

  /** The pods counted on the node, in the order they came (a pod replaced keeps its place). */
  private final ArrayList<PodInfo> pods = new ArrayList<>();

  /** Each pod's index in {@link #pods}, by uid. */
  private final HashMap<String, Integer> positions = new HashMap<>();

  /** Whether {@link #current()} may add to the last usage: no pod was removed since it was built. */
  private boolean onlyAddedOrReplaced = true;

  /** The requests of the pods added since the last build, and of those that replaced another. */
  private Resources addedRequests = Resources.ZERO;

  private Resources addedNonZeroRequests = Resources.ZERO;

  /** The requests of the pods replaced since the last build. */
  private Resources replacedRequests = Resources.ZERO;

  private Resources replacedNonZeroRequests = Resources.ZERO;

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
              next.pods(),
              next.declaredFeatures());
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
    var position = positions.get(pod.uid());
    if (position == null) {
      positions.put(pod.uid(), pods.size());
      pods.add(pod);
    } else {
      var replaced = pods.set(position, pod);
      replacedRequests = replacedRequests.plus(replaced.requests());
      replacedNonZeroRequests = replacedNonZeroRequests.plus(replaced.nonZeroRequests());
    }
    addedRequests = addedRequests.plus(pod.requests());
    addedNonZeroRequests = addedNonZeroRequests.plus(pod.nonZeroRequests());
    podsChanged = true;
  }

  /**
   * Stops counting {@code pod} here.
   *
   * @return whether it was counted here (if not, nothing changed)
   */
  boolean removePod(PodInfo pod) {
    var position = positions.remove(pod.uid());
    if (position == null) {
      return false;
    }
    pods.remove((int) position);
    for (int i = position; i < pods.size(); i++) {
      positions.put(pods.get(i).uid(), i);
    }
    onlyAddedOrReplaced = false;
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
      fresh = withPods(n, last.requested(), last.nonZeroRequested(), last.pods());
    } else if (last != null && onlyAddedOrReplaced && exact(last)) {
      fresh =
          withPods(
              n,
              last.requested().plus(addedRequests).minus(replacedRequests),
              last.nonZeroRequested().plus(addedNonZeroRequests).minus(replacedNonZeroRequests),
              pods);
    } else {
      fresh =
          NodeInfo.builder(n.name())
              .labels(n.labels())
              .taints(n.taints())
              .unschedulable(n.unschedulable())
              .allocatable(n.allocatable())
              .images(n.images())
              .declaredFeatures(n.declaredFeatures())
              .pods(pods)
              .build();
    }
    built = fresh;
    nodeChanged = false;
    podsChanged = false;
    onlyAddedOrReplaced = true;
    addedRequests = Resources.ZERO;
    addedNonZeroRequests = Resources.ZERO;
    replacedRequests = Resources.ZERO;
    replacedNonZeroRequests = Resources.ZERO;
    return fresh;
  }

  /** @return {@code node} (put without pods) with {@code pods} and their usage */
  private static NodeInfo withPods(
      NodeInfo node, Resources requested, Resources nonZeroRequested, List<PodInfo> pods) {
    return new NodeInfo(
        node.name(),
        node.labels(),
        node.taints(),
        node.unschedulable(),
        node.allocatable(),
        requested,
        nonZeroRequested,
        node.images(),
        pods,
        node.declaredFeatures());
  }

  /**
   * @return whether adding the pods' requests to {@code last}'s usage and taking the replaced ones' off gives
   *     exactly the sum over the pods: no amount of it, nor of what was added, reached the saturation bound
   */
  private boolean exact(NodeInfo last) {
    return !saturated(last.requested().plus(addedRequests))
        && !saturated(last.nonZeroRequested().plus(addedNonZeroRequests));
  }

  private static boolean saturated(Resources amount) {
    return amount.milliCpu() == Long.MAX_VALUE
        || amount.memory() == Long.MAX_VALUE
        || amount.ephemeralStorage() == Long.MAX_VALUE
        || amount.pods() == Long.MAX_VALUE
        || amount.extended().containsValue(Long.MAX_VALUE);
  }
}
