package io.kubesched.engine;

import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The part of one pod's scheduling cycle that the live loop and a what-if simulation share, so that both decide
 * alike: refuse a pod that uses a feature the policy cannot honour ({@link UnsupportedFeatures}), decide over a
 * snapshot of the cache's nodes with the queue's nominations, check the chosen node, assume the pod on it in the
 * cache, clear its nomination, reserve the volumes and assume the devices the decision binds (kube's Reserve);
 * and, for a pod that fits nowhere, record its PostFilter outcome in the queue's nominator and send it back to
 * wait with its rejectors' hints.
 *
 * <p>It never writes to a cluster and never reports: the caller does (the live loop's {@code SchedulingCycle}
 * binds, logs, writes events; a simulation records). Runs on the one thread that schedules (the queue, cache and
 * storage cache it is given are thread-safe themselves).
 */
public final class DecisionStep {

  /** What became of one pod's decision. */
  public sealed interface Outcome {

    /**
     * The pod is assumed on a node: the cache counts it, its volumes are reserved and its devices assumed.
     *
     * @param pod the pod as decided (with the queue's nomination)
     * @param bind the decision: the node, the volume bindings and the claim allocations
     */
    record Assumed(PodInfo pod, Decision.Bind bind) implements Outcome {}

    /**
     * The pod fits nowhere now; nothing is assumed.
     *
     * @param pod the pod as decided
     * @param decision the policy's answer, or, for a pod the library refuses, a decision with that reason alone
     * @param nominations the nominations the decision saw
     * @param nodeCount the number of nodes it was decided over
     * @param refused whether the library refused the pod before any policy saw it ({@link UnsupportedFeatures}): it
     *     waits for an update of itself only
     */
    record Unschedulable(
        PodInfo pod, Decision.Unschedulable decision, Nominations nominations, int nodeCount, boolean refused)
        implements Outcome {

      /** @return kube-scheduler's message for the decision over {@link #nodeCount} nodes */
      public String message() {
        return refused ? decision.preFilterMessage() : decision.message(nodeCount);
      }
    }

    /**
     * The attempt failed: the policy threw or chose a node it was not given, or a volume it binds was taken
     * meanwhile. Nothing is assumed.
     */
    record Failed(PodInfo pod, SchedulerException error) implements Outcome {}

    /** The pod was bound by someone else while it was being decided (the cache already counts it there). */
    record BoundMeanwhile(PodInfo pod, String message) implements Outcome {}
  }

  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final StorageCache storage;
  private final BiConsumer<String, List<ClaimAllocation>> assumeClaims;
  private final BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> snapshots;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;

  /**
   * @param assumeClaims shows a pod's claim allocations (pod uid, allocations) in every later snapshot
   * @param snapshots makes the snapshot of a decision from the cache's nodes and the queue's nominations
   * @param metrics told how long each call of the policy took ({@link SchedulerMetrics#algorithm})
   */
  public DecisionStep(
      SchedulingQueue queue,
      SchedulerCache cache,
      StorageCache storage,
      BiConsumer<String, List<ClaimAllocation>> assumeClaims,
      BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> snapshots,
      SchedulerMetrics metrics,
      Ticker ticker) {
    this.queue = Objects.requireNonNull(queue, "queue");
    this.cache = Objects.requireNonNull(cache, "cache");
    this.storage = Objects.requireNonNull(storage, "storage");
    this.assumeClaims = Objects.requireNonNull(assumeClaims, "assumeClaims");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Decides for one pod just taken off the queue, and assumes it where the decision places it.
   *
   * @param key the pod's {@code namespace/name}, for messages
   * @param info the pod as queued
   * @param finder the policy of the pod's profile, as the attempt read it
   * @param reads what that policy reads ({@link FinderFunc#reads()})
   */
  public Outcome decide(String key, PodInfo info, FinderFunc finder, Set<ClusterData> reads) {
    var refusal = UnsupportedFeatures.refusal(info, reads);
    if (refusal.isPresent()) { // never given to the policy, which would place it as if it had no claims
      var refused = Decision.unschedulable(Map.of(), refusal.get());
      return new Outcome.Unschedulable(info, refused, Nominations.NONE, 0, true);
    }
    var nodes = cache.nodes();
    var nominations = queue.nominations();
    // The queue's nomination is the one that counts: our own status write of it does not update the queued pod.
    var nominated = nominations.nodeOf(info.uid());
    var pod = nominated.equals(info.nominatedNodeName()) ? info : info.toBuilder().nominatedNodeName(nominated).build();
    var snapshot = snapshots.apply(nodes, nominations);
    Decision decision;
    long algorithmStart = ticker.nanoTime();
    try {
      decision = Objects.requireNonNull(finder.find(pod, snapshot), "FinderFunc returned null");
    } catch (RuntimeException e) {
      metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
      return new Outcome.Failed(pod, new SchedulerException("FinderFunc failed for pod " + key + ": " + e, e));
    }
    metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
    if (decision instanceof Decision.Unschedulable unschedulable) {
      return new Outcome.Unschedulable(pod, unschedulable, snapshot.nominations(), nodes.size(), false);
    }
    var bind = (Decision.Bind) decision;
    var nodeName = bind.nodeName();
    if (!nodes.hasNode(nodeName)) {
      return new Outcome.Failed(
          pod,
          new SchedulerException(
              "FinderFunc chose node '" + nodeName + "' for pod " + key + ", which is not among the " + nodes.size()
                  + " nodes it was given"));
    }
    return assume(pod, bind);
  }

  /**
   * Assumes {@code pod} where {@code bind} places it, as a decision does once the node is known: the cache counts it
   * there, its nomination is cleared, its volumes are reserved and its devices assumed. A pod group's members are
   * assumed this way, one by one, once their group is placed.
   *
   * @param pod the pod, with the queue's nomination
   * @param bind a node among the cache's, with the volume bindings and claim allocations it needs
   * @return {@link Outcome.Assumed}; {@link Outcome.BoundMeanwhile} if someone bound the pod meanwhile; {@link
   *     Outcome.Failed} (nothing assumed) if a volume it binds was taken meanwhile
   */
  public Outcome assume(PodInfo pod, Decision.Bind bind) {
    var nodeName = bind.nodeName();
    try {
      cache.assume(pod, nodeName);
    } catch (IllegalStateException boundMeanwhile) {
      // Someone bound it between the event that queued it and now, and the watch already shows it.
      return new Outcome.BoundMeanwhile(pod, boundMeanwhile.getMessage());
    }
    queue.clearNomination(pod.uid()); // it has a node: the room held for it elsewhere is free again
    var volumeBindings = bind.volumeBindings();
    if (!volumeBindings.isEmpty()) {
      var refused = storage.reserve(pod.uid(), nodeName, volumeBindings);
      if (refused.isPresent()) {
        cache.forget(pod.uid());
        return new Outcome.Failed(
            pod, new SchedulerException("running Reserve plugin \"VolumeBinding\": " + refused.get()));
      }
    }
    if (!bind.claimAllocations().isEmpty()) {
      assumeClaims.accept(pod.uid(), bind.claimAllocations()); // kube's DynamicResources Reserve
    }
    return new Outcome.Assumed(pod, bind);
  }

  /** @return the cluster as the next decision sees it: the cache's nodes and the queue's nominations */
  public ClusterSnapshot snapshot() {
    return snapshots.apply(cache.nodes(), queue.nominations());
  }

  /**
   * Records a pod's PostFilter outcome in the queue's nominator, as kube-scheduler's nominator learns it before the
   * API server does: nominated to the node where victims are evicted for it, its nomination cleared, or kept.
   *
   * @return the pod with its nomination as recorded, and the pods of lower priority nominated to the same node
   *     whose nominations the preemption clears (kube's {@code getLowerPriorityNominatedPods}); empty unless
   *     nominated
   */
  public Nominated nominate(Outcome.Unschedulable outcome) {
    var pod = outcome.pod();
    var nomination = outcome.decision().nomination();
    if (nomination instanceof Nomination.To to) {
      var nominatedNode = to.nodeName();
      var preemptor = pod.toBuilder().nominatedNodeName(nominatedNode).build();
      queue.nominate(preemptor, nominatedNode);
      var lowerNominated = outcome.nominations().on(nominatedNode).stream()
          .filter(p -> p.priority() < pod.priority() && !p.uid().equals(pod.uid()))
          .toList();
      return new Nominated(preemptor, nominatedNode, to.victims(), lowerNominated);
    }
    if (nomination instanceof Nomination.Clear) {
      queue.clearNomination(pod.uid());
      return new Nominated(pod, "", List.of(), List.of());
    }
    return new Nominated(pod, null, List.of(), List.of());
  }

  /**
   * Sends a pod that fits nowhere back to wait, moved only by what its rejectors say may help (a pod the library
   * refused waits for an update of itself).
   *
   * @param item the queued pod, with the progress its attempt reached
   * @param cycle the scheduling cycle at which it was taken
   */
  public void requeueUnschedulable(QueuedPod item, long cycle, Outcome.Unschedulable outcome) {
    var hint = outcome.refused()
        ? QueueingHint.POD_UPDATE_ONLY
        : QueueingHint.of(outcome.pod()).withRetriedOn(outcome.decision());
    queue.requeueUnschedulable(item, cycle, hint);
  }

  /**
   * A PostFilter outcome as recorded.
   *
   * @param pod the pod, with its nomination
   * @param nodeName the node it is nominated to; {@code ""} when its nomination was cleared; null when kept
   * @param victims the pods to evict for it on that node
   * @param lowerNominated the pods of lower priority nominated to that node, whose nominations are to be cleared
   */
  public record Nominated(
      PodInfo pod, @Nullable String nodeName, List<PodInfo> victims, List<PodInfo> lowerNominated) {}
}
