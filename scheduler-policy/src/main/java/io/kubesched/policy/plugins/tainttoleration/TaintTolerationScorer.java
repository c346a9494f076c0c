package io.kubesched.policy.plugins.tainttoleration;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import java.util.List;

/**
 * Favours nodes with fewer {@code PreferNoSchedule} taints the pod does not tolerate: the score half of
 * kube-scheduler's {@code TaintToleration} plugin (formerly {@code TaintTolerationPriority}).
 *
 * <p>A node's raw score is the number of its {@code PreferNoSchedule} taints that none of the pod's
 * tolerations with effect {@code PreferNoSchedule} or no effect {@linkplain Toleration#tolerates tolerates}.
 * The raw scores are normalised with kube's {@code DefaultNormalizeScore}, reversed: {@code 100 - 100 * raw /
 * max}, rounded as kube does, so nodes without such taints score 100 and the worst node 0.
 *
 * <p>As kube's {@code PreScore}, {@link #prepare} picks the pod's tolerations that can apply once per pod;
 * {@link #score} picks them itself, with the same result. Immutable and thread-safe, and so are the scorers it
 * prepares.
 */
public final class TaintTolerationScorer implements Scorer, ScoreNormalizer, PreScorer {

  /** The scorer's name. */
  public static final String NAME = "TaintToleration";

  @Override
  public String name() {
    return NAME;
  }

  /** @return how many of the node's {@code PreferNoSchedule} taints the pod does not tolerate (a raw score) */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return untolerated(preferNoScheduleTolerations(pod), node);
  }

  /** @return a scorer of {@code pod} on any node, normalising as this one */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    return new Prepared(preferNoScheduleTolerations(pod));
  }

  /** The tolerations that can apply to PreferNoSchedule taints; an empty effect applies to every effect. */
  private static List<Toleration> preferNoScheduleTolerations(PodInfo pod) {
    return pod.tolerations().stream()
        .filter(t -> t.effect() == null || t.effect() == TaintEffect.PREFER_NO_SCHEDULE)
        .toList();
  }

  private static long untolerated(List<Toleration> tolerations, NodeInfo node) {
    long untolerated = 0;
    // Indexed loops: the lists are of several classes, so their iterators are not optimised away.
    var taints = node.taints();
    for (int i = 0; i < taints.size(); i++) {
      var taint = taints.get(i);
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE && !tolerated(tolerations, taint)) {
        untolerated++;
      }
    }
    return untolerated;
  }

  @Override
  public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    DefaultScoreNormalization.normalize(scores, true);
  }

  private static boolean tolerated(List<Toleration> tolerations, Taint taint) {
    for (int i = 0; i < tolerations.size(); i++) {
      if (tolerations.get(i).tolerates(taint)) {
        return true;
      }
    }
    return false;
  }

  /** One pod's scorer: its tolerations are fixed, the {@code pod} passed to {@link #score} is not read. */
  private static final class Prepared implements Scorer, ScoreNormalizer {
    private final List<Toleration> tolerations;

    Prepared(List<Toleration> tolerations) {
      this.tolerations = tolerations;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return untolerated(tolerations, node);
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.normalize(scores, true);
    }
  }
}
