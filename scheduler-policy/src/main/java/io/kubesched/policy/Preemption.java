package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.runtime.Filtering;
import io.kubesched.policy.framework.runtime.NodeStatuses;
import io.kubesched.policy.framework.runtime.PostFilter;
import io.kubesched.policy.framework.runtime.TrackedFilters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code DefaultPreemption} PostFilter, which a {@link Policy} hands to its runtime ({@link
 * PostFilter}) to run when a pod fits no node: it looks for a node where evicting pods of lower priority would
 * let the pod fit, the fewest and least important such pods, and the node whose eviction costs least.
 *
 * <ol>
 *   <li>Eligibility ({@code PodEligibleToPreemptOthers}): a pod with {@code preemptionPolicy: Never} may not
 *       preempt; nor may a pod nominated to a node where a pod of lower priority is still terminating because a
 *       scheduler preempted it (the room is being made), unless the filters found that node unresolvable.
 *   <li>Candidates ({@code findCandidates}, {@code DryRunPreemption}): only nodes the filters rejected as {@link
 *       FilterResult.Code#UNSCHEDULABLE} are tried, from a random offset, until enough candidates are found
 *       ({@link PreemptionArgs#candidatesWanted}); one that violates no PodDisruptionBudget is looked for past
 *       that number.
 *   <li>Victims on one node ({@code SelectVictimsOnNode}): all pods of lower priority are removed from a copy of
 *       the node (and from a copy of the prepared filters' state, {@link PodTracking}); if the pod then fits
 *       (with the nominated pods, as every filter run), they are added back one by one, most important first,
 *       those whose eviction would violate a budget first, and each that lets the pod still fit stays.
 *   <li>The node ({@code pickOneNodeForPreemption}): fewest budget violations, then the lowest priority of the
 *       most important victim, the lowest sum of priorities, the fewest victims, the latest start of the
 *       highest-priority victims, and then the first candidate.
 * </ol>
 *
 * <p>Differences from kube-scheduler, which evaluates nodes in parallel: the dry run is sequential in the order
 * of the snapshot's nodes from the offset (kube's order of potential nodes is that of a map), victims of equal
 * importance keep the order of their node's pods (kube's sort is not stable) and the last criterion takes the
 * first candidate in the dry run's order (kube's, the first of a map). A victim without a start time counts as
 * the latest started, as kube's "now".
 *
 * <p>Pure: no I/O, no state but its arguments. Called from the scheduling thread; the prepared filters' {@link
 * PodTracking.Tracker}s it makes are its own.
 */
final class Preemption implements PostFilter {

  /** kube's prefix of the plugin's status messages. */
  static final String PREFIX = "preemption: ";

  /** The status of a potential node without a pod of lower priority than the preemptor. */
  static final String NO_VICTIMS = "No preemption victims found for incoming pod";

  /** The status of every node preemption did not evaluate, in the message when it finds no candidate. */
  static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";

  /** Why a pod with {@code preemptionPolicy: Never} does not preempt. */
  static final String NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never.";

  /** Why a pod whose nominated node still has a victim terminating does not preempt again. */
  static final String NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node.";

  private static final FilterResult.Rejected NO_VICTIMS_STATUS = FilterResult.unresolvable(Reason.of(NO_VICTIMS));

  /** Victims most important first: higher priority, then the earlier started (kube's {@code MoreImportantVictim}). */
  static final Comparator<PodInfo> MORE_IMPORTANT_FIRST =
      Comparator.comparingInt(PodInfo::priority)
          .reversed()
          .thenComparing(PodInfo::startTime, Comparator.nullsLast(Comparator.naturalOrder()));

  private final PreemptionArgs args;

  Preemption(PreemptionArgs args) {
    this.args = args;
  }

  /** @return how many candidates this preemption looks for */
  PreemptionArgs args() {
    return args;
  }

  /**
   * A node where evicting {@code victims} would let the pod fit.
   *
   * @param node the node's name
   * @param victims the pods to evict, most important first; never empty
   * @param pdbViolations how many of them would be evicted against a PodDisruptionBudget
   */
  record Candidate(String node, List<PodInfo> victims, int pdbViolations) {
    Candidate {
      victims = List.copyOf(victims);
    }
  }

