package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.policy.ScoreNormalizer;
import io.kubesched.policy.Scorer;
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
 * <p>Immutable and thread-safe.
 */
public final class TaintTolerationScorer implements Scorer, ScoreNormalizer {

  /** The scorer's name. */
  public static final String NAME = "TaintToleration";

  @Override
  public String name() {
    return NAME;
  }

  /** @return how many of the node's {@code PreferNoSchedule} taints the pod does not tolerate (a raw score) */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    long untolerated = 0;
    for (var taint : node.taints()) {
      if (taint.effect() == TaintEffect.PREFER_NO_SCHEDULE && !tolerated(pod.tolerations(), taint)) {
        untolerated++;
      }
    }
    return untolerated;
  }

  @Override
  public void normalize(PodInfo pod, long[] scores) {
    DefaultScoreNormalization.normalize(scores, true);
  }

  private static boolean tolerated(List<Toleration> tolerations, Taint taint) {
    for (var toleration : tolerations) {
      var effect = toleration.effect();
      // Only tolerations that can apply to PreferNoSchedule count; an empty effect applies to all effects.
      if ((effect == null || effect == TaintEffect.PREFER_NO_SCHEDULE) && toleration.tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}
