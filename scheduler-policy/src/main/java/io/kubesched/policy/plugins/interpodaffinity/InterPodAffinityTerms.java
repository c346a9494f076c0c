package io.kubesched.policy.plugins.interpodaffinity;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WeightedPodAffinityTerm;
import io.kubesched.policy.plugins.helper.LabelMatches;
import io.kubesched.policy.plugins.helper.RecentAnswers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Pod affinity terms as kube-scheduler 1.37 matches them ({@code framework.AffinityTerm}), shared by {@link
 * InterPodAffinityFilter} and {@link InterPodAffinityScorer}.
 *
 * <p>A term selects a pod when the pod's namespace is one the term looks in and the pod's labels match the
 * term's label selector; a term without a label selector selects no pod. The namespaces are the term's
 * {@code namespaces}, or the owner's own namespace when both {@code namespaces} and {@code namespaceSelector}
 * are unset, plus every namespace whose labels the {@code namespaceSelector} matches; an empty (non-null)
 * {@code namespaceSelector} matches every namespace.
 *
 * <p>Two forms, as in kube:
 *
 * <ul>
 *   <li>The incoming pod's own terms are {@link #resolve resolved} once per pod: the namespaces a non-empty
 *       {@code namespaceSelector} selects are looked up among the snapshot's namespaces and added to the
 *       name set (a namespace the snapshot does not know is never selected), so matching an existing pod
 *       needs no namespace labels.
 *   <li>An existing pod's terms are matched against the incoming pod {@link #matches(PodAffinityTerm, PodInfo,
 *       PodInfo, Map) as they are}, with the labels of the incoming pod's namespace (empty if unknown).
 * </ul>
 *
 * <p>{@link PodAffinityTerm#matchLabelKeys()} and {@link PodAffinityTerm#mismatchLabelKeys()} are not read:
 * in Kubernetes 1.37 the API server merges them into the label selector when the pod is created, and
 * kube-scheduler reads only the selector.
 */
final class InterPodAffinityTerms {

  private InterPodAffinityTerms() {}

  /**
   * One of the incoming pod's terms, with its namespace selector resolved.
   *
   * @param selector the term's label selector; null selects no pod
   * @param namespaces the namespaces the term looks in, by name
   * @param allNamespaces whether the term looks in every namespace (an empty namespace selector)
   * @param topologyKey the node label of the term's topology domain
   * @param weight the term's weight; 0 for a required term
   */
  record Term(
      @Nullable LabelSelector selector,
      Set<String> namespaces,
      boolean allNamespaces,
      String topologyKey,
      int weight) {

    /** @return whether {@code pod} is in the term's namespaces and its labels match the selector */
    boolean matches(PodInfo pod) {
      return selector != null && looksIn(pod.namespace()) && selector.matches(pod.labels());
    }

    /**
     * {@link #matches(PodInfo)} through {@code selected}, which remembers the selector's answers over one walk.
     *
     * @param selected this term's {@link #selected()}, confined to the calling thread
     */
    boolean matches(PodInfo pod, LabelMatches selected) {
      return looksIn(pod.namespace()) && selected.test(pod.labels());
    }

    /** @return this term's selector, to ask over one walk of the cluster's pods */
    LabelMatches selected() {
      return new LabelMatches(selector);
    }

    private boolean looksIn(String namespace) {
      return allNamespaces || namespaces.contains(namespace);
    }
  }

  /** @return {@code owner}'s required terms, resolved against {@code cluster}'s namespaces */
  static List<Term> resolve(PodInfo owner, List<PodAffinityTerm> terms, ClusterSnapshot cluster) {
    if (terms.isEmpty()) {
      return List.of();
    }
    var resolved = new ArrayList<Term>(terms.size());
    for (var term : terms) {
      resolved.add(resolve(owner, term, 0, cluster));
    }
    return List.copyOf(resolved);
  }

  /** @return {@code owner}'s preferred terms, resolved against {@code cluster}'s namespaces */
  static List<Term> resolveWeighted(
      PodInfo owner, List<WeightedPodAffinityTerm> terms, ClusterSnapshot cluster) {
    if (terms.isEmpty()) {
      return List.of();
    }
    var resolved = new ArrayList<Term>(terms.size());
    for (var weighted : terms) {
      resolved.add(resolve(owner, weighted.term(), weighted.weight(), cluster));
    }
    return List.copyOf(resolved);
  }

  private static Term resolve(PodInfo owner, PodAffinityTerm term, int weight, ClusterSnapshot cluster) {
    var nsSelector = term.namespaceSelector();
    if (nsSelector == null) {
      var names = term.namespaces().isEmpty() ? Set.of(owner.namespace()) : term.namespaces();
      return new Term(term.labelSelector(), names, false, term.topologyKey(), weight);
    }
    if (nsSelector.isEmpty()) {
      return new Term(term.labelSelector(), term.namespaces(), true, term.topologyKey(), weight);
    }
    var names = new HashSet<>(term.namespaces());
    cluster.namespaces().forEach((name, labels) -> {
      if (nsSelector.matches(labels)) {
        names.add(name);
      }
    });
    return new Term(term.labelSelector(), Set.copyOf(names), false, term.topologyKey(), weight);
  }

  /**
   * Whether {@code term}, a term of the existing pod {@code owner}, selects {@code target}, the incoming pod.
   *
   * @param targetNamespaceLabels the labels of {@code target}'s namespace; empty if the snapshot does not know it
   */
  static boolean matches(
      PodAffinityTerm term, PodInfo owner, PodInfo target, Map<String, String> targetNamespaceLabels) {
    var selector = term.labelSelector();
    if (selector == null) {
      return false;
    }
    var nsSelector = term.namespaceSelector();
    boolean inNamespace =
        term.namespaces().isEmpty() && nsSelector == null
            ? owner.namespace().equals(target.namespace())
            : term.namespaces().contains(target.namespace())
                || (nsSelector != null && nsSelector.matches(targetNamespaceLabels));
    return inNamespace && selector.matches(target.labels());
  }

  /**
   * Whether {@code term}, a term of {@code owner}, may select {@code target} when the labels of namespaces are not
   * known (a queueing hint): as {@link #matches(PodAffinityTerm, PodInfo, PodInfo, Map)}, except that a non-empty
   * namespace selector is taken to select {@code target}'s namespace.
   */
  static boolean mayMatch(PodAffinityTerm term, PodInfo owner, PodInfo target) {
    var nsSelector = term.namespaceSelector();
    if (nsSelector != null && !nsSelector.isEmpty()) {
      var selector = term.labelSelector();
      return selector != null && selector.matches(target.labels());
    }
    return matches(term, owner, target, Map.of());
  }

  /**
   * The existing pods' terms asked, over one walk, whether they select one incoming pod ({@link
   * #matches(PodAffinityTerm, PodInfo, PodInfo, Map)}), remembering the {@linkplain RecentAnswers recent
   * answers} by term and owner's namespace: the pods of one workload share one term instance. Mutable, and
   * confined to the one thread that walks.
   */
  static final class ExistingTermMatches {
    private final PodInfo target;
    private final Map<String, String> targetNamespaceLabels;
    private final RecentAnswers recent = new RecentAnswers();

    /**
     * @param target the incoming pod
     * @param targetNamespaceLabels the labels of its namespace; empty if the snapshot does not know it
     */
    ExistingTermMatches(PodInfo target, Map<String, String> targetNamespaceLabels) {
      this.target = target;
      this.targetNamespaceLabels = targetNamespaceLabels;
    }

    /** @return whether {@code term}, a term of {@code owner}, selects the incoming pod */
    boolean test(PodAffinityTerm term, PodInfo owner) {
      // The owner's namespace is part of the key: a term without namespaces looks in its owner's.
      int slot = recent.find(term, owner.namespace());
      return slot >= 0
          ? recent.answer(slot)
          : recent.remember(term, owner.namespace(), matches(term, owner, target, targetNamespaceLabels));
    }
  }

  /** @return whether {@code terms} is not empty and {@code pod} matches every one of them */
  static boolean matchesAll(List<Term> terms, PodInfo pod) {
    if (terms.isEmpty()) {
      return false;
    }
    for (var term : terms) {
      if (!term.matches(pod)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #matchesAll(List, PodInfo)} through {@code selected}, which remember the terms' answers over one walk.
   *
   * @param selected each term's {@link Term#selected()}, by index, confined to the calling thread
   */
  static boolean matchesAll(List<Term> terms, LabelMatches[] selected, PodInfo pod) {
    if (terms.isEmpty()) {
      return false;
    }
    for (int i = 0; i < terms.size(); i++) {
      if (!terms.get(i).matches(pod, selected[i])) {
        return false;
      }
    }
    return true;
  }

  /** @return each term's {@link Term#selected()}, by index */
  static LabelMatches[] selected(List<Term> terms) {
    var selected = new LabelMatches[terms.size()];
    for (int i = 0; i < selected.length; i++) {
      selected[i] = terms.get(i).selected();
    }
    return selected;
  }

  /**
   * Counts per topology domain ({@code topologyKey -> value -> count}), kube's {@code
   * topologyToMatchedTermCount} and the scorer's {@code scoreMap}. Not thread-safe while being filled.
   */
  static final class TopologyCounts {
    /** {@link HashMap}'s default initial capacity. */
    private static final int DEFAULT_CAPACITY = 16;

    private final Map<String, Map<String, Long>> counts;
    /** The initial capacity of a topology key's map of domains. */
    private final int domainCapacity;

    /** Counts whose topology keys' maps start at the JDK's default size. */
    TopologyCounts() {
      this(0);
    }

    /**
     * @param nodes how many nodes will be added at most: a topology key's domains are sized for as many at once
     *     (the hostname has a domain per node), rather than grown by doubling as a walk adds them; never below
     *     the JDK's default size
     */
    TopologyCounts(int nodes) {
      this(new HashMap<>(), Math.max(DEFAULT_CAPACITY, (int) (nodes / 0.75f) + 1));
    }

    private TopologyCounts(Map<String, Map<String, Long>> counts, int domainCapacity) {
      this.counts = counts;
      this.domainCapacity = domainCapacity;
    }

    /** @return an independent copy of these counts (kube's {@code topologyToMatchedTermCount.clone}) */
    TopologyCounts copy() {
      var copy = new HashMap<String, Map<String, Long>>(counts.size() * 2);
      counts.forEach((key, values) -> copy.put(key, new HashMap<>(values)));
      return new TopologyCounts(copy, domainCapacity);
    }

    /**
     * Kube's {@code topologyToMatchedTermCount.update}: adds {@code delta} (possibly negative) to the domain
     * {@code node} is in for {@code topologyKey}, if it is in one, and removes the domain's entry when its count
     * reaches 0, so that counts emptied again are {@linkplain #isEmpty() empty}. A count may go below 0, as in
     * kube, when a pod never counted is removed.
     */
    void update(NodeInfo node, String topologyKey, long delta) {
      var value = node.labels().get(topologyKey);
      if (value == null) {
        return;
      }
      var values = counts.computeIfAbsent(topologyKey, k -> new HashMap<>(domainCapacity));
      long count = values.getOrDefault(value, 0L) + delta;
      if (count == 0) {
        values.remove(value);
        if (values.isEmpty()) {
          counts.remove(topologyKey);
        }
      } else {
        values.put(value, count);
      }
    }

    /** Adds {@code amount} to the domain {@code node} is in for {@code topologyKey}, if it is in one. */
    void add(NodeInfo node, String topologyKey, long amount) {
      var value = node.labels().get(topologyKey);
      if (value != null) {
        counts.computeIfAbsent(topologyKey, k -> new HashMap<>(domainCapacity)).merge(value, amount, Long::sum);
      }
    }

    /** @return the count of the domain {@code topologyKey = value}; 0 if none was added */
    long get(String topologyKey, String value) {
      var values = counts.get(topologyKey);
      if (values == null) {
        return 0;
      }
      return values.getOrDefault(value, 0L);
    }

    /** @return the count of the domain {@code node} is in for {@code topologyKey}; 0 if it is in none */
    long get(NodeInfo node, String topologyKey) {
      var value = node.labels().get(topologyKey);
      return value == null ? 0 : get(topologyKey, value);
    }

    /** @return whether nothing was added */
    boolean isEmpty() {
      return counts.isEmpty();
    }

    /** @return the topology keys something was added for */
    Set<String> keys() {
      return counts.keySet();
    }

    /** @return the sum of the counts of every domain {@code node} is in */
    long sumOver(NodeInfo node) {
      long sum = 0;
      for (var entry : counts.entrySet()) {
        var value = node.labels().get(entry.getKey());
        if (value != null) {
          sum += entry.getValue().getOrDefault(value, 0L);
        }
      }
      return sum;
    }

    /** @return a copy of the counts, {@code topologyKey -> value -> count}, for tests and explanations */
    Map<String, Map<String, Long>> asMap() {
      var copy = new HashMap<String, Map<String, Long>>();
      counts.forEach((key, values) -> copy.put(key, Map.copyOf(values)));
      return Map.copyOf(copy);
    }
  }
}
