package io.kubesched.policy.plugins;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Filter;
import io.kubesched.policy.FilterResult;
import io.kubesched.policy.PreFilter;
import io.kubesched.policy.Reason;
import io.kubesched.policy.plugins.InterPodAffinityTerms.Term;
import io.kubesched.policy.plugins.InterPodAffinityTerms.TopologyCounts;
import java.util.List;
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
 * <p>Immutable and thread-safe, as are the filters it prepares.
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

  /** @return {@link ClusterData#NAMESPACES}: namespace selectors match namespaces' labels */
  @Override
  public Set<ClusterData> reads() {
    return Set.of(ClusterData.NAMESPACES);
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

    var existingAntiAffinity = new TopologyCounts();
    for (var node : cluster.nodesWithRequiredPodAntiAffinity()) {
      for (var existing : node.pods()) {
        for (var term : existing.podAntiAffinity().required()) {
          if (InterPodAffinityTerms.matches(term, existing, pod, namespaceLabels)) {
            existingAntiAffinity.add(node, term.topologyKey(), 1);
          }
        }
      }
    }

    var affinity = new TopologyCounts();
    var antiAffinity = new TopologyCounts();
    if (!affinityTerms.isEmpty() || !antiAffinityTerms.isEmpty()) {
      for (var node : cluster.nodes()) {
        for (var existing : node.pods()) {
          if (InterPodAffinityTerms.matchesAll(affinityTerms, existing)) {
            for (var term : affinityTerms) {
              affinity.add(node, term.topologyKey(), 1);
            }
          }
          for (var term : antiAffinityTerms) {
            if (term.matches(existing)) {
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
        InterPodAffinityTerms.matchesAll(affinityTerms, pod));
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * One pod's filter: kube's {@code preFilterState}. Its counts are not changed after construction.
   *
   * @param skipped whether nothing constrains the pod, so every node fits (kube's PreFilter Skip)
   * @param affinityTerms the pod's required affinity terms, resolved
   * @param antiAffinityTerms the pod's required anti-affinity terms, resolved
   * @param affinity per domain, the pods matching all of {@code affinityTerms} (once per term)
   * @param antiAffinity per domain, the pods matching each of {@code antiAffinityTerms} (once per term)
   * @param existingAntiAffinity per domain, the existing pods' required anti-affinity terms the pod matches
   * @param existingAntiAffinityKeys the topology keys of {@code existingAntiAffinity}
   * @param matchesOwnAffinity whether the pod matches all of its own affinity terms
   */
  record Prepared(
      boolean skipped,
      List<Term> affinityTerms,
      List<Term> antiAffinityTerms,
      TopologyCounts affinity,
      TopologyCounts antiAffinity,
      TopologyCounts existingAntiAffinity,
      List<String> existingAntiAffinityKeys,
      boolean matchesOwnAffinity)
      implements Filter {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return Set.of(ClusterData.NAMESPACES);
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      if (skipped) {
        return FilterResult.fit();
      }
      if (!satisfiesAffinity(node)) {
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

    private boolean satisfiesAffinity(NodeInfo node) {
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

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }
}
