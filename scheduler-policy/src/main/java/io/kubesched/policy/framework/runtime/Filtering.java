package io.kubesched.policy.framework.runtime;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs one pod's filters on one node, as kube-scheduler's {@code RunFilterPlugins} and {@code
 * RunFilterPluginsWithNominatedPods}: for every filter run of an attempt, the decision's search and each check
 * of preemption's dry run alike. Stateless; called from any thread (a parallel search calls it from several at
 * once, each with nodes of its own).
 */
public final class Filtering {

  private Filtering() {}

  /** Hears what each filter said, for explanations. */
  public interface Listener {

    /** {@code filter} said {@code result} of {@code node}. */
    void filtered(String node, String filter, FilterResult result);

    /** What was heard of {@code node} so far is superseded by the run that follows. */
    void restart(String node);
  }

  /**
   * The first filter that did not fit.
   *
   * @param filter its name
   * @param result a {@link FilterResult.Rejected} or a {@link FilterResult.Failed}
   */
  public record Stop(String filter, FilterResult result) {}

  /** @return the first filter of {@code filters} that does not fit {@code pod} on {@code node}; null if all fit */
  public static @Nullable Stop run(List<Filter> filters, PodInfo pod, NodeInfo node, @Nullable Listener listener) {
    for (int i = 0; i < filters.size(); i++) { // per node examined: no iterator (C1 does not remove them)
      var filter = filters.get(i);
      var result = filter.filter(pod, node);
      if (listener != null) {
        listener.filtered(node.name(), filter.name(), result);
      }
      if (!result.fits()) {
        return new Stop(filter.name(), result);
      }
    }
    return null;
  }

  /**
   * The pods nominated to {@code node} that {@code pod} must leave room for: those of equal or higher priority,
   * other than itself, in nomination order (kube's {@code addGENominatedPods}).
   */
  public static List<PodInfo> nominatedAhead(PodInfo pod, String node, Nominations nominations) {
    if (nominations.isEmpty()) {
      return List.of();
    }
    var on = nominations.on(node);
    if (on.isEmpty()) {
      return List.of();
    }
    var ahead = new ArrayList<PodInfo>(on.size());
    for (var nominated : on) {
      if (nominated.priority() >= pod.priority() && !nominated.uid().equals(pod.uid())) {
        ahead.add(nominated);
      }
    }
    return ahead;
  }

  /**
   * Runs the filters with the nominated pods ahead of {@code pod} (kube's {@code
   * RunFilterPluginsWithNominatedPods}): if {@code node} has some, once with them added to a copy of the node
   * and to a copy of the filters' state, and, if that fits, once more without them; both must fit. Otherwise
   * once.
   *
   * @param filters the filters as they stand
   * @param copy makes an independent copy of {@code filters}' state to add the nominated pods to
   * @return the first filter that did not fit in the run that failed; null if the pod fits
   */
  public static @Nullable Stop runWithNominated(
      List<Filter> filters,
      Supplier<TrackedFilters> copy,
      PodInfo pod,
      NodeInfo node,
      Nominations nominations,
      @Nullable Listener listener) {
    var ahead = nominatedAhead(pod, node.name(), nominations);
    if (!ahead.isEmpty()) {
      var withNominated = copy.get();
      var crowded = node;
      for (var nominated : ahead) {
        crowded = crowded.withPod(nominated);
        withNominated.added(nominated, crowded);
      }
      var stop = run(withNominated.filters(), pod, crowded, listener);
      if (stop != null) {
        return stop;
      }
      if (listener != null) {
        listener.restart(node.name());
      }
    }
    return run(filters, pod, node, listener);
  }
}
