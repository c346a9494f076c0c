package io.kubesched.policy.framework.runtime;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Scoring the feasible nodes and selecting the host (kube's {@code prioritizeNodes} and {@code selectHost}):
 * each scorer prepared, run on every feasible node and normalised in turn, the scores checked, weighted and
 * summed per node, on the calling thread or shared out over {@link NodeWorkers} with the same totals; the
 * highest total wins, ties broken by a generator seeded from the seed and the pod's uid. Its only state is the
 * spare score arrays.
 */
final class NodeScoring {

  private final List<WeightedScorer> scorers;
  private final @Nullable NodeWorkers workers;
  private final long seed;
  /**
   * The per-scorer score arrays of the last scoring, for the next one of as many scorers and feasible nodes:
   * taken (set to null) while a scoring uses them, so that a scoring on another thread, or one a scorer starts
   * inside another, makes its own. At 5 000 nodes they were most of what a decision allocated (the memory notes,
   * docs/performance.md#measurement-notes).
   */
  private final AtomicReference<long @Nullable [][]> spareScores = new AtomicReference<>();

  NodeScoring(List<WeightedScorer> scorers, @Nullable NodeWorkers workers, long seed) {
    this.scorers = List.copyOf(scorers);
    this.workers = workers;
    this.seed = seed;
  }

  /**
   * kube's {@code prioritizeNodes}: each scorer prepared, run on every feasible node and normalised in turn, the
   * scores checked, weighted and summed per node.
   */
  long[] score(PodInfo pod, ClusterSnapshot cluster, List<NodeInfo> feasible, @Nullable Recorder recorder) {
    var nodeWorkers = workers;
    if (recorder == null && nodeWorkers != null && nodeWorkers.worthIt(feasible.size())) {
      return scoreInParallel(nodeWorkers, pod, cluster, feasible);
    }
    var totals = new long[feasible.size()];
    var rows = takeScores(1, feasible.size());
    var scores = rows[0]; // each scorer's in turn: every element written before it is read
    for (var weighted : scorers) {
      var scorer = weighted.scorer();
      if (scorer instanceof PreScorer preScorer) {
        scorer = preScorer.prepare(pod, feasible, cluster);
      }
      for (int i = 0; i < scores.length; i++) {
        scores[i] = scorer.score(pod, feasible.get(i));
      }
      addUp(pod, feasible, weighted, scorer, scores, totals, recorder);
    }
    spareScores.set(rows); // not after a throw: the next scoring then makes its own
    return totals;
  }

  /**
   * {@code rows} arrays of {@code nodes} scores: the spare ones if they are of that shape, else new ones. What
   * they hold is the last scoring's: a scoring writes each element before reading it.
   */
  private long[][] takeScores(int rows, int nodes) {
    var spare = spareScores.getAndSet(null);
    return spare != null && spare.length == rows && (rows == 0 || spare[0].length == nodes)
        ? spare
        : new long[rows][nodes];
  }

  /** Normalises one scorer's scores if it normalises, checks them and adds them, weighted, to the totals. */
  private static void addUp(
      PodInfo pod,
      List<NodeInfo> feasible,
      WeightedScorer weighted,
      Scorer scorer,
      long[] scores,
      long[] totals,
      @Nullable Recorder recorder) {
    if (scorer instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, feasible, scores);
    }
    for (int i = 0; i < scores.length; i++) {
      if (scores[i] < 0 || scores[i] > Scorer.MAX_SCORE) {
        throw new SchedulerException(
            "scorer " + weighted.scorer().name() + " gave node " + feasible.get(i).name() + " the score "
                + scores[i] + " for pod " + pod.key() + ", outside 0.." + Scorer.MAX_SCORE);
      }
      totals[i] += scores[i] * weighted.weight();
      if (recorder != null) {
        recorder.scored(feasible.get(i).name(), weighted.scorer().name(), scores[i], totals[i]);
      }
    }
  }

  /**
   * {@link #score} with the per-node scoring shared out over {@code workers}, with the same totals and the same
   * exception: every scorer is prepared first on the calling thread (what one throws is kept, not thrown), then
   * the feasible nodes are scored in chunks by every prepared scorer (what a score throws is kept, the lowest
   * node's per scorer), then, scorer after scorer as {@link #score} goes, what it threw is thrown, or its
   * scores are normalised, checked and added up. Preparing a later scorer before an earlier one throws is not
   * seen: preparing is pure.
   */
  private long[] scoreInParallel(
      NodeWorkers workers, PodInfo pod, ClusterSnapshot cluster, List<NodeInfo> feasible) {
    int count = scorers.size();
    int nodeCount = feasible.size();
    var prepared = new Scorer[count];
    var thrown = new Throwable[count];
    var thrownAt = new int[count];
    for (int s = 0; s < count; s++) {
      var scorer = scorers.get(s).scorer();
      try {
        prepared[s] = scorer instanceof PreScorer preScorer ? preScorer.prepare(pod, feasible, cluster) : scorer;
      } catch (RuntimeException | Error e) {
        thrown[s] = e;
        thrownAt[s] = -1;
      }
    }
    var scores = takeScores(count, nodeCount);
    int chunkSize = workers.chunkSize();
    workers.run(
        workers.chunks(nodeCount),
        chunk -> true, // a score that throws is thrown only if no earlier scorer threw: score every node
        chunk -> {
          int to = Math.min(nodeCount, (chunk + 1) * chunkSize);
          for (int i = chunk * chunkSize; i < to; i++) {
            var node = feasible.get(i);
            for (int s = 0; s < count; s++) {
              var scorer = prepared[s];
              if (scorer == null) {
                continue;
              }
              try {
                scores[s][i] = scorer.score(pod, node);
              } catch (Throwable e) { // carried to the calling thread
                synchronized (thrown) {
                  if (thrown[s] == null || i < thrownAt[s]) {
                    thrown[s] = e;
                    thrownAt[s] = i;
                  }
                }
              }
            }
          }
        });
    var totals = new long[nodeCount];
    for (int s = 0; s < count; s++) {
      if (thrown[s] != null) {
        throw NodeSearch.rethrown(thrown[s]);
      }
      addUp(pod, feasible, scorers.get(s), prepared[s], scores[s], totals, null);
    }
    spareScores.set(scores);
    return totals;
  }

  /** The index of a highest total, chosen uniformly among equal ones (reservoir sampling; kube's selectHost). */
  int selectBest(PodInfo pod, long[] totals) {
    var random = new SplittableRandom(seed ^ (pod.uid().hashCode() * 0x9E3779B97F4A7C15L));
    int best = 0;
    int ties = 1;
    for (int i = 1; i < totals.length; i++) {
      if (totals[i] > totals[best]) {
        best = i;
        ties = 1;
      } else if (totals[i] == totals[best] && random.nextInt(++ties) == 0) {
        best = i;
      }
    }
    return best;
  }
}
