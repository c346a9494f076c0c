package io.kubesched.policy.plugins.podtopologyspread;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import io.kubesched.policy.plugins.podtopologyspread.TopologySpreading.Constraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube-scheduler's {@code PodTopologySpread} filter: the pod's {@code DoNotSchedule} topology spread
 * constraints. For each constraint, placing the pod on a node must not make the number of selected pods in the
 * node's domain exceed the smallest number in any domain by more than {@code maxSkew}.
 *
 * <p>The constraints are the pod's own; a pod without any gets the {@linkplain PodTopologySpreadArgs default
 * constraints}, whose selector selects the pods its Services and controlling ReplicationController, ReplicaSet
 * or StatefulSet select (no default constraint applies when none is found).
 *
 * <p>{@code matchLabelKeys}: a 1.37 API server, creating a pod, adds {@code key In (value)} to the constraint's
 * selector for each key the pod carries (MatchLabelKeysInPodTopologySpreadSelectorMerge, on by default), and
 * kube-scheduler 1.37 (MatchLabelKeysInPodTopologySpread, on by default) again narrows the selector by {@code
 * key = value} for each key the pod carries. This filter does what the scheduler does: for a pod the server has
 * already merged, the second narrowing selects the same pods; for a pod created without the merge it gives the
 * scheduler's result. An absent selector stays absent (it selects no pod); the empty selector narrowed by a
 * key selects the pods with the pod's value of it.
 *
 * <p>As kube's PreFilter, {@link #prepare} counts once per pod, over every node of the snapshot, the selected
 * pods (in the pod's namespace, not being deleted) in each domain of each constraint. A node counts only if it
 * has every constraint's topology key and, per constraint, passes its {@code nodeAffinityPolicy} (by default
 * {@code Honor}: the pod's node selector and required node affinity must admit it) and {@code
 * nodeTaintsPolicy} (by default {@code Ignore}; {@code Honor}: the pod must tolerate its {@code NoSchedule}
 * and {@code NoExecute} taints). The domains counted are the eligible domains; when there are fewer than the
 * constraint's {@code minDomains}, the smallest number is taken as 0. Preparing costs {@code O(nodes ×
 * constraints + pods × constraints)}; the prepared filter checks a node in {@code O(constraints)}.
 *
 * <p>A node without a constraint's topology key is rejected with {@link MissingTopologyLabel}, code {@link
 * FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}; a node where the skew would exceed {@code maxSkew}
 * with {@link SkewExceeded}, code {@link FilterResult.Code#UNSCHEDULABLE} (other pods leaving could resolve
 * it). Immutable and thread-safe; the prepared filters too (not their trackers, each confined to one thread).
 *
 * <p>Deviations from kube: a pod's controller is found by kind and name, as the model's {@link
 * io.kubesched.api.Owner} has no API version (kube also requires {@code v1} for a ReplicationController and
 * {@code apps/v1} for a ReplicaSet or StatefulSet); a selector kube cannot parse (an {@code In} without values)
 * is matched as written rather than failing the pod; pod signatures and the skip for pods with a deferred resize
 * are not part of this model.
 *
 * <p>The filter {@link #prepare} returns is {@link PodTracking}, for preemption: its {@linkplain
 * Prepared#track() trackers} follow the pods added and removed as kube's PreFilter extensions {@code
 * AddPod}/{@code RemovePod} do, including kube's approximation of the smallest count (see {@link
 * CriticalPaths}).
 */
