package io.kubesched.policy.plugins.nodeaffinity;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.ArrayList;
import java.util.List;

/**
 * Favours nodes that match the pod's preferred node affinity: the score half of kube-scheduler's {@code
 * NodeAffinity} plugin (formerly {@code NodeAffinityPriority}).
 *
 * <p>A node's raw score is the sum of the weights of the preferred terms it {@linkplain NodeSelectors#matches
 * matches}: the pod's {@code preferredDuringSchedulingIgnoredDuringExecution} terms and the terms the scorer
 * adds to every pod (kube's {@code addedAffinity}). The raw scores are then normalised with kube's {@code
 * DefaultNormalizeScore}: {@code 100 * raw / max}, rounded down, 0 everywhere when no node matches.
 *
 * <p>Deviation: kube fails the scoring of a pod whose preferred term is malformed (the API server rejects such
 * pods, so only a pod it never saw could have one); here a malformed term matches no node, as {@link
 * NodeSelectors#matches} decides. A term with a weight below 1 (the API allows 1..100) is ignored, as kube
 * ignores weight 0, so scores stay in range.
 *
 * <p>As kube's {@code PreScore}, {@link #prepare} gathers the terms to score once per pod; {@link #score}
 * gathers them itself, with the same result. Immutable and thread-safe, and so are the scorers it prepares.
 */
public final class NodeAffinityScorer implements Scorer, ScoreNormalizer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "NodeAffinity";

  private final List<PreferredSchedulingTerm> addedPreferred;

  /** A scorer of the pod's own preferred terms only, as kube-scheduler's default profile. */
  public NodeAffinityScorer() {
    this(List.of());
  }

  /**
   * @param addedPreferred terms scored for every pod besides its own, kube's {@code
   *     NodeAffinityArgs.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution}
   * @throws IllegalArgumentException if a term's weight is outside 1..100
   */
  public NodeAffinityScorer(List<PreferredSchedulingTerm> addedPreferred) {
    for (var term : addedPreferred) {
      if (term.weight() < 1 || term.weight() > 100) {
        throw new IllegalArgumentException(
            NAME + " added preferred term weight must be in 1..100, was " + term.weight());
      }
    }
    this.addedPreferred = List.copyOf(addedPreferred);
  }

  /** @return the terms scored for every pod besides its own */
  public List<PreferredSchedulingTerm> addedPreferred() {
    return addedPreferred;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** @return the sum of the weights of the preferred terms {@code node} matches (a raw score) */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return weightOfMatches(addedPreferred, node) + weightOfMatches(pod.affinity().preferred(), node);
  }

  /** @return a scorer of {@code pod}'s and the added preferred terms on any node, normalising as this one */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    var terms = new ArrayList<PreferredSchedulingTerm>(addedPreferred);
    terms.addAll(pod.affinity().preferred());
    return new Prepared(List.copyOf(terms));
  }

  @Override
  public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    DefaultScoreNormalization.normalize(scores, false);
  }

  private static long weightOfMatches(List<PreferredSchedulingTerm> terms, NodeInfo node) {
    long sum = 0;
    for (int i = 0; i < terms.size(); i++) { // per scored node: no iterator (C1 does not remove them)
      var term = terms.get(i);
      if (term.weight() > 0 && NodeSelectors.matches(term.preference(), node)) {
        sum += term.weight();
      }
    }
    return sum;
  }

  /** One pod's scorer: the terms are fixed, the {@code pod} passed to {@link #score} is not read. */
  private static final class Prepared implements Scorer, ScoreNormalizer {
    private final List<PreferredSchedulingTerm> terms;

    Prepared(List<PreferredSchedulingTerm> terms) {
      this.terms = terms;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return weightOfMatches(terms, node);
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.normalize(scores, false);
    }
  }
}
