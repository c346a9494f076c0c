package io.kubesched.policy;

import io.kubesched.api.PodInfo;

/**
 * An optional capability of a {@link Scorer}: its raw scores are mapped into {@code 0..}{@link
 * Scorer#MAX_SCORE} once all feasible nodes are scored, as kube-scheduler's {@code NormalizeScore}.
 */
public interface ScoreNormalizer {

  /**
   * Replaces, in place, the raw scores of the feasible nodes by normalised ones. Called once per pod, from
   * the scheduling thread, after {@link Scorer#score} was called for every feasible node.
   *
   * @param pod the pod being placed
   * @param scores the raw scores, one per feasible node in the order they were scored
   */
  void normalize(PodInfo pod, long[] scores);
}