public final class PodTopologySpreadFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "PodTopologySpread";

  /** Kube's message for a node where a constraint's skew would be exceeded. */
  public static final String CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";

  /** Kube's message for a node without a constraint's topology key. */
  public static final String NODE_LABEL_NOT_MATCH = CONSTRAINTS_NOT_MATCH + " (missing required label)";

  /**
   * The node lacks the label a constraint spreads over.
   *
   * @param topologyKey the missing label
   */
  public record MissingTopologyLabel(String topologyKey) implements Reason {
    @Override
    public String message() {
      return NODE_LABEL_NOT_MATCH;
    }
  }

  /**
   * Placing the pod on the node would exceed a constraint's {@code maxSkew}: {@code matchingPods + (selfMatch ?
   * 1 : 0) - globalMinimum > maxSkew}.
   *
   * @param topologyKey the constraint's topology key
   * @param topologyValue the node's domain
   * @param matchingPods the selected pods in that domain
   * @param selfMatch whether the constraint selects the incoming pod itself
   * @param globalMinimum the smallest number of selected pods in an eligible domain (0 below {@code minDomains})
   * @param maxSkew the constraint's {@code maxSkew}
   */
  public record SkewExceeded(
      String topologyKey, String topologyValue, int matchingPods, boolean selfMatch, int globalMinimum, int maxSkew)
      implements Reason {
    @Override
    public String message() {
      return CONSTRAINTS_NOT_MATCH;
    }
  }

  private final PodTopologySpreadArgs args;

  /** Creates the filter with kube's defaults ({@link PodTopologySpreadArgs#SYSTEM}). */
  public PodTopologySpreadFilter() {
    this(PodTopologySpreadArgs.SYSTEM);
  }

  /** Creates the filter with the given default constraints. */
  public PodTopologySpreadFilter(PodTopologySpreadArgs args) {
    this.args = args;
  }

  /** @return the plugin's arguments */
  public PodTopologySpreadArgs args() {
    return args;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add, UpdateNodeLabel and UpdateNodeTaint, and AssignedPod Delete; a node deleted, or a pod bound or relabelled, moves such a pod by its own hint. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS, ClusterChange.NODE_TAINTS,
        ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint, over the pod's {@code DoNotSchedule} constraints. A node added helps if it has
   * every constraint's topology key; a node updated helps if it gained or lost having them all, or has them all and
   * another value of one of them or other taints. A pod's deletion helps if the pod was bound or nominated, is in
   * the waiting pod's namespace and a constraint's selector selects it. A pod without constraints of its own whose
   * default constraints apply is retried on every such change: the selector of those comes from the cluster's
   * Services and controllers, which a hint cannot see. Beyond kube's hint, a node updated that has every topology
   * key also helps if the pod's node selector and required node affinity admit it now and did not before or the
   * other way round, under a constraint whose {@code nodeAffinityPolicy} is {@code Honor}: its pods then count, or no
   * longer count, in its domains, which kube's hint does not see.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    List<Constraint> constraints;
    if (pod.topologySpreadConstraints().isEmpty()) {
      constraints =
          TopologySpreading.select(args.effectiveConstraints(), pod.labels(), WhenUnsatisfiable.DO_NOT_SCHEDULE);
      if (!constraints.isEmpty()) {
        return true;
      }
    } else {
      constraints =
          TopologySpreading.select(pod.topologySpreadConstraints(), pod.labels(), WhenUnsatisfiable.DO_NOT_SCHEDULE);
    }
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return TopologySpreading.hasAllTopologyKeys(added.node().labels(), constraints);
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      var before = updated.before();
      var after = updated.after();
      boolean matched = TopologySpreading.hasAllTopologyKeys(before.labels(), constraints);
      boolean matches = TopologySpreading.hasAllTopologyKeys(after.labels(), constraints);
      if (matched != matches) {
        return true;
      }
      return matches
          && (topologyValueChanged(before, after, constraints)
              || !before.taints().equals(after.taints())
              || admissionChanged(pod, before, after, constraints));
    }
    var deleted = (ClusterUpdate.AssignedPodDeleted) update;
    var gone = deleted.pod();
    if (!deleted.heldRoom() || !gone.namespace().equals(pod.namespace())) {
      return false;
    }
    for (var constraint : constraints) {
      if (constraint.selects(gone.labels())) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return whether a constraint honours the pod's node affinity and it admits one of {@code before} and {@code
   *     after} only
   */
  private static boolean admissionChanged(PodInfo pod, NodeInfo before, NodeInfo after, List<Constraint> constraints) {
    for (var constraint : constraints) {
      if (constraint.nodeAffinityPolicy() == InclusionPolicy.HONOR) {
        return NodeSelectors.matchesRequired(pod, before) != NodeSelectors.matchesRequired(pod, after);
      }
    }
    return false;
  }

  /** Kube's {@code checkTopologyKeyLabelsChanged}. */
  private static boolean topologyValueChanged(NodeInfo before, NodeInfo after, List<Constraint> constraints) {
    for (var constraint : constraints) {
      var key = constraint.topologyKey();
      if (!Objects.equals(before.labels().get(key), after.labels().get(key))) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return the selectors of Services, ReplicationControllers, ReplicaSets and StatefulSets when a default
   *     constraint this filter uses ({@code DoNotSchedule}) is in force; none otherwise, as under the system
   *     defaults, which are all {@code ScheduleAnyway}
   */
  @Override
  public Set<ClusterData> reads() {
    return args.effectiveConstraints().stream()
            .anyMatch(c -> c.whenUnsatisfiable() == WhenUnsatisfiable.DO_NOT_SCHEDULE)
        ? TopologySpreading.WORKLOAD_SELECTORS
        : Set.of();
  }

  /**
   * Without {@link #prepare} this filter cannot count the other nodes' pods, as kube's Filter cannot without
   * its PreFilter state.
   *
   * @return always an {@linkplain FilterResult#error error}
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.error(NAME + " filters only through prepare(pod, cluster)");
  }

  /**
   * @return a filter for {@code pod} that holds the selected pods' count per domain of each {@code
   *     DoNotSchedule} constraint; one that admits every node when the pod has no such constraint
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var constraints =
        TopologySpreading.constraints(pod, WhenUnsatisfiable.DO_NOT_SCHEDULE, args.effectiveConstraints(), cluster);
    if (constraints.isEmpty()) {
      return PreFilter.skip(NAME); // no DoNotSchedule constraint
    }
    return new Prepared(pod, constraints, State.of(pod, constraints, cluster.nodes()));
  }

  @Override
  public String toString() {
    return NAME + "{" + args + "}";
  }

  /**
   * Kube's {@code criticalPaths}: the two domains of a constraint with the smallest counts as kube keeps them.
   * {@link #first()} always holds the smallest count; {@link #second()} holds a count at least as large, not
   * necessarily the second smallest: after a pod is removed from or added to a domain, only these two slots are
   * updated (kube's two-slot approximation, valid for preemption on one node at a time, which it copies rather
   * than fixes). Initialised from the domains in sorted order, so that ties are broken the same way every time
   * (kube iterates a map). Mutable; confined to one state.
   */
  static final class CriticalPaths {

    /**
     * One slot.
     *
     * @param topologyValue the domain; "" for an empty slot
     * @param matchNum its count; {@link Integer#MAX_VALUE} for an empty slot
     */
    record Path(String topologyValue, int matchNum) {}

    private static final Path EMPTY = new Path("", Integer.MAX_VALUE);

    private Path first = EMPTY;
    private Path second = EMPTY;

    CriticalPaths() {}

    private CriticalPaths(Path first, Path second) {
      this.first = first;
      this.second = second;
    }

    /** @return the slot with the smallest count */
    Path first() {
      return first;
    }

    /** @return the other slot */
    Path second() {
      return second;
    }

    CriticalPaths copy() {
      return new CriticalPaths(first, second);
    }

    /** Kube's {@code criticalPaths.update}: the domain {@code value} now has {@code count} pods. */
    void update(String value, int count) {
      if (value.equals(first.topologyValue()) || value.equals(second.topologyValue())) {
        if (value.equals(first.topologyValue())) {
          first = new Path(value, count);
        } else {
          second = new Path(value, count);
        }
        if (first.matchNum() > second.matchNum()) {
          var swap = first;
          first = second;
          second = swap;
        }
      } else if (count < first.matchNum()) {
        second = first;
        first = new Path(value, count);
      } else if (count < second.matchNum()) {
        second = new Path(value, count);
      }
    }

    @Override
    public String toString() {
      return "[" + first + ", " + second + "]";
    }
  }

  /**
   * What kube's PreFilter computes: for each constraint, the number of selected pods per eligible domain, and
   * its critical paths (the smallest count; {@link Integer#MAX_VALUE} when there is no domain). A prepared
   * filter's state is never changed; a tracker changes its own {@link #copy()}.
   */
  static final class State {
    private final List<Map<String, Integer>> counts;
    private final CriticalPaths[] paths;

    private State(List<Map<String, Integer>> counts, CriticalPaths[] paths) {
      this.counts = counts;
      this.paths = paths;
    }

    static State of(PodInfo pod, List<Constraint> constraints, List<NodeInfo> nodes) {
      var counts = new ArrayList<Map<String, Integer>>(constraints.size());
      for (int i = 0; i < constraints.size(); i++) {
        counts.add(new HashMap<>());
      }
      var selected = TopologySpreading.matches(constraints);
      var values = new String[constraints.size()];
      for (var node : nodes) {
        if (!TopologySpreading.topologyValues(node.labels(), constraints, values)) {
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          var c = constraints.get(i);
          if (!c.includes(pod, node)) {
            continue;
          }
          int count = c.count(node.pods(), pod.namespace(), selected[i]);
          if (count == 0) {
            counts.get(i).putIfAbsent(values[i], 0); // an eligible domain, counted even when empty
          } else {
            counts.get(i).merge(values[i], count, Integer::sum);
          }
        }
      }
      var paths = new CriticalPaths[constraints.size()];
      for (int i = 0; i < paths.length; i++) {
        paths[i] = new CriticalPaths();
        // Sorted, so that equal counts give the same paths every time; kube's map order is random.
        for (var domain : new TreeMap<>(counts.get(i)).entrySet()) {
          paths[i].update(domain.getKey(), domain.getValue());
        }
      }
      return new State(counts, paths);
    }

    /** @return an independent copy (kube's {@code preFilterState.Clone}) */
    State copy() {
      var countsCopy = new ArrayList<Map<String, Integer>>(counts.size());
      for (var domains : counts) {
        countsCopy.add(new HashMap<>(domains));
      }
      var pathsCopy = new CriticalPaths[paths.length];
      for (int i = 0; i < paths.length; i++) {
        pathsCopy[i] = paths[i].copy();
      }
      return new State(countsCopy, pathsCopy);
    }

    /** @return per constraint, the count of each eligible domain; for tests, not to be changed */
    List<Map<String, Integer>> counts() {
      return counts;
    }

    /** @return the critical paths of constraint {@code constraint}; for tests, not to be changed */
    CriticalPaths paths(int constraint) {
      return paths[constraint];
    }

    /**
     * Kube's {@code minMatchNum}: the first critical path's count, or 0 with fewer eligible domains than {@code
     * minDomains}.
     */
    int globalMinimum(int constraint, int minDomains) {
      return counts.get(constraint).size() < minDomains ? 0 : paths[constraint].first().matchNum();
    }

    /** Adds {@code delta} to the domain's count (creating it, as kube does) and updates the critical paths. */
    void add(int constraint, String value, int delta) {
      int count = counts.get(constraint).merge(value, delta, Integer::sum);
      paths[constraint].update(value, count);
    }
  }

  /** The filter prepared for one pod: it filters that pod's nodes. Immutable. */
  static final class Prepared implements Filter, PodTracking {
    private final PodInfo pod;
    private final List<Constraint> constraints;
    private final State state;
    private final boolean[] selfMatch;

    Prepared(PodInfo pod, List<Constraint> constraints, State state) {
      this.pod = pod;
      this.constraints = List.copyOf(constraints);
      this.state = state;
      this.selfMatch = new boolean[constraints.size()];
      for (int i = 0; i < selfMatch.length; i++) {
        selfMatch[i] = constraints.get(i).selects(pod.labels());
      }
    }

    List<Constraint> constraints() {
      return constraints;
    }

    State state() {
      return state;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return check(constraints, selfMatch, state, node);
    }

    /** @return a tracker with a copy of the counts and critical paths; O(domains) */
    @Override
    public SpreadTracker track() {
      return new SpreadTracker(this, state.copy());
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }

  /**
   * A private, mutable copy of a {@link Prepared} filter's state that follows the pods added and removed, as
   * kube's {@code updateWithPod}: a pod counts only if it is in the prepared pod's namespace and its node has
   * every constraint's topology key; then, for each constraint whose selector selects the pod's labels and whose
   * node inclusion policies admit the node for the prepared pod, the count of the node's domain changes by one
   * and the constraint's {@link CriticalPaths} are updated. As in kube, a pod being deleted counts here (the
   * PreFilter leaves such pods out), and the empty selector selects every pod here (the PreFilter counts none
   * for it). Confined to the thread that took it.
   */
  static final class SpreadTracker implements PodTracking.Tracker {
    private final Prepared prepared;
    private final State state;

    private SpreadTracker(Prepared prepared, State state) {
      this.prepared = prepared;
      this.state = state;
    }

    /** @return the tracked state, for tests */
    State state() {
      return state;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return check(prepared.constraints, prepared.selfMatch, state, node);
    }

    @Override
    public void addPod(PodInfo pod, NodeInfo node) {
      update(pod, node, 1);
    }

    @Override
    public void removePod(PodInfo pod, NodeInfo node) {
      update(pod, node, -1);
    }

    private void update(PodInfo pod, NodeInfo node, int delta) {
      var preemptor = prepared.pod;
      var constraints = prepared.constraints;
      if (!pod.namespace().equals(preemptor.namespace())
          || !TopologySpreading.hasAllTopologyKeys(node.labels(), constraints)) {
        return;
      }
      for (int i = 0; i < constraints.size(); i++) {
        var c = constraints.get(i);
        if (c.selects(pod.labels()) && c.includes(preemptor, node)) {
          state.add(i, node.labels().get(c.topologyKey()), delta);
        }
      }
    }

    @Override
    public String toString() {
      return NAME + "{tracker}";
    }
  }

  /** Kube's Filter on a {@code preFilterState}. */
  private static FilterResult check(List<Constraint> constraints, boolean[] selfMatch, State state, NodeInfo node) {
    for (int i = 0; i < constraints.size(); i++) {
      var c = constraints.get(i);
      var value = node.labels().get(c.topologyKey());
      if (value == null) {
        return FilterResult.unresolvable(new MissingTopologyLabel(c.topologyKey()));
      }
      int minimum = state.globalMinimum(i, c.minDomains());
      int matching = state.counts().get(i).getOrDefault(value, 0);
      if ((long) matching + (selfMatch[i] ? 1 : 0) - minimum > c.maxSkew()) {
        return FilterResult.unschedulable(
            new SkewExceeded(c.topologyKey(), value, matching, selfMatch[i], minimum, c.maxSkew()));
      }
    }
    return FilterResult.fit();
  }
}
