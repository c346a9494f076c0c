package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterData;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Ranks a node that passed every filter, as a kube-scheduler score plugin does.
 *
 * <p>A scorer is a pure function of its arguments. The {@link io.kubesched.policy.Policy} calls it for each feasible
 * node; a policy {@linkplain io.kubesched.policy.Policy#withParallelism sharing its node loop out} calls one scorer (as
 * it is, or as its {@link PreScorer#prepare} returned it) concurrently for different nodes of one pod, in no particular
 * order, so it must be safe for that and keep no state from one node to the next. Its scores must lie in {@code
 * 0..}{@link #MAX_SCORE}, unless it also implements {@link ScoreNormalizer}, which then maps the raw scores of
 * all feasible nodes into that range, given the nodes beside them. A scorer that needs to see every node
 * first (for example how many nodes hold an image) implements {@link PreScorer}.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface Scorer {

  /** The highest score of one scorer for one node, as kube-scheduler's {@code MaxNodeScore}. */
  long MAX_SCORE = 100;

  /** @return the scorer's name, as explanations and Policy files show it */
  String name();

  /**
   * @param pod the pod to place
   * @param node a node every filter accepted
   * @return the node's score: {@code 0..MAX_SCORE}, or a raw value if this is a {@link ScoreNormalizer}
   */
  long score(PodInfo pod, NodeInfo node);

  /**
   * @return the parts of the cluster beyond nodes and pods this plugin reads from the {@link
   *     io.kubesched.api.ClusterSnapshot} (see {@link io.kubesched.api.FinderFunc#reads()}); none by default
   */
  default Set<ClusterData> reads() {
    return Set.of();
  }
}
