package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.DecisionStep;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.QueueingHint;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.Ticker;
import io.kubesched.engine.UnsupportedFeatures;
import io.kubesched.informer.report.GroupReportPort;
import io.kubesched.policy.GroupDecision;
import io.kubesched.policy.GroupPlacement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pod group cycle, as kube-scheduler 1.37's {@code scheduleOnePodGroup}: a member taken off the queue
 * brings every other queued member of its group with it ({@link SchedulingQueue#takeGroupMembers}); the group
 * waits, untried, while its object is unknown or it has fewer members than its minimum (counting those
 * assumed or bound); else all its pending members are placed against one snapshot in this one cycle ({@link
 * GroupPlacement}), and either at least the minimum fit and are assumed and handed to binding together, or
 * nothing is assumed and every member goes back to wait for a cluster event.
 *
 * <p>Why this cannot deadlock: the only thread that assumes pods runs this whole cycle before it takes the
 * next pod, and a group that does not fit leaves no assumption behind; so no group ever holds room while it
 * waits for its other members, which is what makes interleaved gangs block each other in schedulers that
 * assume members one cycle at a time (scheduler-plugins #114, #117, #713, #930).
 *
 * <p>Members never preempt (kube runs no per-pod PostFilter in a group cycle either): the profile's finder is
 * used {@linkplain FinderFunc#withoutPreemption() without preemption}. One attempt uses the one policy the
 * {@link SchedulingCycle} read for the member it took, for every member. Runs on the scheduling thread only.
 */
public final class GroupCycle {

  private static final Logger LOG = LoggerFactory.getLogger(GroupCycle.class);

  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  /** The decision step the scheduling cycle uses too: the snapshot, and each member's assume. */
  private final DecisionStep step;
  private final PendingPodLookup pending;
  private final BindingCycle binding;
  private final PodGroupLookup groups;
  private final GroupTracker tracker;
  private final GroupReportPort report;
  private final Reporting reporting;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;

  public GroupCycle(
      SchedulingQueue queue,
      SchedulerCache cache,
      DecisionStep step,
      PendingPodLookup pending,
      BindingCycle binding,
      PodGroupLookup groups,
      GroupTracker tracker,
      GroupReportPort report,
      Reporting reporting,
      SchedulerMetrics metrics,
      Ticker ticker) {
    this.queue = queue;
    this.cache = cache;
    this.step = step;
    this.pending = pending;
    this.binding = binding;
    this.groups = groups;
    this.tracker = tracker;
    this.report = report;
    this.reporting = reporting;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /** @return the group {@code info} must be placed with, if its source is honoured; null to schedule it alone */
  @Nullable PodGroupRef groupOf(PodInfo info) {
    var ref = info.podGroupRef();
    return ref != null && groups.honours(ref.source()) ? ref : null;
  }

  /**
   * One attempt of the group of a member just taken off the queue.
   *
   * @param taken the attempt of the member taken, already checked to be pending, ours, readable and not
   *     assumed; its profile, as the attempt read it, is the policy of every member in this attempt, and its
   *     start the start of every member's
   * @param ref the group {@code taken} belongs to
   * @throws InterruptedException if the thread is interrupted while it waits for a binding slot
   */
  void schedule(Attempt taken, PodGroupRef ref, long cycle) throws InterruptedException {
    long startedNanos = taken.startedNanos();
    var members = new ArrayList<Attempt>();
    members.add(taken);
    var others = queue.takeGroupMembers(ref);
    if (!others.isEmpty()) {
      // Taking them began a cycle: an event from now on may have been missed by every member's attempt.
      cycle = queue.schedulingCycle();
    }
    for (var other : others) {
      var member = resolve(other, taken);
      if (member != null) {
        members.add(member);
      }
    }
    // A fixed order, so the same cluster gives the same placement; kube tries them in queue order.
    members.sort(Comparator.comparing(Attempt::info, GroupPlacement.TRIAL_ORDER));
    var group = groups.group(ref);
    if (group == null) {
      var invalid = groups.invalid(ref);
      if (invalid != null) {
        var error = new SchedulerException("pod group " + ref.key() + " cannot be read: " + invalid);
        members.forEach(m -> failMember(m, error));
        return;
      }
      LOG.debug("Pod group {} ({} members waiting) is not known yet; waiting for it", ref, members.size());
      members.forEach(m -> queue.waitForGroup(m.item()));
      return;
    }
    int placed = cache.placedMembers(ref);
    if (members.size() + placed < group.minMember()) {
      LOG.debug(
          "Pod group {} has {} of its {} members; waiting for the others", ref.key(), members.size() + placed,
          group.minMember());
      members.forEach(m -> queue.waitForGroup(m.item()));
      report.waiting(group, members.size() + placed);
      return;
    }
    var mismatch = GroupPlacement.validate(group, members.stream().map(Attempt::info).toList());
    if (mismatch != null) {
      var error = new SchedulerException(mismatch);
      LOG.warn("Cannot schedule pod group {}: {}", ref.key(), mismatch);
      report.error(group, mismatch);
      members.forEach(m -> failMember(m, error));
      metrics.groupAttempt(taken.item().profile(), Result.ERROR, since(startedNanos));
      return;
    }
    attempt(group, members, placed, taken, cycle);
  }

  /** @param taken the attempt of the member taken: its profile is the policy, its start the group's */
  private void attempt(PodGroup group, List<Attempt> members, int placed, Attempt taken, long cycle)
      throws InterruptedException {
    var policy = taken.profile();
    long startedNanos = taken.startedNanos();
    var profile = policy.name();
    // Members the library refuses are tried by no one; they count as not fitting.
    var refused = new LinkedHashMap<String, String>();
    var tried = new ArrayList<PodInfo>();
    for (var m : members) {
      UnsupportedFeatures.refusal(m.info(), policy.reads())
          .ifPresentOrElse(why -> refused.put(m.info().uid(), why), () -> tried.add(m.info()));
    }
    if (tried.isEmpty()) { // only refused members: the group is complete without them
      members.forEach(m -> requeueUnschedulable(m, cycle, refused.get(m.info().uid())));
      metrics.groupAttempt(profile, Result.UNSCHEDULABLE, since(startedNanos));
      return;
    }
    var snapshot = step.snapshot();
    int nodeCount = snapshot.nodes().size();
    GroupDecision decision;
    long algorithmStart = ticker.nanoTime();
    try {
      decision = GroupPlacement.place(group, tried, placed, snapshot, policy.finder());
    } catch (RuntimeException e) {
      metrics.algorithm(since(algorithmStart));
      var error = new SchedulerException("FinderFunc failed for pod group " + group.key() + ": " + e, e);
      LOG.warn("{}; retrying after backoff", error.getMessage());
      report.error(group, error.getMessage());
      members.forEach(m -> failMember(m, error));
      metrics.groupAttempt(profile, Result.ERROR, since(startedNanos));
      return;
    }
    metrics.algorithm(since(algorithmStart));
    var byUid = new HashMap<String, Attempt>();
    members.forEach(m -> byUid.put(m.info().uid(), m));
    if (decision instanceof GroupDecision.Placed placedDecision) {
      place(group, placedDecision, byUid, refused, placed, cycle, startedNanos, nodeCount);
      return;
    }
    var unschedulable = (GroupDecision.Unschedulable) decision;
    var message = unschedulable.message();
    var retriedOn = GroupPlacement.retriedOnAnyOf(unschedulable, !refused.isEmpty()); // empty: any change may help
    for (var m : members) {
      var uid = m.info().uid();
      var why = refused.containsKey(uid)
          ? refused.get(uid) : GroupPlacement.memberMessage(unschedulable, uid, nodeCount);
      var hint = QueueingHint.of(m.info());
      requeueUnschedulable(m, cycle, why, retriedOn.isEmpty() ? hint : hint.withRetriedOnAnyOf(retriedOn));
    }
    tracker.failed(group, profile, message, placed);
    metrics.groupAttempt(profile, Result.UNSCHEDULABLE, since(startedNanos));
  }

  private void place(
      PodGroup group,
      GroupDecision.Placed decision,
      Map<String, Attempt> byUid,
      Map<String, String> refused,
      int placed,
      long cycle,
      long startedNanos,
      int nodeCount)
      throws InterruptedException {
    var profile = byUid.values().iterator().next().item().profile();
    var assumed = new ArrayList<Assumed>();
    for (var fitted : decision.fitted()) {
      var m = byUid.get(fitted.pod().uid());
      // As a single pod's: the cache counts it, its nomination is cleared, its devices assumed (kube's
      // DynamicResources Reserve, member by member); a member never has volumes to bind (GroupPlacement).
      var outcome = step.assume(m.info(), fitted.bind());
      if (outcome instanceof DecisionStep.Outcome.BoundMeanwhile meanwhile) {
        PodLog.of(LOG.atInfo(), m.item()).log("Pod {} was bound while its group was being scheduled ({}); leaving it",
            m.item().key(), meanwhile.message());
        queue.done(m.item().uid());
      } else if (outcome instanceof DecisionStep.Outcome.Failed failed) {
        failMember(m, failed.error());
      } else {
        var bind = ((DecisionStep.Outcome.Assumed) outcome).bind();
        assumed.add(m.on(bind.nodeName()).withClaimAllocations(bind.claimAllocations()));
      }
    }
    LOG.info(
        "Pod group {}: {} members placed ({} already), binding them", group.key(), assumed.size(), placed);
    for (var entry : decision.unfitted().entrySet()) { // the group is placed: each waits for its own chance
      var m = byUid.get(entry.getKey());
      requeueUnschedulable(m, cycle, GroupPlacement.memberMessage(entry.getValue(), nodeCount),
          QueueingHint.of(m.info()).withRetriedOn(entry.getValue()));
    }
    refused.forEach((uid, why) -> requeueUnschedulable(byUid.get(uid), cycle, why));
    tracker.placed(group.ref());
    metrics.groupAttempt(profile, Result.SCHEDULED, since(startedNanos));
    if (assumed.isEmpty()) { // the members placed before are the minimum already; none of these fit
      return;
    }
    var groupBinding = new GroupBinding(group, placed, assumed, report);
    for (var a : assumed) {
      binding.submit(a, groupBinding);
    }
  }

  /**
   * The attempt of a member taken with its group, or null (its attempt ended here) if it is gone, assumed or
   * unreadable: the pod as the watch shows it now, with the policy and the start of the member {@code taken}.
   */
  private @Nullable Attempt resolve(QueuedPod item, Attempt taken) {
    var pod = pending.pendingPod(item.uid());
    if (pod == null || cache.isAssumed(item.uid())) {
      queue.done(item.uid());
      return null;
    }
    var info = item.info();
    if (info == null) {
      var error = item.unreadable();
      queue.done(item.uid());
      if (error != null) {
        PodLog.of(LOG.atWarn(), item).log("Cannot schedule {}", error.getMessage());
        reporting.unreadable(item, pod, error);
      }
      return null;
    }
    return new Attempt(item, pod, info, taken.profile(), taken.startedNanos());
  }

  private void requeueUnschedulable(Attempt m, long cycle, String message) {
    requeueUnschedulable(m, cycle, message, QueueingHint.of(m.info()));
  }

  private void requeueUnschedulable(Attempt m, long cycle, String message, QueueingHint hint) {
    metrics.attempt(m.item().profile(), Result.UNSCHEDULABLE, since(m.startedNanos()));
    var progress = reporting.unschedulable(m, message);
    queue.requeueUnschedulable(m.item().withProgress(progress), cycle, hint);
  }

  private void failMember(Attempt m, SchedulerException error) {
    queue.requeueAfterError(m.item());
    metrics.attempt(m.item().profile(), Result.ERROR, since(m.startedNanos()));
    reporting.failed(m, error);
  }

  private Duration since(long startNanos) {
    return Duration.ofNanos(ticker.nanoTime() - startNanos);
  }
}
