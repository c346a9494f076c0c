package io.kubesched.policy.plugins.nodelabel;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.List;
import java.util.Set;

/**
 * The former kube-scheduler predicate {@code CheckNodeLabelPresence}, configured in a scheduler Policy by the
 * argument {@code labelsPresence: {labels, presence}}, and later the {@code NodeLabel} filter plugin
 * (removed in Kubernetes 1.23): with {@code presence} true the node must carry every one of the labels, with
 * {@code presence} false none of them. Only label keys count, never values.
 *
 * <p>A rejection has kube-scheduler's reason "node(s) didn't have the requested labels" ({@link
 * Reason.LabelPresenceViolated}) and code {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}, as the
 * {@code NodeLabel} plugin and the old preemption's list of unresolvable predicate failures had it. Immutable
 * and thread-safe.
 */
public final class NodeLabelPresenceFilter implements Filter {

  /** The name of the kube-scheduler plugin that carried this predicate, {@value}. */
  public static final String NAME = "NodeLabel";

  private final List<String> labels;
  private final boolean presence;

  /**
   * @param labels the label keys to check, at least one, none empty
   * @param presence true if the node must carry all of them, false if it must carry none
   * @throws IllegalArgumentException if {@code labels} is empty or holds an empty key
   */
  public NodeLabelPresenceFilter(List<String> labels, boolean presence) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("labelsPresence.labels must not be empty");
    }
    for (int i = 0; i < labels.size(); i++) {
      if (labels.get(i).isEmpty()) {
        throw new IllegalArgumentException(
            "labelsPresence.labels[" + i + "] must not be empty, was " + labels);
      }
    }
    this.labels = List.copyOf(labels);
    this.presence = presence;
  }

  /** @return the label keys checked */
  public List<String> labels() {
    return labels;
  }

  /** @return true if every label must be present, false if none may be */
  public boolean presence() {
    return presence;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: it reads a node's labels only. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS);
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    for (var label : labels) {
      if (node.labels().containsKey(label) != presence) {
        return FilterResult.unresolvable(new Reason.LabelPresenceViolated());
      }
    }
    return FilterResult.fit();
  }

  @Override
  public String toString() {
    return NAME + "{labels=" + labels + ", presence=" + presence + "}";
  }
}
