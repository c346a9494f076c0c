package io.kubesched.policy;

import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.framework.runtime.Evaluator;
import io.kubesched.policy.framework.runtime.NodeWorkers;
import io.kubesched.policy.framework.runtime.Offsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A placement policy made of {@link Filter}s and weighted {@link Scorer}s, run the way kube-scheduler runs
 * its profile's plugins: a {@link FinderFunc} to hand to the controller.
 *
 * <p>For each pod it first lets every filter that is a {@link PreFilter} prepare what it needs from the whole
 * {@link ClusterSnapshot} (kube's PreFilter). A pod nominated to a node ({@link PodInfo#nominatedNodeName()})
 * tries that node first and takes it, without scoring, if it fits. Otherwise the policy examines the nodes (only
 * those the prepared filters name, where some are {@link OnlyNodes}; every other node is then unresolvable) from
 * a round-robin start index (each decision starts where the last one stopped, so every node gets its turn),
 * runs the filters on each node in order until one rejects it, and stops once it has found as many feasible
 * nodes as {@link #numFeasibleNodesToFind} allows. Every filter run counts the pods the snapshot's {@link
 * ClusterSnapshot#nominations()} hold for the node, if their priority is at least the pod's: the pod must fit
 * with them (added to a copy of the node, and to a copy of each {@link PodTracking} filter's state) and without
 * them (kube's {@code RunFilterPluginsWithNominatedPods}).
 *
 * <p>If no node is feasible, the decision is {@link Decision.Unschedulable} with every node's reasons and the
 * nodes no eviction could help. With {@link Builder#preemption preemption} on (kube's {@code DefaultPreemption}
 * PostFilter), it then looks for a node where evicting pods of lower priority would make room: the decision
 * carries kube's post-filter message and a {@link io.kubesched.api.Nomination} (the node and its victims, or
 * clear, or keep the pod's nomination); with it off the nomination is cleared. If one node is feasible, it is
 * chosen. Otherwise every scorer scores every feasible node (after its {@link PreScorer#prepare} and before
 * its {@link ScoreNormalizer#normalize}, if it has these capabilities), the scores are multiplied by their
 * weights and summed, and the node with the highest total wins; ties are broken uniformly at random by a
 * generator seeded from the policy's seed and the pod's uid, so a fixed seed gives reproducible decisions.
 * Preemption's dry run starts at an offset drawn from another generator seeded from the same seed, advanced
 * once per attempt that draws one.
 *
 * <p>Threads: a policy built by its {@link Builder} does all of one decision's work on the thread that calls
 * {@link #find}; {@link #withParallelism} gives one that shares the filtering and scoring of a large cluster
 * out to other threads and decides exactly the same (the controller asks for that with its {@code parallelism}
 * setting). The filters and scorers are pure; the policy's only state is the round-robin start index and the
 * offsets' generator, kept atomically, and the snapshot {@link #find(PodInfo, List)} made last (the next one
 * reuses what it found about unchanged nodes). The controller calls it from one thread; calls from several
 * threads are safe but move one round robin between them.
 */
@API(status = STABLE, since = "0.1.0")
public final class Policy implements FinderFunc {

  /**
   * Below this many nodes (scoring: feasible nodes) a policy {@linkplain #withParallelism sharing its node loop
   * out} still decides on the calling thread alone. Handing work to another thread costs tens of microseconds
   * (waking it, and the caches it misses), what filtering and scoring about a hundred nodes with the default
   * plugins costs; the engine's measurement notes ({@code docs/performance.md#measurement-notes}) have the figures.
   */
  public static final int DEFAULT_MIN_PARALLEL_NODES = 500;

  /**
   * How many consecutive nodes a thread of a policy {@linkplain #withParallelism sharing its node loop out} takes
   * at a time. Small, because the search stops at the adaptive number of feasible nodes: each thread finishes the
   * chunk it holds, so up to about {@code parallelism × chunk} nodes are filtered past the last one the decision
   * needs (wasted work, never a different decision), and the time to that cut-off falls with the chunk. At about a
   * microsecond per node, taking a chunk (one atomic increment) still costs little beside 16 nodes' work.
   */
  public static final int DEFAULT_PARALLEL_CHUNK_SIZE = 16;

  private final List<Filter> filters;
  private final List<WeightedScorer> scorers;
  private final int percentageOfNodesToScore;
  private final long seed;
  private final @Nullable Preemption preemption;
  /** Shared with {@link #withoutPreemption}: one round robin per profile, as kube's {@code nextStartNodeIndex}. */
  private final AtomicInteger nextStartIndex;
  /** This policy with preemption off: itself when it does not preempt. */
  private final Policy withoutPreemption;
  /** The state of the generator of preemption's dry-run offsets (kube's {@code getOffsetRand}): one draw per attempt. */
  private final AtomicLong offsetState;
  /** The snapshot {@link #find(PodInfo, List)} made last: the next one is derived from it. */
  private volatile @Nullable ClusterSnapshot lastSnapshot;
  /** The threads {@link #find} shares large searches and scorings out to; null: all on the calling thread. */
  private final @Nullable NodeWorkers workers;
  /** Runs the plugins for one pod: the search, the scoring and the PostFilter (kube's framework runtime). */
  private final Evaluator evaluator;

  private Policy(Builder builder) {
    this(builder, new AtomicInteger(), null, null);
  }

  /**
   * @param nextStartIndex the round robin, shared with the policies derived from this one
   * @param offsetState the preemption offsets' generator, shared likewise; null for a new one from the seed
   * @param workers the node workers; null for a sequential policy
   */
  private Policy(
      Builder builder,
      AtomicInteger nextStartIndex,
      @Nullable AtomicLong offsetState,
      @Nullable NodeWorkers workers) {
    this.filters = List.copyOf(builder.filters);
    this.scorers = List.copyOf(builder.scorers.values());
    this.percentageOfNodesToScore = builder.percentageOfNodesToScore;
    this.seed = builder.seed != null ? builder.seed : new SplittableRandom().nextLong();
    this.preemption = builder.preemption == null ? null : new Preemption(builder.preemption);
    this.offsetState = offsetState != null ? offsetState : new AtomicLong(seed ^ OFFSET_SEED_SALT);
    this.nextStartIndex = nextStartIndex;
    this.workers = workers;
    this.evaluator = new Evaluator(filters, scorers, percentageOfNodesToScore, seed, preemption, workers);
    if (preemption == null) {
      this.withoutPreemption = this;
    } else {
      var without = new Builder().filters(filters).percentageOfNodesToScore(percentageOfNodesToScore).seed(seed);
      scorers.forEach(ws -> without.scorer(ws.scorer(), ws.weight()));
      this.withoutPreemption = new Policy(without, nextStartIndex, null, workers);
    }
  }

  /** Keeps the offsets' sequence apart from the tie-breaking one drawn from the same seed. */
  private static final long OFFSET_SEED_SALT = 0x5DEECE66DL;

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

  /**
   * @return how preemption looks for candidates when the policy preempts (kube-scheduler's {@code
   *     DefaultPreemption} PostFilter); empty when it does not
   */
  public Optional<PreemptionArgs> preemption() {
    return preemption == null ? Optional.empty() : Optional.of(preemption.args());
  }

  /** @return the percentage of nodes to score; 0 for kube-scheduler's adaptive default */
  public int percentageOfNodesToScore() {
    return percentageOfNodesToScore;
  }

  /**
   * @return the filters and weighted scorers by name, the percentage of nodes to score and whether it preempts,
   *     for logs, e.g. {@code Policy[filters=[NodeName, NodePorts], scorers=[TaintToleration:3],
   *     percentageOfNodesToScore=0, preemption=off]}
   */
  @Override
  public String toString() {
    return "Policy[filters="
        + filters.stream().map(Filter::name).toList()
        + ", scorers="
        + scorers.stream().map(ws -> ws.scorer().name() + ":" + ws.weight()).toList()
        + ", percentageOfNodesToScore="
        + percentageOfNodesToScore
        + ", preemption="
        + (preemption == null ? "off" : preemption.args())
        + (workers == null ? "" : ", parallelism=" + workers.parallelism())
        + "]";
  }

  /**
   * @return a builder holding this policy's filters, scorers, percentage, seed and preemption, to derive another
   *     from; the policy it builds is sequential ({@link #withParallelism} is not carried over)
   */
  public Builder toBuilder() {
    var builder = new Builder().filters(filters).percentageOfNodesToScore(percentageOfNodesToScore).seed(seed);
    scorers.forEach(ws -> builder.scorer(ws.scorer(), ws.weight()));
    if (preemption != null) {
      builder.preemption(preemption.args());
    }
    return builder;
  }

  /**
   * This policy with its node loop shared out over {@code parallelism} threads: the calling thread and up to
   * {@code parallelism - 1} tasks on {@code executor} (kube-scheduler's {@code parallelism}, its 16 goroutines
   * per decision). It decides exactly as this policy does, whatever the number of threads and their timing (the
   * same node, the same reasons, the same round-robin start for the next decision, the same exception): nodes
   * are filtered in chunks of consecutive nodes from the round-robin start, claimed in order; once the chunks
   * done hold the adaptive number of feasible nodes no further chunk is claimed, and the feasible nodes kept are
   * the first ones in node order, as the sequential search keeps them. The feasible nodes are then scored in
   * chunks too, every scorer's {@link PreScorer#prepare} and {@link ScoreNormalizer#normalize} still running
   * once, on the calling thread.
   *
   * <p>A decision over fewer than {@value #DEFAULT_MIN_PARALLEL_NODES} nodes (scoring: feasible nodes) stays on
   * the calling thread: below that, handing work to other threads costs about what it saves (the engine's
   * measurement notes, {@code docs/performance.md#measurement-notes}). {@link #explain} and preemption's dry run
   * always run on the calling thread.
   *
   * <p>Thread contract: the filters and scorers, as they are and as {@link PreFilter#prepare} and {@link
   * PreScorer#prepare} return them, are called concurrently for different nodes of one decision; they must be
   * safe for that (every built-in one is: each reads only the pod, the node and state it computed before
   * the node loop). A {@link PodTracking.Tracker} stays confined to one thread.
   *
   * <p>The executor is the caller's: the policy never shuts it down. Its threads must not be waiting on the
   * thread that calls {@link #find}. If it rejects a task (shut down) or is slow to start one, the calling thread
   * does the remaining chunks itself, so a decision never waits for a thread that does not come. The returned
   * policy shares this one's round-robin start index and preemption offsets, as {@link #withoutPreemption} does.
   *
   * @param parallelism how many threads may work on one decision, the caller included; 1 for none
   * @param executor runs the helper tasks; not used when {@code parallelism} is 1
   * @return this policy when {@code parallelism} is 1 and it is sequential; otherwise a policy with the same
   *     filters, scorers, percentage, seed and preemption that shares its node loop out as described
   * @throws IllegalArgumentException if {@code parallelism} is less than 1
   */
  @Override
  public Policy withParallelism(int parallelism, Executor executor) {
    return withParallelism(parallelism, executor, DEFAULT_MIN_PARALLEL_NODES, DEFAULT_PARALLEL_CHUNK_SIZE);
  }

  /**
   * As {@link #withParallelism(int, Executor)}, with the threshold and the chunk size given rather than the
   * measured defaults ({@value #DEFAULT_MIN_PARALLEL_NODES} and {@value #DEFAULT_PARALLEL_CHUNK_SIZE}): to
   * measure them on another machine (the benchmarks' {@code ParallelPolicyBenchmark}), or to run the parallel
   * path on small clusters in tests. The decision is the same whatever they are.
   *
   * @param parallelism how many threads may work on one decision, the caller included; 1 for none
   * @param executor runs the helper tasks
   * @param minNodes below this many nodes (scoring: feasible nodes) a decision stays on the calling thread; 0
   *     or more
   * @param chunkSize how many consecutive nodes a thread takes at a time; at least 1
   * @return as {@link #withParallelism(int, Executor)}
   * @throws IllegalArgumentException naming the value, if {@code parallelism} or {@code chunkSize} is less than
   *     1 or {@code minNodes} is negative
   */
  public Policy withParallelism(int parallelism, Executor executor, int minNodes, int chunkSize) {
    Objects.requireNonNull(executor, "executor");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
    }
    if (minNodes < 0) {
      throw new IllegalArgumentException("minNodes must not be negative, was " + minNodes);
    }
    if (chunkSize < 1) {
      throw new IllegalArgumentException("chunkSize must be at least 1, was " + chunkSize);
    }
    if (parallelism == 1) {
      return workers == null ? this : derived(null);
    }
    return derived(new NodeWorkers(parallelism, executor, minNodes, chunkSize));
  }

  private Policy derived(@Nullable NodeWorkers nodeWorkers) {
    return new Policy(toBuilder(), nextStartIndex, offsetState, nodeWorkers);
  }

  /** @return how many threads may work on one decision, the calling thread included; 1 when sequential */
  public int parallelism() {
    return workers == null ? 1 : workers.parallelism();
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
    var evaluation = evaluator.evaluate(pod, cluster, start, null, new Offsets(offsetState, true));
    if (!nodes.isEmpty()) {
      nextStartIndex.set((start + evaluation.processed()) % nodes.size());
    }
    return evaluation.decision();
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
    return explainFrom(pod, cluster, nextStartIndex.get()).explanation();
  }

  /** An explanation, and how many nodes its evaluation examined (what {@link #find} moves the start index by). */
  private record Explained(Explanation explanation, int processed) {}

  private Explained explainFrom(PodInfo pod, ClusterSnapshot cluster, int startIndex) {
    var recorder = new ExplanationRecorder();
    var evaluation = evaluator.evaluate(pod, cluster, startIndex, recorder, new Offsets(offsetState, false));
    var explanation =
        new Explanation(
            pod,
            evaluation.decision(),
            cluster.nodes().size(),
            recorder.nodes(),
            recorder.note(),
            evaluation.postFilter() instanceof Preemption.Result result
                ? Optional.of(explainPreemption(result))
                : Optional.empty());
    return new Explained(explanation, evaluation.processed());
  }

  /**
   * This policy with preemption off, as a pod group's members are tried ({@link GroupPlacement#place}): a pod
   * that fits no node gets no nomination and no victims, and its nomination is cleared. Built once, with the
   * policy; it shares the policy's round-robin start index, so single pods and group members take turns over
   * the nodes as in kube-scheduler.
   *
   * @return this policy when it does not preempt; otherwise the same filters, scorers, percentage and seed
   *     without preemption, the same instance on every call
   */
  @Override
  public Policy withoutPreemption() {
    return withoutPreemption;
  }

  /**
   * Explains what {@link GroupPlacement#place} would decide now for {@code group} with this policy: the same
   * trial (the same member order, snapshots, early stop and {@code minResources} check, preemption off), each
   * member tried explained as {@link #explain(PodInfo, ClusterSnapshot)} explains a pod, on the snapshot
   * holding the members that fit before it. The round-robin start index moves from member to member as {@code
   * place} moves it, on a copy: the policy's own index is left where it was, so a {@code place} called next
   * with this policy decides exactly what the explanation shows.
   *
   * @param group the group
   * @param pending its members to place, in the order to try them
   * @param placed how many of its members are already assumed or bound
   * @param snapshot the cluster, without the pending members
   * @return the explanation
   * @throws SchedulerException as {@link #find} does
   */
  public GroupExplanation explainGroup(
      PodGroup group, List<PodInfo> pending, int placed, ClusterSnapshot snapshot) {
    var policy = withoutPreemption;
    var start = new int[] {nextStartIndex.get()};
    Map<String, Explanation> explained = new HashMap<>();
    var trial =
        GroupPlacement.trial(
            group,
            pending,
            placed,
            snapshot,
            (pod, cluster) -> {
              var result = policy.explainFrom(pod, cluster, start[0]);
              int nodeCount = cluster.nodes().size();
              if (nodeCount > 0) {
                start[0] = (start[0] + result.processed()) % nodeCount; // as find moves it
              }
              explained.put(pod.uid(), result.explanation());
              return result.explanation().decision();
            });
    var members = new ArrayList<GroupExplanation.Member>(trial.members().size());
    for (var result : trial.members()) {
      members.add(
          new GroupExplanation.Member(
              result.pod(),
              result.outcome(),
              result.decision(),
              result.outcome() == GroupExplanation.Outcome.NOT_TRIED
                  ? Optional.empty()
                  : Optional.ofNullable(explained.get(result.pod().uid()))));
    }
    return new GroupExplanation(
        group, placed, snapshot.nodes().size(), members, trial.minResources(), trial.decision());
  }

  /**
   * @return the union of what the filters and scorers read beyond nodes and pods, and {@link
   *     ClusterData#POD_DISRUPTION_BUDGETS} when the policy preempts
   */
  @Override
  public Set<ClusterData> reads() {
    var reads = EnumSet.noneOf(ClusterData.class);
    filters.forEach(filter -> reads.addAll(filter.reads()));
    scorers.forEach(weighted -> reads.addAll(weighted.scorer().reads()));
    if (preemption != null) {
      reads.add(ClusterData.POD_DISRUPTION_BUDGETS);
    }
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
    return Evaluator.numFeasibleNodesToFind(percentage, nodeCount);
  }

  private static Explanation.PreemptionExplanation explainPreemption(Preemption.Result result) {
    var candidates = new ArrayList<Explanation.PreemptionCandidate>();
    result.candidates()
        .forEach(c -> candidates.add(new Explanation.PreemptionCandidate(c.node(), c.victims(), c.pdbViolations())));
    var chosen = result.chosen();
    var decidedBy = result.decidedBy();
    return new Explanation.PreemptionExplanation(
        result.eligibility(),
        candidates,
        chosen == null ? "" : chosen.node(),
        decidedBy == null ? "" : decidedBy.description(),
        result.message());
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
    private @Nullable PreemptionArgs preemption;

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

    /**
     * Turns preemption on (kube-scheduler's {@code DefaultPreemption} PostFilter): when a pod fits no node, the
     * decision names a node where evicting pods of lower priority would make room, and those victims ({@link
     * io.kubesched.api.Nomination.To}); the policy then reads PodDisruptionBudgets.
     *
     * @param args how many candidate nodes to evaluate
     */
    public Builder preemption(PreemptionArgs args) {
      this.preemption = args;
      return this;
    }

    /** Turns preemption off (the default of a new builder): a pod that fits no node only waits. */
    public Builder noPreemption() {
      this.preemption = null;
      return this;
    }

    /**
     * Fixes the seed that breaks ties between equally scored nodes and draws where preemption's dry run starts,
     * for reproducible decisions.
     */
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
