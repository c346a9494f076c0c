package io.kubesched.drills;

import io.kubesched.drills.Snapshot.EventView;
import io.kubesched.drills.Snapshot.NodeView;
import io.kubesched.drills.Snapshot.PodView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The drills' invariants as a pure function of a {@link Snapshot}: what must hold once the system has settled
 * after a fault. Stateless; callable from any thread.
 */
final class Invariants {

  private Invariants() {}

  /** @return every violation in {@code snapshot}, grouped by kind in {@link Violation.Kind}'s order */
  static List<Violation> check(Snapshot snapshot) {
    var violations = new ArrayList<Violation>();
    var scheduledEvents = new HashMap<String, Integer>();
    var reasons = new HashSet<String>();
    for (EventView event : snapshot.events()) {
      if (event.reason().equals("Scheduled")) {
        scheduledEvents.merge(event.podUid(), Math.max(1, event.count()), Integer::sum);
      } else if (event.reason().equals("FailedScheduling")) {
        reasons.add(event.podUid());
      }
    }
    for (PodView pod : snapshot.pods()) {
      if (pod.placeable() && !pod.bound()) {
        violations.add(new Violation(Violation.Kind.LOST, pod.name(), pod.kind() + " pod still pending"));
      }
    }
    snapshot.nodeNamesSeen().entrySet().stream()
        .filter(e -> e.getValue().size() > 1)
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> violations.add(new Violation(
            Violation.Kind.MOVED, name(snapshot, e.getKey()), "spec.nodeName was " + String.join(", then ", e.getValue()))));
    for (PodView pod : snapshot.pods()) {
      var seen = snapshot.nodeNamesSeen().get(pod.uid());
      if (pod.bound() && seen != null && seen.size() == 1 && !seen.get(0).equals(pod.nodeName())) {
        violations.add(new Violation(Violation.Kind.MOVED, pod.name(),
            "the watch saw it on " + seen.get(0) + ", the API server has it on " + pod.nodeName()));
      }
    }
    snapshot.bindings().ifPresent(bindings -> new TreeMap<>(bindings).forEach((pod, count) -> {
      if (count > 1) {
        violations.add(new Violation(Violation.Kind.BOUND_TWICE, pod, "the API server accepted " + count + " bindings"));
      }
    }));
    new TreeMap<>(scheduledEvents).forEach((uid, count) -> {
      if (count > 1) {
        violations.add(new Violation(Violation.Kind.REPORTED_TWICE, name(snapshot, uid), count + " Scheduled events"));
      }
    });
    var boundTo = snapshot.pods().stream().filter(PodView::bound)
        .collect(Collectors.groupingBy(PodView::nodeName, TreeMap::new, Collectors.toList()));
    for (NodeView node : snapshot.nodes()) {
      var pods = boundTo.getOrDefault(node.name(), List.of());
      long cpu = pods.stream().mapToLong(PodView::milliCpu).sum();
      long memory = pods.stream().mapToLong(PodView::memory).sum();
      if (cpu > node.milliCpu() || memory > node.memory() || pods.size() > node.maxPods()) {
        violations.add(new Violation(Violation.Kind.OVER_ALLOCATABLE, node.name(), String.format(
            "requested %dm CPU, %d bytes, %d pods of %dm, %d bytes, %d pods",
            cpu, memory, pods.size(), node.milliCpu(), node.memory(), node.maxPods())));
      }
    }
    boundTo.forEach((node, pods) -> pods.stream()
        .filter(p -> p.antiGroup() != null)
        .collect(Collectors.groupingBy(PodView::antiGroup, TreeMap::new, Collectors.mapping(PodView::name, Collectors.toCollection(TreeSet::new))))
        .forEach((group, names) -> {
          if (names.size() > 1) {
            violations.add(new Violation(Violation.Kind.ANTI_AFFINITY, node,
                "anti-affinity group " + group + " has " + String.join(", ", names) + " there"));
          }
        }));
    violations.addAll(spread(snapshot));
    for (PodView pod : snapshot.pods()) {
      if (!pod.bound() && !pod.gated() && !pod.unschedulableCondition() && !reasons.contains(pod.uid())) {
        violations.add(new Violation(Violation.Kind.NO_REASON, pod.name(),
            "pending without a FailedScheduling event or PodScheduled=False"));
      }
    }
    snapshot.schedulerView().ifPresent(view -> {
      var nodes = new TreeSet<String>(view.keySet());
      nodes.addAll(boundTo.keySet());
      for (String node : nodes) {
        Set<String> apiServer = boundTo.getOrDefault(node, List.of()).stream().map(PodView::uid).collect(Collectors.toSet());
        Set<String> scheduler = view.getOrDefault(node, Set.of());
        if (!apiServer.equals(scheduler)) {
          var missing = new TreeSet<>(apiServer);
          missing.removeAll(scheduler);
          var extra = new TreeSet<>(scheduler);
          extra.removeAll(apiServer);
          violations.add(new Violation(Violation.Kind.CACHE_MISMATCH, node, String.format(
              "the scheduler lacks %s and counts %s", names(snapshot, missing), names(snapshot, extra))));
        }
      }
    });
    return List.copyOf(violations);
  }

  /**
   * The topology spread invariant, with kube-scheduler's semantics (its {@code PodTopologySpread} filter): the
   * domains are the zones of the nodes a member could go to (the spread pods select no nodes and kube ignores
   * taints by default, so every node with the zone label); a member may go to a zone only if its count there
   * plus one minus the lowest count of any domain (zero for a domain with none) is at most {@code maxSkew}.
   * Placed one by one under that rule, the bound members of a group never differ between two domains by more
   * than {@code maxSkew}, so a larger difference after the fact means one was placed against it.
   *
   * <p>The rule is checked at placement only: a deleted member can lower a zone's count below the others by
   * more than {@code maxSkew} legally (kube does not move pods to rebalance), and a member on a node that was
   * deleted is not counted while that node is gone (so the others may legally pile up elsewhere). A group with
   * a member the runner deleted, or a member on a node the runner deleted, is therefore not checked.
   */
  private static List<Violation> spread(Snapshot snapshot) {
    var zones = new TreeMap<String, String>();
    snapshot.nodes().stream().filter(n -> n.zone() != null).forEach(n -> zones.put(n.name(), n.zone()));
    var domains = new TreeSet<>(zones.values());
    var exempt = new HashSet<String>();
    snapshot.deletedPods().stream().map(PodView::spreadGroup).filter(g -> g != null).forEach(exempt::add);
    snapshot.pods().stream()
        .filter(p -> p.spreadGroup() != null && p.bound() && snapshot.deletedNodes().contains(p.nodeName()))
        .forEach(p -> exempt.add(p.spreadGroup()));
    var violations = new ArrayList<Violation>();
    var groups = snapshot.pods().stream().filter(p -> p.spreadGroup() != null && p.bound())
        .collect(Collectors.groupingBy(PodView::spreadGroup, TreeMap::new, Collectors.toList()));
    groups.forEach((group, members) -> {
      if (exempt.contains(group)) {
        return;
      }
      var counts = new TreeMap<String, Integer>();
      domains.forEach(zone -> counts.put(zone, 0));
      for (var member : members) {
        var zone = zones.get(member.nodeName());
        if (zone == null) {
          violations.add(new Violation(Violation.Kind.SPREAD, group,
              member.name() + " is on " + member.nodeName() + ", which has no zone"));
        } else {
          counts.merge(zone, 1, Integer::sum);
        }
      }
      int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      int min = counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
      if (max - min > PodStream.MAX_SKEW) {
        violations.add(new Violation(Violation.Kind.SPREAD, group, String.format(
            "members per zone %s: skew %d over maxSkew %d", counts, max - min, PodStream.MAX_SKEW)));
      }
    });
    return violations;
  }

  /** The fewest samples {@link #growth} judges. */
  static final int GROWTH_SAMPLES = 8;

  /**
   * The growth check across trials: the thread count and the heap after GC of the process, sampled after each
   * trial. Pools fill up over the first trials (HTTP connections, executor threads) and then stay: the last
   * sample is compared with the highest of the first half, not with the first, so that warming up is not
   * growth while a leak of one thread per trial over 20 trials is.
   *
   * @param threads the thread count after each trial, in order
   * @param heapAfterGc the used heap after a full GC after each trial, in bytes, in order
   * @return a {@link Violation.Kind#GROWTH} violation per resource whose last sample exceeds the highest of the
   *     first half by more than its slack (threads: 5; heap: an eighth plus 8 MiB); none with fewer than
   *     {@value #GROWTH_SAMPLES} samples: after API-server restarts the HTTP client's threads come and go by tens
   *     (a 4-trial smoke saw 92, 124, 115, 134), which only a longer series tells from a leak
   */
  static List<Violation> growth(List<Integer> threads, List<Long> heapAfterGc) {
    var violations = new ArrayList<Violation>();
    if (threads.size() >= GROWTH_SAMPLES) {
      int firstHalf = threads.subList(0, threads.size() / 2).stream().mapToInt(Integer::intValue).max().orElseThrow();
      if (threads.get(threads.size() - 1) > firstHalf + 5) {
        violations.add(new Violation(Violation.Kind.GROWTH, "threads", "thread count per trial " + threads));
      }
    }
    if (heapAfterGc.size() >= GROWTH_SAMPLES) {
      long firstHalf = heapAfterGc.subList(0, heapAfterGc.size() / 2).stream().mapToLong(Long::longValue).max().orElseThrow();
      if (heapAfterGc.get(heapAfterGc.size() - 1) > firstHalf + firstHalf / 8 + (8L << 20)) {
        violations.add(new Violation(Violation.Kind.GROWTH, "heap", "heap after GC per trial (MiB) "
            + heapAfterGc.stream().map(b -> String.valueOf(b >> 20)).collect(Collectors.joining(", ", "[", "]"))));
      }
    }
    return List.copyOf(violations);
  }

  private static String name(Snapshot snapshot, String uid) {
    return snapshot.pods().stream().filter(p -> p.uid().equals(uid)).map(PodView::name).findFirst().orElse("uid " + uid);
  }

  private static String names(Snapshot snapshot, Set<String> uids) {
    return uids.stream().map(uid -> name(snapshot, uid)).collect(Collectors.joining(", ", "[", "]"));
  }
}
