package io.kubesched.policy.plugins.tainttoleration;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code TaintToleration} filter plugin (formerly the {@code PodToleratesNodeTaints}
 * predicate): the pod must tolerate every {@code NoSchedule} and {@code NoExecute} taint of the node;
 * {@code PreferNoSchedule} taints are left to scoring.
 *
 * <p>A rejection names the first untolerated taint in the node's order ({@link Reason.UntoleratedTaint},
 * whose message is kube-scheduler's "node(s) had untolerated taint(s)") with code {@link
 * FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}. Stateless and thread-safe.
 */
public final class TaintTolerationFilter implements Filter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "TaintToleration";

  /** Creates the filter; it has no arguments. */
  public TaintTolerationFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeTaint. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_TAINTS);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a node added whose {@code NoSchedule} and {@code NoExecute} taints the pod
   * tolerates, or a node whose taints changed from some the pod does not tolerate to none.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return untolerated(pod, added.node()) == null;
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      return untolerated(pod, updated.after()) == null && untolerated(pod, updated.before()) != null;
    }
    return true;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    var taint = untolerated(pod, node);
    return taint == null ? FilterResult.fit() : FilterResult.unresolvable(new Reason.UntoleratedTaint(taint));
  }

  /**
   * @return the node's first {@code NoSchedule} or {@code NoExecute} taint that none of the pod's tolerations
   *     tolerates; empty if there is none
   */
  public static Optional<Taint> firstUntoleratedTaint(PodInfo pod, NodeInfo node) {
    return Optional.ofNullable(untolerated(pod, node));
  }

  /** {@link #firstUntoleratedTaint} without an object per node: this runs for every node examined. */
  private static @Nullable Taint untolerated(PodInfo pod, NodeInfo node) {
    // Indexed loops: the lists are of several classes, so their iterators are not optimised away.
    var taints = node.taints();
    var tolerations = pod.tolerations();
    for (int i = 0; i < taints.size(); i++) {
      var taint = taints.get(i);
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE) {
        continue;
      }
      boolean tolerated = false;
      for (int j = 0; j < tolerations.size(); j++) {
        if (tolerations.get(j).tolerates(taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        return taint;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