  /** The criteria of kube's {@code pickOneNodeForPreemption}, in the order they are applied. */
  enum Criterion {
    /** There was one candidate: nothing to decide. */
    ONLY_CANDIDATE("the only candidate"),
    /** (1) the fewest PodDisruptionBudget violations. */
    FEWEST_PDB_VIOLATIONS("fewest PDB violations"),
    /** (2) the lowest priority of its most important victim. */
    LOWEST_HIGHEST_PRIORITY("lowest priority of the most important victim"),
    /** (3) the lowest sum of its victims' priorities (each raised by 2^31). */
    LOWEST_PRIORITY_SUM("lowest sum of victim priorities"),
    /** (4) the fewest victims. */
    FEWEST_VICTIMS("fewest victims"),
    /** (5) the latest start among its victims of the highest priority. */
    LATEST_START_TIME("latest start time of the highest-priority victims"),
    /** (6) still tied: the first candidate in the dry run's order. */
    FIRST_CANDIDATE("first candidate");

    private final String description;

    Criterion(String description) {
      this.description = description;
    }

    /** @return the criterion in words, as explanations show it */
    String description() {
      return description;
    }
  }

  /**
   * What preemption found for one pod.
   *
   * @param eligibility why the pod may not preempt ({@link #NOT_ELIGIBLE_NEVER}, {@link
   *     #NOT_ELIGIBLE_TERMINATING}); empty if it may
   * @param candidates the candidates of the dry run, those violating no budget first
   * @param chosen the candidate chosen; null if none
   * @param decidedBy the criterion that chose it; null if none was chosen
   * @param message the PostFilter's message, {@value #PREFIX} first
   * @param nomination what becomes of the pod's nomination
   */
  record Result(
      String eligibility,
      List<Candidate> candidates,
      @Nullable Candidate chosen,
      @Nullable Criterion decidedBy,
      String message,
      Nomination nomination)
      implements PostFilter.Outcome {

    Result {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * Runs preemption for a pod that fits no node (kube's {@code Evaluator.Preempt} without the actuation).
   *
   * @param pod the pod
   * @param cluster the snapshot the attempt was made on: nodes, PodDisruptionBudgets and nominations
   * @param prepared the pod's filters as its attempt prepared them
   * @param statuses what the filters said of each node in the attempt
   * @param offsets where the dry run starts among the potential nodes: one {@code nextInt(bound)} per attempt
   *     that reaches the dry run
   * @return the outcome: a node with victims ({@link Nomination.To}), no node ({@link Nomination#CLEAR}), or the
   *     pod not eligible or the dry run failed ({@link Nomination#KEEP})
   */
  @Override
  public Result evaluate(
      PodInfo pod,
      ClusterSnapshot cluster,
      List<Filter> prepared,
      NodeStatuses statuses,
      RandomGenerator offsets) {
    var eligibility = eligibility(pod, cluster, statuses);
    if (!eligibility.isEmpty()) {
      return new Result(eligibility, List.of(), null, null, PREFIX + eligibility, Nomination.KEEP);
    }
    var nodes = cluster.nodes();
    var potential = statuses.nodesWith(FilterResult.Code.UNSCHEDULABLE, nodes);
    if (potential.isEmpty()) {
      return noCandidate(fitError(nodes.size(), Map.of(), 0));
    }
    if (!anyLowerPriority(pod, potential)) {
      // Every potential node would say NO_VICTIMS: the same outcome without drawing an offset or copying state.
      return noCandidate(fitError(nodes.size(), Map.of(), potential.size()));
    }
    int offset = offsets.nextInt(potential.size());
    var dryRun = dryRun(pod, cluster, prepared, potential, offset, args.candidatesWanted(potential.size()));
    if (dryRun.candidates().isEmpty()) {
      if (!dryRun.errors().isEmpty()) {
        return new Result("", List.of(), null, null, PREFIX + aggregate(dryRun.errors()), Nomination.KEEP);
      }
      return noCandidate(fitError(nodes.size(), dryRun.statuses(), 0));
    }
    var picked = pick(dryRun.candidates());
    var chosen = picked.chosen();
    var message =
        PREFIX + "found a potential placement for pod on node " + chosen.node() + ", preempting "
            + chosen.victims().size() + " victims";
    return new Result(
        "", dryRun.candidates(), chosen, picked.criterion(), message,
        new Nomination.To(chosen.node(), chosen.victims()));
  }

  private static Result noCandidate(String fitError) {
    return new Result("", List.of(), null, null, PREFIX + fitError, Nomination.CLEAR);
  }

  /**
   * kube's {@code PodEligibleToPreemptOthers}.
   *
   * @return why {@code pod} may not preempt; empty if it may
   */
  static String eligibility(PodInfo pod, ClusterSnapshot cluster, NodeStatuses statuses) {
    if (pod.preemptionPolicy() == PreemptionPolicy.NEVER) {
      return NOT_ELIGIBLE_NEVER;
    }
    var nominated = pod.nominatedNodeName();
    if (nominated.isEmpty()
        || statuses.code(nominated) == FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      return "";
    }
    var node = cluster.node(nominated);
    if (node.isPresent()) {
      for (var other : node.get().pods()) {
        if (other.priority() < pod.priority() && other.terminatingByPreemption()) {
          return NOT_ELIGIBLE_TERMINATING;
        }
      }
    }
    return "";
  }

  private static boolean anyLowerPriority(PodInfo pod, List<NodeInfo> nodes) {
    for (var node : nodes) {
      for (var other : node.pods()) {
        if (other.priority() < pod.priority()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * What the dry run found.
   *
   * @param candidates those violating no budget first, each list in the order found
   * @param statuses the rejection of each node that yielded no candidate, in the order evaluated
   * @param errors why nodes failed (a filter that could not decide, a node with no victim), in that order
   */
  record DryRun(List<Candidate> candidates, Map<String, FilterResult.Rejected> statuses, List<String> errors) {}

  /**
   * kube's {@code DryRunPreemption}, sequential: evaluates {@code potential} from {@code offset}, wrapping, until
   * it holds a candidate violating no budget and {@code wanted} candidates in all; each of the two lists keeps at
   * most {@code wanted}.
   */
  DryRun dryRun(
      PodInfo pod,
      ClusterSnapshot cluster,
      List<Filter> prepared,
      List<NodeInfo> potential,
      int offset,
      int wanted) {
    var pdbs = cluster.disruptionBudgets();
    var nominations = cluster.nominations();
    var nonViolating = new ArrayList<Candidate>();
    var violating = new ArrayList<Candidate>();
    var statuses = new LinkedHashMap<String, FilterResult.Rejected>();
    var errors = new ArrayList<String>();
    for (int i = 0; i < potential.size(); i++) {
      var node = potential.get((offset + i) % potential.size());
      var outcome = selectVictimsOnNode(pod, node, prepared, pdbs, nominations);
      if (outcome instanceof NodeOutcome.Victims victims) {
        if (victims.pods().isEmpty()) {
          errors.add("expected at least one victim pod on node \"" + node.name() + "\"");
          continue;
        }
        var candidate = new Candidate(node.name(), victims.pods(), victims.pdbViolations());
        var list = candidate.pdbViolations() == 0 ? nonViolating : violating;
        if (list.size() < wanted) {
          list.add(candidate);
        }
        if (!nonViolating.isEmpty() && nonViolating.size() + violating.size() >= wanted) {
          break;
        }
      } else if (outcome instanceof NodeOutcome.Rejection rejection) {
        statuses.put(node.name(), rejection.rejected());
      } else {
        errors.add(((NodeOutcome.Failure) outcome).message());
      }
    }
    var candidates = new ArrayList<Candidate>(nonViolating);
    candidates.addAll(violating);
    return new DryRun(candidates, statuses, errors);
  }

  /** What {@link #selectVictimsOnNode} found for one node. */
  sealed interface NodeOutcome {

    /**
     * Evicting {@code pods} lets the pod fit.
     *
     * @param pods the victims, most important first
     * @param pdbViolations how many of them violate a budget
     */
    record Victims(List<PodInfo> pods, int pdbViolations) implements NodeOutcome {}

    /** The pod does not fit even without the node's pods of lower priority, or there are none. */
    record Rejection(FilterResult.Rejected rejected) implements NodeOutcome {}

    /** A filter could not decide. */
    record Failure(String message) implements NodeOutcome {}
  }

  /**
   * kube's {@code SelectVictimsOnNode}: the fewest, least important pods of {@code node} whose eviction lets
   * {@code pod} fit. The node and the prepared filters are not changed: it works on copies.
   */
  static NodeOutcome selectVictimsOnNode(
      PodInfo pod,
      NodeInfo node,
      List<Filter> prepared,
      List<PodDisruptionBudget> pdbs,
      Nominations nominations) {
    var potential = new ArrayList<PodInfo>();
    for (var other : node.pods()) {
      if (other.priority() < pod.priority()) {
        potential.add(other);
      }
    }
    if (potential.isEmpty()) {
      return new NodeOutcome.Rejection(NO_VICTIMS_STATUS);
    }
    var copy = new NodeCopy(node, TrackedFilters.of(prepared));
    potential.forEach(copy::remove);
    var stop = copy.filter(pod, nominations);
    if (stop != null) {
      return outcomeOf(stop);
    }
    potential.sort(MORE_IMPORTANT_FIRST);
    var split = splitByPdbViolation(potential, pdbs);
    var victims = new ArrayList<PodInfo>();
    for (var candidate : split.violating()) {
      var failure = reprieve(candidate, pod, copy, nominations, victims);
      if (failure != null) {
        return failure;
      }
    }
    int pdbViolations = victims.size();
    for (var candidate : split.nonViolating()) {
      var failure = reprieve(candidate, pod, copy, nominations, victims);
      if (failure != null) {
        return failure;
      }
    }
    if (!split.violating().isEmpty() && !split.nonViolating().isEmpty()) {
      victims.sort(MORE_IMPORTANT_FIRST);
    }
    return new NodeOutcome.Victims(victims, pdbViolations);
  }

  /**
   * kube's {@code reprievePod}: adds {@code candidate} back to {@code copy}; if {@code pod} then no longer fits,
   * takes it out again and appends it to {@code victims}.
   *
   * @return the outcome of a filter that could not decide, which ends the search on this node; else null
   */
  private static @Nullable NodeOutcome reprieve(
      PodInfo candidate, PodInfo pod, NodeCopy copy, Nominations nominations, List<PodInfo> victims) {
    copy.add(candidate);
    var stop = copy.filter(pod, nominations);
    if (stop == null) {
      return null;
    }
    if (stop.result() instanceof FilterResult.Failed) {
      return outcomeOf(stop);
    }
    copy.remove(candidate);
    victims.add(candidate);
    return null;
  }

  private static NodeOutcome outcomeOf(Filtering.Stop stop) {
    if (stop.result() instanceof FilterResult.Rejected rejected) {
      return new NodeOutcome.Rejection(rejected);
    }
    var failed = (FilterResult.Failed) stop.result();
    return new NodeOutcome.Failure("running \"" + stop.filter() + "\" filter plugin: " + failed.message());
  }

  /** A node and the filters' state as preemption changes them: kube's node snapshot with a cloned cycle state. */
  private static final class NodeCopy {
    private NodeInfo node;
    private final TrackedFilters filters;

    NodeCopy(NodeInfo node, TrackedFilters filters) {
      this.node = node;
      this.filters = filters;
    }

    void remove(PodInfo pod) {
      node = node.withoutPod(pod.uid());
      filters.removed(pod, node);
    }

    void add(PodInfo pod) {
      node = node.withPod(pod);
      filters.added(pod, node);
    }

    Filtering.@Nullable Stop filter(PodInfo pod, Nominations nominations) {
      return Filtering.runWithNominated(filters.filters(), filters::copy, pod, node, nominations, null);
    }
  }

  /**
   * Victims split by whether evicting them violates a PodDisruptionBudget.
   *
   * @param violating those that would, in the order given
   * @param nonViolating the others, in the order given
   */
  record PdbSplit(List<PodInfo> violating, List<PodInfo> nonViolating) {}

  /**
   * kube's {@code FilterVictimsWithPDBViolation}: each budget starts at its {@code disruptionsAllowed}; walking
   * {@code victims} in order, a victim (with labels) takes one from every budget protecting it that does not
   * already count it as disrupted, and violates as soon as one falls below zero (the budgets after that one are
   * not charged for it).
   */
  static PdbSplit splitByPdbViolation(List<PodInfo> victims, List<PodDisruptionBudget> pdbs) {
    var allowed = new int[pdbs.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = pdbs.get(i).disruptionsAllowed();
    }
    var violating = new ArrayList<PodInfo>();
    var nonViolating = new ArrayList<PodInfo>();
    for (var victim : victims) {
      if (violates(victim, pdbs, allowed)) {
        violating.add(victim);
      } else {
        nonViolating.add(victim);
      }
    }
    return new PdbSplit(violating, nonViolating);
  }

  private static boolean violates(PodInfo victim, List<PodDisruptionBudget> pdbs, int[] allowed) {
    if (victim.labels().isEmpty()) {
      return false;
    }
    for (int i = 0; i < allowed.length; i++) {
      var pdb = pdbs.get(i);
      if (!pdb.protects(victim) || pdb.disruptedPods().contains(victim.name())) {
        continue;
      }
      allowed[i]--;
      if (allowed[i] < 0) {
        return true;
      }
    }
    return false;
  }

  /** @return whether {@code a} is more important than {@code b} as a victim (kube's {@code MoreImportantVictim}) */
  static boolean moreImportant(PodInfo a, PodInfo b) {
    return MORE_IMPORTANT_FIRST.compare(a, b) < 0;
  }

  /**
   * The candidate chosen and why.
   *
   * @param chosen the candidate
   * @param criterion the criterion that left it alone
   */
  record Picked(Candidate chosen, Criterion criterion) {}

  /**
   * kube's {@code SelectCandidate} and {@code pickOneNodeForPreemption}.
   *
   * @param candidates at least one, in the dry run's order
   */
  static Picked pick(List<Candidate> candidates) {
    if (candidates.size() == 1) {
      return new Picked(candidates.get(0), Criterion.ONLY_CANDIDATE);
    }
    var criteria = new LinkedHashMap<Criterion, ToLongFunction<Candidate>>();
    criteria.put(Criterion.FEWEST_PDB_VIOLATIONS, c -> -c.pdbViolations());
    criteria.put(Criterion.LOWEST_HIGHEST_PRIORITY, c -> -c.victims().get(0).priority());
    criteria.put(Criterion.LOWEST_PRIORITY_SUM, c -> -prioritySum(c));
    criteria.put(Criterion.FEWEST_VICTIMS, c -> -c.victims().size());
    criteria.put(Criterion.LATEST_START_TIME, Preemption::earliestStartOfHighestPriority);
    List<Candidate> remaining = candidates;
    for (var criterion : criteria.entrySet()) {
      var best = new ArrayList<Candidate>();
      long max = Long.MIN_VALUE;
      for (var candidate : remaining) {
        long score = criterion.getValue().applyAsLong(candidate);
        if (score > max) {
          max = score;
          best.clear();
        }
        if (score == max) {
          best.add(candidate);
        }
      }
      if (best.size() == 1) {
        return new Picked(best.get(0), criterion.getKey());
      }
      remaining = best;
    }
    return new Picked(remaining.get(0), Criterion.FIRST_CANDIDATE);
  }

  private static long prioritySum(Candidate candidate) {
    long sum = 0;
    for (var victim : candidate.victims()) {
      sum += (long) victim.priority() + (1L << 31);
    }
    return sum;
  }

  /** kube's {@code GetEarliestPodStartTime}, as nanoseconds since the epoch; a victim not started counts as now. */
  private static long earliestStartOfHighestPriority(Candidate candidate) {
    var victims = candidate.victims();
    int maxPriority = victims.get(0).priority();
    long earliest = nanos(victims.get(0).startTime());
    for (var victim : victims) {
      long start = nanos(victim.startTime());
      if (victim.priority() == maxPriority) {
        earliest = Math.min(earliest, start);
      } else if (victim.priority() > maxPriority) {
        maxPriority = victim.priority();
        earliest = start;
      }
    }
    return earliest;
  }

  private static long nanos(@Nullable Instant time) {
    if (time == null) {
      return Long.MAX_VALUE;
    }
    try {
      return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
    } catch (ArithmeticException outOfRange) {
      return time.getEpochSecond() < 0 ? Long.MIN_VALUE + 1 : Long.MAX_VALUE;
    }
  }

  /**
   * kube's {@code FitError} message for preemption without a candidate: every node of the cluster counted, the
   * dry run's statuses, {@code noVictims} nodes with {@link #NO_VICTIMS} and every other node with {@link
   * #NOT_HELPFUL}.
   */
  static String fitError(int nodeCount, Map<String, FilterResult.Rejected> statuses, int noVictims) {
    var counts = new TreeMap<String, Integer>();
    statuses.values().forEach(rejected -> rejected.reasons().forEach(r -> counts.merge(r.message(), 1, Integer::sum)));
    if (noVictims > 0) {
      counts.merge(NO_VICTIMS, noVictims, Integer::sum);
    }
    int absent = nodeCount - statuses.size() - noVictims;
    if (absent > 0) {
      counts.merge(NOT_HELPFUL, absent, Integer::sum);
    }
    var parts = new ArrayList<String>();
    counts.forEach((reason, count) -> parts.add(count + " " + reason));
    parts.sort(Preemption::compareAsUtf8);
    var message = new StringBuilder("0/").append(nodeCount).append(" nodes are available:");
    if (!parts.isEmpty()) {
      message.append(' ').append(String.join(", ", parts)).append('.');
    }
    return message.toString();
  }

  /** Orders strings as Go's {@code sort.Strings}: by code point. */
  private static int compareAsUtf8(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  /** The message of Go's aggregated errors: one as it is, several distinct ones in brackets. */
  static String aggregate(List<String> errors) {
    var distinct = new LinkedHashSet<>(errors);
    if (distinct.size() == 1) {
      return distinct.iterator().next();
    }
    return "[" + String.join(", ", distinct) + "]";
  }
}
