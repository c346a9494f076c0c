package io.kubesched.samples.josdk.placement;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Scorer;

/**
 * A scorer that packs one team's pods onto the fewest nodes and keeps different teams apart: a node scores by the
 * share of the pod's team among the team-labelled pods already on it.
 *
 * <ul>
 *   <li>only the pod's team there: {@link Scorer#MAX_SCORE} (join the team's nodes before opening a new one);
 *   <li>no team-labelled pod there: {@link #NEUTRAL} (an empty node is the next best);
 *   <li>only other teams there: 0 (the penalty: go there only if nothing else fits);
 *   <li>both: {@code MAX_SCORE × same / (same + other)}.
 * </ul>
 *
 * <p>A team is the {@value #TEAM_LABEL} label. Pods without it (system pods, other workloads) count for no team
 * on a node, and a pod without it scores {@link #NEUTRAL} everywhere, so the other scorers decide for it. Pure and
 * stateless, as a {@link Scorer} must be: safe to call concurrently for different nodes.
 */
public final class TeamPacking implements Scorer {

  /** The scorer's name, as explanations show it. */
  public static final String NAME = "TeamPacking";

  /** The pod label that names a pod's team. */
  public static final String TEAM_LABEL = "samples.kubesched.io/team";

  /** The score of a node that holds no team's pod, or of any node for a pod without a team. */
  public static final long NEUTRAL = MAX_SCORE / 2;

  /**
   * The scorer's weight in {@link #policy()}: high enough that the gap between two of its cases (at least {@link
   * #NEUTRAL} × weight) outweighs the largest gap the default scorers left in the policy can open between nodes
   * that differ only in how full they are ({@code NodeResourcesBalancedAllocation}, {@link Scorer#MAX_SCORE} × 1).
   */
  public static final int WEIGHT = 10;

  /** The default scorer this policy replaces: it spreads pods over the emptiest nodes, the opposite of packing. */
  static final String REPLACED_SCORER = "NodeResourcesLeastAllocated";

  /**
   * kube-scheduler's default profile with one thing changed: least-allocated spreading replaced by this scorer
   * (weight {@value #WEIGHT}). Every default filter still applies, so a team packs only as far as the nodes' room,
   * taints and affinities allow.
   *
   * @return the sample's policy
   */
  public static Policy policy() {
    return DefaultPolicy.builder().removeScorer(REPLACED_SCORER).scorer(new TeamPacking(), WEIGHT).build();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    var team = pod.labels().get(TEAM_LABEL);
    if (team == null) {
      return NEUTRAL;
    }
    long same = 0;
    long other = 0;
    for (var placed : node.pods()) {
      var placedTeam = placed.labels().get(TEAM_LABEL);
      if (placedTeam == null) {
        continue;
      }
      if (placedTeam.equals(team)) {
        same++;
      } else {
        other++;
      }
    }
    return same + other == 0 ? NEUTRAL : MAX_SCORE * same / (same + other);
  }

  @Override
  public String toString() {
    return NAME;
  }
}
