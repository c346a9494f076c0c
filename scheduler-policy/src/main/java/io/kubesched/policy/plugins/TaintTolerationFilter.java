package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.policy.Filter;
import io.kubesched.policy.FilterResult;
import io.kubesched.policy.Reason;
import java.util.Optional;

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

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return firstUntoleratedTaint(pod, node)
        .<FilterResult>map(taint -> FilterResult.unresolvable(new Reason.UntoleratedTaint(taint)))
        .orElse(FilterResult.fit());
  }

  /**
   * @return the node's first {@code NoSchedule} or {@code NoExecute} taint that none of the pod's tolerations
   *     tolerates; empty if there is none
   */
  public static Optional<Taint> firstUntoleratedTaint(PodInfo pod, NodeInfo node) {
    for (var taint : node.taints()) {
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE) {
        continue;
      }
      boolean tolerated = false;
      for (var toleration : pod.tolerations()) {
        if (toleration.tolerates(taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
