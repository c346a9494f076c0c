package io.kubesched.policy;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.Resources;
import io.kubesched.policy.GroupExplanation.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * All or nothing for a pod group (kube-scheduler 1.37's pod group cycle, {@code scheduleOnePodGroup}): the
 * pending members are tried one after the other against one snapshot, each seeing the earlier ones that fit
 * ({@link ClusterSnapshot#withPodOn}); the group is placed only if at least its {@link PodGroup#minMember()}
 * fit, counting those placed before. Pure: it assumes nothing anywhere; the caller acts on the decision.
 *
 * <p>The steps, as kube's {@code podGroupSchedulingDefaultAlgorithm} with its {@code GangScheduling} plugin's
 * {@code PlacementFeasible} check, and coscheduling's {@code minResources}:
 *
 * <ol>
 *   <li>If {@code placed + pending < minMember}, the group cannot complete: {@link GroupDecision.Unschedulable}
 *       with kube's {@code minCount (M) cannot be satisfied: P scheduled, N remaining}; no member is tried.
 *   <li>If the group has {@link PodGroup#minResources() minResources}, the free resources of the snapshot's
 *       nodes, summed over all nodes (the group's own placed members counted as free, as coscheduling does),
 *       must cover them plus {@code pods: minMember}; if not, {@link GroupDecision.Unschedulable} with {@code
 *       resource gap: ...} naming what is missing (for example {@code resource gap: cpu 1500m, pods 2}); no
 *       member is tried. Like coscheduling's PreFilter this is a sum, not a placement.
 *   <li>Each member, in the order given, is decided by the finder {@link FinderFunc#withoutPreemption() without
 *       preemption} on the snapshot holding the members that fit before it. A {@link Decision.Bind} without
 *       volume bindings fits, and the member is laid onto its node (its own nomination, if any, dropped from the
 *       snapshot, as kube's assume drops it; the devices it claims shown allocated, as kube's Reserve shows them). A {@link Decision.Bind} with volume bindings does not fit: the
 *       member gets {@value #VOLUMES_NOT_SUPPORTED}. A {@link Decision.Unschedulable} does not fit; a {@link
 *       Nomination.To} it carries is never acted on (it is replaced by {@link Nomination#KEEP}, as kube leaves
 *       a group member's nomination alone).
 *   <li>After each member, as soon as {@code placed + fitted + remaining < minMember}, the trial stops (kube's
 *       early stop): {@link GroupDecision.Unschedulable} with {@code minCount (M) cannot be satisfied: S
 *       scheduled, N remaining}, S counting {@code placed + fitted}.
 *   <li>At the end, {@code placed + fitted >= minMember} gives {@link GroupDecision.Placed}.
 * </ol>
 *
 * <p>In a {@link GroupDecision.Unschedulable}, the members not tried (the trial stopped early, or before any
 * member) are among {@code unfitted}, each with a decision whose {@link Decision.Unschedulable#preFilterMessage()}
 * is the group's message. Cost: one {@code find} per member tried, and one {@link ClusterSnapshot#withPodOn}
 * (O(nodes)) per member that fits; the {@code minResources} sum is O(nodes), O(pods) when members are placed.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class GroupPlacement {

  /** Why a member whose node needs volumes bound first does not count as fitting. */
  public static final String VOLUMES_NOT_SUPPORTED = "binding volumes for pod group members is not supported yet";

  private GroupPlacement() {}

  /**
   * The order a group's pending members are tried in: by name, then uid. Fixed, so that the same cluster gives the
   * same placement (kube tries them in queue order). The live loop, its explanation and the what-if simulation use
   * it alike.
   */
  public static final Comparator<PodInfo> TRIAL_ORDER =
      Comparator.comparing(PodInfo::name).thenComparing(PodInfo::uid);

  /**
   * kube's {@code validatePodGroup}: one scheduler name, the group's priority on every member (the first member's
   * when the group has none), one preemption policy.
   *
   * @param members the members to try, in {@link #TRIAL_ORDER}; at least one
   * @return why the group cannot be scheduled as it is, as kube-scheduler words it; null when it can
   */
  public static @Nullable String validate(PodGroup group, List<PodInfo> members) {
    var first = members.get(0);
    var groupPriority = group.priority() != null ? group.priority().intValue() : first.priority();
    for (var info : members) {
      if (!info.schedulerName().equals(first.schedulerName())) {
        return "all pods in a single pod group should have the same .spec.schedulerName set, got: \""
            + info.schedulerName() + "\" and \"" + first.schedulerName() + "\"";
      }
      if (info.priority() != groupPriority) {
        return "all pods in a single pod group should have the same priority as the pod group's priority, got "
            + info.priority() + " and " + groupPriority;
      }
      if (info.preemptionPolicy() != first.preemptionPolicy()) {
        return "all pods in a single pod group should have the same preemption policy, got "
            + apiValue(info.preemptionPolicy()) + " and " + apiValue(first.preemptionPolicy());
      }
    }
    return null;
  }

  private static String apiValue(PreemptionPolicy policy) {
    return policy == PreemptionPolicy.NEVER ? "Never" : "PreemptLowerPriority";
  }

  /**
   * @return a member's own reason: its fit error over the nodes, or, for a member turned away before any node was
   *     looked at (not tried after the group could no longer fit, a resource gap, volumes), that reason alone, as
   *     kube-scheduler words it
   */
  public static String memberMessage(Decision.Unschedulable own, int nodeCount) {
    return own.reasonsByNode().isEmpty() ? own.preFilterMessage() : own.message(nodeCount);
  }

  /**
   * @return what member {@code uid} of a group that does not fit is told: its own reason if it did not fit, the
   *     group's message if it fitted in the trial
   */
  public static String memberMessage(GroupDecision.Unschedulable decision, String uid, int nodeCount) {
    var own = decision.unfitted().get(uid);
    return own != null ? memberMessage(own, nodeCount) : decision.message();
  }

  /**
   * Which change may make a group that does not fit schedulable. With no member fitting (and none refused), the
   * trial stopped once the members not tried could not reach the minimum even if all fitted: the group fits only
   * once one of the members tried and unfit may, so the members wait for what may help one of those (whose
   * decisions this returns). Else any change may: a fitted member moving elsewhere may make room for another, and
   * this returns nothing.
   *
   * @param someRefused whether a member was refused before the trial (it counts as not fitting)
   */
  public static List<Decision.Unschedulable> retriedOnAnyOf(GroupDecision.Unschedulable decision, boolean someRefused) {
    var triedAndUnfit = decision.unfitted().values().stream()
        .filter(own -> !own.preFilterMessage().equals(decision.message()))
        .toList();
    boolean noneFitted = decision.fitted().isEmpty() && !someRefused && !triedAndUnfit.isEmpty();
    return noneFitted ? triedAndUnfit : List.of();
  }

  /**
   * Decides whether the group's pending members fit now, as the class describes. Called on the scheduling
   * thread; the finder is called once per member tried, on that thread.
   *
   * @param group the group
   * @param pending its members to place, in the order to try them
   * @param placed how many of its members are already assumed or bound (not in {@code pending})
   * @param snapshot the cluster, without the pending members
   * @param finder the profile's finder; called once per member tried, with preemption off ({@link
   *     FinderFunc#withoutPreemption()} is applied here)
   * @return the decision
   * @throws io.kubesched.api.SchedulerException whatever the finder throws, unchanged; nothing is decided then
   */
  public static GroupDecision place(
      PodGroup group, List<PodInfo> pending, int placed, ClusterSnapshot snapshot, FinderFunc finder) {
    var withoutPreemption = finder.withoutPreemption();
    return trial(group, pending, placed, snapshot, withoutPreemption::find).decision();
  }

  /** One member's result: its outcome and the decision to act on (a Bind only when it fits). */
  record MemberResult(PodInfo pod, Outcome outcome, Decision decision) {}

  /**
   * What a trial found: each pending member in order, the {@code minResources} check if the group has one, and
   * the decision {@link #place} returns.
   */
  record Trial(
      List<MemberResult> members, Optional<GroupExplanation.ResourceCheck> minResources, GroupDecision decision) {}

  /** kube's {@code PlacementFeasible} answer. */
  enum Feasibility {
    /** The minimum is reached. */
    SUCCESS,
    /** Not yet, but the members still to try could reach it. */
    WAIT,
    /** Even if every member still to try fit, the minimum would not be reached. */
    UNSCHEDULABLE
  }

  /**
   * kube's {@code GangScheduling.PlacementFeasible}.
   *
   * @param scheduled members placed before and members fitted so far
   * @param remaining members not tried yet
   */
  static Feasibility feasibility(int minMember, int scheduled, int remaining) {
    if ((long) remaining + scheduled < minMember) {
      return Feasibility.UNSCHEDULABLE;
    }
    return scheduled < minMember ? Feasibility.WAIT : Feasibility.SUCCESS;
  }

  /** kube's message for {@link Feasibility#UNSCHEDULABLE}. */
  static String cannotBeSatisfied(int minMember, int scheduled, int remaining) {
    return "minCount (" + minMember + ") cannot be satisfied: " + scheduled + " scheduled, " + remaining
        + " remaining";
  }

  /**
   * The algorithm, shared by {@link #place} and {@link Policy#explainGroup} so that both always agree.
   *
   * @param find decides one member on the snapshot given (preemption off)
   */
  static Trial trial(
      PodGroup group,
      List<PodInfo> pending,
      int placed,
      ClusterSnapshot snapshot,
      BiFunction<PodInfo, ClusterSnapshot, Decision> find) {
    int minMember = group.minMember();
    int remaining = pending.size();
    if (feasibility(minMember, placed, remaining) == Feasibility.UNSCHEDULABLE) {
      return refuseAll(pending, Optional.empty(), cannotBeSatisfied(minMember, placed, remaining));
    }
    var check = checkMinResources(group, placed, snapshot);
    if (check.isPresent() && !check.get().satisfied()) {
      return refuseAll(pending, check, check.get().message());
    }
    var results = new ArrayList<MemberResult>(pending.size());
    var fitted = new ArrayList<GroupDecision.Member>();
    var current = snapshot;
    int scheduled = placed;
    var status = feasibility(minMember, placed, remaining);
    for (var pod : pending) {
      var decision = find.apply(pod, current);
      remaining--;
      if (decision instanceof Decision.Bind bind) {
        if (bind.volumeBindings().isEmpty()) {
          results.add(new MemberResult(pod, Outcome.FITS, bind));
          fitted.add(new GroupDecision.Member(pod, bind));
          current = layIn(current, pod, bind);
          scheduled++;
        } else {
          var refused = Decision.unschedulable(Map.of(), VOLUMES_NOT_SUPPORTED);
          results.add(new MemberResult(pod, Outcome.NEEDS_VOLUMES, refused));
        }
      } else {
        var own = withoutNomination((Decision.Unschedulable) decision);
        results.add(new MemberResult(pod, Outcome.DOES_NOT_FIT, own));
      }
      status = feasibility(minMember, scheduled, remaining);
      if (status == Feasibility.UNSCHEDULABLE) {
        break;
      }
    }
    if (status == Feasibility.SUCCESS) {
      var unfitted = new LinkedHashMap<String, Decision.Unschedulable>();
      results.forEach(r -> {
        if (r.outcome() != Outcome.FITS) {
          unfitted.put(r.pod().uid(), (Decision.Unschedulable) r.decision());
        }
      });
      return new Trial(results, check, new GroupDecision.Placed(fitted, unfitted));
    }
    // Not SUCCESS, so UNSCHEDULABLE: kube turns a final Wait into Unschedulable with the Wait's message, but a
    // Wait cannot outlast the loop here (after the last member nothing remains, and fewer scheduled than the
    // minimum is Unschedulable; with no member at all the check before the loop has already answered).
    var message = cannotBeSatisfied(minMember, scheduled, remaining);
    var notTried = Decision.unschedulable(Map.of(), message);
    for (int i = results.size(); i < pending.size(); i++) {
      results.add(new MemberResult(pending.get(i), Outcome.NOT_TRIED, notTried));
    }
    var fittedPods = new ArrayList<PodInfo>(fitted.size());
    var unfitted = new LinkedHashMap<String, Decision.Unschedulable>();
    results.forEach(r -> {
      if (r.outcome() == Outcome.FITS) {
        fittedPods.add(r.pod());
      } else {
        unfitted.put(r.pod().uid(), (Decision.Unschedulable) r.decision());
      }
    });
    return new Trial(results, check, new GroupDecision.Unschedulable(message, fittedPods, unfitted));
  }

  /** A trial that tries no member: each is unfitted with the group's {@code message}. */
  private static Trial refuseAll(
      List<PodInfo> pending, Optional<GroupExplanation.ResourceCheck> check, String message) {
    var refused = Decision.unschedulable(Map.of(), message);
    var results = new ArrayList<MemberResult>(pending.size());
    var unfitted = new LinkedHashMap<String, Decision.Unschedulable>();
    for (var pod : pending) {
      results.add(new MemberResult(pod, Outcome.NOT_TRIED, refused));
      unfitted.put(pod.uid(), refused);
    }
    return new Trial(results, check, new GroupDecision.Unschedulable(message, List.of(), unfitted));
  }

  /**
   * The snapshot with {@code pod} assumed onto {@code nodeName}, as kube's simulated assume: bound there, and
   * no longer holding room where it was nominated.
   */
  /**
   * The snapshot with the member on its node and, when it claims devices, its claims shown allocated and reserved
   * for it (kube's DynamicResources Reserve), so the next member never gets the same device.
   */
  private static ClusterSnapshot layIn(ClusterSnapshot snapshot, PodInfo pod, Decision.Bind bind) {
    var nodeName = bind.nodeName();
    var next = snapshot.withPodOn(pod.toBuilder().nodeName(nodeName).build(), nodeName);
    if (!bind.claimAllocations().isEmpty()) {
      next = next.withDynamicResources(next.dynamicResources()
          .withClaimAllocations(ConsumerRef.pod(pod.name(), pod.uid()), bind.claimAllocations()));
    }
    var nominations = next.nominations();
    return nominations.nodeOf(pod.uid()).isEmpty() ? next : next.withNominations(nominations.without(pod.uid()));
  }

  /**
   * A member's own decision, never asking to preempt for it alone (the partial hold that deadlocks groups) nor to
   * deallocate a claim for it alone (kube runs no member's PostFilter in a pod group's cycle; its group-wide
   * PodGroupPostFilter is not ported).
   */
  private static Decision.Unschedulable withoutNomination(Decision.Unschedulable decision) {
    var own = decision.claimDeallocations().isEmpty() ? decision : decision.withClaimDeallocations(List.of());
    return own.nomination() instanceof Nomination.To
        ? own.withPostFilter("", Nomination.KEEP)
        : own;
  }

  /**
   * coscheduling's {@code minResources} check: {@code minResources} with {@code pods} set to {@code minMember}
   * against the free resources summed over the nodes, the group's own placed members counted as free.
   *
   * @return empty if the group has no {@code minResources}
   */
  static Optional<GroupExplanation.ResourceCheck> checkMinResources(
      PodGroup group, int placed, ClusterSnapshot snapshot) {
    var min = group.minResources();
    if (min.equals(Resources.ZERO)) {
      return Optional.empty();
    }
    var required =
        new Resources(min.milliCpu(), min.memory(), min.ephemeralStorage(), group.minMember(), min.extended());
    var free = Resources.ZERO;
    for (var node : snapshot.nodes()) {
      free = free.plus(free(node, group, placed > 0));
    }
    return Optional.of(new GroupExplanation.ResourceCheck(required, free, required.minus(free)));
  }

  /** What {@code node} has free, its requests less those of the group's own pods when it may hold some. */
  private static Resources free(NodeInfo node, PodGroup group, boolean mayHoldMembers) {
    var requested = node.requested();
    long pods = node.pods().size();
    if (mayHoldMembers) {
      for (var pod : node.pods()) {
        if (group.ref().equals(pod.podGroupRef())) {
          requested = requested.minus(pod.requests());
          pods--;
        }
      }
    }
    var free = node.allocatable().minus(requested);
    return new Resources(
        free.milliCpu(),
        free.memory(),
        free.ephemeralStorage(),
        Math.max(0, node.allocatable().pods() - pods),
        free.extended());
  }
}
