package io.kubesched.e2e;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.facade.FakeClusterFixture;
import java.util.Comparator;

/**
 * Placement policies for the end-to-end tests whose choice among the fitting nodes is known in advance, so
 * that a test can say where each pod must land. Fit is the fixture's: not cordoned, and room for the pod's
 * CPU, memory and pod slot; when nothing fits, the fixture's first-fit policy gives the reasons.
 */
final class Policies {

  private Policies() {}

  /** The fitting node that comes first by name. */
  static FinderFunc firstByName() {
    return pick(Comparator.comparing(NodeInfo::name));
  }

  /** The fitting node that comes last by name. */
  static FinderFunc lastByName() {
    return pick(Comparator.comparing(NodeInfo::name).reversed());
  }

  /**
   * The fitting node with the least CPU requested, the first by name among equals. With pods of one size,
   * a scheduler whose every decision counts all earlier ones fills the nodes evenly.
   */
  static FinderFunc leastCpuRequested() {
    return pick(
        Comparator.comparingLong((NodeInfo node) -> node.requested().milliCpu()).thenComparing(NodeInfo::name));
  }

  private static FinderFunc pick(Comparator<NodeInfo> preference) {
    var reasons = FakeClusterFixture.firstFit();
    return (pod, nodes) ->
        nodes.stream()
            .filter(node -> fits(pod, node))
            .min(preference)
            .<Decision>map(node -> Decision.bind(node.name()))
            .orElseGet(() -> reasons.find(pod, nodes));
  }

  private static boolean fits(PodInfo pod, NodeInfo node) {
    var after = node.requested().plus(pod.requests());
    var room = node.allocatable();
    return !node.unschedulable()
        && after.milliCpu() <= room.milliCpu()
        && after.memory() <= room.memory()
        && after.pods() <= room.pods();
  }
}
