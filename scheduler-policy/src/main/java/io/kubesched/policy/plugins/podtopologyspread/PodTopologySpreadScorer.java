package io.kubesched.policy.plugins.podtopologyspread;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import io.kubesched.policy.plugins.podtopologyspread.TopologySpreading.Constraint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's {@code PodTopologySpread} scorer: prefers the nodes whose domains hold fewer of the pods the
 * pod's {@code ScheduleAnyway} topology spread constraints select.
 *
 * <p>The constraints are chosen as {@link PodTopologySpreadFilter}'s are (the pod's own, else the {@linkplain
 * PodTopologySpreadArgs default constraints} with the selector of its Services and controller). As kube's
 * PreScore, {@link #prepare} takes the domains of the feasible nodes, then counts the selected pods (in the
 * pod's namespace, not being deleted) of every node of the snapshot in those domains, honouring each
 * constraint's node inclusion policies. Unless the system default constraints are in use for a pod without
 * its own, a feasible node that lacks one of the topology keys is ignored: it scores 0 and is left out of
 * the normalisation, and nodes lacking a key are not counted. Constraints over {@value
 * PodTopologySpreadArgs#HOSTNAME_LABEL} are counted on the node itself when it is scored.
 *
 * <p>A node's raw score is, summed over the constraints whose key it has, {@code count × log(domains + 2) +
 * maxSkew - 1}, rounded (the number of domains being that of the feasible, not ignored, nodes). The raw
 * scores are then normalised as kube's NormalizeScore does: {@code 100 × (max + min - score) / max} in
 * integers, 100 for all when the highest raw score is 0. A pod without {@code ScheduleAnyway} constraints, or
 * a snapshot without nodes, scores 0 everywhere (kube skips the plugin). Preparing costs {@code O(nodes ×
 * constraints + pods × constraints)}.
 *
 * <p>This scorer scores only through {@link #prepare}, which returns a scorer for the pod's feasible nodes whose
 * {@link ScoreNormalizer#normalize} leaves the ignored ones out. Both are immutable and thread-safe.
 */
public final class PodTopologySpreadScorer implements Scorer, PreScorer {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "PodTopologySpread";

  private final PodTopologySpreadArgs args;

  /** Creates the scorer with kube's defaults ({@link PodTopologySpreadArgs#SYSTEM}). */
  public PodTopologySpreadScorer() {
    this(PodTopologySpreadArgs.SYSTEM);
  }

  /** Creates the scorer with the given default constraints. */
  public PodTopologySpreadScorer(PodTopologySpreadArgs args) {
    this.args = args;
  }

  /** @return the plugin's arguments */
  public PodTopologySpreadArgs args() {
    return args;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @return the selectors of Services, ReplicationControllers, ReplicaSets and StatefulSets when default
   *     constraints are in use; none otherwise
   */
  @Override
  public Set<ClusterData> reads() {
    return args.effectiveConstraints().isEmpty() ? Set.of() : TopologySpreading.WORKLOAD_SELECTORS;
  }

  /**
   * Not supported: the score needs the domains of the feasible nodes, so this scorer is used through {@link
   * #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /**
   * @return a scorer for {@code pod}'s feasible nodes, holding the selected pods' count per domain of each
   *     {@code ScheduleAnyway} constraint; one that scores 0 everywhere when there is nothing to score by
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    if (cluster.nodes().isEmpty()) {
      return Skipped.INSTANCE;
    }
    // Only the system defaults spare nodes without a zone label, so that hostname spreading still applies.
    boolean requireAllTopologies = !pod.topologySpreadConstraints().isEmpty() || !args.systemDefaulted();
    var constraints =
        TopologySpreading.constraints(pod, WhenUnsatisfiable.SCHEDULE_ANYWAY, args.effectiveConstraints(), cluster);
    if (constraints.isEmpty()) {
      return Skipped.INSTANCE;
    }
    return new Prepared(pod, constraints, State.of(pod, constraints, feasibleNodes, cluster.nodes(), requireAllTopologies));
  }

  @Override
  public String toString() {
    return NAME + "{" + args + "}";
  }

  /** Kube's {@code topologyNormalizingWeight}: {@code log(size + 2)}. */
  static double topologyNormalizingWeight(int size) {
    return Math.log(size + 2);
  }

  /**
   * What kube's PreScore computes.
   *
   * @param ignoredNodes the feasible nodes that lack a topology key (when all are required)
   * @param counts per constraint, the selected pods per domain of the feasible nodes; empty for hostname
   *     constraints, which are counted at scoring
   * @param weights per constraint, {@code log(number of domains + 2)}
   */
  record State(Set<String> ignoredNodes, List<Map<String, Long>> counts, double[] weights) {

    static State of(
        PodInfo pod,
        List<Constraint> constraints,
        List<NodeInfo> feasibleNodes,
        List<NodeInfo> allNodes,
        boolean requireAllTopologies) {
      var ignored = new HashSet<String>();
      var counts = new ArrayList<Map<String, Long>>(constraints.size());
      for (int i = 0; i < constraints.size(); i++) {
        counts.add(new HashMap<>());
      }
      for (var node : feasibleNodes) {
        if (requireAllTopologies && !TopologySpreading.hasAllTopologyKeys(node.labels(), constraints)) {
          ignored.add(node.name());
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          var key = constraints.get(i).topologyKey();
          if (!key.equals(PodTopologySpreadArgs.HOSTNAME_LABEL)) {
            counts.get(i).putIfAbsent(node.labels().getOrDefault(key, ""), 0L);
          }
        }
      }
      var weights = new double[constraints.size()];
      for (int i = 0; i < weights.length; i++) {
        int size = constraints.get(i).topologyKey().equals(PodTopologySpreadArgs.HOSTNAME_LABEL)
            ? feasibleNodes.size() - ignored.size()
            : counts.get(i).size();
        weights[i] = topologyNormalizingWeight(size);
      }
      var selected = TopologySpreading.matches(constraints);
      for (var node : allNodes) {
        if (requireAllTopologies && !TopologySpreading.hasAllTopologyKeys(node.labels(), constraints)) {
          continue;
        }
        for (int i = 0; i < constraints.size(); i++) {
          var c = constraints.get(i);
          if (!c.includes(pod, node)) {
            continue;
          }
          var domainCounts = counts.get(i);
          var value = node.labels().getOrDefault(c.topologyKey(), "");
          var count = domainCounts.get(value);
          if (count != null) {
            domainCounts.put(value, count + c.count(node.pods(), pod.namespace(), selected[i]));
          }
        }
      }
      // Not Set.copyOf: the JDK's immutable sets probe long runs for numbered node names at some sizes (540 ms
      // for 15 000 names in Decision's reasons); this set is the method's own and not changed after.
      return new State(Collections.unmodifiableSet(ignored), List.copyOf(counts), weights);
    }
  }

  /** The scorer of a pod with nothing to score by (kube's PreScore returns Skip): 0 for every node. */
  private static final class Skipped implements Scorer {
    static final Skipped INSTANCE = new Skipped();

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return 0;
    }
  }

  /** One pod's scoring: its constraints and the counts of {@link #prepare}. Immutable and thread-safe. */
  static final class Prepared implements Scorer, ScoreNormalizer {
    private final String namespace;
    private final List<Constraint> constraints;
    private final State state;

    Prepared(PodInfo pod, List<Constraint> constraints, State state) {
      this.namespace = pod.namespace();
      this.constraints = List.copyOf(constraints);
      this.state = state;
    }

    List<Constraint> constraints() {
      return constraints;
    }

    State state() {
      return state;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      if (state.ignoredNodes().contains(node.name())) {
        return 0;
      }
      double score = 0;
      for (int i = 0; i < constraints.size(); i++) {
        var c = constraints.get(i);
        var value = node.labels().get(c.topologyKey());
        if (value == null) {
          continue;
        }
        long count = c.topologyKey().equals(PodTopologySpreadArgs.HOSTNAME_LABEL)
            ? c.count(node.pods(), namespace)
            : state.counts().get(i).getOrDefault(value, 0L);
        score += count * state.weights()[i] + (c.maxSkew() - 1);
      }
      return Math.round(score);
    }

    /** @throws IllegalArgumentException if {@code scores} does not hold one score per node */
    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.requireOnePerNode(NAME, nodes, scores);
      var ignored = new boolean[scores.length];
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int i = 0; i < scores.length; i++) {
        ignored[i] = state.ignoredNodes().contains(nodes.get(i).name());
        if (!ignored[i]) {
          min = Math.min(min, scores[i]);
          max = Math.max(max, scores[i]);
        }
      }
      for (int i = 0; i < scores.length; i++) {
        if (ignored[i]) {
          scores[i] = 0;
        } else if (max == 0) {
          scores[i] = MAX_SCORE;
        } else {
          scores[i] = MAX_SCORE * (max + min - scores[i]) / max;
        }
      }
    }
  }
}
