package io.kubesched.informer;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.binder.TokenBucket;
import io.kubesched.engine.DecisionStep;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.BindingCycle;
import io.kubesched.informer.cycle.ClaimAssumptions;
import io.kubesched.informer.cycle.ClaimDeallocations;
import io.kubesched.informer.cycle.ClaimPort;
import io.kubesched.informer.cycle.GroupCycle;
import io.kubesched.informer.cycle.GroupTracker;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.cycle.PreemptPort;
import io.kubesched.informer.cycle.PreemptionCycle;
import io.kubesched.informer.cycle.Profiles;
import io.kubesched.informer.cycle.Reporting;
import io.kubesched.informer.cycle.SchedulingCycle;
import io.kubesched.informer.cycle.VolumePort;
import io.kubesched.informer.leader.Leadership;
import io.kubesched.informer.report.GroupReportPort;
import io.kubesched.informer.report.GuardedMetrics;
import io.kubesched.informer.watch.EventHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of the loop that need no API server, wired together: queue, cache, event handlers, the two
 * cycles and the leadership gate. {@link SchedulingLoop} builds them with the system clock, its own threads
 * and the API server's bind port; the loop's unit tests with a fake clock, inline executors and a fake port.
 *
 * @param profiles the policy of each scheduler name, read once by each attempt
 */
record LoopParts(
    Profiles profiles,
    SchedulingQueue queue,
    SchedulerCache cache,
    StorageCache storage,
    ClusterEventMoves moves,
    Leadership leadership,
    EventHandlers handlers,
    BindingCycle binding,
    PreemptionCycle preemption,
    GroupTracker groups,
    SchedulingCycle scheduling) {

  private static final Logger LOG = LoggerFactory.getLogger(LoopParts.class);

  /**
   * What the loop is given from outside: clock, threads, ports.
   *
   * @param preemptors runs the {@link PreemptionCycle}'s evictions, one task per preemptor, and the claims' PostFilter
   *     deallocations ({@link ClaimDeallocations}), one task per decision
   * @param victims runs the deletions of a preemptor's victims but the last, one task per victim
   * @param groups the pod group objects the informers show, and which sources are honoured
   * @param groupReport tells a pod group's status and events
   * @param groupBindRetryDelay the wait before a group member's failed binding is first retried
   */
  record Injected(
      Ticker ticker,
      Executor binders,
      BindPort bindPort,
      VolumePort volumePort,
      ClaimPort claimPort,
      Executor preemptors,
      Executor victims,
      PreemptPort preemptPort,
      TokenBucket writes,
      Reporting reporting,
      BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> clusterSnapshot,
      PodGroupLookup groups,
      GroupReportPort groupReport,
      Duration groupBindRetryDelay) {}

  /**
   * Makes {@code finder} the policy of the profile {@code schedulerName} (logged at INFO): each attempt that
   * starts from now on uses it, one in flight finishes with the policy it began with; then the profile's pods
   * waiting as unschedulable are tried again, and those in flight go to backoff if the old policy found no node
   * for them ({@link SchedulingQueue#moveProfile}). Any thread, before the loop starts, while it runs, or after.
   *
   * @throws io.kubesched.api.ConfigurationException as {@link Profiles#replace}; nothing changes then
   */
  void replacePolicy(String schedulerName, FinderFunc finder) {
    profiles.replace(schedulerName, finder);
    int moved = queue.moveProfile(ClusterEvent.POLICY_CHANGE, schedulerName);
    if (moved > 0) {
      LOG.info("Profile '{}': {} unschedulable pod(s) will be tried with the new policy", schedulerName, moved);
    }
  }

  /**
   * @param leading whether the loop leads from the start (no leader election)
   * @param metrics already {@linkplain GuardedMetrics guarded}
   * @param storage the storage objects the informers feed, and the volume reservations laid over them; shared
   *     with whoever feeds it
   */
  static LoopParts create(
      ControllerSettings settings,
      Profiles profiles,
      SchedulerMetrics metrics,
      boolean leading,
      StorageCache storage,
      ClaimAssumptions claims,
      Injected injected) {
    var ticker = injected.ticker();
    var queue =
        new SchedulingQueue(
            ticker, settings.initialBackoff(), settings.maxBackoff(), settings.unschedulableTimeout(), metrics);
    var cache = new SchedulerCache(ticker, settings.assumedPodTtl());
    var moves = new ClusterEventMoves(queue);
    var leadership = new Leadership(profiles.names(), leading);
    var preemption =
        new PreemptionCycle(
            injected.preemptPort(), injected.preemptors(), injected.victims(), queue, cache, injected.reporting());
    var handlers =
        new EventHandlers(
            profiles.names(), queue, cache, storage, moves, injected.reporting(), preemption::boundPodLeaving);
    var binding =
        new BindingCycle(
            injected.bindPort(), injected.volumePort(), injected.claimPort(), claims, injected.writes(),
            injected.binders(),
            settings.parallelBindings(), settings.volumeBindingTimeout(), queue, cache, storage, handlers::pendingPod,
            injected.reporting(), metrics, ticker, injected.groupBindRetryDelay());
    var tracker = new GroupTracker(settings.podGroupTimeout(), injected.groupReport(), metrics, ticker);
    // One decision step for single pods and pod groups alike (and the what-if simulation's Replay has its own).
    var step = new DecisionStep(queue, cache, storage, claims::assume, injected.clusterSnapshot(), metrics, ticker);
    var groupCycle =
        new GroupCycle(
            queue, cache, step, handlers::pendingPod, binding, injected.groups(), tracker,
            injected.groupReport(), injected.reporting(), metrics, ticker);
    var scheduling =
        new SchedulingCycle(
            profiles, queue, cache, step, handlers::pendingPod, binding,
            preemption,
            new ClaimDeallocations(injected.claimPort(), injected.preemptors()),
            groupCycle,
            injected.reporting(), metrics, leadership, ticker);
    return new LoopParts(
        profiles, queue, cache, storage, moves, leadership, handlers, binding, preemption, tracker, scheduling);
  }
}
