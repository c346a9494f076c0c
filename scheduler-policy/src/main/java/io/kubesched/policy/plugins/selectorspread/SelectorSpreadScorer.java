package io.kubesched.policy.plugins.selectorspread;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Spreads the pods of one controller over nodes and zones: kube-scheduler's former {@code SelectorSpread}
 * plugin ({@code SelectorSpreadPriority} before it), removed from kube in 1.26 in favour of default topology
 * spread constraints.
 *
 * <p>A node's raw score is how many of its pods belong to the pod's set. The raw scores of the feasible nodes
 * are then normalised as the old plugin's {@code NormalizeScore} did: a node scores {@code 100 * (max - count) /
 * max} (100 when no node has any), and if any feasible node carries a zone ({@value #ZONE_LABEL} or its
 * deprecated beta label, with the region), zoned nodes score {@code 1/3} of that plus {@code 2/3} of the same
 * formula over the per-zone sums, in floating point, truncated.
 *
 * <p>Deviation: kube selected the pods of the set by the label selectors of the Services, ReplicationControllers,
 * ReplicaSets and StatefulSets that select the pod. This model has no Services or controller selectors, so the
 * set is the pods in the pod's namespace with the same {@linkplain PodInfo#controller() controller} (same
 * owner uid). A pod without a controller therefore scores every node equally (100), as kube scored a pod that
 * no Service or controller selects. Kube also skipped pods being deleted and pods with topology spread
 * constraints, which this model does not carry.
 *
 * <p>This scorer scores only through {@link #prepare}, which returns a scorer for the pod whose {@link
 * ScoreNormalizer#normalize} sums per zone over the feasible nodes. Both are immutable and thread-safe.
 */
public final class SelectorSpreadScorer implements Scorer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "SelectorSpread";

  /** The node label naming its zone. */
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  /** The node label naming its region. */
  public static final String REGION_LABEL = "topology.kubernetes.io/region";

  /** The deprecated node label naming its zone, preferred by kube's zone key when present. */
  public static final String BETA_ZONE_LABEL = "failure-domain.beta.kubernetes.io/zone";

  /** The deprecated node label naming its region, preferred by kube's zone key when present. */
  public static final String BETA_REGION_LABEL = "failure-domain.beta.kubernetes.io/region";

  private static final double ZONE_WEIGHTING = 2.0 / 3.0;

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Not supported: the score needs the feasible nodes' zones, so this scorer is used through {@link #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /**
   * @return a scorer for {@code pod}'s feasible nodes: it scores a node by the number of pods of {@code pod}'s
   *     set on it, and normalises those counts, per node and per zone, once all feasible nodes are scored
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    return new Prepared(pod.namespace(), pod.controller().map(Owner::uid).orElse(null));
  }

  /**
   * kube's {@code GetZoneKey}: the node's region and zone joined by {@code ":\0:"} (the beta labels win when
   * present), or empty when the node has neither.
   */
  static String zoneKey(NodeInfo node) {
    Map<String, String> labels = node.labels();
    String zone = labels.containsKey(BETA_ZONE_LABEL)
        ? labels.get(BETA_ZONE_LABEL)
        : labels.getOrDefault(ZONE_LABEL, "");
    String region = labels.containsKey(BETA_REGION_LABEL)
        ? labels.get(BETA_REGION_LABEL)
        : labels.getOrDefault(REGION_LABEL, "");
    if (region.isEmpty() && zone.isEmpty()) {
      return "";
    }
    return region + ":\0:" + zone;
  }

  /** One pod's scoring: its namespace and controller. Immutable and thread-safe. */
  private static final class Prepared implements Scorer, ScoreNormalizer {
    private final String namespace;
    private final @Nullable String controllerUid;

    Prepared(String namespace, @Nullable String controllerUid) {
      this.namespace = namespace;
      this.controllerUid = controllerUid;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      if (controllerUid == null) {
        return 0;
      }
      long count = 0;
      for (var placed : node.pods()) {
        var owner = placed.owner();
        if (owner != null && controllerUid.equals(owner.uid()) && namespace.equals(placed.namespace())) {
          count++;
        }
      }
      return count;
    }

    /** @throws IllegalArgumentException if {@code scores} does not hold one score per node */
    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.requireOnePerNode(NAME, nodes, scores);
      var zones = new String[scores.length];
      var countsByZone = new HashMap<String, Long>();
      long maxCountByNode = 0;
      for (int i = 0; i < scores.length; i++) {
        zones[i] = zoneKey(nodes.get(i));
        maxCountByNode = Math.max(maxCountByNode, scores[i]);
        if (!zones[i].isEmpty()) {
          countsByZone.merge(zones[i], scores[i], Long::sum);
        }
      }
      long maxCountByZone = 0;
      for (long count : countsByZone.values()) {
        maxCountByZone = Math.max(maxCountByZone, count);
      }
      boolean haveZones = !countsByZone.isEmpty();
      double max = MAX_SCORE;
      for (int i = 0; i < scores.length; i++) {
        double score = max;
        if (maxCountByNode > 0) {
          score = max * ((double) (maxCountByNode - scores[i]) / (double) maxCountByNode);
        }
        String zone = zones[i];
        if (haveZones && !zone.isEmpty()) {
          double zoneScore = max;
          if (maxCountByZone > 0) {
            zoneScore = max * ((double) (maxCountByZone - countsByZone.get(zone)) / (double) maxCountByZone);
          }
          score = (score * (1.0 - ZONE_WEIGHTING)) + (ZONE_WEIGHTING * zoneScore);
        }
        scores[i] = (long) score;
      }
    }
  }
}
