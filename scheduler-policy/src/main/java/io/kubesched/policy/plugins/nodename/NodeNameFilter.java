package io.kubesched.policy.plugins.nodename;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.Set;

/**
 * kube-scheduler's {@code NodeName} filter plugin (formerly the {@code PodFitsHost} predicate): a pod whose
 * {@code spec.nodeName} names a node fits that node only.
 *
 * <p>A pod without a node name fits every node. A pod naming another node is rejected with {@link
 * Reason.NodeNameMismatch} and code {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}: no preemption
 * changes a node's name. Stateless and thread-safe.
 */
public final class NodeNameFilter implements Filter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeName";

  /** Creates the filter; it has no arguments. */
  public NodeNameFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add without a hint, so any node added may help. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED);
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    if (pod.nodeName().isEmpty() || pod.nodeName().equals(node.name())) {
      return FilterResult.fit();
    }
    return FilterResult.unresolvable(new Reason.NodeNameMismatch(pod.nodeName()));
  }

  @Override
  public String toString() {
    return NAME;
  }
}
