package io.kubesched.drills;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the invariant checker looks at after a trial has settled: the API server's pods, nodes and events, the
 * history of the runner's pod watch since the drill began, and the scheduler's own view of the nodes. Pure
 * data, copied on construction.
 *
 * @param pods every pod, as the API server lists them (the drill's cluster runs no others)
 * @param nodes the nodes, as the API server lists them
 * @param events the events about those pods ({@code Scheduled}, {@code FailedScheduling}, ...)
 * @param nodeNamesSeen for each pod uid the watch saw bound, every distinct {@code spec.nodeName} it saw, in
 *     the order seen: more than one means a pod moved
 * @param schedulerView the scheduler's view: node name → uids of the pods it counts there; empty when the
 *     scheduler's cache is not visible to the runner
 * @param bindings for each pod (by name) the API server accepted a binding for during the trial, how many it
 *     accepted (from its audit log: creates of {@code pods/binding} answered 2xx); empty when there is no audit
 *     log to read
 * @param deletedPods the pods the runner itself deleted during the trial, as it last saw them: they are not
 *     lost, and their topology spread groups are not checked
 * @param deletedNodes the nodes the runner deleted during the trial (and may have created again since): the
 *     spread groups with a pod on one are not checked
 */
record Snapshot(
    List<PodView> pods,
    List<NodeView> nodes,
    List<EventView> events,
    Map<String, List<String>> nodeNamesSeen,
    Optional<Map<String, Set<String>>> schedulerView,
    Optional<Map<String, Integer>> bindings,
    List<PodView> deletedPods,
    Set<String> deletedNodes) {

  Snapshot {
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
    events = List.copyOf(events);
    nodeNamesSeen = Map.copyOf(nodeNamesSeen);
    schedulerView = schedulerView.map(Map::copyOf);
    bindings = bindings.map(Map::copyOf);
    deletedPods = List.copyOf(deletedPods);
    deletedNodes = Set.copyOf(deletedNodes);
  }

  /** A snapshot without the audit log's bindings: double bindings are then not checked. */
  Snapshot(List<PodView> pods, List<NodeView> nodes, List<EventView> events, Map<String, List<String>> nodeNamesSeen,
      Optional<Map<String, Set<String>>> schedulerView) {
    this(pods, nodes, events, nodeNamesSeen, schedulerView, Optional.empty(), List.of(), Set.of());
  }

  /** What the stream meant a pod to be. */
  enum Kind {
    /** fits any node: must be bound */
    PLACEABLE,
    /** selects a node label no node has: must stay pending with a reason */
    UNSCHEDULABLE,
    /** created with a scheduling gate that the stream removes later: must be bound once ungated */
    GATED,
    /** required anti-affinity to its group on the hostname, groups smaller than the node count: must be bound */
    ANTI_AFFINITY,
    /**
     * a member of a topology spread group: {@code DoNotSchedule}, {@code maxSkew} {@value
     * PodStream#MAX_SKEW}, over the zone label, selecting its group; always placeable (a zone with the fewest
     * members has room): must be bound
     */
    SPREAD
  }

  /**
   * One pod.
   *
   * @param kind what the stream meant it to be
   * @param nodeName {@code spec.nodeName}, null while pending
   * @param gated whether it still has scheduling gates
   * @param milliCpu its CPU request
   * @param memory its memory request in bytes
   * @param antiGroup the value of its anti-affinity group label, null if it has none
   * @param unschedulableCondition whether its {@code PodScheduled} condition is {@code False}
   * @param spreadGroup the value of its topology spread group label, null if it has none
   */
  record PodView(
      String uid,
      String name,
      Kind kind,
      @Nullable String nodeName,
      boolean gated,
      long milliCpu,
      long memory,
      @Nullable String antiGroup,
      boolean unschedulableCondition,
      @Nullable String spreadGroup) {

    /** A pod of no spread group. */
    PodView(String uid, String name, Kind kind, @Nullable String nodeName, boolean gated, long milliCpu, long memory,
        @Nullable String antiGroup, boolean unschedulableCondition) {
      this(uid, name, kind, nodeName, gated, milliCpu, memory, antiGroup, unschedulableCondition, null);
    }

    boolean bound() {
      return nodeName != null;
    }

    /** @return whether this pod must be bound once the system has settled */
    boolean placeable() {
      return kind != Kind.UNSCHEDULABLE && !gated;
    }
  }

  /**
   * One node's allocatable resources: CPU in millicores, memory in bytes, and pods; and its zone (the value of
   * its {@value PodStream#ZONE} label, null if it has none).
   */
  record NodeView(String name, long milliCpu, long memory, long maxPods, @Nullable String zone) {

    /** A node without a zone. */
    NodeView(String name, long milliCpu, long memory, long maxPods) {
      this(name, milliCpu, memory, maxPods, null);
    }
  }

  /**
   * One event about a pod.
   *
   * @param podUid the involved object's uid
   * @param reason such as {@code Scheduled} or {@code FailedScheduling}
   * @param count how many times it happened (a series counts once per occurrence)
   */
  record EventView(String podUid, String reason, int count) {}
}
