package io.kubesched.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Owner;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.plugins.Scorers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulationTest {

  private static final Policy POLICY = DefaultPolicy.builder().seed(7).build();
  private static final Owner REPLICA_SET = new Owner("ReplicaSet", "web-abc", "rs-uid");

  static NodeInfo node(String name, long milliCpu) {
    return NodeInfo.builder(name)
        .labels(Map.of("kubernetes.io/hostname", name))
        .allocatable(milliCpu, 8L << 30, 110)
        .build();
  }

  static PodInfo pod(String name, long milliCpu) {
    return PodInfo.builder("default", name).requests(milliCpu, 1L << 20).owner(REPLICA_SET).build();
  }

  static PodInfo boundPod(String name, long milliCpu, String node, int priority) {
    return pod(name, milliCpu).toBuilder().nodeName(node).priority(priority).build();
  }

  @Test
  void places_the_pods_that_fit_and_says_why_the_others_wait_in_kube_schedulers_words() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 2000), node("n2", 2000)));

    var result = Simulation.of(cluster, POLICY).addPods(pod("web", 1000), 5).run();

    assertEquals(4, result.placed().size(), result.toString());
    var pending = result.pending();
    assertEquals(1, pending.size());
    assertEquals("default/web-5", pending.get(0).pod().key(), "the queue keeps the order given among equals");
    assertEquals(
        "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims"
            + " found for incoming pod.",
        pending.get(0).message());
    assertEquals(List.of(2, 2), result.nodes().stream().map(NodeUsage::placed).toList());
    assertEquals(2000, result.nodes().get(0).requested().milliCpu());
  }

  @Test
  void places_higher_priority_first() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 1000)));
    var low = pod("low", 1000);
    var high = pod("high", 1000).toBuilder().priority(100).build();

    var result = Simulation.of(cluster, POLICY).withoutPreemption().pods(List.of(low, high)).run();

    assertInstanceOf(PodOutcome.Placed.class, result.outcome("default/high").orElseThrow());
    assertInstanceOf(PodOutcome.Pending.class, result.outcome("default/low").orElseThrow());
  }

  @Test
  void retries_a_pod_once_a_later_placement_may_help_it_as_the_queueing_hints_say() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 4000), node("n2", 4000)));
    var selectsDb = new LabelSelector(Map.of("app", "db"), List.of());
    var follower = pod("follower", 100).toBuilder()
        .podAffinity(new PodAffinity(List.of(PodAffinityTerm.of(selectsDb, "kubernetes.io/hostname")), List.of()))
        .build();
    var db = pod("db", 100).toBuilder().labels(Map.of("app", "db")).build();

    var result = Simulation.of(cluster, POLICY).pods(List.of(follower, db)).run();

    var dbNode = ((PodOutcome.Placed) result.outcome("default/db").orElseThrow()).nodeName();
    var followerOutcome = assertInstanceOf(PodOutcome.Placed.class, result.outcome("default/follower").orElseThrow());
    assertEquals(dbNode, followerOutcome.nodeName());
    assertEquals(3, result.attempts(), "the follower first, the db, then the follower again");
  }

  @Test
  void preemption_evicts_lower_priority_pods_and_reports_them_without_deleting_anything() {
    var victim = boundPod("batch", 1000, "n1", 0);
    var cluster = ClusterSnapshot.of(List.of(node("n1", 1000).withPod(victim)));
    var urgent = pod("urgent", 1000).toBuilder().priority(1000).build();

    var result = Simulation.of(cluster, POLICY).pods(List.of(urgent)).run();

    var placed = assertInstanceOf(PodOutcome.Placed.class, result.outcome(urgent).orElseThrow());
    assertEquals("n1", placed.nodeName());
    assertEquals(List.of("default/batch"), placed.preempted().stream().map(PodInfo::key).toList());
    assertEquals(1, result.evicted().size());
    assertEquals("default/urgent", result.evicted().get(0).preemptor());
    assertEquals(List.of(victim), cluster.nodes().get(0).pods(), "the snapshot given is never changed");

    var without = Simulation.of(cluster, POLICY).withoutPreemption().pods(List.of(urgent)).run();
    assertEquals("0/1 nodes are available: 1 Insufficient cpu.",
        ((PodOutcome.Pending) without.outcome(urgent).orElseThrow()).message());
  }

  @Test
  void a_pod_the_simulation_placed_can_be_preempted_by_a_later_one_of_higher_priority() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 1000)));
    var first = pod("first", 1000);
    var later = pod("later", 1000).toBuilder().priority(10).build();
    var replay = new Replay(cluster, Simulation.copyOf(POLICY, null));

    replay.place(List.of(first));
    replay.place(List.of(later));

    assertEquals(new PodOutcome.Preempted(first, "n1", "default/later"), replay.outcome(first.uid()));
    assertInstanceOf(PodOutcome.Placed.class, replay.outcome(later.uid()));
    assertTrue(replay.result().evicted().isEmpty(), "a pod of the simulation is not a pod of the cluster");
  }

  @Test
  void cordoned_removed_and_added_nodes_change_where_pods_go() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 1000), node("n2", 1000)));

    var cordoned = Simulation.of(cluster, POLICY).cordonNodes(List.of("n1")).addPods(pod("web", 1000), 2).run();
    assertEquals(1, cordoned.placed().size());
    assertEquals("n2", cordoned.placed().get(0).nodeName());
    assertTrue(cordoned.pending().get(0).message().contains("1 node(s) were unschedulable"),
        cordoned.pending().get(0).message());

    var grown = Simulation.of(cluster, POLICY)
        .removeNodes(List.of("n2"))
        .addNodes(node("big", 3000), 2)
        .addPods(pod("web", 1000), 7)
        .run();
    assertEquals(List.of("n1", "big-1", "big-2"), grown.nodes().stream().map(NodeUsage::name).toList());
    assertEquals(7, grown.placed().size());
  }

  @Test
  void the_same_input_gives_the_same_placement_and_the_policy_given_is_not_disturbed() {
    var nodes = List.of(node("n1", 4000), node("n2", 4000), node("n3", 4000));
    var cluster = ClusterSnapshot.of(nodes);
    var before = POLICY.find(pod("probe", 100), cluster);

    var first = Simulation.of(cluster, POLICY).addPods(pod("web", 100), 30).run();
    var second = Simulation.of(cluster, POLICY).addPods(pod("web", 100), 30).run();

    assertEquals(first, second);
    assertEquals(before, DefaultPolicy.builder().seed(7).build().find(pod("probe", 100), cluster));
  }

  @Test
  void compares_two_policies_side_by_side() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 4000), node("n2", 4000)));
    var spreading = DefaultPolicy.builder().seed(1).build();
    var packing = DefaultPolicy.builder().seed(1)
        .removeScorer("NodeResourcesFit").removeScorer("NodeResourcesBalancedAllocation")
        .scorer(Scorers.mostAllocated(), 1)
        .build();

    var comparison = Simulation.of(cluster, spreading).addPods(pod("web", 1000), 4).compareWith(packing);

    assertEquals(List.of(2, 2), comparison.current().nodes().stream().map(NodeUsage::placed).toList());
    assertEquals(List.of(4, 0), comparison.candidate().nodes().stream().map(NodeUsage::placed).sorted((a, b) -> b - a).toList());
    assertEquals(2, comparison.differences().size(), comparison.differences().toString());
  }

  private static final PodGroupRef TRAIN = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", "train");

  static PodInfo member(String name, long milliCpu) {
    return pod(name, milliCpu).toBuilder().podGroup(TRAIN).build();
  }

  static List<PodInfo> members(int count, long milliCpu) {
    return java.util.stream.IntStream.range(0, count).mapToObj(i -> member("worker-" + i, milliCpu)).toList();
  }

  @Test
  void a_pod_group_is_placed_whole_when_its_minimum_fits() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 2000), node("n2", 2000)));

    var result = Simulation.of(cluster, POLICY).podGroups(List.of(PodGroup.of(TRAIN, 3)))
        .pods(members(3, 1000)).run();

    assertEquals(3, result.placed().size(), result.pods().toString());
  }

  @Test
  void a_pod_group_whose_minimum_does_not_fit_places_no_member_and_each_says_why() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 2000)));

    var result = Simulation.of(cluster, POLICY).podGroups(List.of(PodGroup.of(TRAIN, 3)))
        .pods(members(3, 1000)).run();

    assertEquals(List.of(), result.placed(), "all or nothing");
    assertEquals(0, result.nodes().get(0).requested().milliCpu(), "nothing stays assumed");
    var messages = result.pending().stream().map(PodOutcome.Pending::message).toList();
    assertEquals(List.of(
        "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
        "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
        "0/1 nodes are available: 1 Insufficient cpu."), messages);
  }

  @Test
  void a_pod_group_places_more_than_its_minimum_and_the_rest_wait_on_their_own() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 2000)));

    var result = Simulation.of(cluster, POLICY).podGroups(List.of(PodGroup.of(TRAIN, 2)))
        .pods(members(3, 1000)).run();

    assertEquals(List.of("default/worker-0", "default/worker-1"),
        result.placed().stream().map(p -> p.pod().key()).toList());
    assertEquals("0/1 nodes are available: 1 Insufficient cpu.", result.pending().get(0).message());
  }

  @Test
  void members_wait_for_their_minimum_and_for_a_group_not_given() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 8000)));
    var replay = new Replay(cluster, Simulation.copyOf(POLICY, null), Map.of(TRAIN, PodGroup.of(TRAIN, 3)),
        Set.of(PodGroupRef.Source.COSCHEDULING));

    replay.place(members(2, 1000));

    var waiting = assertInstanceOf(PodOutcome.Pending.class, replay.outcome("default/worker-0"));
    assertEquals("its pod group default/train has 2 of its minimum of 3 members (0 placed); it waits for the others",
        waiting.message());
    replay.place(List.of(member("worker-2", 1000)));
    assertEquals(3, replay.result().placed().size(), "the third member completes the group");

    var ungiven = Simulation.of(cluster, POLICY).pods(members(1, 1000)).run();
    assertEquals("waiting for pod group default/train, which the simulation was not given"
        + " (Simulation.Builder#podGroups)", ungiven.pending().get(0).message());
    var notWatched = Simulation.of(cluster, POLICY).podGroupSources(Set.of(PodGroupRef.Source.WORKLOAD_API))
        .pods(members(1, 1000)).run();
    assertEquals(1, notWatched.placed().size(), "a member of a source not watched is placed alone");
  }

  @Test
  void members_placed_before_count_toward_the_minimum() {
    var bound = member("worker-0", 1000).toBuilder().nodeName("n1").build();
    var n1 = NodeInfo.builder("n1").labels(Map.of("kubernetes.io/hostname", "n1")).allocatable(4000, 8L << 30, 110)
        .pods(List.of(bound)).build();
    var cluster = ClusterSnapshot.of(List.of(n1));

    var result = Simulation.of(cluster, POLICY).podGroups(List.of(PodGroup.of(TRAIN, 2)))
        .pods(List.of(member("worker-1", 1000))).run();

    assertEquals(1, result.placed().size(), result.pods().toString());
  }

  @Test
  void a_pod_group_whose_members_differ_in_priority_is_refused_in_kubes_words() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 8000)));
    var members = List.of(member("worker-0", 100), member("worker-1", 100).toBuilder().priority(5).build());

    var result = Simulation.of(cluster, POLICY).podGroups(List.of(PodGroup.of(TRAIN, 2))).pods(members).run();

    assertEquals(List.of(), result.placed());
    assertEquals("all pods in a single pod group should have the same priority as the pod group's priority, got 5"
        + " and 0", result.pending().get(1).message());
    assertThrows(IllegalArgumentException.class, () -> Simulation.of(cluster, POLICY)
        .podGroups(List.of(PodGroup.of(TRAIN, 2), PodGroup.of(TRAIN, 3))));
  }

  @Test
  void refuses_input_it_cannot_simulate_naming_the_pod_node_and_value() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 4000)));
    var builder = Simulation.of(cluster, POLICY);

    assertEquals("pending pod default/web has spec.nodeName 'n1': only pods not yet bound can be placed",
        assertThrows(IllegalArgumentException.class, () -> builder.pods(List.of(boundPod("web", 1, "n1", 0))))
            .getMessage());
    assertEquals("count of copies of pod default/web must be at least 1, was 0",
        assertThrows(IllegalArgumentException.class, () -> builder.addPods(pod("web", 1), 0)).getMessage());
    assertEquals("no node named 'n9' in the cluster (1 nodes)",
        assertThrows(IllegalArgumentException.class, () -> builder.cordonNodes(List.of("n9"))).getMessage());
    assertEquals("cannot add node n1-1: the cluster has a node of that name",
        assertThrows(IllegalArgumentException.class,
            () -> Simulation.of(ClusterSnapshot.of(List.of(node("n1-1", 1))), POLICY).addNodes(node("n1", 1), 1))
            .getMessage());
    builder.pods(List.of(pod("web", 1)));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> builder.pods(List.of(pod("web", 1))))
        .getMessage().contains("has uid 'default/web', which a pod added before has"));
  }

  @Test
  void capacity_counts_the_copies_that_fit_and_says_what_stops_the_next() {
    var cluster = ClusterSnapshot.of(List.of(
        node("n1", 2500), node("n2", 1000).withPod(boundPod("other", 500, "n2", 0)), node("n3", 400)));

    var capacity = Simulation.capacity(cluster, POLICY, pod("web", 500), 100);

    assertEquals(5 + 1, capacity.count(), "2500/500 on n1, (1000-500)/500 on n2, none on n3");
    assertEquals(Map.of("n1", 5, "n2", 1), capacity.perNode());
    assertEquals("0/3 nodes are available: 3 Insufficient cpu.", capacity.stopReason());
    assertTrue(!capacity.limitReached());

    var limited = Simulation.capacity(cluster, POLICY, pod("web", 500), 3);
    assertEquals(3, limited.count());
    assertTrue(limited.limitReached());
  }

  @Test
  void capacity_never_preempts() {
    var cluster = ClusterSnapshot.of(List.of(node("n1", 1000).withPod(boundPod("batch", 1000, "n1", 0))));

    var capacity = Simulation.capacity(cluster, POLICY, pod("urgent", 500).toBuilder().priority(1000).build(), 10);

    assertEquals(0, capacity.count());
    assertTrue(capacity.result().evicted().isEmpty());
  }

  @Test
  void drain_moves_the_pods_it_may_evict_and_names_what_blocks_the_others() {
    var protectedPod = boundPod("db-0", 500, "n1", 0).toBuilder().labels(Map.of("app", "db")).build();
    var bare = boundPod("debug", 100, "n1", 0).toBuilder().owner(null).build();
    var daemon = boundPod("logs", 100, "n1", 0).toBuilder().owner(new Owner("DaemonSet", "logs", "ds")).build();
    var web = boundPod("web-1", 500, "n1", 0);
    var n1 = node("n1", 4000).withPod(protectedPod).withPod(bare).withPod(daemon).withPod(web);
    var budget = new PodDisruptionBudget("default", "db", new LabelSelector(Map.of("app", "db"), List.of()), 0, Set.of());
    var cluster = ClusterSnapshot.of(List.of(n1, node("n2", 1000))).withDisruptionBudgets(List.of(budget));

    var drain = Simulation.drain(cluster, POLICY, List.of("n1"));

    assertTrue(!drain.drainable());
    assertEquals(List.of("default/db-0", "default/debug", "default/web-1"),
        drain.moves().stream().map(m -> m.pod().key()).toList(), "the DaemonSet pod stays with its node");
    assertEquals(
        "evicting pod default/db-0 would violate PodDisruptionBudget default/db (0 disruptions allowed, 0 taken by"
            + " this drain)",
        drain.moves().get(0).reason());
    assertEquals("pod default/debug has no controller: evicting it would delete it for good",
        drain.moves().get(1).reason());
    assertEquals("n2", drain.moves().get(2).to());
  }

  @Test
  void drain_says_where_no_node_is_left_for_a_pod() {
    var cluster = ClusterSnapshot.of(List.of(
        node("n1", 2000).withPod(boundPod("a", 1000, "n1", 0)).withPod(boundPod("b", 1000, "n1", 0)),
        node("n2", 1500)));

    var drain = Simulation.drain(cluster, POLICY, List.of("n1"));

    assertTrue(!drain.drainable());
    assertEquals(1, drain.blocked().size());
    assertEquals("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.",
        drain.blocked().get(0).reason());
    assertTrue(Simulation.drain(cluster, POLICY, List.of("n2")).drainable(), "an empty node drains");
  }
}
