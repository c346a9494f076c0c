package io.kubesched.policy.plugins.serviceaffinity;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Spreads the pods of a Service over the values of a node label: kube-scheduler's former {@code
 * ServiceAntiAffinity} priority, configured in a scheduler Policy by the argument {@code serviceAntiAffinity:
 * {label}}, and later the scoring half of the {@code ServiceAffinity} plugin (removed in Kubernetes 1.23). For
 * example, with the label {@code rack}, a Service's next pod prefers the racks that run fewest of its pods.
 *
 * <p>The pod's Service is the first Service in its namespace that selects it. A node's raw score is the number
 * of pods on it in the pod's namespace that the Service's selector matches (0 if no Service selects the pod or
 * its selector is empty). Once all feasible nodes are scored, with {@code total} the sum of the raw scores and
 * {@code count(v)} the sum over the feasible nodes whose label has the value {@code v}, a node with the label's
 * value {@code v} scores {@code 100 * (total - count(v)) / total} in floating point, truncated ({@code 100}
 * when {@code total} is 0), and a node without the label scores 0, as kube's priority did.
 *
 * <p>Differences: kube skipped pods being deleted, which this model does not mark. Kube's later plugin folded
 * several such priorities into one plugin whose weight was the sum of theirs and whose score was the mean of
 * theirs; here each priority keeps its own weight, as before that change.
 *
 * <p>This scorer scores only through {@link #prepare}, which returns a scorer for the pod whose {@link
 * ScoreNormalizer#normalize} sums per label value over the feasible nodes. Both are immutable and thread-safe,
 * and read the snapshot's Services ({@link ClusterData#SERVICES}).
 */
public final class ServiceAntiAffinityScorer implements Scorer, PreScorer {

  /** The scorer's name, {@value}. */
  public static final String NAME = "ServiceAntiAffinity";

  private final String label;

  /**
   * @param label the node label key whose values the Service's pods are spread over
   * @throws IllegalArgumentException if {@code label} is empty
   */
  public ServiceAntiAffinityScorer(String label) {
    if (label.isEmpty()) {
      throw new IllegalArgumentException("serviceAntiAffinity.label must not be empty");
    }
    this.label = label;
  }

  /** @return the node label key whose values the pods are spread over */
  public String label() {
    return label;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** @return {@link ClusterData#SERVICES} */
  @Override
  public Set<ClusterData> reads() {
    return Set.of(ClusterData.SERVICES);
  }

  /**
   * Not supported: the score needs the pod's Service and the feasible nodes' labels, so this scorer is used
   * through {@link #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /**
   * @return a scorer for {@code pod}'s feasible nodes: it counts the pods of the pod's first Service on each
   *     node and normalises those counts per value of the label once all feasible nodes are scored
   */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    var services = PodServices.of(pod, cluster);
    @Nullable LabelSelector selector = services.isEmpty() ? null : services.get(0).selector();
    return new Prepared(label, pod.namespace(), selector == null || selector.isEmpty() ? null : selector);
  }

  @Override
  public String toString() {
    return NAME + "{label=" + label + "}";
  }

  /** One pod's scoring: the label, its namespace and its Services' selector. Immutable and thread-safe. */
  private static final class Prepared implements Scorer, ScoreNormalizer {
    private final String label;
    private final String namespace;
    private final @Nullable LabelSelector selector;

    Prepared(String label, String namespace, @Nullable LabelSelector selector) {
      this.label = label;
      this.namespace = namespace;
      this.selector = selector;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return Set.of(ClusterData.SERVICES);
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      if (selector == null) {
        return 0;
      }
      long count = 0;
      for (var placed : node.pods()) {
        if (namespace.equals(placed.namespace()) && selector.matches(placed.labels())) {
          count++;
        }
      }
      return count;
    }

    /** @throws IllegalArgumentException if {@code scores} does not hold one score per node */
    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.requireOnePerNode(NAME, nodes, scores);
      var values = new @Nullable String[scores.length];
      long total = 0;
      var byValue = new HashMap<String, Long>();
      for (int i = 0; i < scores.length; i++) {
        total += scores[i];
        var value = nodes.get(i).labels().get(label);
        values[i] = value;
        if (value != null) {
          byValue.merge(value, scores[i], Long::sum);
        }
      }
      double max = MAX_SCORE;
      for (int i = 0; i < scores.length; i++) {
        var value = values[i];
        if (value == null) {
          scores[i] = 0;
          continue;
        }
        double score = max;
        if (total > 0) {
          score = max * ((double) (total - byValue.get(value)) / (double) total);
        }
        scores[i] = (long) score;
      }
    }
  }
}
