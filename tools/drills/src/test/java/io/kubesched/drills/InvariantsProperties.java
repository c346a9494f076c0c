package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.drills.Snapshot.EventView;
import io.kubesched.drills.Snapshot.Kind;
import io.kubesched.drills.Snapshot.NodeView;
import io.kubesched.drills.Snapshot.PodView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The checker against clusters built consistent by construction: such a cluster breaks nothing, and each way
 * of breaking one invariant is reported as exactly that invariant.
 */
class InvariantsProperties {

  /** A pod as generated: what it is meant to be, the node it asks for, its CPU. */
  record Wish(Kind kind, int node, long milliCpu, int group) {}

  enum Breakage { NONE, UNBIND, MOVE, BIND_TWICE, REPORT_TWICE, FORGET_IN_VIEW, DROP_REASON, SHRINK_NODE, SAME_GROUP, SKEW }

  @Provide
  Arbitrary<List<NodeView>> nodes() {
    return Combinators.combine(Arbitraries.longs().between(100, 2000), Arbitraries.integers().between(1, 6),
            Arbitraries.integers().between(0, 2))
        .as((cpu, pods, zone) -> new long[] {cpu, pods, zone})
        .list().ofMinSize(1).ofMaxSize(4)
        .map(list -> {
          var nodes = new ArrayList<NodeView>();
          for (int i = 0; i < list.size(); i++) {
            nodes.add(new NodeView("n" + i, list.get(i)[0], 1L << 30, list.get(i)[1], "z" + list.get(i)[2]));
          }
          return nodes;
        });
  }

