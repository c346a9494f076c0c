package io.kubesched.informer;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.binder.TokenBucket;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

/**
 * The parts of the loop that need no API server, wired together: queue, cache, event handlers, the two
 * cycles and the leadership gate. {@link SchedulingLoop} builds them with the system clock, its own threads
 * and the API server's bind port; the loop's unit tests with a fake clock, inline executors and a fake port.
 *
 * @param clusterSnapshot builds the snapshot of one decision from the cache's nodes and the queue's nominations
 */
record LoopParts(
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

  /**
   * What the loop is given from outside: clock, threads, ports.
   *
   * @param preemptors runs the {@link PreemptionCycle}'s evictions
   * @param groups the pod group objects the informers show, and which sources are honoured
   * @param groupReport tells a pod group's status and events
   * @param groupBindRetryDelay the wait before a group member's failed binding is first retried
   */
  record Injected(
      Ticker ticker,
      Executor binders,
      BindPort bindPort,
      VolumePort volumePort,
      Executor preemptors,
      PreemptPort preemptPort,
      TokenBucket writes,
      Reporting reporting,
      BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> clusterSnapshot,
      PodGroupLookup groups,
      GroupReportPort groupReport,
      Duration groupBindRetryDelay) {}

  /**
   * @param leading whether the loop leads from the start (no leader election)
   * @param metrics already {@linkplain GuardedMetrics guarded}
   * @param storage the storage objects the informers feed, and the volume reservations laid over them; shared
   *     with whoever feeds it
   */
  static LoopParts create(
      ControllerSettings settings,
      Map<String, FinderFunc> profiles,
      SchedulerMetrics metrics,
      boolean leading,
      StorageCache storage,
      Injected injected) {
    var ticker = injected.ticker();
    var queue =
        new SchedulingQueue(
            ticker, settings.initialBackoff(), settings.maxBackoff(), settings.unschedulableTimeout());
    var cache = new SchedulerCache(ticker, settings.assumedPodTtl());
    var moves = new ClusterEventMoves(queue);
    var leadership = new Leadership(profiles.keySet(), leading);
    var preemption =
        new PreemptionCycle(injected.preemptPort(), injected.preemptors(), queue, cache, injected.reporting());
    var handlers =
        new EventHandlers(
            profiles.keySet(), queue, cache, storage, moves, injected.reporting(), preemption::boundPodLeaving);
    var binding =
        new BindingCycle(
            injected.bindPort(), injected.volumePort(), injected.writes(), injected.binders(),
            settings.parallelBindings(), settings.volumeBindingTimeout(), queue, cache, storage, handlers::pendingPod,
            injected.reporting(), metrics, ticker, injected.groupBindRetryDelay());
    var tracker = new GroupTracker(settings.podGroupTimeout(), injected.groupReport(), metrics, ticker);
    var groupCycle =
        new GroupCycle(
            profiles, queue, cache, injected.clusterSnapshot(), handlers, binding, injected.groups(), tracker,
            injected.groupReport(), injected.reporting(), metrics, ticker);
    var scheduling =
        new SchedulingCycle(
            profiles, queue, cache, storage, injected.clusterSnapshot(), handlers, binding, preemption, groupCycle,
            injected.reporting(), metrics, leadership, ticker);
    return new LoopParts(
        queue, cache, storage, moves, leadership, handlers, binding, preemption, tracker, scheduling);
  }
}
