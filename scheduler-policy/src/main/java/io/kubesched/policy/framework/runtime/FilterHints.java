package io.kubesched.policy.framework.runtime;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.PodInfo;
import io.kubesched.api.RetryHint;
import io.kubesched.policy.framework.Filter;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The hint of a decision that no node fits: a change may help the pod if one of the filters that rejected it
 * registers that kind of change and its own hint says yes (kube-scheduler's scheduling queue, which asks each
 * plugin in the pod's {@code UnschedulablePlugins} that registers the event). Immutable. Two are equal when they
 * are for equal pods and filters of the same names, in the same order: two decisions for one pod by one policy
 * configuration are equal whichever copy of the policy made them (one sharing its node loop out, say).
 */
final class FilterHints implements RetryHint {

  private final PodInfo pod;
  private final List<Filter> filters;
  private final List<String> names;

  /**
   * @param pod the pod the filters rejected
   * @param filters the filters that rejected it, as the policy configures them, in its order
   */
  FilterHints(PodInfo pod, List<Filter> filters) {
    this.pod = Objects.requireNonNull(pod, "pod");
    this.filters = List.copyOf(filters);
    this.names = this.filters.stream().map(Filter::name).toList();
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

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof FilterHints hints && hints.names.equals(names) && hints.pod.equals(pod);
  }

  @Override
  public int hashCode() {
    return 31 * names.hashCode() + pod.hashCode();
  }

  /** @return the filters' names: the pod is long, and decisions are logged */
  @Override
  public String toString() {
    return "FilterHints" + names;
  }
}
