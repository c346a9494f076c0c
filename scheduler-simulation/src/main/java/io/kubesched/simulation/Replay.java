package io.kubesched.simulation;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.ClusterDataCache;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.DecisionStep;
import io.kubesched.engine.DeviceCache;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The live loop's queue, cache and {@link DecisionStep} run on one thread over a snapshot, with every binding taken
 * as done at once and every eviction as gone at once: what the scheduling cycle would decide if the API server
 * answered instantly. A placement moves the waiting pods it may help, as the watch of a bound pod does in the live
 * loop ({@link ClusterEventMoves#assignedPodAdded}); an eviction moves them as a deleted pod does.
 *
 * <p>Time is simulated: when no pod is active, the clock jumps past the longest backoff so that the pods in backoff
 * are tried again; pods waiting as unschedulable are tried again only when a change moves them, never after a
 * timeout, so the run ends once no change can help the pods left.
 *
 * <p>One instance is one run; {@link #place} may be called again to add pods to the same run (capacity adds one
 * copy at a time). Not thread-safe.
 */
final class Replay {

  /** Beyond this many attempts of one pod, it is left pending: a safety net against policies that never settle. */
  static final int MAX_ATTEMPTS_PER_POD = 20;

  private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  private final long[] now = {1_000_000_000L};
  private final Ticker ticker = () -> now[0];
  private final SchedulingQueue queue =
      new SchedulingQueue(ticker, INITIAL_BACKOFF, MAX_BACKOFF, Duration.ofDays(365 * 100));
  private final SchedulerCache cache = new SchedulerCache(ticker, Duration.ZERO);
  private final StorageCache storage = new StorageCache();
  private final DeviceCache devices = new DeviceCache();
  private final ClusterEventMoves moves = new ClusterEventMoves(queue);
  private final DecisionStep step;
  private final FinderFunc finder;
  private final Set<ClusterData> reads;
  private final List<String> nodeOrder = new ArrayList<>();
  private final Map<String, PodOutcome> outcomes = new LinkedHashMap<>();
  private final Map<String, PodInfo> given = new HashMap<>();
  private final Map<String, List<PodInfo>> preemptedFor = new HashMap<>();
  private final Map<String, Integer> attemptsOf = new HashMap<>();
  private final List<PodOutcome.Preempted> evicted = new ArrayList<>();
  private int attempts;

  /**
   * @param cluster the nodes with their pods, and whatever else the policy reads
   * @param finder the policy, used as it is (the caller gives a fresh copy of one that keeps state)
   */
  Replay(ClusterSnapshot cluster, FinderFunc finder) {
    this.finder = finder;
    this.reads = finder.reads();
    for (var node : cluster.nodes()) {
      nodeOrder.add(node.name());
      cache.putNode(withoutPods(node));
      node.pods().forEach(pod -> cache.putPod(pod.nodeName().equals(node.name())
          ? pod : pod.toBuilder().nodeName(node.name()).build()));
    }
    var volumes = cluster.storage();
    volumes.claims().forEach(storage::putClaim);
    volumes.volumes().forEach(storage::putVolume);
    volumes.storageClasses().forEach(storage::putStorageClass);
    volumes.csiNodes().forEach(storage::putCsiNode);
    volumes.csiDrivers().forEach(storage::putCsiDriver);
    volumes.capacities().forEach(storage::putCapacity);
    var dra = cluster.dynamicResources();
    dra.slices().forEach(devices::putSlice);
    dra.deviceClasses().forEach(devices::putDeviceClass);
    dra.claims().forEach(devices::putClaim);
    dra.taintRules().forEach(devices::putTaintRule);
    // The live loop's ClusterDataCache: each decision's snapshot is derived from the one before, so what that one
    // found out about unchanged nodes is reused (one step per node placed on, not per node of the cluster).
    var data = new ClusterDataCache(reads);
    cluster.namespaces().forEach(data::putNamespace);
    var workloads = cluster.workloads();
    for (int i = 0; i < workloads.size(); i++) {
      data.putWorkload("workload-" + i, workloads.get(i));
    }
    cluster.disruptionBudgets().forEach(b -> data.putDisruptionBudget(b.namespace() + "/" + b.name(), b));
    this.step =
        new DecisionStep(
            queue, cache, storage, devices::assume,
            (nodes, nominations) -> data.snapshot(nodes, storage.storage(), devices.dynamicResources(), nominations),
            SchedulerMetrics.NONE, ticker);
  }

  /** @return what {@code finder} does with {@code pods} on {@code cluster}, in one run */
  static SimulationResult run(ClusterSnapshot cluster, FinderFunc finder, List<PodInfo> pods) {
    var replay = new Replay(cluster, finder);
    replay.place(pods);
    return replay.result();
  }

  private static NodeInfo withoutPods(NodeInfo node) {
    return new NodeInfo(
        node.name(), node.labels(), node.taints(), node.unschedulable(), node.allocatable(), Resources.ZERO,
        Resources.ZERO, node.images(), List.of(), node.declaredFeatures());
  }

  /**
   * Queues {@code pods} (in this order after those queued before) and schedules until no pod is left that a change
   * may help.
   */
  void place(List<PodInfo> pods) {
    for (var pod : pods) {
      given.put(pod.uid(), pod);
      var item = QueuedPod.of(pod);
      if (item.gated()) {
        outcomes.put(pod.uid(), new PodOutcome.Pending(pod, gatedMessage(pod), ""));
      } else {
        outcomes.put(pod.uid(), new PodOutcome.Pending(pod, "not tried", ""));
      }
      queue.add(item);
    }
    run();
  }

  private static String gatedMessage(PodInfo pod) {
    return pod.schedulingGates().isEmpty()
        ? "waiting for its ResourceClaims to be created"
        : "waiting for its scheduling gates " + pod.schedulingGates();
  }

  private void run() {
    while (true) {
      var item = queue.poll();
      if (item == null) {
        if (queue.depths().backoff() == 0) {
          return;
        }
        now[0] += MAX_BACKOFF.toNanos() + 1; // every backoff has passed
        continue;
      }
      attempts++;
      var pod = given.get(item.uid());
      var info = item.info();
      if (pod == null || info == null) { // only pods of ours are queued, each with its PodInfo
        queue.done(item.uid());
        continue;
      }
      int attempt = attemptsOf.merge(item.uid(), 1, Integer::sum);
      if (attempt > MAX_ATTEMPTS_PER_POD) {
        var last = outcomes.get(item.uid());
        var why = last instanceof PodOutcome.Pending p ? p.message() : "";
        outcomes.put(item.uid(), new PodOutcome.Pending(
            pod, "not placed after " + MAX_ATTEMPTS_PER_POD + " attempts; the last said: " + why, ""));
        queue.done(item.uid());
        continue;
      }
      long cycle = queue.schedulingCycle();
      if (info.podGroupRef() != null) {
        outcomes.put(item.uid(), new PodOutcome.Pending(pod,
            "pod " + info.key() + " belongs to pod group " + info.podGroupRef().key()
                + ": the simulation does not place pod groups yet", ""));
        queue.done(item.uid());
        continue;
      }
      var outcome = step.decide(item.key(), info, finder, reads);
      if (outcome instanceof DecisionStep.Outcome.Assumed assumed) {
        bound(pod, assumed);
      } else if (outcome instanceof DecisionStep.Outcome.Unschedulable unschedulable) {
        unschedulable(item, pod, cycle, unschedulable);
      } else if (outcome instanceof DecisionStep.Outcome.Failed failed) {
        outcomes.put(item.uid(), new PodOutcome.Pending(pod, failed.error().getMessage(), ""));
        queue.done(item.uid());
      } else { // no one else binds in a simulation
        throw new IllegalStateException("pod " + item.key() + " was bound outside the simulation: " + outcome);
      }
    }
  }

  /** The binding done at once: the cache counts the pod as the watch would show it, and its watchers move. */
  private void bound(PodInfo pod, DecisionStep.Outcome.Assumed assumed) {
    var nodeName = assumed.bind().nodeName();
    var placed = assumed.pod().toBuilder().nodeName(nodeName).nominatedNodeName("").build();
    cache.putPod(placed); // confirms the assumption
    queue.done(pod.uid());
    var victims = preemptedFor.getOrDefault(pod.uid(), List.of());
    outcomes.put(pod.uid(), new PodOutcome.Placed(pod, nodeName, victims));
    moves.assignedPodAdded(placed.namespace(), placed.labels());
  }

  /**
   * A pod that fits nowhere now: its nomination recorded and the pod sent back to wait as the live loop does, then
   * its victims evicted at once (the live loop deletes them through the API server, and their deletion events move
   * the pods waiting for room).
   */
  private void unschedulable(
      QueuedPod item, PodInfo pod, long cycle, DecisionStep.Outcome.Unschedulable unschedulable) {
    if (unschedulable.refused()) {
      outcomes.put(pod.uid(), new PodOutcome.Pending(pod, unschedulable.message(), ""));
      step.requeueUnschedulable(item, cycle, unschedulable);
      return;
    }
    var decision = unschedulable.decision();
    var nominated = step.nominate(unschedulable);
    var message = unschedulable.message();
    if (!decision.claimDeallocations().isEmpty()) {
      message += " (the live loop would deallocate " + decision.claimDeallocations().size()
          + " ResourceClaim(s) for it; the simulation does not)";
    }
    var nominatedNode = nominated.nodeName() == null ? pendingNomination(pod) : nominated.nodeName();
    outcomes.put(pod.uid(), new PodOutcome.Pending(pod, message, nominatedNode));
    step.requeueUnschedulable(item, cycle, unschedulable);
    if (decision.nomination() instanceof Nomination.To to) {
      nominated.lowerNominated().forEach(lower -> queue.clearNomination(lower.uid()));
      for (var victim : nominated.victims()) {
        evict(victim, to.nodeName(), pod);
      }
    }
  }

  private String pendingNomination(PodInfo pod) {
    return queue.nominations().nodeOf(pod.uid());
  }

  private void evict(PodInfo victim, String nodeName, PodInfo preemptor) {
    var counted = cache.pod(victim.uid());
    if (!cache.removePod(victim.uid())) {
      return; // evicted already, for another preemptor
    }
    var gone = counted == null ? victim : counted;
    preemptedFor.computeIfAbsent(preemptor.uid(), uid -> new ArrayList<>()).add(gone);
    var ours = given.get(victim.uid());
    if (ours != null) {
      outcomes.put(victim.uid(), new PodOutcome.Preempted(ours, nodeName, preemptor.key()));
    } else {
      evicted.add(new PodOutcome.Preempted(gone, nodeName, preemptor.key()));
    }
    queue.moveOnClusterChange(ClusterEvent.ASSIGNED_POD_DELETE, new ClusterUpdate.AssignedPodDeleted(gone));
  }

  /** @return the outcome of pod {@code uid}, which was {@linkplain #place placed} in this run */
  PodOutcome outcome(String uid) {
    return outcomes.get(uid);
  }

  /** @return the result: every pod given, in order, every node's usage (in the snapshot's order), the evictions */
  SimulationResult result() {
    var placedOn = new HashMap<String, Integer>();
    outcomes.values().forEach(o -> {
      if (o instanceof PodOutcome.Placed p) {
        placedOn.merge(p.nodeName(), 1, Integer::sum);
      }
    });
    var nodes = new ArrayList<NodeUsage>();
    var cached = cache.nodes();
    for (var name : nodeOrder) {
      var node = Objects.requireNonNull(cached.node(name), name);
      nodes.add(new NodeUsage(
          node.name(), node.allocatable(), node.requested(), node.pods().size(),
          placedOn.getOrDefault(node.name(), 0), node.unschedulable()));
    }
    return new SimulationResult(List.copyOf(outcomes.values()), nodes, evicted, attempts);
  }
}
