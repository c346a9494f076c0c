package io.kubesched.policy.framework.runtime;

import io.kubesched.api.NodeInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The nodes the prepared filters that are {@link OnlyNodes} leave to one pod, kube-scheduler's merged {@code
 * PreFilterResult}: the nodes all of them name, and the status of every other node.
 *
 * @param names the nodes all of them name; empty when they name none in common ({@link #rejected} then says so)
 * @param filters the names of the filters that named nodes, sorted as kube-scheduler lists them
 * @param absent the rejection of every node not named, unschedulable and unresolvable
 */
record Narrowing(Set<String> names, List<String> filters, FilterResult.Rejected absent) {

  /** @return the narrowing of {@code podFilters}; null when none of them names nodes */
  static @Nullable Narrowing of(List<Filter> podFilters) {
    // Every decision asks; most pods have no filter naming nodes, so nothing is allocated until one does.
    Set<String> names = null;
    TreeSet<String> filters = null;
    for (var filter : podFilters) {
      if (filter instanceof OnlyNodes only) {
        if (names == null) {
          filters = new TreeSet<>();
          names = new HashSet<>(only.nodeNames());
        } else {
          names.retainAll(only.nodeNames());
        }
        filters.add(filter.name());
        if (names.isEmpty()) {
          break; // as kube-scheduler, which stops at the first PreFilter that leaves no node
        }
      }
    }
    if (names == null || filters == null) {
      return null;
    }
    var sorted = List.copyOf(filters);
    var absent = FilterResult.unresolvable(new Reason.Other("node(s) didn't satisfy plugin(s) " + goList(sorted)));
    return new Narrowing(Set.copyOf(names), sorted, absent);
  }

  /**
   * @return the pod turned away before any node is looked at, when the filters name no node in common; null
   *     otherwise
   */
  PreFilter.@Nullable PodRejected rejected() {
    if (!names.isEmpty()) {
      return null;
    }
    var message =
        filters.size() == 1
            ? "node(s) didn't satisfy plugin " + filters.get(0)
            : "node(s) didn't satisfy plugin(s) " + goList(filters) + " simultaneously";
    return (PreFilter.PodRejected) PreFilter.rejectPod(filters.get(0), FilterResult.unresolvable(new Reason.Other(message)));
  }

  /** @return the named nodes among {@code nodes}, in their order: one pass, no index built */
  List<NodeInfo> among(List<NodeInfo> nodes) {
    var found = new ArrayList<NodeInfo>(names.size());
    if (names.size() == 1) {
      var only = names.iterator().next();
      for (var node : nodes) {
        if (node.name().equals(only)) {
          found.add(node);
          break;
        }
      }
      return found;
    }
    for (var node : nodes) {
      if (names.contains(node.name())) {
        found.add(node);
        if (found.size() == names.size()) {
          break;
        }
      }
    }
    return found;
  }

  /** Gives every node of {@code nodes} not named its status: a reason in {@code reasons}, and unresolvable. */
  void addAbsent(List<NodeInfo> nodes, Map<String, List<String>> reasons, Set<String> unresolvable) {
    var message = List.of(absent.reasons().get(0).message());
    for (var node : nodes) {
      if (!names.contains(node.name())) {
        reasons.put(node.name(), message);
        unresolvable.add(node.name());
      }
    }
  }

  /** Tells {@code recorder} each node of {@code nodes} not named, as rejected by the first filter that named nodes. */
  void recordAbsent(List<NodeInfo> nodes, Filtering.Listener recorder) {
    for (var node : nodes) {
      if (!names.contains(node.name())) {
        recorder.filtered(node.name(), filters.get(0), absent);
      }
    }
  }

  /** Go's {@code %v} of a list of strings: {@code [A B]}. */
  private static String goList(List<String> names) {
    return "[" + String.join(" ", names) + "]";
  }
}
