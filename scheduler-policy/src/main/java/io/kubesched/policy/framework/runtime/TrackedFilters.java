package io.kubesched.policy.framework.runtime;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PodTracking;
import java.util.ArrayList;
import java.util.List;

/**
 * One pod's prepared filters as kube-scheduler's cloned {@code CycleState}: each prepared filter that is {@link
 * PodTracking} replaced by a private {@link PodTracking.Tracker}, told of the pods added to or removed from the
 * node being evaluated; the other filters read only the node and are shared as they are.
 *
 * <p>It remembers what it was told, so that {@link #copy()} gives an independent copy in the same state (kube
 * clones the state again to add the nominated pods of a node for one filter run). Confined to the thread that
 * made it; never shared.
 */
public final class TrackedFilters {

  private record Change(PodInfo pod, boolean added, NodeInfo node) {}

  private final List<Filter> prepared;
  private final List<Filter> filters;
  private final List<PodTracking.Tracker> trackers;
  private final List<Change> changes = new ArrayList<>();

  private TrackedFilters(List<Filter> prepared, List<Filter> filters, List<PodTracking.Tracker> trackers) {
    this.prepared = prepared;
    this.filters = filters;
    this.trackers = trackers;
  }

  /** @return the prepared filters with a fresh tracker for each one that follows pods */
  public static TrackedFilters of(List<Filter> prepared) {
    List<Filter> filters = prepared;
    List<PodTracking.Tracker> trackers = List.of();
    for (int i = 0; i < prepared.size(); i++) {
      if (prepared.get(i) instanceof PodTracking tracking) {
        if (trackers.isEmpty()) {
          filters = new ArrayList<>(prepared);
          trackers = new ArrayList<>();
        }
        var tracker = tracking.track();
        filters.set(i, tracker);
        trackers.add(tracker);
      }
    }
    return new TrackedFilters(prepared, filters, trackers);
  }

  /** @return the filters to run, in order */
  public List<Filter> filters() {
    return filters;
  }

  /** Tells the trackers that {@code pod} is now on {@code node} ({@code node} holds it). */
  public void added(PodInfo pod, NodeInfo node) {
    if (trackers.isEmpty()) {
      return;
    }
    trackers.forEach(tracker -> tracker.addPod(pod, node));
    changes.add(new Change(pod, true, node));
  }

  /** Tells the trackers that {@code pod} has left {@code node} ({@code node} no longer holds it). */
  public void removed(PodInfo pod, NodeInfo node) {
    if (trackers.isEmpty()) {
      return;
    }
    trackers.forEach(tracker -> tracker.removePod(pod, node));
    changes.add(new Change(pod, false, node));
  }

  /** @return an independent copy: fresh trackers told the same changes in the same order */
  public TrackedFilters copy() {
    var copy = of(prepared);
    for (var change : changes) {
      if (change.added()) {
        copy.added(change.pod(), change.node());
      } else {
        copy.removed(change.pod(), change.node());
      }
    }
    return copy;
  }
}
