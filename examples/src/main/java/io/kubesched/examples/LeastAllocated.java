package io.kubesched.examples;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A placement policy in a few lines: among the nodes the pod fits on, the one with the most CPU and memory
 * left after placing it (kube-scheduler's "least allocated" score), ties broken by name.
 */
public final class LeastAllocated implements FinderFunc {

  @Override
  public Decision find(PodInfo pod, List<NodeInfo> nodes) {
    NodeInfo best = null;
    double bestScore = -1;
    Map<String, List<String>> reasons = new HashMap<>();
    for (var node : nodes) {
      var misfits = misfits(pod.requests(), node);
      if (!misfits.isEmpty()) {
        reasons.put(node.name(), misfits);
        continue;
      }
      var after = node.requested().plus(pod.requests());
      var score =
          (free(after.milliCpu(), node.allocatable().milliCpu())
                  + free(after.memory(), node.allocatable().memory()))
              / 2;
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best == null ? Decision.unschedulable(reasons) : Decision.bind(best.name());
  }

  /** The reasons {@code request} does not fit on {@code node}, in kube-scheduler's words. */
  static List<String> misfits(Resources request, NodeInfo node) {
    var reasons = new ArrayList<String>();
    if (node.unschedulable()) {
      reasons.add("node(s) were unschedulable");
      return reasons;
    }
    var after = node.requested().plus(request); // saturates instead of overflowing
    var capacity = node.allocatable();
    if (after.pods() > capacity.pods()) {
      reasons.add("Too many pods");
    }
    if (request.milliCpu() > 0 && after.milliCpu() > capacity.milliCpu()) {
      reasons.add("Insufficient cpu");
    }
    if (request.memory() > 0 && after.memory() > capacity.memory()) {
      reasons.add("Insufficient memory");
    }
    if (request.ephemeralStorage() > 0 && after.ephemeralStorage() > capacity.ephemeralStorage()) {
      reasons.add("Insufficient ephemeral-storage");
    }
    return reasons;
  }

  private static double free(long used, long capacity) {
    return capacity == 0 ? 0 : (double) (capacity - used) / capacity;
  }
}
