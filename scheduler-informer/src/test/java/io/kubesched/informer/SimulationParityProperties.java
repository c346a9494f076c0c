package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.report.GroupReportPort;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.simulation.PodOutcome;
import io.kubesched.simulation.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The live loop (its scheduling cycle, queue, cache and event handlers, with an API server that accepts every
 * binding and whose watch shows it at once) and a {@link Simulation} of the same cluster and pods make the same
 * decisions: every pod ends on the same node, or pending in both. The clusters are small and crowded, and the pods
 * carry priorities, node selectors, required pod affinity and anti-affinity, so that pods fit nowhere at first and
 * are retried when a later placement may help them, through the queueing hints both share.
 */
class SimulationParityProperties {

  private static final String NAME = "my-scheduler";

  /** A pending pod's shape; {@code group} is the index of its pod group, -1 for none. */
  record PodDraw(
      long milliCpu, int priority, String app, @Nullable String zoneSelector, boolean antiAffinity,
      boolean affinityToDb, int group) {

    PodDraw(long milliCpu, int priority, String app, @Nullable String zoneSelector, boolean antiAffinity,
        boolean affinityToDb) {
      this(milliCpu, priority, app, zoneSelector, antiAffinity, affinityToDb, -1);
    }
  }

  /**
   * Nodes' CPU and zones, pods already bound (node index, app, group index or -1), the pending pods in arrival
   * order, and the pod groups' minimums (the last group's object unknown unless {@code lastGroupKnown}).
   */
  record Scenario(
      List<Long> nodeCpu, List<int[]> bound, List<PodDraw> pending, long seed, List<Integer> groupMins,
      boolean lastGroupKnown) {

    Scenario(List<Long> nodeCpu, List<int[]> bound, List<PodDraw> pending, long seed) {
      this(nodeCpu, bound, pending, seed, List.of(), true);
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    var pods = Combinators.combine(
            Arbitraries.of(250L, 500L, 1000L, 2000L, 3000L),
            Arbitraries.of(0, 0, 0, 5),
            Arbitraries.of("web", "db", "cache"),
            Arbitraries.of("a", "b").injectNull(0.7),
            Arbitraries.integers().between(0, 3).map(i -> i == 0),
            Arbitraries.integers().between(0, 5).map(i -> i == 0))
        .as(PodDraw::new);
    var bound = Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 2))
        .as((node, app) -> new int[] {node, app});
    return Combinators.combine(
            Arbitraries.of(1000L, 2000L, 4000L).list().ofMinSize(1).ofMaxSize(5),
            bound.list().ofMaxSize(4),
            pods.list().ofMinSize(1).ofMaxSize(12),
            Arbitraries.longs())
        .as(Scenario::new);
  }

  @Property(tries = 300)
  void the_live_loop_and_the_simulation_place_every_pod_alike(@ForAll("scenarios") Scenario scenario)
      throws Exception {
    var live = placedAlike(scenario, Map.of());

    long placed = live.values().stream().filter(n -> !n.isEmpty()).count();
    Statistics.label("pending").collect(placed == live.size() ? "none" : placed == 0 ? "all" : "some");
    // Counts well below what a run reaches (about 140, 60 and 36 of 300), so that chance never fails them.
    Statistics.label("pending").coverage(c -> {
      c.check("some").count(n -> n > 30);
      c.check("none").count(n -> n > 10);
    });
    Statistics.label("a pod placed after a change helped it").coverage(c -> c.check(true).count(n -> n > 5));
  }

  /**
   * Pending pods of which some belong to one of two pod groups (coscheduling's label, the group's priority), with
   * bound members counting toward a minimum, and sometimes a group object neither side knows.
   */
  @Provide
  Arbitrary<Scenario> scenariosWithGroups() {
    var pods = Combinators.combine(
            Arbitraries.of(250L, 500L, 1000L, 2000L),
            Arbitraries.of(0, 0, 5),
            Arbitraries.of("web", "db", "cache"),
            Arbitraries.of("a", "b").injectNull(0.8),
            Arbitraries.integers().between(0, 5).map(i -> i == 0),
            Arbitraries.integers().between(0, 7).map(i -> i == 0),
            Arbitraries.of(-1, 0, 0, 1))
        .as(PodDraw::new);
    var bound = Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 2),
            Arbitraries.of(-1, -1, -1, 0))
        .as((node, app, group) -> new int[] {node, app, group});
    return Combinators.combine(
            Arbitraries.of(1000L, 2000L, 4000L).list().ofMinSize(1).ofMaxSize(4),
            bound.list().ofMaxSize(3),
            pods.list().ofMinSize(1).ofMaxSize(10),
            Arbitraries.longs(),
            Arbitraries.integers().between(1, 4).list().ofSize(2),
            Arbitraries.of(true, true, false))
        .as(Scenario::new);
  }

  @Property(tries = 200)
  void the_live_loop_and_the_simulation_place_pod_groups_alike(@ForAll("scenariosWithGroups") Scenario scenario)
      throws Exception {
    var groups = new LinkedHashMap<PodGroupRef, PodGroup>();
    for (int i = 0; i < scenario.groupMins().size(); i++) {
      if (i < scenario.groupMins().size() - 1 || scenario.lastGroupKnown()) {
        var ref = groupRef(i);
        groups.put(ref, PodGroup.of(ref, scenario.groupMins().get(i)));
      }
    }

    var live = placedAlike(scenario, groups);

    var pending = pendingPods(scenario);
    for (int i = 0; i < scenario.groupMins().size(); i++) {
      int group = i;
      long boundMembers = scenario.bound().stream().filter(b -> b[2] == group).count();
      long placedMembers = pending.stream()
          .filter(p -> groupRef(group).name().equals(p.getMetadata().getLabels().get(SchedulingConstants.POD_GROUP_LABEL))
              && !live.get(p.getMetadata().getName()).isEmpty())
          .count();
      assertTrue(placedMembers == 0 || placedMembers + boundMembers >= scenario.groupMins().get(i),
          "group " + i + " is placed in part: " + placedMembers + " + " + boundMembers + " bound < "
              + scenario.groupMins().get(i));
      if (pending.stream().anyMatch(p -> groupRef(group).name()
          .equals(p.getMetadata().getLabels().get(SchedulingConstants.POD_GROUP_LABEL)))) {
        Statistics.label("a group with members pending").collect(placedMembers > 0 ? "placed" : "not placed");
      }
    }
    // Counts well below what a run reaches, so that chance never fails them.
    Statistics.label("a group with members pending").coverage(c -> {
      c.check("placed").count(n -> n > 20);
      c.check("not placed").count(n -> n > 20);
    });
  }

  /**
   * Runs the scenario through the live loop and through a simulation, and checks that every pod ends alike.
   *
   * @return where each pod ends, by name: its node, or "" when pending
   */
  private static Map<String, String> placedAlike(Scenario scenario, Map<PodGroupRef, PodGroup> groups)
      throws Exception {
    var nodes = nodes(scenario);
    var bound = boundPods(scenario, nodes);
    var pending = pendingPods(scenario);
    var live = live(scenario.seed(), nodes, bound, pending, groups);
    assertEquals(live, simulated(scenario.seed(), nodes, bound, pending, groups));
    return live;
  }

  private static PodGroupRef groupRef(int index) {
    return new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", "group-" + index);
  }

  /** @return where each pod ends, by name: its node, or "" when pending */
  private static Map<String, String> live(
      long seed, List<Node> nodes, List<Pod> bound, List<Pod> pending, Map<PodGroupRef, PodGroup> groups)
      throws InterruptedException {
    var clock = new AtomicLong(1_000_000_000L);
    var bindings = new ArrayList<String[]>();
    BindPort bindPort = (pod, node) -> {
      bindings.add(new String[] {pod.getMetadata().getName(), node});
      return new BindOutcome.Bound(node, false);
    };
    var policy = DefaultPolicy.builder().noPreemption().seed(seed).build();
    var loop = FakeLoop.of(TestSettings.forFakeCluster(NAME), policy, clock::get, bindPort);
    if (!groups.isEmpty()) {
      loop.groups(GroupFixtures.lookup(groups, () -> true), GroupReportPort.NONE);
    }
    var parts = loop.create();
    nodes.forEach(parts.handlers().nodes()::onAdd);
    bound.forEach(parts.handlers().pods()::onAdd);
    var byName = new HashMap<String, Pod>();
    for (var pod : pending) {
      byName.put(pod.getMetadata().getName(), pod);
      parts.handlers().pods().onAdd(pod);
    }
    for (int polls = 0; ; polls++) {
      if (polls > 10_000) {
        throw new AssertionError("the live loop did not settle after 10 000 attempts");
      }
      var item = parts.queue().poll();
      if (item == null) {
        if (parts.queue().depths().backoff() == 0) {
          break;
        }
        clock.addAndGet(Duration.ofSeconds(11).toNanos());
        continue;
      }
      parts.scheduling().scheduleOne(item);
      for (var binding : bindings) { // the watch shows the binding at once
        var pod = byName.get(binding[0]);
        parts.handlers().pods().onUpdate(pod, SchedulingLoopPartsTest.boundTo(pod, binding[1]));
      }
      bindings.clear();
    }
    var placed = new TreeMap<String, String>();
    pending.forEach(p -> placed.put(p.getMetadata().getName(), ""));
    parts.cache().nodes().forEach(node -> node.pods().forEach(p -> {
      if (placed.containsKey(p.name())) {
        placed.put(p.name(), node.name());
      }
    }));
    return placed;
  }

  private static Map<String, String> simulated(
      long seed, List<Node> nodes, List<Pod> bound, List<Pod> pending, Map<PodGroupRef, PodGroup> groups)
      throws Exception {
    var podsOn = new LinkedHashMap<String, List<PodInfo>>();
    nodes.forEach(n -> podsOn.put(n.getMetadata().getName(), new ArrayList<>()));
    for (var pod : bound) {
      podsOn.get(pod.getSpec().getNodeName()).add(PodAdapter.toPodInfo(pod));
    }
    var infos = new ArrayList<NodeInfo>();
    for (var node : nodes) {
      infos.add(NodeAdapter.toNodeInfo(node, podsOn.get(node.getMetadata().getName())));
    }
    var pods = new ArrayList<PodInfo>();
    for (var pod : pending) {
      pods.add(PodAdapter.toPodInfo(pod));
    }
    var result = Simulation.of(ClusterSnapshot.of(infos), DefaultPolicy.builder().seed(seed).build())
        .withoutPreemption()
        .podGroups(groups.values())
        .pods(pods)
        .run();
    Statistics.label("a pod placed after a change helped it")
        .collect(result.attempts() > pods.size() && !result.placed().isEmpty());
    var placed = new TreeMap<String, String>();
    result.pods().forEach(o -> placed.put(o.pod().name(), o instanceof PodOutcome.Placed p ? p.nodeName() : ""));
    return placed;
  }

  private static List<Node> nodes(Scenario scenario) {
    var nodes = new ArrayList<Node>();
    for (int i = 0; i < scenario.nodeCpu().size(); i++) {
      var name = "n" + i;
      nodes.add(new NodeBuilder()
          .withNewMetadata().withName(name)
          .addToLabels("kubernetes.io/hostname", name)
          .addToLabels("zone", i % 2 == 0 ? "a" : "b")
          .endMetadata()
          .withNewStatus()
          .addToAllocatable("cpu", new Quantity(scenario.nodeCpu().get(i) + "m"))
          .addToAllocatable("memory", new Quantity("8Gi"))
          .addToAllocatable("pods", new Quantity("110"))
          .endStatus()
          .build());
    }
    return nodes;
  }

  private static List<Pod> boundPods(Scenario scenario, List<Node> nodes) {
    var pods = new ArrayList<Pod>();
    var apps = List.of("web", "db", "cache");
    for (int i = 0; i < scenario.bound().size(); i++) {
      var draw = scenario.bound().get(i);
      var node = nodes.get(draw[0] % nodes.size()).getMetadata().getName();
      var pod = pod("bound-" + i, 500, 0, apps.get(draw[1]));
      if (draw.length > 2 && draw[2] >= 0) {
        pod = member(pod, draw[2]);
      }
      pods.add(SchedulingLoopPartsTest.boundTo(pod, node));
    }
    return pods;
  }

  private static List<Pod> pendingPods(Scenario scenario) {
    var pods = new ArrayList<Pod>();
    for (int i = 0; i < scenario.pending().size(); i++) {
      var draw = scenario.pending().get(i);
      var pod = draw.group() < 0
          ? pod("p" + i, draw.milliCpu(), draw.priority(), draw.app())
          : member(pod("p" + i, draw.milliCpu(), 0, draw.app()), draw.group()); // the group's priority
      var builder = new PodBuilder(pod);
      if (draw.zoneSelector() != null) {
        builder.editSpec().addToNodeSelector("zone", draw.zoneSelector()).endSpec();
      }
      if (draw.antiAffinity() || draw.affinityToDb()) {
        var affinity = builder.editSpec().withNewAffinity();
        if (draw.antiAffinity()) {
          affinity.withNewPodAntiAffinity()
              .addToRequiredDuringSchedulingIgnoredDuringExecution(term(draw.app(), "kubernetes.io/hostname"))
              .endPodAntiAffinity();
        }
        if (draw.affinityToDb()) {
          affinity.withNewPodAffinity()
              .addToRequiredDuringSchedulingIgnoredDuringExecution(term("db", "zone"))
              .endPodAffinity();
        }
        builder = affinity.endAffinity().endSpec();
      }
      pods.add(builder.build());
    }
    return pods;
  }

  private static Pod member(Pod pod, int group) {
    return new PodBuilder(pod).editMetadata()
        .addToLabels(SchedulingConstants.POD_GROUP_LABEL, groupRef(group).name()).endMetadata().build();
  }

  private static io.fabric8.kubernetes.api.model.PodAffinityTerm term(String app, String topologyKey) {
    return new PodAffinityTermBuilder()
        .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels("app", app).build())
        .withTopologyKey(topologyKey)
        .build();
  }

  private static Pod pod(String name, long milliCpu, int priority, String app) {
    return new PodBuilder(SchedulingLoopPartsTest.pod(name))
        .editMetadata().addToLabels("app", app).endMetadata()
        .editSpec()
        .withPriority(priority)
        .editFirstContainer()
        .withNewResources().addToRequests("cpu", new Quantity(milliCpu + "m")).endResources()
        .endContainer()
        .endSpec()
        .build();
  }
}
