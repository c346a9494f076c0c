package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.QueueingHint;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.engine.UnsupportedFeatures;
import io.kubesched.informer.leader.Leadership;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
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
 * from an informer's store.
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
  private final StorageCache storage;
  private final ClaimAssumptions claims;
  private final BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> clusterSnapshot;
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
      StorageCache storage,
      ClaimAssumptions claims,
      BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> clusterSnapshot,
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
    this.storage = storage;
    this.claims = claims;
    this.clusterSnapshot = clusterSnapshot;
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
    var refusal = UnsupportedFeatures.refusal(info, profile.reads());
    if (refusal.isPresent()) { // never given to the policy, which would place it as if it had no claims
      unschedulable(attempt, cycle, refusal.get(), QueueingHint.POD_UPDATE_ONLY);
      return;
    }
    var nodes = cache.nodes();
    var nominations = queue.nominations();
    // The queue's nomination is the one that counts: our own status write of it does not update the queued pod.
    var nominated = nominations.nodeOf(info.uid());
    if (!nominated.equals(info.nominatedNodeName())) {
      attempt = attempt.withInfo(info.toBuilder().nominatedNodeName(nominated).build());
    }
    var snapshot = clusterSnapshot.apply(nodes, nominations);
    Decision decision;
    long algorithmStart = ticker.nanoTime();
    try {
      decision =
          Objects.requireNonNull(profile.finder().find(attempt.info(), snapshot), "FinderFunc returned null");
    } catch (RuntimeException e) {
      metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
      fail(attempt, new SchedulerException("FinderFunc failed for pod " + item.key() + ": " + e, e));
      return;
    }
    metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
    if (decision instanceof Decision.Unschedulable unschedulable) {
      unschedulable(attempt, cycle, unschedulable, snapshot.nominations(), nodes.size());
      return;
    }
    var bind = (Decision.Bind) decision;
    var nodeName = bind.nodeName();
    if (!nodes.hasNode(nodeName)) {
      fail(
          attempt,
          new SchedulerException(
              "FinderFunc chose node '" + nodeName + "' for pod " + item.key()
                  + ", which is not among the " + nodes.size() + " nodes it was given"));
      return;
    }
    try {
      cache.assume(attempt.info(), nodeName);
    } catch (IllegalStateException boundMeanwhile) {
      // Someone bound it between the event we queued and now, and the watch already shows it: routine.
      PodLog.of(LOG.atInfo(), item)
          .log("Pod {} was bound while it was being scheduled ({}); leaving it", item.key(), boundMeanwhile.getMessage());
      queue.done(item.uid());
      return;
    }
    queue.clearNomination(item.uid()); // it has a node: the room held for it elsewhere is free again
    var volumeBindings = bind.volumeBindings();
    if (!volumeBindings.isEmpty()) {
      var refused = storage.reserve(item.uid(), nodeName, volumeBindings);
      if (refused.isPresent()) {
        cache.forget(item.uid());
        var error = new SchedulerException("running Reserve plugin \"VolumeBinding\": " + refused.get());
        fail(attempt, error);
        return;
      }
    }
    var claimAllocations = bind.claimAllocations();
    if (!claimAllocations.isEmpty()) {
      claims.assume(item.uid(), claimAllocations); // kube's DynamicResources Reserve: the next decision sees them
    }
    binding.submit(attempt.on(nodeName).withClaimAllocations(claimAllocations), volumeBindings);
  }

  /**
   * A decision that the pod fits nowhere now, with kube-scheduler's PostFilter outcome: the claims to deallocate
   * (written on another thread), and what becomes of its nomination: nominated to a node where victims are evicted
   * for it, its nomination cleared, or kept. The queue learns the nomination before the API server does, as kube-scheduler's nominator.
   */
  private void unschedulable(
      Attempt attempt, long cycle, Decision.Unschedulable decision, Nominations nominations, int nodeCount) {
    var item = attempt.item();
    var info = attempt.info();
    var message = decision.message(nodeCount);
    var nomination = decision.nomination();
    deallocations.deallocate(item.key(), decision.claimDeallocations());
    if (!decision.postFilterMessage().isEmpty()) {
      // Preemption ran (its message is never empty): kube counts every PostFilter run, victims or not.
      metrics.preemptionAttempt(nomination instanceof Nomination.To to ? to.victims().size() : 0);
    }
    String nominatedNodeName;
    if (nomination instanceof Nomination.To to) {
      nominatedNodeName = to.nodeName();
      var preemptor = attempt.withInfo(info.toBuilder().nominatedNodeName(nominatedNodeName).build());
      queue.nominate(preemptor.info(), nominatedNodeName);
      var lowerNominated = nominations.on(nominatedNodeName).stream()
          .filter(p -> p.priority() < info.priority() && !p.uid().equals(info.uid()))
          .toList();
      preemption.preempt(preemptor, nominatedNodeName, to.victims(), lowerNominated);
    } else if (nomination instanceof Nomination.Clear) {
      queue.clearNomination(item.uid());
      nominatedNodeName = ""; // written only if the pod has one
    } else {
      nominatedNodeName = null;
    }
    // Recorded before the listener hears of it, as for the other outcomes.
    metrics.attempt(item.profile(), Result.UNSCHEDULABLE, since(attempt));
    var progress = reporting.unschedulable(attempt, message, nominatedNodeName);
    queue.requeueUnschedulable(
        item.withProgress(progress), cycle, QueueingHint.of(info).withRetriedOn(decision));
  }

  private void unschedulable(Attempt attempt, long cycle, String message, QueueingHint hint) {
    var item = attempt.item();
    metrics.attempt(item.profile(), Result.UNSCHEDULABLE, since(attempt));
    var progress = reporting.unschedulable(attempt, message);
    queue.requeueUnschedulable(item.withProgress(progress), cycle, hint);
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
