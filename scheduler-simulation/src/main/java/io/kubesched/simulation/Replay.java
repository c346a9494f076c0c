package io.kubesched.simulation;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.ClusterDataCache;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.DecisionStep;
import io.kubesched.engine.DeviceCache;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.QueueingHint;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.engine.UnsupportedFeatures;
import io.kubesched.policy.GroupDecision;
import io.kubesched.policy.GroupPlacement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
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
  private final Map<PodGroupRef, PodGroup> groups;
  private final Set<PodGroupRef.Source> honoured;
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
    this(cluster, finder, Map.of(), EnumSet.allOf(PodGroupRef.Source.class));
  }

  /**
   * @param cluster the nodes with their pods, and whatever else the policy reads
   * @param finder the policy, used as it is (the caller gives a fresh copy of one that keeps state)
   * @param groups the pod group objects, by reference: a member of a group not among them waits for it
   * @param honoured the sources of pod groups honoured: a member of a group of another source is placed alone
   */
  Replay(ClusterSnapshot cluster, FinderFunc finder, Map<PodGroupRef, PodGroup> groups,
      Set<PodGroupRef.Source> honoured) {
    this.finder = finder;
    this.groups = Map.copyOf(groups);
    this.honoured = Set.copyOf(honoured);
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
  static SimulationResult run(
      ClusterSnapshot cluster, FinderFunc finder, List<PodInfo> pods, Map<PodGroupRef, PodGroup> groups,
      Set<PodGroupRef.Source> honoured) {
    var replay = new Replay(cluster, finder, groups, honoured);
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
      if (!attempted(item)) {
        continue;
      }
      var pod = given.get(item.uid());
      var info = item.info();
      long cycle = queue.schedulingCycle();
      var ref = info.podGroupRef();
      if (ref != null && honoured.contains(ref.source())) {
        placeGroup(item, ref, cycle);
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

  /**
   * Counts an attempt of a pod taken off the queue.
   *
   * @return whether to try it: false (and it is done) if it is not one of the simulation's, or it was tried too
   *     often (then it is left pending with its last message)
   */
  private boolean attempted(QueuedPod item) {
    attempts++;
    var pod = given.get(item.uid());
    if (pod == null || item.info() == null) { // only pods of ours are queued, each with its PodInfo
      queue.done(item.uid());
      return false;
    }
    int attempt = attemptsOf.merge(item.uid(), 1, Integer::sum);
    if (attempt > MAX_ATTEMPTS_PER_POD) {
      var last = outcomes.get(item.uid());
      var why = last instanceof PodOutcome.Pending p ? p.message() : "";
      outcomes.put(item.uid(), new PodOutcome.Pending(
          pod, "not placed after " + MAX_ATTEMPTS_PER_POD + " attempts; the last said: " + why, ""));
      queue.done(item.uid());
      return false;
    }
    return true;
  }

  /**
   * One attempt of the group of a member just taken off the queue, as the live loop's {@code GroupCycle} makes it:
   * the members waiting are taken with it; if the group is unknown or short of its minimum they wait for it; else
   * they are checked ({@link GroupPlacement#validate}), tried together ({@link GroupPlacement#place}, without
   * preemption), and either at least the minimum fit and are assumed and bound at once, the others waiting on their
   * own, or none is assumed and all wait for what may help.
   */
  private void placeGroup(QueuedPod taken, PodGroupRef ref, long takenCycle) {
    var members = new ArrayList<QueuedPod>();
    members.add(taken);
    var others = queue.takeGroupMembers(ref);
    // Taking them began a cycle, as in the live loop: an event from now on may have been missed by every member.
    long cycle = others.isEmpty() ? takenCycle : queue.schedulingCycle();
    for (var other : others) {
      if (attempted(other)) {
        members.add(other);
      }
    }
    members.sort(Comparator.comparing(QueuedPod::info, GroupPlacement.TRIAL_ORDER));
    var group = groups.get(ref);
    if (group == null) {
      for (var m : members) {
        pending(m, "waiting for pod group " + ref.key() + ", which the simulation was not given"
            + " (Simulation.Builder#podGroups)");
        queue.waitForGroup(m);
      }
      return;
    }
    int placed = cache.placedMembers(ref);
    if (members.size() + placed < group.minMember()) {
      for (var m : members) {
        pending(m, "its pod group " + ref.key() + " has " + (members.size() + placed) + " of its minimum of "
            + group.minMember() + " members (" + placed + " placed); it waits for the others");
        queue.waitForGroup(m);
      }
      return;
    }
    var infos = members.stream().map(QueuedPod::info).toList();
    var mismatch = GroupPlacement.validate(group, infos);
    if (mismatch != null) { // the live loop retries after backoff, and fails alike each time
      for (var m : members) {
        pending(m, mismatch);
        queue.done(m.uid());
      }
      return;
    }
    var refused = new HashMap<String, String>();
    var tried = new ArrayList<PodInfo>();
    for (var info : infos) {
      UnsupportedFeatures.refusal(info, reads)
          .ifPresentOrElse(why -> refused.put(info.uid(), why), () -> tried.add(info));
    }
    if (tried.isEmpty()) {
      for (var m : members) {
        requeue(m, cycle, refused.get(m.uid()), QueueingHint.of(m.info()));
      }
      return;
    }
    var snapshot = step.snapshot();
    GroupDecision decision;
    try {
      decision = GroupPlacement.place(group, tried, placed, snapshot, finder);
    } catch (RuntimeException e) {
      for (var m : members) {
        pending(m, "FinderFunc failed for pod group " + group.key() + ": " + e);
        queue.done(m.uid());
      }
      return;
    }
    int nodeCount = snapshot.nodes().size();
    var byUid = new HashMap<String, QueuedPod>();
    members.forEach(m -> byUid.put(m.uid(), m));
    if (decision instanceof GroupDecision.Placed placedDecision) {
      var assumed = new ArrayList<DecisionStep.Outcome.Assumed>();
      for (var fitted : placedDecision.fitted()) {
        var outcome = step.assume(fitted.pod(), fitted.bind());
        if (!(outcome instanceof DecisionStep.Outcome.Assumed a)) { // no one else binds in a simulation
          throw new IllegalStateException("pod group " + group.key() + " member " + fitted.pod().key()
              + " could not be assumed: " + outcome);
        }
        assumed.add(a);
      }
      // The live loop requeues the others before it binds; the watch shows the bindings after.
      placedDecision.unfitted().forEach((uid, own) -> requeue(byUid.get(uid), cycle,
          GroupPlacement.memberMessage(own, nodeCount), QueueingHint.of(byUid.get(uid).info()).withRetriedOn(own)));
      refused.forEach((uid, why) -> requeue(byUid.get(uid), cycle, why, QueueingHint.of(byUid.get(uid).info())));
      assumed.forEach(a -> bound(given.get(a.pod().uid()), a));
      return;
    }
    var unschedulable = (GroupDecision.Unschedulable) decision;
    var retriedOn = GroupPlacement.retriedOnAnyOf(unschedulable, !refused.isEmpty());
    for (var m : members) {
      var why = refused.containsKey(m.uid())
          ? refused.get(m.uid()) : GroupPlacement.memberMessage(unschedulable, m.uid(), nodeCount);
      var hint = QueueingHint.of(m.info());
      requeue(m, cycle, why, retriedOn.isEmpty() ? hint : hint.withRetriedOnAnyOf(retriedOn));
    }
  }

  private void pending(QueuedPod member, String why) {
    var pod = given.get(member.uid());
    outcomes.put(member.uid(), new PodOutcome.Pending(pod, why, pendingNomination(pod)));
  }

  private void requeue(QueuedPod member, long cycle, String why, QueueingHint hint) {
    pending(member, why);
    queue.requeueUnschedulable(member, cycle, hint);
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
