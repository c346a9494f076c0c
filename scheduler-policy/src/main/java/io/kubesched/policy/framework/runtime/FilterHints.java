package io.kubesched.policy.framework.runtime;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.PodInfo;
import io.kubesched.api.RetryHint;
import io.kubesched.policy.framework.Filter;
import java.util.Collections;
import java.util.List;

/**
 * The hint of a decision that no node fits: a change may help the pod if one of the filters that rejected it
 * registers that kind of change and its own hint says yes (kube-scheduler's scheduling queue, which asks each
 * plugin in the pod's {@code UnschedulablePlugins} that registers the event). Immutable; two are equal when they
 * hold the same pod and filters, so two decisions for one pod by one policy are equal.
 *
 * @param pod the pod the filters rejected
 * @param filters the filters that rejected it, as the policy configures them
 */
record FilterHints(PodInfo pod, List<Filter> filters) implements RetryHint {

  FilterHints {
    filters = List.copyOf(filters);
  }

  @Override
  public boolean mayHelp(ClusterUpdate update) {
    for (var filter : filters) {
      if (!Collections.disjoint(filter.retriedOn(), update.changes()) && filter.isSchedulableAfter(pod, update)) {
        return true;
      }
    }
    return false;
  }

  /** @return the filters' names: the pod is long, and decisions are logged */
  @Override
  public String toString() {
    var names = new StringBuilder("FilterHints[");
    for (int i = 0; i < filters.size(); i++) {
      names.append(i == 0 ? "" : ", ").append(filters.get(i).name());
    }
    return names.append(']').toString();
  }
}
