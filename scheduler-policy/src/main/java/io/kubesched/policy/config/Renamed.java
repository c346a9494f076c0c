package io.kubesched.policy.config;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import java.util.List;
import java.util.Set;

/**
 * A plugin under the name a Policy file gives it, so that two rules of one kind (two label checks, two
 * service rules) can live side by side. The wrapper keeps the plugin's capabilities ({@link PreFilter}, {@link
 * PreScorer}, {@link ScoreNormalizer}, and of what a PreFilter prepares, {@link OnlyNodes} and a rejection of
 * the pod) and what it {@link Filter#reads() reads}: the {@link
 * io.kubesched.policy.Policy} looks for those by type.
 */
final class Renamed {

  private Renamed() {}

  /** @return {@code filter} under {@code name}; {@code filter} itself if it already has that name */
  static Filter filter(String name, Filter filter) {
    if (filter.name().equals(name)) {
      return filter;
    }
    return filter instanceof PreFilter ? new PreparingFilter(name, filter) : new PlainFilter(name, filter);
  }

  /** @return {@code scorer} under {@code name}; {@code scorer} itself if it already has that name */
  static Scorer scorer(String name, Scorer scorer) {
    if (scorer.name().equals(name)) {
      return scorer;
    }
    boolean preparing = scorer instanceof PreScorer;
    boolean normalizing = scorer instanceof ScoreNormalizer;
    if (preparing && normalizing) {
      return new PreparingNormalizingScorer(name, scorer);
    }
    if (preparing) {
      return new PreparingScorer(name, scorer);
    }
    return normalizing ? new NormalizingScorer(name, scorer) : new PlainScorer(name, scorer);
  }

  private record PlainFilter(String name, Filter filter) implements Filter {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return filter.filter(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return filter.reads();
    }

    @Override
    public Set<ClusterChange> retriedOn() {
      return filter.retriedOn();
    }

    @Override
    public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
      return filter.isSchedulableAfter(pod, update);
    }
  }

  private record PreparingFilter(String name, Filter filter) implements Filter, PreFilter {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return filter.filter(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return filter.reads();
    }

    @Override
    public Set<ClusterChange> retriedOn() {
      return filter.retriedOn();
    }

    @Override
    public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
      return filter.isSchedulableAfter(pod, update);
    }

    @Override
    public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
      // The prepared filter's name is what explanations and error messages show for each node.
      var prepared = ((PreFilter) filter).prepare(pod, cluster);
      if (prepared instanceof PreFilter.PodRejected rejected) {
        return PreFilter.rejectPod(name, rejected.rejection());
      }
      return prepared instanceof OnlyNodes only
          ? new NodesNamingFilter(name, prepared, only.nodeNames())
          : new PlainFilter(name, prepared);
    }
  }

  private record NodesNamingFilter(String name, Filter filter, Set<String> nodeNames) implements Filter, OnlyNodes {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return filter.filter(pod, node);
    }
  }

  private record PlainScorer(String name, Scorer scorer) implements Scorer {
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return scorer.score(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return scorer.reads();
    }
  }

  private record NormalizingScorer(String name, Scorer scorer) implements Scorer, ScoreNormalizer {
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return scorer.score(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return scorer.reads();
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      ((ScoreNormalizer) scorer).normalize(pod, nodes, scores);
    }
  }

  // The scorer a PreScorer prepares is used as it is: the Policy names scores by the configured scorer.
  private record PreparingScorer(String name, Scorer scorer) implements Scorer, PreScorer {
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return scorer.score(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return scorer.reads();
    }

    @Override
    public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
      return ((PreScorer) scorer).prepare(pod, feasibleNodes, cluster);
    }
  }

  private record PreparingNormalizingScorer(String name, Scorer scorer)
      implements Scorer, PreScorer, ScoreNormalizer {
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return scorer.score(pod, node);
    }

    @Override
    public Set<ClusterData> reads() {
      return scorer.reads();
    }

    @Override
    public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
      return ((PreScorer) scorer).prepare(pod, feasibleNodes, cluster);
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      ((ScoreNormalizer) scorer).normalize(pod, nodes, scores);
    }
  }
}
