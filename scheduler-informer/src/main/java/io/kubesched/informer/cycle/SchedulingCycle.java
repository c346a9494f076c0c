package io.kubesched.informer.cycle;

import io.kubesched.api.FinderFunc;
import io.kubesched.api.Nomination;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.DecisionStep;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.engine.UnsupportedFeatures;
import io.kubesched.informer.leader.Leadership;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling cycle, as kube-scheduler's {@code schedulingCycle}: takes the next pod off the queue, refuses
 * it if it uses a feature the library does not support ({@link UnsupportedFeatures}), else asks the
 * profile's {@link FinderFunc} over the cache's nodes, assumes the chosen node in the cache (so the next
 * decision counts it), reserves the volumes the decision binds in the {@link StorageCache} (kube's
 * VolumeBinding Reserve, so the next decision never gives them to another claim), assumes the devices it allocated
 * for the pod's ResourceClaims ({@link ClaimAssumptions}, kube's DynamicResources Reserve) and hands the pod to the
 * {@link BindingCycle}, going on with the next pod while bindings are in flight. A reservation refused (a
 * volume taken meanwhile) forgets the assumption and requeues the pod after backoff, as kube's Reserve
 * failure does. It reads the pod only from its queued item and the {@link PendingPodLookup}' kept object, never
 * from an informer's store. The decision and the bookkeeping in the queue and the cache are the {@link
 * DecisionStep} a what-if simulation runs too; this class adds what touches the cluster: bindings, evictions,
 * reports.
 *
 * <p>A member of a pod group goes to the {@link GroupCycle}, which places its whole group in this cycle.
 *
 * <p>Each attempt reads its pod's profile from the {@link Profiles} once, at its start, and decides, refuses
 * and places with that one policy, a pod group's members included; a policy replaced meanwhile is used from
 * the next attempt on.
 *
 * <p>{@link #run} is the body of the one scheduling thread; it takes pods only while {@link Leadership}
 * says this replica leads, and ends when the queue is closed.
 */
public final class SchedulingCycle implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulingCycle.class);

  private final Profiles profiles;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final DecisionStep step;
  private final PendingPodLookup pending;
  private final BindingCycle binding;
  private final PreemptionCycle preemption;
  private final ClaimDeallocations deallocations;
  private final GroupCycle groups;
  private final Reporting reporting;
  private final SchedulerMetrics metrics;
  private final Leadership leadership;
  private final Ticker ticker;

  public SchedulingCycle(
      Profiles profiles,
      SchedulingQueue queue,
      SchedulerCache cache,
      DecisionStep step,
      PendingPodLookup pending,
      BindingCycle binding,
      PreemptionCycle preemption,
      ClaimDeallocations deallocations,
      GroupCycle groups,
      Reporting reporting,
      SchedulerMetrics metrics,
      Leadership leadership,
      Ticker ticker) {
    this.profiles = profiles;
    this.queue = queue;
    this.cache = cache;
    this.step = step;
    this.pending = pending;
    this.binding = binding;
    this.preemption = preemption;
    this.deallocations = deallocations;
    this.groups = groups;
    this.reporting = reporting;
    this.metrics = metrics;
    this.leadership = leadership;
    this.ticker = ticker;
  }

  @Override
  public void run() {
    try {
      while (leadership.awaitLeading()) {
        var item = queue.take();
        if (item == null) {
          return;
        }
        scheduleOne(item);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One attempt of a pod just taken off the queue.
   *
   * @throws InterruptedException if the thread is interrupted while it waits for a binding slot
   */
  public void scheduleOne(QueuedPod item) throws InterruptedException {
    if (!leadership.isLeading()) { // lost leadership while waiting: the next leader will take it
      queue.requeueAfterError(item);
      return;
    }
    long cycle = queue.schedulingCycle();
    long startedNanos = ticker.nanoTime();
    try {
      schedule(item, cycle, startedNanos);
    } catch (RuntimeException e) {
      PodLog.of(LOG.atError(), item).setCause(e).log("Unexpected failure scheduling pod {}; it will be retried", item.key());
      queue.requeueAfterError(item);
    }
  }

  private void schedule(QueuedPod item, long cycle, long startedNanos) throws InterruptedException {
    var pod = pending.pendingPod(item.uid());
    var profile = profiles.get(item.profile()); // the one policy of this whole attempt
    var skip =
        pod == null
            ? "it is gone, bound or no longer ours"
            : profile == null ? "no profile is named " + item.profile()
            : cache.isAssumed(item.uid()) ? "it is being bound" : null;
    if (skip != null) {
      PodLog.of(LOG.atDebug(), item).log("Not scheduling pod {}: {}", item.key(), skip);
      queue.done(item.uid());
      return;
    }
    var info = item.info();
    if (info == null) {
      // Not retried until the pod changes: the update event queues it again.
      var error = Objects.requireNonNull(item.unreadable(), "a queued pod without PodInfo says why");
      queue.done(item.uid());
      PodLog.of(LOG.atWarn(), item).log("Cannot schedule {}", error.getMessage());
      metrics.attempt(item.profile(), Result.ERROR, Duration.ofNanos(ticker.nanoTime() - startedNanos));
      reporting.unreadable(item, pod, error);
      return;
    }
    var attempt = new Attempt(item, pod, info, profile, startedNanos);
    var group = groups.groupOf(info);
    if (group != null) { // placed with its group, all together or not at all
      groups.schedule(attempt, group, cycle);
      return;
    }
    var outcome = step.decide(item.key(), info, profile.finder(), profile.reads());
    if (outcome instanceof DecisionStep.Outcome.Assumed assumed) {
      var bind = assumed.bind();
      binding.submit(
          attempt.withInfo(assumed.pod()).on(bind.nodeName()).withClaimAllocations(bind.claimAllocations()),
          bind.volumeBindings());
    } else if (outcome instanceof DecisionStep.Outcome.Unschedulable unschedulable) {
      unschedulable(attempt.withInfo(unschedulable.pod()), cycle, unschedulable);
    } else if (outcome instanceof DecisionStep.Outcome.Failed failed) {
      fail(attempt.withInfo(failed.pod()), failed.error());
    } else {
      // Someone bound it between the event we queued and now, and the watch already shows it: routine.
      var meanwhile = (DecisionStep.Outcome.BoundMeanwhile) outcome;
      PodLog.of(LOG.atInfo(), item)
          .log("Pod {} was bound while it was being scheduled ({}); leaving it", item.key(), meanwhile.message());
      queue.done(item.uid());
    }
  }

  /**
   * A decision that the pod fits nowhere now (or a pod the library refuses), with kube-scheduler's PostFilter
   * outcome: the claims to deallocate (written on another thread), and what becomes of its nomination: nominated to
   * a node where victims are evicted for it, its nomination cleared, or kept. The queue learns the nomination before
   * the API server does, as kube-scheduler's nominator.
   */
  private void unschedulable(Attempt attempt, long cycle, DecisionStep.Outcome.Unschedulable outcome) {
    var item = attempt.item();
    var decision = outcome.decision();
    if (outcome.refused()) {
      metrics.attempt(item.profile(), Result.UNSCHEDULABLE, since(attempt));
      var progress = reporting.unschedulable(attempt, outcome.message());
      step.requeueUnschedulable(item.withProgress(progress), cycle, outcome);
      return;
    }
    deallocations.deallocate(item.key(), decision.claimDeallocations());
    if (!decision.postFilterMessage().isEmpty()) {
      // Preemption ran (its message is never empty): kube counts every PostFilter run, victims or not.
      var nomination = decision.nomination();
      metrics.preemptionAttempt(nomination instanceof Nomination.To to ? to.victims().size() : 0);
    }
    var nominated = step.nominate(outcome);
    if (decision.nomination() instanceof Nomination.To to) {
      preemption.preempt(attempt.withInfo(nominated.pod()), to.nodeName(), nominated.victims(), nominated.lowerNominated());
    }
    // Recorded before the listener hears of it, as for the other outcomes.
    metrics.attempt(item.profile(), Result.UNSCHEDULABLE, since(attempt));
    var progress = reporting.unschedulable(attempt, outcome.message(), nominated.nodeName());
    step.requeueUnschedulable(item.withProgress(progress), cycle, outcome);
  }

  private void fail(Attempt attempt, SchedulerException error) {
    PodLog.of(LOG.atWarn(), attempt.item()).log("{}; retrying after backoff", error.getMessage());
    queue.requeueAfterError(attempt.item());
    metrics.attempt(attempt.item().profile(), Result.ERROR, since(attempt));
    reporting.failed(attempt, error);
  }

  private Duration since(Attempt attempt) {
    return Duration.ofNanos(ticker.nanoTime() - attempt.startedNanos());
  }
}