  @Provide
  Arbitrary<List<Wish>> wishes() {
    return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 3),
            Arbitraries.longs().between(50, 700), Arbitraries.integers().between(0, 2))
        .as(Wish::new).list().ofMaxSize(25);
  }

  @Property
  void a_consistent_cluster_breaks_nothing_and_each_breakage_is_reported_as_itself(
      @ForAll("nodes") List<NodeView> nodes, @ForAll("wishes") List<Wish> wishes, @ForAll Breakage breakage) {
    var pods = new ArrayList<PodView>();
    var used = new HashMap<String, long[]>();
    var groupsOn = new HashMap<String, Set<String>>();
    var zones = nodes.stream().map(NodeView::zone).distinct().toList();
    var spreadCounts = new HashMap<String, Map<String, Integer>>(); // group -> zone -> bound members
    for (int i = 0; i < wishes.size(); i++) {
      var wish = wishes.get(i);
      var node = nodes.get(wish.node() % nodes.size());
      var load = used.computeIfAbsent(node.name(), n -> new long[2]);
      var group = wish.kind() == Kind.ANTI_AFFINITY ? "g" + wish.group() : null;
      var spreadGroup = wish.kind() == Kind.SPREAD ? "s" + wish.group() : null;
      var groups = groupsOn.computeIfAbsent(node.name(), n -> new HashSet<>());
      var counts = spreadGroup == null ? Map.<String, Integer>of()
          : spreadCounts.computeIfAbsent(spreadGroup, g -> new HashMap<>());
      int lowest = zones.stream().mapToInt(z -> counts.getOrDefault(z, 0)).min().orElse(0);
      boolean fits = load[0] + wish.milliCpu() <= node.milliCpu() && load[1] + 1 <= node.maxPods()
          && (group == null || !groups.contains(group))
          && (spreadGroup == null || counts.getOrDefault(node.zone(), 0) + 1 - lowest <= PodStream.MAX_SKEW);
      boolean gated = wish.kind() == Kind.GATED && i % 2 == 0;
      if (fits && wish.kind() != Kind.UNSCHEDULABLE && !gated) {
        load[0] += wish.milliCpu();
        load[1]++;
        if (group != null) {
          groups.add(group);
        }
        if (spreadGroup != null) {
          spreadCounts.get(spreadGroup).merge(node.zone(), 1, Integer::sum);
        }
        pods.add(new PodView("u" + i, "p" + i, wish.kind(), node.name(), false, wish.milliCpu(), 0, group, false,
            spreadGroup));
      } else {
        // Left pending: it was meant to be unschedulable, or nothing had room for it, which the stream never
        // asks for, so it is modelled as unschedulable with a reason.
        pods.add(new PodView("u" + i, "p" + i, gated ? Kind.GATED : Kind.UNSCHEDULABLE, null, gated, wish.milliCpu(), 0,
            group, !gated && i % 3 == 0, spreadGroup));
      }
    }
    var events = new ArrayList<EventView>();
    var bindings = new HashMap<String, Integer>();
    var seen = new HashMap<String, List<String>>();
    var view = new HashMap<String, Set<String>>();
    nodes.forEach(n -> view.put(n.name(), new HashSet<>()));
    for (var pod : pods) {
      if (pod.bound()) {
        events.add(new EventView(pod.uid(), "Scheduled", 1));
        bindings.put(pod.name(), 1);
        seen.put(pod.uid(), List.of(pod.nodeName()));
        view.get(pod.nodeName()).add(pod.uid());
      } else if (!pod.gated() && !pod.unschedulableCondition()) {
        events.add(new EventView(pod.uid(), "FailedScheduling", 1));
      }
    }
    var bound = pods.stream().filter(PodView::bound).toList();
    var expected = Optional.<Violation.Kind>empty();
    var nodeList = new ArrayList<>(nodes);
    switch (breakage) {
      case NONE -> {}
      case UNBIND -> {
        // Not a spread member: one fewer bound member may skew its group, which is a second violation.
        var unspread = bound.stream().filter(p -> p.spreadGroup() == null).findFirst();
        if (unspread.isPresent()) {
          var pod = unspread.get();
          pods.set(pods.indexOf(pod), new PodView(pod.uid(), pod.name(), pod.kind(), null, false, pod.milliCpu(), 0,
              pod.antiGroup(), true));
          events.removeIf(e -> e.podUid().equals(pod.uid()));
          bindings.remove(pod.name());
          seen.remove(pod.uid());
          view.get(pod.nodeName()).remove(pod.uid());
          expected = Optional.of(Violation.Kind.LOST);
        }
      }
      case MOVE -> {
        if (!bound.isEmpty()) {
          seen.put(bound.get(0).uid(), List.of("elsewhere", bound.get(0).nodeName()));
          expected = Optional.of(Violation.Kind.MOVED);
        }
      }
      case BIND_TWICE -> {
        if (!bound.isEmpty()) {
          bindings.merge(bound.get(0).name(), 1, Integer::sum);
          expected = Optional.of(Violation.Kind.BOUND_TWICE);
        }
      }
      case REPORT_TWICE -> {
        if (!bound.isEmpty()) {
          events.add(new EventView(bound.get(0).uid(), "Scheduled", 1));
          expected = Optional.of(Violation.Kind.REPORTED_TWICE);
        }
      }
      case FORGET_IN_VIEW -> {
        if (!bound.isEmpty()) {
          view.get(bound.get(0).nodeName()).remove(bound.get(0).uid());
          expected = Optional.of(Violation.Kind.CACHE_MISMATCH);
        }
      }
      case DROP_REASON -> {
        var reasoned = events.stream().filter(e -> e.reason().equals("FailedScheduling")).findFirst();
        if (reasoned.isPresent()) {
          events.remove(reasoned.get());
          expected = Optional.of(Violation.Kind.NO_REASON);
        }
      }
      case SHRINK_NODE -> {
        if (!bound.isEmpty()) {
          var name = bound.get(0).nodeName();
          var node = nodeList.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
          nodeList.set(nodeList.indexOf(node), new NodeView(name, used.get(name)[0] - 1, node.memory(), node.maxPods(), node.zone()));
          expected = Optional.of(Violation.Kind.OVER_ALLOCATABLE);
        }
      }
      case SAME_GROUP -> {
        var grouped = bound.stream().filter(p -> p.antiGroup() != null).findFirst();
        var other = grouped.flatMap(g -> bound.stream()
            .filter(p -> p.antiGroup() == null && p.spreadGroup() == null && p.nodeName().equals(g.nodeName()))
            .findFirst());
        if (other.isPresent()) {
          var pod = other.get();
          pods.set(pods.indexOf(pod), new PodView(pod.uid(), pod.name(), Kind.ANTI_AFFINITY, pod.nodeName(), false,
              pod.milliCpu(), 0, grouped.get().antiGroup(), false));
          expected = Optional.of(Violation.Kind.ANTI_AFFINITY);
        }
      }
      case SKEW -> {
        // Bound members added, without resources, to a node of a zone with the most members of a group until
        // that zone exceeds the emptiest by more than maxSkew: possible where the group's zones number two or
        // more and that node has room for the pods.
        for (var entry : spreadCounts.entrySet()) {
          var counts = entry.getValue();
          int lowest = zones.stream().mapToInt(z -> counts.getOrDefault(z, 0)).min().orElse(0);
          var top = zones.stream().max(java.util.Comparator.comparingInt(z -> counts.getOrDefault(z, 0))).orElseThrow();
          int more = PodStream.MAX_SKEW + 1 - (counts.getOrDefault(top, 0) - lowest);
          var node = nodeList.stream()
              .filter(n -> n.zone().equals(top) && used.getOrDefault(n.name(), new long[2])[1] + more <= n.maxPods())
              .findFirst();
          if (zones.size() < 2 || node.isEmpty()) {
            continue;
          }
          for (int k = 0; k < more; k++) {
            var pod = new PodView("x" + k, "x" + k, Kind.SPREAD, node.get().name(), false, 0, 0, null, false, entry.getKey());
            pods.add(pod);
            events.add(new EventView(pod.uid(), "Scheduled", 1));
            bindings.put(pod.name(), 1);
            seen.put(pod.uid(), List.of(pod.nodeName()));
            view.get(pod.nodeName()).add(pod.uid());
          }
          expected = Optional.of(Violation.Kind.SPREAD);
          break;
        }
      }
    }
    Statistics.label("breakage").collect(expected.isPresent() ? breakage : Breakage.NONE);
    Statistics.label("breakage").coverage(c -> {
      for (var b : Breakage.values()) {
        c.check(b).count(n -> n > 0);
      }
    });
    Statistics.label("pending pods").collect(pods.stream().anyMatch(p -> !p.bound()));
    var violations = Invariants.check(new Snapshot(pods, nodeList, events, seen, Optional.of(view), Optional.of(bindings), List.of(), Set.of()));
    assertEquals(expected.map(List::of).orElse(List.of()), violations.stream().map(Violation::kind).distinct().toList(),
        violations.toString());
  }
}
