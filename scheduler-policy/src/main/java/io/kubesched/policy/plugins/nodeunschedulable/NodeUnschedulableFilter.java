package io.kubesched.policy.plugins.nodeunschedulable;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.Set;

/**
 * kube-scheduler's {@code NodeUnschedulable} filter plugin (formerly the {@code CheckNodeUnschedulable}
 * predicate): a cordoned node ({@code spec.unschedulable}) takes only pods that tolerate the taint {@value
 * #UNSCHEDULABLE_TAINT_KEY} with effect {@code NoSchedule} and no value.
 *
 * <p>The toleration is matched as Kubernetes matches one against a taint ({@link
 * io.kubesched.api.Toleration#tolerates}): for example {@code Exists} with that key, or with an empty key, or
 * {@code Equal} with that key and an empty value, each with effect {@code NoSchedule} or none. A rejection
 * has the reason {@link Reason.NodeUnschedulable} and code {@link
 * FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}: evicting pods does not uncordon a node. Stateless and
 * thread-safe.
 */
public final class NodeUnschedulableFilter implements Filter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeUnschedulable";

  /** The taint key a pod tolerates to be placed on a cordoned node. */
  public static final String UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable";

  /** The taint a pod must tolerate, as kube-scheduler builds it: no value, effect NoSchedule. */
  static final Taint UNSCHEDULABLE_TAINT = new Taint(UNSCHEDULABLE_TAINT_KEY, "", TaintEffect.NO_SCHEDULE);

  /** Creates the filter; it has no arguments. */
  public NodeUnschedulableFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeTaint, which covers {@code spec.unschedulable}. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_TAINTS);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a node added that is not cordoned, or a node uncordoned. Other taint changes
   * cannot help: kube's hint does not look at the pod's tolerations either.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return !added.node().unschedulable();
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      return updated.before().unschedulable() && !updated.after().unschedulable();
    }
    return true;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    if (!node.unschedulable()) {
      return FilterResult.fit();
    }
    for (var toleration : pod.tolerations()) {
      if (toleration.tolerates(UNSCHEDULABLE_TAINT)) {
        return FilterResult.fit();
      }
    }
    return FilterResult.unresolvable(new Reason.NodeUnschedulable());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
