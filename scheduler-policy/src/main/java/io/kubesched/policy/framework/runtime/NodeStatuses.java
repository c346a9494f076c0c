package io.kubesched.policy.framework.runtime;

import io.kubesched.api.NodeInfo;
import io.kubesched.policy.framework.FilterResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the filters said of each node in one attempt, kube-scheduler's {@code NodeToStatus}: the rejection of
 * each node named, and one status for every node not named. Preemption reads the codes: only nodes rejected as
 * {@link FilterResult.Code#UNSCHEDULABLE} are worth evicting pods from. Immutable.
 *
 * @param byNode each rejected node's rejection, by node name
 * @param absent the rejection of every node not in {@code byNode} (a PreFilter rejection gives every node its
 *     status); {@code null} for kube's default, {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}
 */
public record NodeStatuses(Map<String, FilterResult.Rejected> byNode, FilterResult.@Nullable Rejected absent) {

  /**
   * Copies {@code byNode} into a hash map: it holds every rejected node of a large cluster, and {@code
   * Map.copyOf}'s open addressing degrades to long probe runs, on copying and on every look-up, for names with
   * a numbered suffix ({@code node-00000}, {@code node-00001}, …).
   */
  public NodeStatuses {
    byNode = Collections.unmodifiableMap(new HashMap<>(byNode));
  }

  /** @return statuses naming {@code byNode}; every other node is unresolvable */
  public static NodeStatuses of(Map<String, FilterResult.Rejected> byNode) {
    return new NodeStatuses(byNode, null);
  }

  /** @return statuses giving every node {@code rejection} (a PreFilter rejection) */
  public static NodeStatuses everyNode(FilterResult.Rejected rejection) {
    return new NodeStatuses(Map.of(), rejection);
  }

  /** @return the code of {@code node}'s status */
  public FilterResult.Code code(String node) {
    var rejected = byNode.get(node);
    if (rejected != null) {
      return rejected.code();
    }
    return absent == null ? FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE : absent.code();
  }

  /** @return the nodes of {@code nodes} whose status has {@code code}, in their order */
  public List<NodeInfo> nodesWith(FilterResult.Code code, List<NodeInfo> nodes) {
    var result = new ArrayList<NodeInfo>();
    for (var node : nodes) {
      if (code(node.name()) == code) {
        result.add(node);
      }
    }
    return result;
  }
}
