package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import net.jqwik.api.statistics.Statistics;

/**
 * What preemption does to a tracker, for the {@code *TrackerProperties}: on one node it removes the potential
 * victims, then adds back those it spares. {@link #before()} is the cluster the filter is prepared on (the chosen
 * node's pods given distinct uids), {@link #after()} the cluster without the pods removed and not added back.
 * Its {@code assert*} methods are the checks shared by the filters whose trackers keep every verdict exact.
 *
 * @param before the cluster before
 * @param node the chosen node, as {@code before} holds it
 * @param removed the pods of {@code node} removed, in node order
 * @param readded the pods of {@code removed} added back, in order
 * @param after the cluster after
 */
public record TrackerScenario(
    ClusterSnapshot before, NodeInfo node, List<PodInfo> removed, List<PodInfo> readded, ClusterSnapshot after) {

  /**
   * @param cluster the cluster
   * @param nodeChoice picks the node (modulo the number of nodes; the next with pods if it has none)
   * @param removeMask per pod of the node, whether it is removed (missing entries: no)
   * @param readdMask per removed pod, whether it is added back (missing entries: no)
   * @param removable the pods that may be removed
   */
  public static TrackerScenario of(
      ClusterSnapshot cluster,
      int nodeChoice,
      List<Boolean> removeMask,
      List<Boolean> readdMask,
      Predicate<PodInfo> removable) {
    var nodes = new ArrayList<>(cluster.nodes());
    int index = nodeChoice % nodes.size();
    // Preemption looks at nodes with pods: prefer the next one that has some.
    for (int i = 0; i < nodes.size() && nodes.get(index).pods().isEmpty(); i++) {
      index = (index + 1) % nodes.size();
    }
    var original = nodes.get(index);
    var pods = new ArrayList<PodInfo>();
    for (int i = 0; i < original.pods().size(); i++) {
      pods.add(original.pods().get(i).toBuilder().uid(original.name() + "#" + i).build());
    }
    var node = NodeInfo.builder(original.name())
        .labels(original.labels())
        .taints(original.taints())
        .unschedulable(original.unschedulable())
        .allocatable(original.allocatable())
        .pods(pods)
        .build();
    nodes.set(index, node);
    var before = cluster.withNodes(List.copyOf(nodes));

    var removed = new ArrayList<PodInfo>();
    for (int i = 0; i < pods.size(); i++) {
      if (i < removeMask.size() && removeMask.get(i) && removable.test(pods.get(i))) {
        removed.add(pods.get(i));
      }
    }
    var readded = new ArrayList<PodInfo>();
    for (int i = 0; i < removed.size(); i++) {
      if (i < readdMask.size() && readdMask.get(i)) {
        readded.add(removed.get(i));
      }
    }
    var changed = node;
    for (var pod : removed) {
      if (!readded.contains(pod)) {
        changed = changed.withoutPod(pod.uid());
      }
    }
    nodes.set(index, changed);
    return new TrackerScenario(before, node, List.copyOf(removed), List.copyOf(readded),
        cluster.withNodes(List.copyOf(nodes)));
  }

  /** @return the pods removed and not added back */
  public List<PodInfo> gone() {
    return removed.stream().filter(pod -> !readded.contains(pod)).toList();
  }

  /** @return a tracker of {@code prepared} told what preemption does: the removals, then the additions */
  public PodTracking.Tracker replay(Filter prepared) {
    var tracker = ((PodTracking) prepared).track();
    removed.forEach(pod -> tracker.removePod(pod, node));
    readded.forEach(pod -> tracker.addPod(pod, node));
    return tracker;
  }

  /** @return a tracker of {@code prepared} (for {@link #after()}) told of the pods gone being added back */
  public PodTracking.Tracker replayBackwards(Filter prepared) {
    var tracker = ((PodTracking) prepared).track();
    gone().forEach(pod -> tracker.addPod(pod, node));
    return tracker;
  }

  /**
   * Asserts that the trackers of {@code pod}'s filter agree with a fresh prepare both ways: prepared on {@link
   * #before()} and {@linkplain #replay replayed}, with the filter prepared on {@link #after()}; prepared on {@link
   * #after()} and {@linkplain #replayBackwards replayed backwards}, with the filter prepared on {@link #before()}.
   * Every node must get the fresh filter's result, or fit when {@code skipped} says kube's PreFilter skipped the
   * pod (kube then calls neither {@code AddPod}/{@code RemovePod} nor the filter). Collects the statistics
   * "pods removed, added back", "outcome" (by {@code kind} of the fresh result), "verdict changed by the pods
   * gone" and "skipped, so fits", and requires both of the last two to occur.
   *
   * @param prepare prepares {@code pod}'s filter on a cluster
   * @param skipped whether a prepared filter is one kube's PreFilter skipped
   * @param kind names a result, for the "outcome" statistics
   */
  public void assertTrackersAgreeWithFreshPrepare(
      PodInfo pod,
      Function<ClusterSnapshot, Filter> prepare,
      Predicate<Filter> skipped,
      Function<FilterResult, String> kind) {
    var prepared = prepare.apply(before);
    assertAgrees(pod, prepared, skipped.test(prepared), replay(prepared), prepare.apply(after), after, "forward", kind);
    var preparedAfter = prepare.apply(after);
    assertAgrees(pod, preparedAfter, skipped.test(preparedAfter), replayBackwards(preparedAfter), prepare.apply(before),
        before, "backward", kind);
    Statistics.label("pods removed, added back").collect(removed.size() + ", " + readded.size());
    Statistics.label("verdict changed by the pods gone").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("skipped, so fits").coverage(c -> c.check(true).count(n -> n > 0));
  }

  private static void assertAgrees(
      PodInfo pod,
      Filter prepared,
      boolean skipped,
      Filter tracker,
      Filter fresh,
      ClusterSnapshot changed,
      String way,
      Function<FilterResult, String> kind) {
    for (var node : changed.nodes()) {
      var actual = tracker.filter(pod, node);
      if (skipped) {
        // kube calls no AddPod/RemovePod nor Filter for a plugin its PreFilter skipped
        assertEquals(Outcome.FIT, Outcome.of(actual), way);
        Statistics.label("skipped, so fits").collect(true);
        continue;
      }
      var expected = fresh.filter(pod, node);
      assertEquals(expected, actual, () -> way + ": node " + node.name() + " of " + changed.nodes());
      Statistics.label("outcome").collect(kind.apply(expected));
      Statistics.label("verdict changed by the pods gone")
          .collect(!Outcome.of(prepared.filter(pod, node)).equals(Outcome.of(actual)));
    }
  }

  /**
   * Asserts that {@code prepared}'s {@code track()} gives independent copies: a tracker told of {@link #removed()}
   * changes neither {@code prepared}'s verdicts on {@link #before()} nor those of a tracker taken after it. Collects
   * the statistics "the changed tracker differs" and requires it to occur.
   *
   * @param prepared a filter prepared for {@code pod} on {@link #before()}
   */
  public void assertTracksAreIndependent(PodInfo pod, Filter prepared) {
    var verdicts = verdicts(pod, prepared, before);

    var changed = ((PodTracking) prepared).track();
    removed.forEach(victim -> changed.removePod(victim, node));
    var other = ((PodTracking) prepared).track();

    assertEquals(verdicts, verdicts(pod, prepared, before), "the prepared filter");
    assertEquals(verdicts, verdicts(pod, other, before), "a second tracker");
    Statistics.label("the changed tracker differs").collect(!verdicts.equals(verdicts(pod, changed, before)));
    Statistics.label("the changed tracker differs").coverage(c -> c.check(true).count(n -> n > 0));
  }

  /** @return {@code filter}'s verdict for {@code pod} on each node of {@code cluster}, in order */
  public static List<Outcome> verdicts(PodInfo pod, Filter filter, ClusterSnapshot cluster) {
    var verdicts = new ArrayList<Outcome>();
    cluster.nodes().forEach(node -> verdicts.add(Outcome.of(filter.filter(pod, node))));
    return verdicts;
  }
}
