package io.kubesched.policy;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.VolumeBinder;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
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
public final class Policy implements FinderFunc {

  /** kube-scheduler never stops searching before it has found this many feasible nodes. */
  static final int MIN_FEASIBLE_NODES_TO_FIND = 100;

  /** The adaptive percentage of nodes to score never drops below this. */
  static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

  /**
   * Below this many nodes (scoring: feasible nodes) a policy {@linkplain #withParallelism sharing its node loop
   * out} still decides on the calling thread alone. Handing work to another thread costs tens of microseconds
   * (waking it, and the caches it misses), what filtering and scoring about a hundred nodes with the default
   * plugins costs; docs/benchmarks.md has the measurements behind the figure.
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
  /**
   * The per-scorer score arrays of the last scoring, for the next one of as many scorers and feasible nodes:
   * taken (set to null) while a scoring uses them, so that a scoring on another thread, or one a scorer starts
   * inside another, makes its own. At 5 000 nodes they were most of what a decision allocated (docs/memory.md).
   */
  private final AtomicReference<long @Nullable [][]> spareScores = new AtomicReference<>();

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
   * the calling thread: below that, handing work to other threads costs about what it saves (docs/benchmarks.md
   * has the measurements). {@link #explain} and preemption's dry run always run on the calling thread.
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
    var evaluation = evaluate(pod, cluster, start, null, new Offsets(true));
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
    return explainFrom(pod, cluster, nextStartIndex.get()).explanation();
  }

  /** An explanation, and how many nodes its evaluation examined (what {@link #find} moves the start index by). */
  private record Explained(Explanation explanation, int processed) {}

