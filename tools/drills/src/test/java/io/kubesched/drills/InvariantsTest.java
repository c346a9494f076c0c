package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.drills.Snapshot.EventView;
import io.kubesched.drills.Snapshot.Kind;
import io.kubesched.drills.Snapshot.NodeView;
import io.kubesched.drills.Snapshot.PodView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class InvariantsTest {

  private static final List<NodeView> NODES =
      List.of(new NodeView("n1", 1000, 1 << 30, 3), new NodeView("n2", 1000, 1 << 30, 3));

  private static PodView pod(String name, Kind kind, @Nullable String node) {
    return new PodView("uid-" + name, name, kind, node, false, 100, 1 << 20, null, false);
  }

  private static PodView anti(String name, String group, String node) {
    return new PodView("uid-" + name, name, Kind.ANTI_AFFINITY, node, false, 100, 1 << 20, group, false);
  }

  /** A settled cluster where every invariant holds: the base each test breaks one way. */
  private static final class Cluster {
    final List<PodView> pods = new ArrayList<>(List.of(
        pod("a", Kind.PLACEABLE, "n1"), pod("b", Kind.GATED, "n2"), anti("c", "g", "n1"), anti("d", "g", "n2"),
        new PodView("uid-e", "e", Kind.UNSCHEDULABLE, null, false, 100, 0, null, true),
        new PodView("uid-f", "f", Kind.UNSCHEDULABLE, null, false, 100, 0, null, false),
        new PodView("uid-g", "g", Kind.GATED, null, true, 100, 0, null, false)));
    final List<EventView> events = new ArrayList<>(List.of(
        new EventView("uid-a", "Scheduled", 1), new EventView("uid-b", "Scheduled", 1),
        new EventView("uid-c", "Scheduled", 1), new EventView("uid-d", "Scheduled", 1),
        new EventView("uid-f", "FailedScheduling", 3)));
    final Map<String, List<String>> seen = new HashMap<>(Map.of(
        "uid-a", List.of("n1"), "uid-b", List.of("n2"), "uid-c", List.of("n1"), "uid-d", List.of("n2")));
    Map<String, Set<String>> view = new HashMap<>(Map.of("n1", Set.of("uid-a", "uid-c"), "n2", Set.of("uid-b", "uid-d")));
    List<NodeView> nodes = NODES;

    final Map<String, Integer> bindings = new HashMap<>(Map.of("a", 1, "b", 1, "c", 1, "d", 1));

    List<Violation> check() {
      return Invariants.check(new Snapshot(pods, nodes, events, seen, Optional.of(view), Optional.of(bindings), List.of(), Set.of()));
    }
  }

  private static List<Violation.Kind> kinds(List<Violation> violations) {
    return violations.stream().map(Violation::kind).toList();
  }

  @Test
  void a_settled_cluster_breaks_no_invariant() {
    assertEquals(List.of(), new Cluster().check());
  }

  @Test
  void a_placeable_pod_left_pending_is_lost() {
    var cluster = new Cluster();
    cluster.pods.set(0, pod("a", Kind.PLACEABLE, null));
    cluster.events.remove(0);
    cluster.seen.remove("uid-a");
    cluster.view.put("n1", Set.of("uid-c"));
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.LOST, Violation.Kind.NO_REASON), kinds(violations));
    assertEquals("a", violations.get(0).subject());
  }

  @Test
  void an_ungated_pod_left_pending_is_lost_and_a_gated_one_is_not() {
    var cluster = new Cluster();
    cluster.pods.set(1, new PodView("uid-b", "b", Kind.GATED, null, false, 100, 1 << 20, null, true));
    cluster.events.remove(1);
    cluster.seen.remove("uid-b");
    cluster.view.put("n2", Set.of("uid-d"));
    assertEquals(List.of(Violation.Kind.LOST), kinds(cluster.check()));
  }

  @Test
  void a_pod_whose_node_name_changed_moved() {
    var cluster = new Cluster();
    cluster.seen.put("uid-a", List.of("n2", "n1"));
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.MOVED), kinds(violations));
    assertEquals("spec.nodeName was n2, then n1", violations.get(0).detail());
  }

  @Test
  void a_pod_the_api_server_has_elsewhere_than_the_watch_saw_moved() {
    var cluster = new Cluster();
    cluster.seen.put("uid-a", List.of("n2"));
    assertEquals(List.of(Violation.Kind.MOVED), kinds(cluster.check()));
  }

  @Test
  void a_pod_with_two_scheduled_events_or_a_series_of_two_was_reported_twice() {
    var cluster = new Cluster();
    cluster.events.add(new EventView("uid-a", "Scheduled", 1));
    cluster.events.set(1, new EventView("uid-b", "Scheduled", 2));
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.REPORTED_TWICE, Violation.Kind.REPORTED_TWICE), kinds(violations));
    assertEquals(List.of("a", "b"), violations.stream().map(Violation::subject).toList());
  }

  @Test
  void a_pod_the_api_server_accepted_two_bindings_for_was_bound_twice_even_with_its_events_lost() {
    var cluster = new Cluster();
    cluster.bindings.put("a", 2);
    cluster.events.remove(0); // the Scheduled event lost, as after a 403
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.BOUND_TWICE), kinds(violations));
    assertEquals("a", violations.get(0).subject());
    assertEquals("the API server accepted 2 bindings", violations.get(0).detail());
  }

  @Test
  void a_pod_bound_twice_and_deleted_since_is_still_bound_twice() {
    var cluster = new Cluster();
    cluster.bindings.put("gone", 2);
    assertEquals(List.of(Violation.Kind.BOUND_TWICE), kinds(cluster.check()));
  }

  @Test
  void without_the_audit_log_double_bindings_are_not_checked() {
    var cluster = new Cluster();
    cluster.bindings.put("a", 2);
    assertEquals(List.of(), Invariants.check(
        new Snapshot(cluster.pods, cluster.nodes, cluster.events, cluster.seen, Optional.of(cluster.view))));
  }

  @Test
  void a_node_given_more_than_its_allocatable_cpu_memory_or_pods_is_over_allocatable() {
    for (var node : List.of(new NodeView("n1", 150, 1 << 30, 3), new NodeView("n1", 1000, 1 << 20, 3),
        new NodeView("n1", 1000, 1 << 30, 1))) {
      var cluster = new Cluster();
      cluster.nodes = List.of(node, NODES.get(1));
      var violations = cluster.check();
      assertEquals(List.of(Violation.Kind.OVER_ALLOCATABLE), kinds(violations), node.toString());
      assertEquals("n1", violations.get(0).subject());
    }
  }

  @Test
  void a_node_filled_exactly_to_its_allocatable_is_not_over_it() {
    var cluster = new Cluster();
    cluster.nodes = List.of(new NodeView("n1", 200, 2 << 20, 2), NODES.get(1));
    assertEquals(List.of(), cluster.check());
  }

  @Test
  void two_pods_of_one_anti_affinity_group_on_one_node_violate_it() {
    var cluster = new Cluster();
    cluster.pods.set(3, anti("d", "g", "n1"));
    cluster.seen.put("uid-d", List.of("n1"));
    cluster.view = Map.of("n1", Set.of("uid-a", "uid-c", "uid-d"), "n2", Set.of("uid-b"));
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.ANTI_AFFINITY), kinds(violations));
    assertEquals("anti-affinity group g has c, d there", violations.get(0).detail());
  }

  /**
   * Zones a (n1, n4), b (n2), c (n3); spread group s with members on n1, n2, n3 and {@code more} more on n4:
   * zone a holds 1 + more.
   */
  private static Snapshot spreadCluster(int more, List<PodView> deleted, Set<String> deletedNodes) {
    var nodes = List.of(new NodeView("n1", 4000, 1L << 32, 110, "a"), new NodeView("n2", 4000, 1L << 32, 110, "b"),
        new NodeView("n3", 4000, 1L << 32, 110, "c"), new NodeView("n4", 4000, 1L << 32, 110, "a"));
    var pods = new ArrayList<PodView>();
    var seen = new HashMap<String, List<String>>();
    var view = new HashMap<String, Set<String>>();
    nodes.forEach(n -> view.put(n.name(), new java.util.HashSet<>()));
    var events = new ArrayList<EventView>();
    var bindings = new HashMap<String, Integer>();
    var where = new ArrayList<>(List.of("n1", "n2", "n3"));
    for (int i = 0; i < more; i++) {
      where.add("n4");
    }
    for (int i = 0; i < where.size(); i++) {
      var pod = new PodView("uid-s" + i, "s" + i, Kind.SPREAD, where.get(i), false, 100, 1 << 20, null, false, "s");
      pods.add(pod);
      seen.put(pod.uid(), List.of(pod.nodeName()));
      view.get(pod.nodeName()).add(pod.uid());
      events.add(new EventView(pod.uid(), "Scheduled", 1));
      bindings.put(pod.name(), 1);
    }
    return new Snapshot(pods, nodes, events, seen, Optional.of(view), Optional.of(bindings), deleted, deletedNodes);
  }

  @Test
  void a_spread_group_within_max_skew_over_its_zones_holds() {
    assertEquals(List.of(), Invariants.check(spreadCluster(0, List.of(), Set.of())));
    assertEquals(List.of(), Invariants.check(spreadCluster(1, List.of(), Set.of())), "a: 2, b: 1, c: 1");
  }

  @Test
  void a_spread_group_skewed_beyond_max_skew_violates_it() {
    var violations = Invariants.check(spreadCluster(2, List.of(), Set.of()));
    assertEquals(List.of(Violation.Kind.SPREAD), kinds(violations));
    assertEquals("s", violations.get(0).subject());
    assertEquals("members per zone {a=3, b=1, c=1}: skew 2 over maxSkew 1", violations.get(0).detail());
  }

  @Test
  void a_zone_without_members_counts_as_zero_among_the_domains() {
    // Two members in zone a (n1, n4), one in b, none in c: skew 2.
    var snapshot = spreadCluster(1, List.of(), Set.of());
    var pods = new ArrayList<>(snapshot.pods());
    pods.removeIf(p -> p.nodeName().equals("n3"));
    var view = new HashMap<>(snapshot.schedulerView().orElseThrow());
    view.put("n3", Set.of());
    var violations = Invariants.check(new Snapshot(pods, snapshot.nodes(), snapshot.events().stream()
        .filter(e -> !e.podUid().equals("uid-s2")).toList(), snapshot.nodeNamesSeen(), Optional.of(view),
        snapshot.bindings(), List.of(), Set.of()));
    assertEquals(List.of(Violation.Kind.SPREAD), kinds(violations));
    assertEquals("members per zone {a=2, b=1, c=0}: skew 2 over maxSkew 1", violations.get(0).detail());
  }

  @Test
  void a_spread_group_the_runner_deleted_a_member_of_or_with_a_member_on_a_deleted_node_is_not_checked() {
    var gone = new PodView("uid-s9", "s9", Kind.SPREAD, "n3", false, 100, 1 << 20, null, false, "s");
    assertEquals(List.of(), Invariants.check(spreadCluster(2, List.of(gone), Set.of())));
    assertEquals(List.of(), Invariants.check(spreadCluster(2, List.of(), Set.of("n4"))));
    var other = new PodView("uid-x", "x", Kind.SPREAD, "n3", false, 100, 1 << 20, null, false, "other");
    assertEquals(List.of(Violation.Kind.SPREAD), kinds(Invariants.check(spreadCluster(2, List.of(other), Set.of()))),
        "a deleted pod of another group exempts only that group");
    assertEquals(List.of(Violation.Kind.SPREAD), kinds(Invariants.check(spreadCluster(2, List.of(), Set.of("n5")))),
        "a deleted node without members exempts no group");
  }

  @Test
  void an_unschedulable_pod_without_event_or_condition_has_no_reason() {
    var cluster = new Cluster();
    cluster.events.remove(4);
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.NO_REASON), kinds(violations));
    assertEquals("f", violations.get(0).subject());
  }

  @Test
  void a_scheduler_view_that_lacks_a_bound_pod_or_counts_a_gone_one_mismatches() {
    var cluster = new Cluster();
    cluster.view = Map.of("n1", Set.of("uid-a"), "n2", Set.of("uid-b", "uid-d", "uid-gone"));
    var violations = cluster.check();
    assertEquals(List.of(Violation.Kind.CACHE_MISMATCH, Violation.Kind.CACHE_MISMATCH), kinds(violations));
    assertEquals("the scheduler lacks [c] and counts []", violations.get(0).detail());
    assertEquals("the scheduler lacks [] and counts [uid uid-gone]", violations.get(1).detail());
  }

  @Test
  void without_a_scheduler_view_the_cache_is_not_compared() {
    var cluster = new Cluster();
    assertEquals(List.of(), Invariants.check(
        new Snapshot(cluster.pods, cluster.nodes, cluster.events, cluster.seen, Optional.empty())));
  }

  @Test
  void threads_or_heap_rising_trial_after_trial_is_growth() {
    long mib = 1 << 20;
    var leak = new java.util.ArrayList<Integer>();
    var heapLeak = new java.util.ArrayList<Long>();
    for (int i = 0; i < 20; i++) {
      leak.add(90 + i); // one thread per trial
      heapLeak.add((100 + 4L * i) * mib); // 4 MiB per trial
    }
    var violations = Invariants.growth(leak, heapLeak);
    assertEquals(List.of("threads", "heap"), violations.stream().map(Violation::subject).toList());
    assertEquals("thread count per trial " + leak, violations.get(0).detail());
  }

  @Test
  void pools_filling_up_over_the_first_trials_and_then_staying_are_not_growth() {
    long mib = 1 << 20;
    // As measured over 20 etcd-restart trials: up from 91 to 114, then 103 for good.
    var threads = List.of(91, 91, 98, 98, 97, 97, 94, 113, 114, 113, 114, 105, 103, 103, 103, 103, 103, 103, 103, 102);
    var heap = List.of(30 * mib, 30 * mib, 31 * mib, 33 * mib, 60 * mib, 40 * mib, 33 * mib, 33 * mib);
    assertEquals(List.of(), Invariants.growth(threads, heap));
    assertEquals(List.of(), Invariants.growth(List.of(40, 90, 95), List.of(mib, 900 * mib, 900 * mib)), "too few samples");
    // The 4-trial CI smoke after two API-server restarts: the HTTP client's threads coming and going, not a leak.
    assertEquals(List.of(), Invariants.growth(List.of(92, 124, 115, 134), List.of(30 * mib, 31 * mib, 31 * mib, 32 * mib)),
        "too few samples");
    var leak = List.of(92, 93, 94, 95, 106, 107, 108, 109);
    assertEquals(List.of("threads"), Invariants.growth(leak, List.of()).stream().map(Violation::subject).toList(),
        "eight samples are enough");
  }
}
