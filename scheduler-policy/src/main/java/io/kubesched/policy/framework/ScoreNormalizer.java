package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import org.apiguardian.api.API;

/**
 * An optional capability of a {@link Scorer}: its raw scores are mapped into {@code 0..}{@link
 * Scorer#MAX_SCORE} once all feasible nodes are scored, as kube-scheduler's {@code NormalizeScore}.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface ScoreNormalizer {

  /**
   * Replaces, in place, the raw scores of the feasible nodes by normalised ones. Called once per pod, from
   * the scheduling thread, after {@link Scorer#score} was called for every feasible node (possibly from
   * several threads: what normalising needs to know of a node it reads from {@code nodes}, not from state
   * kept while scoring).
   *
   * @param pod the pod being placed
   * @param nodes the feasible nodes
   * @param scores the raw scores, {@code scores[i]} being that of {@code nodes.get(i)}; the policy reuses the
   *     array for later decisions, so it is the normalizer's only during this call
   */
  void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores);
}