  private Explained explainFrom(PodInfo pod, ClusterSnapshot cluster, int startIndex) {
    var recorder = new Recorder();
    var evaluation = evaluate(pod, cluster, startIndex, recorder, new Offsets(false));
    var explanation =
        new Explanation(
            pod,
            evaluation.decision,
            cluster.nodes().size(),
            recorder.nodes(),
            recorder.note,
            Optional.ofNullable(evaluation.preemption).map(Policy::explainPreemption));
    return new Explained(explanation, evaluation.processed);
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

  private record Evaluation(Decision decision, int processed, Preemption.@Nullable Result preemption) {
    Evaluation(Decision decision, int processed) {
      this(decision, processed, null);
    }
  }

  private Evaluation evaluate(
      PodInfo pod, ClusterSnapshot cluster, int startIndex, @Nullable Recorder recorder, Offsets offsets) {
    var nodes = cluster.nodes();
    int nodeCount = nodes.size();
    if (nodeCount == 0) {
      return new Evaluation(Decision.unschedulable(Map.of()), 0);
    }
    var podFilters = prepareFilters(pod, cluster);
    var turnedAway = rejectedPod(podFilters);
    var narrowing = turnedAway == null ? Narrowing.of(podFilters) : null;
    if (turnedAway == null && narrowing != null) {
      turnedAway = narrowing.rejected();
    }
    if (turnedAway != null) {
      var decision = rejectEveryNode(pod, nodes, turnedAway, recorder);
      return postFilter(pod, cluster, podFilters, NodeStatuses.everyNode(turnedAway.rejection()), decision, offsets);
    }
    var nominations = cluster.nominations();
    var nominated = nominatedNodeFits(pod, cluster, podFilters, nominations, recorder);
    if (nominated != null) {
      return new Evaluation(bind(podFilters, nominated), 0);
    }
    // kube-scheduler searches only the nodes a PreFilter named, with the number to find and the start taken
    // over them; every other node is unresolvable.
    var searched = nodes;
    if (narrowing != null) {
      searched = narrowing.among(nodes);
      if (recorder != null) {
        narrowing.recordAbsent(nodes, recorder);
      }
    }
    int searchedCount = searched.size();
    // With nothing to rank the nodes by, the first feasible node is as good as any (as kube-scheduler).
    int toFind = scorers.isEmpty() ? 1 : numFeasibleNodesToFind(percentageOfNodesToScore, searchedCount);
    int start = searchedCount == 0 ? 0 : startIndex % searchedCount;
    var nodeWorkers = workers;
    var search =
        recorder == null && nodeWorkers != null && nodeWorkers.worthIt(searchedCount)
            ? searchInParallel(nodeWorkers, pod, searched, start, toFind, podFilters, nominations)
            : search(pod, searched, start, toFind, podFilters, nominations, recorder);
    var feasible = search.feasible();
    var rejections = search.rejections();
    int processed = search.processed();
    if (feasible.isEmpty()) {
      Map<String, List<String>> reasons = new HashMap<>(rejections.size() * 4 / 3 + 1);
      var unresolvable = new HashSet<String>();
      rejections.forEach((node, rejection) -> {
        reasons.put(node, messages(rejection.reasons()));
        if (rejection.code() == FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
          unresolvable.add(node);
        }
      });
      if (narrowing != null) {
        narrowing.addAbsent(nodes, reasons, unresolvable);
      }
      var decision = Decision.unschedulable(reasons).withUnresolvableNodes(unresolvable);
      var evaluation = postFilter(pod, cluster, podFilters, NodeStatuses.of(rejections), decision, offsets);
      return new Evaluation(evaluation.decision, processed, evaluation.preemption);
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

  /**
   * What the search over the nodes found.
   *
   * @param feasible the feasible nodes, in examination order; at most the number to find
   * @param rejections the rejection of each node examined and rejected
   * @param processed how many nodes were examined (what the round-robin start index moves by)
   */
  private record Search(List<NodeInfo> feasible, Map<String, FilterResult.Rejected> rejections, int processed) {}

  /**
   * The search: the nodes from {@code start}, wrapping, filtered one after the other until {@code toFind} are
   * feasible or every node was examined (kube's {@code findNodesThatPassFilters}).
   */
  private static Search search(
      PodInfo pod,
      List<NodeInfo> nodes,
      int start,
      int toFind,
      List<Filter> podFilters,
      Nominations nominations,
      @Nullable Recorder recorder) {
    int nodeCount = nodes.size();
    Supplier<TrackedFilters> tracked = () -> TrackedFilters.of(podFilters);
    var feasible = new ArrayList<NodeInfo>(Math.min(toFind, nodeCount));
    Map<String, FilterResult.Rejected> rejections = new HashMap<>();
    int processed = 0;
    for (int i = 0; i < nodeCount && feasible.size() < toFind; i++) {
      var node = nodes.get((start + i) % nodeCount);
      processed++;
      var rejection = filter(podFilters, tracked, pod, node, nominations, recorder);
      if (rejection == null) {
        feasible.add(node);
      } else {
        rejections.put(node.name(), rejection);
      }
    }
    return new Search(feasible, rejections, processed);
  }

  /** A node's outcome in the parallel search when every filter fits it. */
  private static final Object FITS = new Object();

  /** A node's outcome in the parallel search when a filter threw (or failed): thrown again if the search gets there. */
  private record Thrown(Throwable thrown) {}

  /**
   * The {@link #search} shared out over {@code workers}, deciding exactly as it does. The nodes, in the search's
   * order from {@code start}, are cut into chunks claimed in order; each node's outcome is kept (it fits, its
   * rejection, or what a filter threw). No chunk is claimed once the chunks done hold {@code toFind} feasible
   * nodes, or past a chunk where a filter threw: the chunks claimed are then a prefix holding every node the
   * sequential search examines, and reading their outcomes in order, stopping where it stops, gives its
   * feasible nodes, rejections and count, or throws what it throws.
   */
  private static Search searchInParallel(
      NodeWorkers workers,
      PodInfo pod,
      List<NodeInfo> nodes,
      int start,
      int toFind,
      List<Filter> podFilters,
      Nominations nominations) {
    int nodeCount = nodes.size();
    int chunkSize = workers.chunkSize();
    int chunks = workers.chunks(nodeCount);
    var outcomes = new Object[chunks][];
    var feasibleDone = new AtomicInteger();
    var firstThrowing = new AtomicInteger(Integer.MAX_VALUE);
    Supplier<TrackedFilters> tracked = () -> TrackedFilters.of(podFilters);
    workers.run(
        chunks,
        chunk -> feasibleDone.get() < toFind && chunk <= firstThrowing.get(),
        chunk -> {
          int from = chunk * chunkSize;
          var results = new Object[Math.min(chunkSize, nodeCount - from)];
          int fits = 0;
          for (int i = 0; i < results.length; i++) {
            var node = nodes.get((start + from + i) % nodeCount);
            try {
              var rejection = filter(podFilters, tracked, pod, node, nominations, null);
              if (rejection == null) {
                results[i] = FITS;
                fits++;
              } else {
                results[i] = rejection;
              }
            } catch (Throwable thrown) { // carried to the calling thread, thrown there if the search gets here
              results[i] = new Thrown(thrown);
              firstThrowing.accumulateAndGet(chunk, Math::min);
              break;
            }
          }
          outcomes[chunk] = results;
          feasibleDone.addAndGet(fits);
        });
    var feasible = new ArrayList<NodeInfo>(Math.min(toFind, nodeCount));
    Map<String, FilterResult.Rejected> rejections = new HashMap<>();
    int processed = 0;
    for (int i = 0; i < nodeCount && feasible.size() < toFind; i++) {
      var outcome = outcomes[i / chunkSize][i % chunkSize];
      var node = nodes.get((start + i) % nodeCount);
      processed++;
      if (outcome == FITS) {
        feasible.add(node);
      } else if (outcome instanceof FilterResult.Rejected rejection) {
        rejections.put(node.name(), rejection);
      } else {
        throw rethrown(((Thrown) outcome).thrown());
      }
    }
    return new Search(feasible, rejections, processed);
  }

  /** @return {@code thrown}, to throw as it is (a filter or scorer can throw only unchecked ones) */
  private static RuntimeException rethrown(Throwable thrown) {
    if (thrown instanceof RuntimeException runtime) {
      return runtime;
    }
    if (thrown instanceof Error error) {
      throw error;
    }
    return new SchedulerException("a plugin threw " + thrown, thrown);
  }

  /**
   * kube-scheduler's first look at the node a pod is nominated to (1.24): if the pod fits there, it is chosen
   * without looking at other nodes or scoring.
   *
   * @return the nominated node if the pod fits it; null otherwise (the search then looks at every node)
   */
  private static @Nullable NodeInfo nominatedNodeFits(
      PodInfo pod,
      ClusterSnapshot cluster,
      List<Filter> podFilters,
      Nominations nominations,
      @Nullable Recorder recorder) {
    if (pod.nominatedNodeName().isEmpty()) {
      return null;
    }
    var node = cluster.node(pod.nominatedNodeName()).orElse(null);
    if (node == null
        || filter(podFilters, () -> TrackedFilters.of(podFilters), pod, node, nominations, null) != null) {
      return null;
    }
    if (recorder != null) {
      filter(podFilters, () -> TrackedFilters.of(podFilters), pod, node, nominations, recorder);
      recorder.note = "The pod's nominated node fits: it is chosen without looking at other nodes.";
    }
    return node;
  }

  /**
   * kube-scheduler's PostFilter: with preemption on, what it found becomes the decision's post-filter message
   * and nomination; with it off, the decision clears the pod's nomination.
   */
  private Evaluation postFilter(
      PodInfo pod,
      ClusterSnapshot cluster,
      List<Filter> podFilters,
      NodeStatuses statuses,
      Decision.Unschedulable decision,
      Offsets offsets) {
    if (preemption == null) {
      return new Evaluation(decision, 0);
    }
    var result = preemption.evaluate(pod, cluster, podFilters, statuses, offsets);
    return new Evaluation(decision.withPostFilter(result.message(), result.nomination()), 0, result);
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
   * The generator of preemption's dry-run offsets: a SplitMix64 sequence from the policy's seed, advanced once
   * per attempt that draws ({@code advance}), or peeked at without advancing (explanations show the offset the
   * next decision would draw).
   */
  private final class Offsets implements RandomGenerator {
    private final boolean advance;

    Offsets(boolean advance) {
      this.advance = advance;
    }

    @Override
    public long nextLong() {
      long state = advance ? offsetState.addAndGet(GOLDEN_GAMMA) : offsetState.get() + GOLDEN_GAMMA;
      return mix64(state);
    }

    @Override
    public int nextInt(int bound) {
      if (bound <= 0) {
        throw new IllegalArgumentException("bound must be positive, was " + bound);
      }
      return (int) Math.floorMod(nextLong(), (long) bound);
    }
  }

  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
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
  private static Decision.Unschedulable rejectEveryNode(
      PodInfo pod, List<NodeInfo> nodes, PreFilter.PodRejected rejected, @Nullable Recorder recorder) {
    var messages = messages(rejected.rejection().reasons());
    Map<String, List<String>> reasons = new HashMap<>(nodes.size() * 4 / 3 + 1);
    for (var node : nodes) {
      reasons.put(node.name(), messages);
      if (recorder != null) {
        recorder.filtered(node.name(), rejected.name(), rejected.filter(pod, node));
      }
    }
    var decision = Decision.unschedulable(reasons, rejected.message());
    if (rejected.rejection().code() == FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      decision = decision.withUnresolvableNodes(reasons.keySet());
    }
    return decision;
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

  /**
   * Runs the filters on {@code node} with the nominated pods ahead of {@code pod} (kube's {@code
   * RunFilterPluginsWithNominatedPods}).
   *
   * @return the rejection of the first filter that does not fit; null if all fit
   * @throws SchedulerException if a filter fails
   */
  private static FilterResult.@Nullable Rejected filter(
      List<Filter> filters,
      Supplier<TrackedFilters> tracked,
      PodInfo pod,
      NodeInfo node,
      Nominations nominations,
      @Nullable Recorder recorder) {
    var stop = Filtering.runWithNominated(filters, tracked, pod, node, nominations, recorder);
    if (stop == null) {
      return null;
    }
    if (stop.result() instanceof FilterResult.Failed failed) {
      throw new SchedulerException(
          "filter " + stop.filter() + " failed for pod " + pod.key() + " on node " + node.name() + ": "
              + failed.message());
    }
    return (FilterResult.Rejected) stop.result();
  }

  /**
   * kube's {@code prioritizeNodes}: each scorer prepared, run on every feasible node and normalised in turn, the
   * scores checked, weighted and summed per node.
   */
  private long[] score(
      PodInfo pod, ClusterSnapshot cluster, List<NodeInfo> feasible, @Nullable Recorder recorder) {
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
        throw rethrown(thrown[s]);
      }
      addUp(pod, feasible, scorers.get(s), prepared[s], scores[s], totals, null);
    }
    spareScores.set(scores);
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
  private static final class Recorder implements Filtering.Listener {
    private final Map<String, List<Explanation.FilterOutcome>> filters = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> scores = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();
    private String note = "";

    @Override
    public void filtered(String node, String filter, FilterResult result) {
      filters.computeIfAbsent(node, n -> new ArrayList<>()).add(new Explanation.FilterOutcome(filter, result));
    }

    @Override
    public void restart(String node) {
      var outcomes = filters.get(node);
      if (outcomes != null) {
        outcomes.clear();
      }
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
