package io.kubesched.policy;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.VolumeBinding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A placement policy made of {@link Filter}s and weighted {@link Scorer}s, run the way kube-scheduler runs
 * its profile's plugins: a {@link FinderFunc} to hand to the controller.
 *
 * <p>For each pod it first lets every filter that is a {@link PreFilter} prepare what it needs from the whole
 * {@link ClusterSnapshot} (kube's PreFilter), then examines the nodes from a round-robin start index (each decision starts where the last
 * one stopped, so every node gets its turn), runs the filters on each node in order until one rejects it,
 * and stops once it has found as many feasible nodes as {@link #numFeasibleNodesToFind} allows. If none is
 * feasible, the decision is {@link Decision.Unschedulable} with every node's reasons. If one is, it is
 * chosen. Otherwise every scorer scores every feasible node (after its {@link PreScorer#prepare} and before
 * its {@link ScoreNormalizer#normalize}, if it has these capabilities), the scores are multiplied by their
 * weights and summed, and the node with the highest total wins; ties are broken uniformly at random by a
 * generator seeded from the policy's seed and the pod's uid, so a fixed seed gives reproducible decisions.
 *
 * <p>Thread-safety: the filters and scorers are pure; the policy's only state is the round-robin start
 * index, kept atomically, and the snapshot {@link #find(PodInfo, List)} made last (the next one reuses what
 * it found about unchanged nodes). The controller calls it from one thread.
 */
public final class Policy implements FinderFunc {

  /** kube-scheduler never stops searching before it has found this many feasible nodes. */
  static final int MIN_FEASIBLE_NODES_TO_FIND = 100;

  /** The adaptive percentage of nodes to score never drops below this. */
  static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

  private final List<Filter> filters;
  private final List<WeightedScorer> scorers;
  private final int percentageOfNodesToScore;
  private final long seed;
  private final AtomicInteger nextStartIndex = new AtomicInteger();
  /** The snapshot {@link #find(PodInfo, List)} made last: the next one is derived from it. */
  private volatile @Nullable ClusterSnapshot lastSnapshot;

  private Policy(Builder builder) {
    this.filters = List.copyOf(builder.filters);
    this.scorers = List.copyOf(builder.scorers.values());
    this.percentageOfNodesToScore = builder.percentageOfNodesToScore;
    this.seed = builder.seed != null ? builder.seed : new SplittableRandom().nextLong();
  }

  /** @return a builder of a policy with no filters, no scorers, the adaptive percentage and a random seed */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the filters, in the order they run */
  public List<Filter> filters() {
    return filters;
  }

  /** @return the scorers with their weights, in the order they run */
  public List<WeightedScorer> scorers() {
    return scorers;
  }

  /** @return the percentage of nodes to score; 0 for kube-scheduler's adaptive default */
  public int percentageOfNodesToScore() {
    return percentageOfNodesToScore;
  }

  /**
   * @return a builder holding this policy's filters, scorers, percentage and seed, to derive another from
   */
  public Builder toBuilder() {
    var builder = new Builder().filters(filters).percentageOfNodesToScore(percentageOfNodesToScore).seed(seed);
    scorers.forEach(ws -> builder.scorer(ws.scorer(), ws.weight()));
    return builder;
  }

  /**
   * {@inheritDoc}
   *
   * @throws SchedulerException if a filter {@link FilterResult.Failed fails} or a scorer's score lies outside
   *     {@code 0..100} after normalisation; the message names the plugin, the pod and the node
   */
  @Override
  public Decision find(PodInfo pod, List<NodeInfo> nodes) {
    return find(pod, snapshotOf(nodes));
  }

  /**
   * A snapshot of {@code nodes} derived from the one made for the previous call, so that what it found out
   * about unchanged nodes is reused (see {@link ClusterSnapshot#withNodes}).
   */
  private ClusterSnapshot snapshotOf(List<NodeInfo> nodes) {
    var last = lastSnapshot;
    var snapshot = last == null ? ClusterSnapshot.of(nodes) : last.withNodes(nodes);
    lastSnapshot = snapshot;
    return snapshot;
  }

  /**
   * {@inheritDoc}
   *
   * @throws SchedulerException if a filter {@link FilterResult.Failed fails} or a scorer's score lies outside
   *     {@code 0..100} after normalisation; the message names the plugin, the pod and the node
   */
  @Override
  public Decision find(PodInfo pod, ClusterSnapshot cluster) {
    var nodes = cluster.nodes();
    int start = nextStartIndex.get();
    var evaluation = evaluate(pod, cluster, start, null);
    if (!nodes.isEmpty()) {
      nextStartIndex.set((start + evaluation.processed) % nodes.size());
    }
    return evaluation.decision;
  }

  /**
   * Explains the decision {@link #find} would make now for {@code pod}: the same evaluation, recorded, without
   * moving the round-robin start index.
   *
   * @throws SchedulerException as {@link #find} does
   */
  public Explanation explain(PodInfo pod, List<NodeInfo> nodes) {
    return explain(pod, snapshotOf(nodes));
  }

  /**
   * Explains the decision {@link #find(PodInfo, ClusterSnapshot)} would make now for {@code pod}, as {@link
   * #explain(PodInfo, List)} does.
   *
   * @throws SchedulerException as {@link #find} does
   */
  public Explanation explain(PodInfo pod, ClusterSnapshot cluster) {
    var recorder = new Recorder();
    var evaluation = evaluate(pod, cluster, nextStartIndex.get(), recorder);
    return new Explanation(pod, evaluation.decision, cluster.nodes().size(), recorder.nodes(), recorder.note);
  }

  /** @return the union of what the filters and scorers read beyond nodes and pods */
  @Override
  public Set<ClusterData> reads() {
    var reads = EnumSet.noneOf(ClusterData.class);
    filters.forEach(filter -> reads.addAll(filter.reads()));
    scorers.forEach(weighted -> reads.addAll(weighted.scorer().reads()));
    return Collections.unmodifiableSet(reads);
  }

  /**
   * The number of feasible nodes after which kube-scheduler stops searching: all nodes below 100; otherwise
   * {@code percentage} of them (adaptive when 0: 50% minus 1% per 125 nodes, at least 5%), and never fewer
   * than 100.
   *
   * @param percentage 0 (adaptive) to 100
   * @param nodeCount how many nodes there are
   */
  public static int numFeasibleNodesToFind(int percentage, int nodeCount) {
    if (nodeCount < MIN_FEASIBLE_NODES_TO_FIND) {
      return nodeCount;
    }
    int effective = percentage;
    if (effective == 0) {
      effective = Math.max(50 - nodeCount / 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    int count = (int) ((long) nodeCount * effective / 100);
    return Math.max(count, MIN_FEASIBLE_NODES_TO_FIND);
  }

  private record Evaluation(Decision decision, int processed) {}

  private Evaluation evaluate(
      PodInfo pod, ClusterSnapshot cluster, int startIndex, @Nullable Recorder recorder) {
    var nodes = cluster.nodes();
    int nodeCount = nodes.size();
    if (nodeCount == 0) {
      return new Evaluation(Decision.unschedulable(Map.of()), 0);
    }
    // With nothing to rank the nodes by, the first feasible node is as good as any (as kube-scheduler).
    int toFind = scorers.isEmpty() ? 1 : numFeasibleNodesToFind(percentageOfNodesToScore, nodeCount);
    int start = startIndex % nodeCount;
    var podFilters = prepareFilters(pod, cluster);
    var turnedAway = rejectedPod(podFilters);
    if (turnedAway != null) {
      return new Evaluation(rejectEveryNode(pod, nodes, turnedAway, recorder), 0);
    }
    var feasible = new ArrayList<NodeInfo>(Math.min(toFind, nodeCount));
    Map<String, List<String>> reasons = new HashMap<>();
    int processed = 0;
    for (int i = 0; i < nodeCount && feasible.size() < toFind; i++) {
      var node = nodes.get((start + i) % nodeCount);
      processed++;
      var rejection = runFilters(podFilters, pod, node, recorder);
      if (rejection == null) {
        feasible.add(node);
      } else {
        reasons.put(node.name(), messages(rejection.reasons()));
      }
    }
    if (feasible.isEmpty()) {
      return new Evaluation(Decision.unschedulable(reasons), processed);
    }
    if (feasible.size() == 1) {
      if (recorder != null) {
        recorder.note = "Only one node is feasible: it is chosen without scoring.";
      }
      return new Evaluation(bind(podFilters, feasible.get(0)), processed);
    }
    var totals = score(pod, cluster, feasible, recorder);
    return new Evaluation(bind(podFilters, feasible.get(selectBest(pod, totals))), processed);
  }

  /** The decision to bind to {@code node}, with the volume bindings the pod's prepared filters planned there. */
  private static Decision bind(List<Filter> podFilters, NodeInfo node) {
    List<VolumeBinding> volumeBindings = List.of();
    for (var filter : podFilters) {
      if (filter instanceof VolumeBinder binder) {
        var planned = binder.volumeBindings(node);
        if (!planned.isEmpty()) {
          volumeBindings = volumeBindings.isEmpty() ? planned : concat(volumeBindings, planned);
        }
      }
    }
    return Decision.bind(node.name(), volumeBindings);
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    var all = new ArrayList<T>(first);
    all.addAll(second);
    return all;
  }

  /** @return the first prepared filter that turned the pod away before any node, in filter order; null if none */
  private static PreFilter.@Nullable PodRejected rejectedPod(List<Filter> podFilters) {
    for (var filter : podFilters) {
      if (filter instanceof PreFilter.PodRejected rejected) {
        return rejected;
      }
    }
    return null;
  }

  /** kube-scheduler's outcome of a PreFilter rejection: every node has its status, the message states it once. */
  private static Decision rejectEveryNode(
      PodInfo pod, List<NodeInfo> nodes, PreFilter.PodRejected rejected, @Nullable Recorder recorder) {
    var messages = messages(rejected.rejection().reasons());
    Map<String, List<String>> reasons = new HashMap<>(nodes.size() * 4 / 3 + 1);
    for (var node : nodes) {
      reasons.put(node.name(), messages);
      if (recorder != null) {
        recorder.filtered(node.name(), rejected.name(), rejected.filter(pod, node));
      }
    }
    return Decision.unschedulable(reasons, rejected.message());
  }

  private static List<String> messages(List<Reason> reasons) {
    if (reasons.size() == 1) {
      return List.of(reasons.get(0).message());
    }
    var messages = new ArrayList<String>(reasons.size());
    reasons.forEach(reason -> messages.add(reason.message()));
    return messages;
  }

  /** The filters for one pod: each {@link PreFilter} replaced by what it prepared for the pod. */
  private List<Filter> prepareFilters(PodInfo pod, ClusterSnapshot cluster) {
    List<Filter> prepared = filters;
    for (int i = 0; i < filters.size(); i++) {
      if (filters.get(i) instanceof PreFilter preFilter) {
        if (prepared == filters) {
          prepared = new ArrayList<>(filters);
        }
        prepared.set(i, preFilter.prepare(pod, cluster));
      }
    }
    return prepared;
  }

  /** @return the rejection of the first filter that does not fit; null if all fit */
  private static FilterResult.@Nullable Rejected runFilters(
      List<Filter> filters, PodInfo pod, NodeInfo node, @Nullable Recorder recorder) {
    for (var filter : filters) {
      var result = filter.filter(pod, node);
      if (recorder != null) {
        recorder.filtered(node.name(), filter.name(), result);
      }
      if (result instanceof FilterResult.Rejected rejected) {
        return rejected;
      }
      if (result instanceof FilterResult.Failed failed) {
        throw new SchedulerException(
            "filter " + filter.name() + " failed for pod " + pod.key() + " on node " + node.name() + ": "
                + failed.message());
      }
    }
    return null;
  }

  private long[] score(
      PodInfo pod, ClusterSnapshot cluster, List<NodeInfo> feasible, @Nullable Recorder recorder) {
    var totals = new long[feasible.size()];
    for (var weighted : scorers) {
      var scorer = weighted.scorer();
      if (scorer instanceof PreScorer preScorer) {
        scorer = preScorer.prepare(pod, feasible, cluster);
      }
      var scores = new long[feasible.size()];
      for (int i = 0; i < scores.length; i++) {
        scores[i] = scorer.score(pod, feasible.get(i));
      }
      if (scorer instanceof ScoreNormalizer normalizer) {
        normalizer.normalize(pod, scores);
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
    return totals;
  }

  /** The index of a highest total, chosen uniformly among equal ones (reservoir sampling). */
  private int selectBest(PodInfo pod, long[] totals) {
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

  /** Collects what an explanation shows, node by node, in examination order. */
  private static final class Recorder {
    private final Map<String, List<Explanation.FilterOutcome>> filters = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> scores = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();
    private String note = "";

    void filtered(String node, String filter, FilterResult result) {
      filters.computeIfAbsent(node, n -> new ArrayList<>()).add(new Explanation.FilterOutcome(filter, result));
    }

    void scored(String node, String scorer, long score, long total) {
      scores.computeIfAbsent(node, n -> new LinkedHashMap<>()).put(scorer, score);
      totals.put(node, total);
    }

    List<Explanation.NodeExplanation> nodes() {
      var nodes = new ArrayList<Explanation.NodeExplanation>();
      filters.forEach(
          (node, outcomes) ->
              nodes.add(
                  new Explanation.NodeExplanation(
                      node, outcomes, scores.getOrDefault(node, Map.of()), totals.getOrDefault(node, 0L))));
      return nodes;
    }
  }

  /**
   * Builds a {@link Policy}. Filters run in the order added; scorers are kept by name, in the order added.
   * Not thread-safe.
   */
  public static final class Builder {
    private final List<Filter> filters = new ArrayList<>();
    private final Map<String, WeightedScorer> scorers = new LinkedHashMap<>();
    private int percentageOfNodesToScore;
    private @Nullable Long seed;

    private Builder() {}

    /**
     * Adds a filter after those already added.
     *
     * @throws IllegalArgumentException if a filter of the same name was added
     */
    public Builder filter(Filter filter) {
      for (var existing : filters) {
        if (existing.name().equals(filter.name())) {
          throw new IllegalArgumentException("filter " + filter.name() + " is already in the policy");
        }
      }
      filters.add(filter);
      return this;
    }

    /** Adds each filter, in order, as {@link #filter} does. */
    public Builder filters(Collection<? extends Filter> filters) {
      filters.forEach(this::filter);
      return this;
    }

    /** Removes the filter named {@code name}, if there is one. */
    public Builder removeFilter(String name) {
      filters.removeIf(filter -> filter.name().equals(name));
      return this;
    }

    /**
     * Adds a scorer with its weight.
     *
     * @throws IllegalArgumentException if {@code weight} is not positive or a scorer of the same name was added
     */
    public Builder scorer(Scorer scorer, int weight) {
      if (scorers.containsKey(scorer.name())) {
        throw new IllegalArgumentException("scorer " + scorer.name() + " is already in the policy");
      }
      scorers.put(scorer.name(), new WeightedScorer(scorer, weight));
      return this;
    }

    /** Adds each weighted scorer, in order, as {@link #scorer} does. */
    public Builder scorers(Collection<WeightedScorer> scorers) {
      scorers.forEach(ws -> scorer(ws.scorer(), ws.weight()));
      return this;
    }

    /** Removes the scorer named {@code name}, if there is one. */
    public Builder removeScorer(String name) {
      scorers.remove(name);
      return this;
    }

    /**
     * Changes the weight of the scorer named {@code name}.
     *
     * @throws IllegalArgumentException if there is no such scorer (the message lists those there are) or the
     *     weight is not positive
     */
    public Builder weight(String name, int weight) {
      var existing = scorers.get(name);
      if (existing == null) {
        throw new IllegalArgumentException("no scorer " + name + " in the policy; it has " + scorers.keySet());
      }
      scorers.put(name, new WeightedScorer(existing.scorer(), weight));
      return this;
    }

    /**
     * Sets the percentage of nodes to score, as kube-scheduler's {@code percentageOfNodesToScore}.
     *
     * @param percentage 1 to 100, or 0 for the adaptive default
     * @throws IllegalArgumentException if out of range
     */
    public Builder percentageOfNodesToScore(int percentage) {
      if (percentage < 0 || percentage > 100) {
        throw new IllegalArgumentException(
            "percentageOfNodesToScore must be 0 (adaptive) to 100, was " + percentage);
      }
      this.percentageOfNodesToScore = percentage;
      return this;
    }

    /** Fixes the seed that breaks ties between equally scored nodes, for reproducible decisions. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** @return the policy */
    public Policy build() {
      return new Policy(this);
    }
  }
}
