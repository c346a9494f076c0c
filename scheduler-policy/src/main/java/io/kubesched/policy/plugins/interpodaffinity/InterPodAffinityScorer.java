package io.kubesched.policy.plugins.interpodaffinity;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityTerms.Term;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityTerms.TopologyCounts;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's {@code InterPodAffinity} score (PreScore, Score and NormalizeScore), as of 1.37.
 *
 * <p>Once per pod, {@link #prepare} sums weights per topology domain over the existing pods: for each pod
 * an incoming pod's preferred affinity term selects, {@code +weight} in that term's domain of the existing
 * pod's node; for each its preferred anti-affinity term selects, {@code -weight}; for each required affinity
 * term of an existing pod that selects the incoming pod, {@code +hardPodAffinityWeight}; for each preferred
 * affinity or anti-affinity term of an existing pod that selects the incoming pod, {@code ±weight}. Pods on
 * nodes without labels count nothing. A node's raw score is the sum over the domains it is in; the raw
 * scores of the feasible nodes are then mapped linearly onto {@code 0..100} (lowest 0, highest 100, all 0
 * when they are equal), truncated.
 *
 * <p>As kube's PreScore, it scores every node 0 (Skip) when nothing was counted, and, when {@code
 * ignorePreferredTermsOfExistingPods} is set and the pod has no preferred terms of its own, without counting
 * at all (which then also ignores existing pods' required affinity). When the pod has no preferred terms,
 * only the pods of {@link ClusterSnapshot#nodesWithPodAffinity()} are visited; otherwise every pod of the
 * cluster, each against each term.
 *
 * <p>{@link #score} on this unprepared scorer throws: the score exists only relative to the counts {@link
 * #prepare} makes. Immutable and thread-safe, as are the scorers it prepares.
 */
public final class InterPodAffinityScorer implements Scorer, PreScorer {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "InterPodAffinity";

  /** kube-scheduler's default {@code hardPodAffinityWeight}, {@value}. */
  public static final int DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;

  /** The largest {@code hardPodAffinityWeight} kube-scheduler accepts, {@value}. */
  public static final int MAX_HARD_POD_AFFINITY_WEIGHT = 100;

  private static final Scorer SKIPPED = new Skipped();

  private final int hardPodAffinityWeight;
  private final boolean ignorePreferredTermsOfExistingPods;

  /** Creates the scorer with kube-scheduler's defaults: hard pod affinity weight 1, preferred terms counted. */
  public InterPodAffinityScorer() {
    this(DEFAULT_HARD_POD_AFFINITY_WEIGHT, false);
  }

  /**
   * Creates the scorer with kube-scheduler's {@code InterPodAffinityArgs}.
   *
   * @param hardPodAffinityWeight the weight of an existing pod's required affinity term that selects the
   *     incoming pod: 0 (not counted) to 100
   * @param ignorePreferredTermsOfExistingPods whether to skip scoring altogether when the incoming pod has
   *     no preferred terms of its own
   * @throws IllegalArgumentException if {@code hardPodAffinityWeight} is outside 0..100
   */
  public InterPodAffinityScorer(int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods) {
    if (hardPodAffinityWeight < 0 || hardPodAffinityWeight > MAX_HARD_POD_AFFINITY_WEIGHT) {
      throw new IllegalArgumentException(
          "hardPodAffinityWeight must be 0 to " + MAX_HARD_POD_AFFINITY_WEIGHT + ", was "
              + hardPodAffinityWeight);
    }
    this.hardPodAffinityWeight = hardPodAffinityWeight;
    this.ignorePreferredTermsOfExistingPods = ignorePreferredTermsOfExistingPods;
  }

  /** @return the weight of an existing pod's required affinity term that selects the incoming pod */
  public int hardPodAffinityWeight() {
    return hardPodAffinityWeight;
  }

  /** @return whether scoring is skipped for pods without preferred terms of their own */
  public boolean ignorePreferredTermsOfExistingPods() {
    return ignorePreferredTermsOfExistingPods;
  }

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
   * Not supported: the score needs the counts of {@link #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /**
   * @param feasibleNodes not read: the counts come from every node of {@code cluster}, as kube's
   * @return the scorer of {@code pod}'s feasible nodes, a {@link ScoreNormalizer}; or one that scores every
   *     node 0 when nothing was counted (kube's Skip)
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    boolean hasPreferred = !pod.podAffinity().preferred().isEmpty() || !pod.podAntiAffinity().preferred().isEmpty();
    if (ignorePreferredTermsOfExistingPods && !hasPreferred) {
      return SKIPPED;
    }
    var counts = count(pod, cluster, hasPreferred);
    return counts.isEmpty() ? SKIPPED : new Prepared(counts);
  }

  private TopologyCounts count(PodInfo pod, ClusterSnapshot cluster, boolean hasPreferred) {
    var preferredAffinity = InterPodAffinityTerms.resolveWeighted(pod, pod.podAffinity().preferred(), cluster);
    var preferredAntiAffinity =
        InterPodAffinityTerms.resolveWeighted(pod, pod.podAntiAffinity().preferred(), cluster);
    var namespaceLabels = cluster.namespaceLabels(pod.namespace());
    var counts = new TopologyCounts();
    var nodes = hasPreferred ? cluster.nodes() : cluster.nodesWithPodAffinity();
    for (var node : nodes) {
      if (node.labels().isEmpty()) {
        continue;
      }
      // Indexed: an iterator per node is not optimised away here.
      var pods = node.pods();
      for (int i = 0; i < pods.size(); i++) {
        var existing = pods.get(i);
        // Without preferred terms of its own, the pod is scored by the existing pods' affinity and preferred
        // anti-affinity only: their required anti-affinity (the filter's) adds nothing.
        if (!hasPreferred && existing.podAffinity().isEmpty() && existing.podAntiAffinity().preferred().isEmpty()) {
          continue;
        }
        countExistingPod(pod, namespaceLabels, preferredAffinity, preferredAntiAffinity, existing, node, counts);
      }
    }
    return counts;
  }

  private void countExistingPod(
      PodInfo pod,
      Map<String, String> namespaceLabels,
      List<Term> preferredAffinity,
      List<Term> preferredAntiAffinity,
      PodInfo existing,
      NodeInfo node,
      TopologyCounts counts) {
    for (var term : preferredAffinity) {
      if (term.matches(existing)) {
        counts.add(node, term.topologyKey(), term.weight());
      }
    }
    for (var term : preferredAntiAffinity) {
      if (term.matches(existing)) {
        counts.add(node, term.topologyKey(), -term.weight());
      }
    }
    if (hardPodAffinityWeight > 0) {
      for (var term : existing.podAffinity().required()) {
        if (InterPodAffinityTerms.matches(term, existing, pod, namespaceLabels)) {
          counts.add(node, term.topologyKey(), hardPodAffinityWeight);
        }
      }
    }
    for (var weighted : existing.podAffinity().preferred()) {
      if (InterPodAffinityTerms.matches(weighted.term(), existing, pod, namespaceLabels)) {
        counts.add(node, weighted.term().topologyKey(), weighted.weight());
      }
    }
    for (var weighted : existing.podAntiAffinity().preferred()) {
      if (InterPodAffinityTerms.matches(weighted.term(), existing, pod, namespaceLabels)) {
        counts.add(node, weighted.term().topologyKey(), -weighted.weight());
      }
    }
  }

  /**
   * kube's {@code NormalizeScore}: {@code 100 × (score − min) / (max − min)}, truncated; all 0 when max equals
   * min.
   */
  static void normalizeScores(long[] scores) {
    if (scores.length == 0) {
      return;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long score : scores) {
      min = Math.min(min, score);
      max = Math.max(max, score);
    }
    long diff = max - min;
    for (int i = 0; i < scores.length; i++) {
      scores[i] = diff > 0 ? (long) ((double) MAX_SCORE * ((double) (scores[i] - min) / (double) diff)) : 0;
    }
  }

  @Override
  public String toString() {
    return NAME + "{hardPodAffinityWeight=" + hardPodAffinityWeight + ", ignorePreferredTermsOfExistingPods="
        + ignorePreferredTermsOfExistingPods + "}";
  }

  /** One pod's scorer: the weights per topology domain. Not changed after construction. */
  static final class Prepared implements Scorer, ScoreNormalizer {
    private final TopologyCounts counts;

    Prepared(TopologyCounts counts) {
      this.counts = counts;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return Set.of(ClusterData.NAMESPACES);
    }

    /** @return the raw score: the sum of the weights of the domains {@code node} is in */
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return counts.sumOver(node);
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      normalizeScores(scores);
    }

    /** @return the weights, {@code topologyKey -> value -> weight} */
    Map<String, Map<String, Long>> weights() {
      return counts.asMap();
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }

  /** The scorer of a pod nothing was counted for: every node scores 0, as kube skips the plugin. */
  static final class Skipped implements Scorer {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return Set.of(ClusterData.NAMESPACES);
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return 0;
    }

    @Override
    public String toString() {
      return NAME + "{skipped}";
    }
  }
}
