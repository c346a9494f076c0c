package io.kubesched.policy.framework.runtime;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.api.RetryHint;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.VolumeBinding;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.policy.framework.ClaimAllocator;
import io.kubesched.policy.framework.ClaimDeallocator;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.VolumeBinder;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * One profile's plugins run for one pod as kube-scheduler's scheduling cycle runs them ({@code schedulePod} in
 * {@code schedule_one.go} over the {@code frameworkImpl} of {@code framework/runtime}): PreFilter, the nominated
 * node first, the search for feasible nodes ({@link NodeSearch}), PostFilter when none is feasible, scoring and
 * selecting the host ({@link NodeScoring}). {@link io.kubesched.policy.Policy} holds one and keeps what lasts
 * from one pod to the next (the round-robin start index, the preemption offsets, the last snapshot); an evaluator
 * keeps only the spare score arrays. Internal: not exported.
 *
 * <p>Threads: {@link #evaluate} runs on the calling thread, sharing the search and the scoring of a large
 * cluster out to its {@link NodeWorkers} when it has some and nothing is recorded; calls from several threads
 * are safe.
 */
public final class Evaluator {

  /** kube-scheduler never stops searching before it has found this many feasible nodes. */
  static final int MIN_FEASIBLE_NODES_TO_FIND = 100;

  /** The adaptive percentage of nodes to score never drops below this. */
  static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

  private final List<Filter> filters;
  private final boolean scores;
  private final int percentageOfNodesToScore;
  private final @Nullable PostFilter postFilter;
  private final @Nullable NodeWorkers workers;
  private final NodeScoring scoring;

  /**
   * @param filters the filters, in the order they run
   * @param scorers the weighted scorers, in the order they run
   * @param percentageOfNodesToScore 0 (adaptive) to 100
   * @param seed the seed of the tie-breaking between equally scored nodes
   * @param postFilter runs when a pod fits no node; null for none (the decision then clears the nomination)
   * @param workers the threads to share large searches and scorings out to; null: all on the calling thread
   */
  public Evaluator(
      List<Filter> filters,
      List<WeightedScorer> scorers,
      int percentageOfNodesToScore,
      long seed,
      @Nullable PostFilter postFilter,
      @Nullable NodeWorkers workers) {
    this.filters = List.copyOf(filters);
    this.scores = !scorers.isEmpty();
    this.percentageOfNodesToScore = percentageOfNodesToScore;
    this.postFilter = postFilter;
    this.workers = workers;
    this.scoring = new NodeScoring(scorers, workers, seed);
  }

  /**
   * What one evaluation decided.
   *
   * @param decision the decision
   * @param processed how many nodes the search examined (what the round-robin start index moves by)
   * @param postFilter what the PostFilter found; null when it did not run
   */
  public record Evaluation(Decision decision, int processed, PostFilter.@Nullable Outcome postFilter) {
    Evaluation(Decision decision, int processed) {
      this(decision, processed, null);
    }
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

  /**
   * Decides where {@code pod} goes on {@code cluster}, the search starting at {@code startIndex}.
   *
   * @param recorder hears every step, for an explanation; null for none (the search may then go parallel)
   * @param offsets what the PostFilter draws from
   * @throws SchedulerException if a filter fails or a scorer's score lies outside {@code 0..100} after
   *     normalisation; the message names the plugin, the pod and the node
   */
  public Evaluation evaluate(
      PodInfo pod, ClusterSnapshot cluster, int startIndex, @Nullable Recorder recorder, RandomGenerator offsets) {
    var nodes = cluster.nodes();
    int nodeCount = nodes.size();
    if (nodeCount == 0) {
      return new Evaluation(Decision.unschedulable(Map.of()), 0);
    }
    var podFilters = prepareFilters(pod, cluster);
    var turnedAway = rejectedPod(podFilters);
    var narrowing = turnedAway == null ? Narrowing.of(podFilters) : null;
    boolean namedNoNode = false;
    if (turnedAway == null && narrowing != null) {
      turnedAway = narrowing.rejected();
      namedNoNode = turnedAway != null;
    }
    if (turnedAway != null) {
      var decision = rejectEveryNode(pod, nodes, turnedAway, recorder);
      if (namedNoNode) { // every filter that named nodes
        var named = Set.copyOf(narrowing.filters());
        decision = rejectedBy(decision, pod, named);
      }
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
    int toFind = scores ? numFeasibleNodesToFind(percentageOfNodesToScore, searchedCount) : 1;
    int start = searchedCount == 0 ? 0 : startIndex % searchedCount;
    var nodeWorkers = workers;
    var search =
        recorder == null && nodeWorkers != null && nodeWorkers.worthIt(searchedCount)
            ? NodeSearch.searchInParallel(nodeWorkers, pod, searched, start, toFind, podFilters, nominations)
            : NodeSearch.search(pod, searched, start, toFind, podFilters, nominations, recorder);
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
      var rejectors = search.rejectors();
      if (narrowing != null && nodes.size() > searchedCount) {
        narrowing.addAbsent(nodes, reasons, unresolvable);
        rejectors = new HashSet<>(rejectors);
        rejectors.addAll(narrowing.filters());
      }
      var decision = rejectedBy(Decision.unschedulable(reasons).withUnresolvableNodes(unresolvable), pod, rejectors);
      var evaluation = postFilter(pod, cluster, podFilters, NodeStatuses.of(rejections), decision, offsets);
      return new Evaluation(evaluation.decision(), processed, evaluation.postFilter());
    }
    if (feasible.size() == 1) {
      if (recorder != null) {
        recorder.note("Only one node is feasible: it is chosen without scoring.");
      }
      return new Evaluation(bind(podFilters, feasible.get(0)), processed);
    }
    var totals = scoring.score(pod, cluster, feasible, recorder);
    return new Evaluation(bind(podFilters, feasible.get(scoring.selectBest(pod, totals))), processed);
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
        || NodeSearch.filter(podFilters, () -> TrackedFilters.of(podFilters), pod, node, nominations, null)
            != null) {
      return null;
    }
    if (recorder != null) {
      NodeSearch.filter(podFilters, () -> TrackedFilters.of(podFilters), pod, node, nominations, recorder);
      recorder.note("The pod's nominated node fits: it is chosen without looking at other nodes.");
    }
    return node;
  }

  /**
   * kube-scheduler's PostFilter: with one, what it found becomes the decision's post-filter message and
   * nomination; without, the decision clears the pod's nomination.
   */
  private Evaluation postFilter(
      PodInfo pod,
      ClusterSnapshot cluster,
      List<Filter> podFilters,
      NodeStatuses statuses,
      Decision.Unschedulable decision,
      RandomGenerator offsets) {
    var deallocations = claimDeallocations(pod, podFilters);
    if (!deallocations.isEmpty()) {
      decision = decision.withClaimDeallocations(deallocations);
    }
    if (postFilter == null) {
      return new Evaluation(decision, 0);
    }
    var outcome = postFilter.evaluate(pod, cluster, podFilters, statuses, offsets);
    return new Evaluation(decision.withPostFilter(outcome.message(), outcome.nomination()), 0, outcome);
  }

  /**
   * kube-scheduler's DynamicResources PostFilter, which its default profile runs before preemption: the claims
   * the pod's prepared filters ask to deallocate.
   */
  private static List<ClaimDeallocation> claimDeallocations(PodInfo pod, List<Filter> podFilters) {
    List<ClaimDeallocation> deallocations = List.of();
    for (var filter : podFilters) {
      if (filter instanceof ClaimDeallocator deallocator) {
        var claim = deallocator.claimToDeallocate(pod);
        if (claim.isPresent()) {
          deallocations = deallocations.isEmpty() ? List.of(claim.get()) : concat(deallocations, List.of(claim.get()));
        }
      }
    }
    return deallocations;
  }

  /**
   * The decision to bind to {@code node}, with the volume bindings and claim allocations the pod's prepared
   * filters planned there.
   */
  private static Decision bind(List<Filter> podFilters, NodeInfo node) {
    List<VolumeBinding> volumeBindings = List.of();
    List<ClaimAllocation> claimAllocations = List.of();
    for (var filter : podFilters) {
      if (filter instanceof VolumeBinder binder) {
        var planned = binder.volumeBindings(node);
        if (!planned.isEmpty()) {
          volumeBindings = volumeBindings.isEmpty() ? planned : concat(volumeBindings, planned);
        }
      }
      if (filter instanceof ClaimAllocator allocator) {
        var planned = allocator.claimAllocations(node);
        if (!planned.isEmpty()) {
          claimAllocations = claimAllocations.isEmpty() ? planned : concat(claimAllocations, planned);
        }
      }
    }
    var decision = Decision.bind(node.name(), volumeBindings);
    return claimAllocations.isEmpty() ? decision : decision.withClaimAllocations(claimAllocations);
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    var all = new ArrayList<T>(first);
    all.addAll(second);
    return all;
  }

  /**
   * @return {@code decision} naming {@code rejectors}, retried on the cluster changes they register ({@link
   *     Filter#retriedOn}) when their hints ({@link Filter#isSchedulableAfter}) say a change may help; on every
   *     change when none is named, or one is not among this policy's filters
   */
  private Decision.Unschedulable rejectedBy(Decision.Unschedulable decision, PodInfo pod, Set<String> rejectors) {
    var rejecting = new ArrayList<Filter>(rejectors.size());
    var changes = EnumSet.noneOf(ClusterChange.class);
    for (var filter : filters) { // in the policy's order, so that two decisions for one pod are equal
      if (rejectors.contains(filter.name())) {
        rejecting.add(filter);
        changes.addAll(filter.retriedOn());
      }
    }
    if (rejecting.isEmpty() || rejecting.size() < rejectors.size()) {
      return decision.withRejectors(rejectors, ClusterChange.ALL, RetryHint.ALWAYS);
    }
    return decision.withRejectors(rejectors, changes, new FilterHints(pod, rejecting));
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
  private Decision.Unschedulable rejectEveryNode(
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
    decision = rejectedBy(decision, pod, Set.of(rejected.name()));
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
}
