package io.kubesched.policy.plugins.interpodaffinity;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.helper.Untracked;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityTerms.Term;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityTerms.TopologyCounts;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's {@code InterPodAffinity} filter (PreFilter and Filter), as of 1.37 with its default
 * feature gates ({@code InterPodAffinityHostnameFastPath} off): a node is rejected when
 *
 * <ol>
 *   <li>the pod has required pod affinity and the node lacks one of its terms' topology keys, or no single
 *       pod in the node's topology domains matches every term, unless no pod anywhere matches them all and
 *       the pod matches every term itself (the first pod of a group that wants to run together): {@link
 *       AffinityRulesNotMatch}, {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE};
 *   <li>a pod in the node's domain for one of the pod's required anti-affinity terms matches that term:
 *       {@link AntiAffinityRulesNotMatch}, {@link FilterResult.Code#UNSCHEDULABLE};
 *   <li>an existing pod has a required anti-affinity term that matches the pod and the node is in the same
 *       domain of that term's topology key: {@link ExistingAntiAffinityRulesNotMatch}, {@link
 *       FilterResult.Code#UNSCHEDULABLE}.
 * </ol>
 *
 * Checked in this order; the first that applies is the node's only reason. A node without a term's
 * topology key is in no domain of it: it never fails an anti-affinity term, and always fails an affinity
 * term. Terms match as {@link InterPodAffinityTerms} describes (namespaces, namespace selectors, the labels of
 * namespaces from {@link ClusterSnapshot#namespaceLabels}).
 *
 * <p>Use it through {@link #prepare} (the {@link io.kubesched.policy.Policy} does): it counts, once per pod,
 * the matching pods per topology domain (kube's PreFilter) from the pods of the nodes {@link
 * ClusterSnapshot#nodesWithRequiredPodAntiAffinity()} lists, and, only when the pod has required affinity or
 * anti-affinity terms, from every pod of the cluster. The filter it returns checks a node in time linear in
 * the number of the pod's terms and of the topology keys of matching existing anti-affinity terms, without
 * looking at any pod. {@link #filter} on this unprepared filter throws, as kube's Filter fails without its
 * PreFilter state: answering from one node's pods would silently ignore the rest of its topology domain.
 *
 * <p>The filter {@link #prepare} returns is {@link PodTracking}: preemption takes a {@linkplain
 * PodTracking.Tracker tracker} from it and tells it of the pods it removes or adds back, as kube's PreFilter
 * extensions {@code AddPod}/{@code RemovePod} update the cycle state (see {@link Prepared#track()}).
 *
 * <p>Immutable and thread-safe, as are the filters it prepares (their trackers are not: each is confined to
 * the thread that took it).
 */
public final class InterPodAffinityFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "InterPodAffinity";

  /** No pod in the node's domains matches all of the pod's required affinity terms. */
  public record AffinityRulesNotMatch() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't match pod affinity rules";
    }
  }

  /** A pod in the node's domain matches one of the pod's required anti-affinity terms. */
  public record AntiAffinityRulesNotMatch() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't match pod anti-affinity rules";
    }
  }

  /** An existing pod in the node's domain has a required anti-affinity term that matches the pod. */
  public record ExistingAntiAffinityRulesNotMatch() implements Reason {
    @Override
    public String message() {
      return "node(s) didn't satisfy existing pods anti-affinity rules";
    }
  }

  /** What the filter, its prepared form and their trackers read: namespace selectors match namespaces' labels. */
  private static final Set<ClusterData> READS = Set.of(ClusterData.NAMESPACES);

  private static final FilterResult AFFINITY_REJECTED = FilterResult.unresolvable(new AffinityRulesNotMatch());
  private static final FilterResult ANTI_AFFINITY_REJECTED =
      FilterResult.unschedulable(new AntiAffinityRulesNotMatch());
  private static final FilterResult EXISTING_ANTI_AFFINITY_REJECTED =
      FilterResult.unschedulable(new ExistingAntiAffinityRulesNotMatch());

  /** Creates the filter; it has no arguments. */
  public InterPodAffinityFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeLabel, and AssignedPod Delete; a pod bound or relabelled moves such a pod by its own hint. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS, ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hints, widened where kube's would lose a pod that other pods' terms turned away,
   * which a hint cannot see.
   *
   * <ul>
   *   <li>A node added helps if it has the topology key of one of the pod's required affinity terms, or the pod has
   *       required anti-affinity terms (kube's); or the pod has no required affinity term: existing pods'
   *       anti-affinity, which kube's hint does not look at, spares a node outside their domains.
   *   <li>A node relabelled helps if it gained the topology key of one of the pod's required affinity terms or has
   *       another value of it (kube's), or lost a label or has another value of one: kube's hint asks this only of
   *       the topology keys of the pod's anti-affinity terms, but the node's pods may be what an existing pod's
   *       anti-affinity term, under any key, turned the pod away for, and they leave that domain with it.
   *   <li>A pod's deletion helps if the pod was bound or nominated and one of the waiting pod's required
   *       anti-affinity terms selects it, or one of its own selects the waiting pod (kube's); or it matched all the
   *       waiting pod's affinity terms and so does the waiting pod: the first pod of a group with affinity to itself
   *       may go anywhere once no pod matches all its terms, which kube's hint does not see.
   * </ul>
   *
   * A term with a non-empty namespace selector is taken to select whatever its label selector selects: a hint cannot
   * see namespaces' labels.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    var affinity = pod.podAffinity().required();
    var antiAffinity = pod.podAntiAffinity().required();
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return affinity.isEmpty() || !antiAffinity.isEmpty() || anyTopologyKeyOf(affinity, added.node());
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      var before = updated.before().labels();
      var after = updated.after().labels();
      for (var term : affinity) {
        var value = after.get(term.topologyKey());
        if (value != null && !value.equals(before.get(term.topologyKey()))) {
          return true;
        }
      }
      for (var label : before.entrySet()) {
        if (!label.getValue().equals(after.get(label.getKey()))) {
          return true;
        }
      }
      return false;
    }
    var deleted = (ClusterUpdate.AssignedPodDeleted) update;
    if (!deleted.heldRoom()) {
      return false;
    }
    var gone = deleted.pod();
    for (var term : antiAffinity) {
      if (InterPodAffinityTerms.mayMatch(term, pod, gone)) {
        return true;
      }
    }
    for (var term : gone.podAntiAffinity().required()) {
      if (InterPodAffinityTerms.mayMatch(term, gone, pod)) {
        return true;
      }
    }
    return mayMatchAll(affinity, pod, gone) && mayMatchAll(affinity, pod, pod);
  }

  /** @return whether {@code terms}, of {@code owner}, are not empty and may all select {@code target} */
  private static boolean mayMatchAll(List<PodAffinityTerm> terms, PodInfo owner, PodInfo target) {
    if (terms.isEmpty()) {
      return false;
    }
    for (var term : terms) {
      if (!InterPodAffinityTerms.mayMatch(term, owner, target)) {
        return false;
      }
    }
    return true;
  }

  private static boolean anyTopologyKeyOf(List<PodAffinityTerm> terms, NodeInfo node) {
    for (var term : terms) {
      if (node.labels().containsKey(term.topologyKey())) {
        return true;
      }
    }
    return false;
  }

  /** @return {@link ClusterData#NAMESPACES}: namespace selectors match namespaces' labels */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Without {@link #prepare} this filter cannot see the pods of other nodes, as kube's Filter cannot without
   * its PreFilter state.
   *
   * @return always an {@linkplain FilterResult#error error}
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.error(NAME + " filters only through prepare(pod, cluster)");
  }

  /**
   * Counts, for {@code pod}, the pods of {@code cluster} per topology domain: those matching all its required
   * affinity terms, those matching each of its required anti-affinity terms, and the existing pods whose
   * required anti-affinity terms match it. Costs one pass over the pods of the nodes that hold pods with
   * required anti-affinity, plus, when the pod has required affinity or anti-affinity terms, one pass over
   * every pod of the cluster, each pod checked against each term.
   *
   * @return the filter of {@code pod}'s nodes; one that fits every node when nothing constrains the pod (kube's
   *     Skip)
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var affinityTerms = InterPodAffinityTerms.resolve(pod, pod.podAffinity().required(), cluster);
    var antiAffinityTerms = InterPodAffinityTerms.resolve(pod, pod.podAntiAffinity().required(), cluster);
    var namespaceLabels = cluster.namespaceLabels(pod.namespace());

    var withAntiAffinity = cluster.nodesWithRequiredPodAntiAffinity();
    var existingAntiAffinity = new TopologyCounts(withAntiAffinity.size());
    var selectsPod = new InterPodAffinityTerms.ExistingTermMatches(pod, namespaceLabels);
    for (var node : withAntiAffinity) {
      var pods = node.pods();
      for (int i = 0; i < pods.size(); i++) {
        var existing = pods.get(i);
        var terms = existing.podAntiAffinity().required();
        for (int t = 0; t < terms.size(); t++) {
          var term = terms.get(t);
          if (selectsPod.test(term, existing)) {
            existingAntiAffinity.add(node, term.topologyKey(), 1);
          }
        }
      }
    }

    var affinity = new TopologyCounts(affinityTerms.isEmpty() ? 0 : cluster.nodes().size());
    var antiAffinity = new TopologyCounts(antiAffinityTerms.isEmpty() ? 0 : cluster.nodes().size());
    if (!affinityTerms.isEmpty() || !antiAffinityTerms.isEmpty()) {
      var affinitySelected = InterPodAffinityTerms.selected(affinityTerms);
      var antiAffinitySelected = InterPodAffinityTerms.selected(antiAffinityTerms);
      for (var node : cluster.nodes()) {
        // Indexed: an iterator per node (5 000 of them at that size) is not optimised away here.
        var pods = node.pods();
        for (int i = 0; i < pods.size(); i++) {
          var existing = pods.get(i);
          if (InterPodAffinityTerms.matchesAll(affinityTerms, affinitySelected, existing)) {
            for (var term : affinityTerms) {
              affinity.add(node, term.topologyKey(), 1);
            }
          }
          for (int t = 0; t < antiAffinityTerms.size(); t++) {
            var term = antiAffinityTerms.get(t);
            if (term.matches(existing, antiAffinitySelected[t])) {
              antiAffinity.add(node, term.topologyKey(), 1);
            }
          }
        }
      }
    }

    boolean skip = existingAntiAffinity.isEmpty() && affinityTerms.isEmpty() && antiAffinityTerms.isEmpty();
    return new Prepared(
        skip,
        affinityTerms,
        antiAffinityTerms,
        affinity,
        antiAffinity,
        existingAntiAffinity,
        List.copyOf(existingAntiAffinity.keys()),
        InterPodAffinityTerms.matchesAll(affinityTerms, pod),
        pod,
        namespaceLabels);
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * One pod's filter: kube's {@code preFilterState}. Its counts are not changed after construction; {@link
   * #track()} copies them.
   *
   * @param skipped whether nothing constrains the pod, so every node fits (kube's PreFilter Skip)
   * @param affinityTerms the pod's required affinity terms, resolved
   * @param antiAffinityTerms the pod's required anti-affinity terms, resolved
   * @param affinity per domain, the pods matching all of {@code affinityTerms} (once per term)
   * @param antiAffinity per domain, the pods matching each of {@code antiAffinityTerms} (once per term)
   * @param existingAntiAffinity per domain, the existing pods' required anti-affinity terms the pod matches
   * @param existingAntiAffinityKeys the topology keys of {@code existingAntiAffinity}
   * @param matchesOwnAffinity whether the pod matches all of its own affinity terms
   * @param pod the pod the filter was prepared for (kube's preemptor in {@code AddPod}/{@code RemovePod})
   * @param namespaceLabels the labels of {@code pod}'s namespace, as other pods' terms match it
   */
  record Prepared(
      boolean skipped,
      List<Term> affinityTerms,
      List<Term> antiAffinityTerms,
      TopologyCounts affinity,
      TopologyCounts antiAffinity,
      TopologyCounts existingAntiAffinity,
      List<String> existingAntiAffinityKeys,
      boolean matchesOwnAffinity,
      PodInfo pod,
      Map<String, String> namespaceLabels)
      implements Filter, PodTracking {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return READS;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      if (skipped) {
        return FilterResult.fit();
      }
      return check(
          node, affinityTerms, antiAffinityTerms, affinity, antiAffinity, existingAntiAffinity,
          existingAntiAffinityKeys, matchesOwnAffinity);
    }

    /**
     * Kube's {@code CycleState.Clone} of this state, for {@code AddPod}/{@code RemovePod}. When the PreFilter was
     * skipped, kube calls neither extension nor the filter: the tracker then fits every node whatever it is told.
     *
     * @return a tracker with copies of the three counts; O(counts)
     */
    @Override
    public PodTracking.Tracker track() {
      if (skipped) {
        return new Untracked(NAME);
      }
      return new CountsTracker(this);
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }

  /**
   * A private, mutable copy of a {@link Prepared} filter's counts that follows the pods added and removed, as
   * kube's {@code preFilterState.updateWithPod}: for a pod on node {@code N} (multiplier +1 or -1),
   *
   * <ul>
   *   <li>each of the pod's required anti-affinity terms that selects the prepared pod changes the existing
   *       anti-affinity count of {@code N}'s domain of the term's key;
   *   <li>if the pod matches all the prepared pod's affinity terms, each term's count of {@code N}'s domain
   *       changes;
   *   <li>each of the prepared pod's anti-affinity terms that selects the pod changes its count of {@code N}'s
   *       domain.
   * </ul>
   *
   * A count reaching 0 is removed, so the first pod of a group with affinity to itself may again go anywhere
   * once the last matching pod is removed. Confined to the thread that took it.
   */
  static final class CountsTracker implements PodTracking.Tracker {
    private final Prepared prepared;
    private final TopologyCounts affinity;
    private final TopologyCounts antiAffinity;
    private final TopologyCounts existingAntiAffinity;

    CountsTracker(Prepared prepared) {
      this.prepared = prepared;
      this.affinity = prepared.affinity().copy();
      this.antiAffinity = prepared.antiAffinity().copy();
      this.existingAntiAffinity = prepared.existingAntiAffinity().copy();
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return READS;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return check(
          node,
          prepared.affinityTerms(),
          prepared.antiAffinityTerms(),
          affinity,
          antiAffinity,
          existingAntiAffinity,
          existingAntiAffinity.keys(),
          prepared.matchesOwnAffinity());
    }

    @Override
    public void addPod(PodInfo pod, NodeInfo node) {
      update(pod, node, 1);
    }

    @Override
    public void removePod(PodInfo pod, NodeInfo node) {
      update(pod, node, -1);
    }

    private void update(PodInfo pod, NodeInfo node, long multiplier) {
      for (var term : pod.podAntiAffinity().required()) {
        if (InterPodAffinityTerms.matches(term, pod, prepared.pod(), prepared.namespaceLabels())) {
          existingAntiAffinity.update(node, term.topologyKey(), multiplier);
        }
      }
      if (InterPodAffinityTerms.matchesAll(prepared.affinityTerms(), pod)) {
        for (var term : prepared.affinityTerms()) {
          affinity.update(node, term.topologyKey(), multiplier);
        }
      }
      for (var term : prepared.antiAffinityTerms()) {
        if (term.matches(pod)) {
          antiAffinity.update(node, term.topologyKey(), multiplier);
        }
      }
    }

    /** @return the affinity counts, for tests */
    TopologyCounts affinity() {
      return affinity;
    }

    /** @return the anti-affinity counts, for tests */
    TopologyCounts antiAffinity() {
      return antiAffinity;
    }

    /** @return the existing pods' anti-affinity counts, for tests */
    TopologyCounts existingAntiAffinity() {
      return existingAntiAffinity;
    }

    @Override
    public String toString() {
      return NAME + "{tracker}";
    }
  }

  /** Kube's Filter on a {@code preFilterState}: the first rule the node breaks, or a fit. */
  private static FilterResult check(
      NodeInfo node,
      List<Term> affinityTerms,
      List<Term> antiAffinityTerms,
      TopologyCounts affinity,
      TopologyCounts antiAffinity,
      TopologyCounts existingAntiAffinity,
      Collection<String> existingAntiAffinityKeys,
      boolean matchesOwnAffinity) {
    if (!satisfiesAffinity(node, affinityTerms, affinity, matchesOwnAffinity)) {
      return AFFINITY_REJECTED;
    }
    if (!antiAffinity.isEmpty()) {
      for (var term : antiAffinityTerms) {
        if (antiAffinity.get(node, term.topologyKey()) > 0) {
          return ANTI_AFFINITY_REJECTED;
        }
      }
    }
    for (var key : existingAntiAffinityKeys) {
      if (existingAntiAffinity.get(node, key) > 0) {
        return EXISTING_ANTI_AFFINITY_REJECTED;
      }
    }
    return FilterResult.fit();
  }

  private static boolean satisfiesAffinity(
      NodeInfo node, List<Term> affinityTerms, TopologyCounts affinity, boolean matchesOwnAffinity) {
    if (affinityTerms.isEmpty()) {
      return true;
    }
    boolean podsExist = true;
    for (var term : affinityTerms) {
      var value = node.labels().get(term.topologyKey());
      if (value == null) {
        return false;
      }
      if (affinity.get(term.topologyKey(), value) <= 0) {
        podsExist = false;
      }
    }
    // The first pod of a group with affinity to itself may go anywhere its topology keys exist.
    return podsExist || (affinity.isEmpty() && matchesOwnAffinity);
  }
}
