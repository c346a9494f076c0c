package io.kubesched.policy.plugins;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Filter;
import io.kubesched.policy.PodTracking;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What preemption does to a tracker, for the {@code *TrackerProperties}: on one node it removes the potential
 * victims, then adds back those it spares. {@link #before()} is the cluster the filter is prepared on (the chosen
 * node's pods given distinct uids), {@link #after()} the cluster without the pods removed and not added back.
 *
 * @param before the cluster before
 * @param node the chosen node, as {@code before} holds it
 * @param removed the pods of {@code node} removed, in node order
 * @param readded the pods of {@code removed} added back, in order
 * @param after the cluster after
 */
record TrackerScenario(
    ClusterSnapshot before, NodeInfo node, List<PodInfo> removed, List<PodInfo> readded, ClusterSnapshot after) {

  /**
   * @param cluster the cluster
   * @param nodeChoice picks the node (modulo the number of nodes; the next with pods if it has none)
   * @param removeMask per pod of the node, whether it is removed (missing entries: no)
   * @param readdMask per removed pod, whether it is added back (missing entries: no)
   * @param removable the pods that may be removed
   */
  static TrackerScenario of(
      ClusterSnapshot cluster,
      int nodeChoice,
      List<Boolean> removeMask,
      List<Boolean> readdMask,
      Predicate<PodInfo> removable) {
    var nodes = new ArrayList<>(cluster.nodes());
    int index = nodeChoice % nodes.size();
    // Preemption looks at nodes with pods: prefer the next one that has some.
    for (int i = 0; i < nodes.size() && nodes.get(index).pods().isEmpty(); i++) {
      index = (index + 1) % nodes.size();
    }
    var original = nodes.get(index);
    var pods = new ArrayList<PodInfo>();
    for (int i = 0; i < original.pods().size(); i++) {
      pods.add(original.pods().get(i).toBuilder().uid(original.name() + "#" + i).build());
    }
    var node = NodeInfo.builder(original.name())
        .labels(original.labels())
        .taints(original.taints())
        .unschedulable(original.unschedulable())
        .allocatable(original.allocatable())
        .pods(pods)
        .build();
    nodes.set(index, node);
    var before = cluster.withNodes(List.copyOf(nodes));

    var removed = new ArrayList<PodInfo>();
    for (int i = 0; i < pods.size(); i++) {
      if (i < removeMask.size() && removeMask.get(i) && removable.test(pods.get(i))) {
        removed.add(pods.get(i));
      }
    }
    var readded = new ArrayList<PodInfo>();
    for (int i = 0; i < removed.size(); i++) {
      if (i < readdMask.size() && readdMask.get(i)) {
        readded.add(removed.get(i));
      }
    }
    var changed = node;
    for (var pod : removed) {
      if (!readded.contains(pod)) {
        changed = changed.withoutPod(pod.uid());
      }
    }
    nodes.set(index, changed);
    return new TrackerScenario(before, node, List.copyOf(removed), List.copyOf(readded),
        cluster.withNodes(List.copyOf(nodes)));
  }

  /** @return the pods removed and not added back */
  List<PodInfo> gone() {
    return removed.stream().filter(pod -> !readded.contains(pod)).toList();
  }

  /** @return a tracker of {@code prepared} told what preemption does: the removals, then the additions */
  PodTracking.Tracker replay(Filter prepared) {
    var tracker = ((PodTracking) prepared).track();
    removed.forEach(pod -> tracker.removePod(pod, node));
    readded.forEach(pod -> tracker.addPod(pod, node));
    return tracker;
  }

  /** @return a tracker of {@code prepared} (for {@link #after()}) told of the pods gone being added back */
  PodTracking.Tracker replayBackwards(Filter prepared) {
    var tracker = ((PodTracking) prepared).track();
    gone().forEach(pod -> tracker.addPod(pod, node));
    return tracker;
  }
}
