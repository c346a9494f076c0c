package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The workloads' nodes and pods: the earlier three as they were, the constrained two as scheduler_perf's. */
class WorkloadTest {

  private static final Workload ANTI_AFFINITY = Workload.named("5000-nodes-anti-affinity");
  private static final Workload SPREADING = Workload.named("5000-nodes-spreading");
  private static final Workload PREEMPTION = Workload.named("5000-nodes-preemption");

  // The objects the earlier three workloads created, written out as Workload built them before the shapes.

  private static Node earlierNode(int i, boolean nodeAffinity) {
    var resources =
        Map.of("cpu", new Quantity("4"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(Workload.nodeName(i))
        .withLabels(nodeAffinity ? Map.of("topology.kubernetes.io/zone", "zone1") : Map.of())
        .endMetadata()
        .withNewStatus()
        .withCapacity(resources)
        .withAllocatable(resources)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  private static Pod earlierPod(
      String name, String schedulerName, @Nullable String nodeName, @Nullable String role, boolean nodeAffinity) {
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("bench")
            .withLabels(role == null ? Map.of() : Map.of(Workload.ROLE_LABEL, role))
            .endMetadata()
            .withNewSpec()
            .withSchedulerName(schedulerName)
            .withNodeName(nodeName)
            .addNewContainer()
            .withName("pause")
            .withImage("pause:3.10.2")
            .addNewPort()
            .withContainerPort(80)
            .endPort()
            .withNewResources()
            .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("500Mi")))
            .withLimits(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("500Mi")))
            .endResources()
            .endContainer()
            .endSpec();
    if (nodeAffinity) {
      pod.editSpec()
          .withNewAffinity()
          .withNewNodeAffinity()
          .withNewRequiredDuringSchedulingIgnoredDuringExecution()
          .addNewNodeSelectorTerm()
          .addNewMatchExpression()
          .withKey("topology.kubernetes.io/zone")
          .withOperator("In")
          .withValues("zone1", "zone2")
          .endMatchExpression()
          .endNodeSelectorTerm()
          .endRequiredDuringSchedulingIgnoredDuringExecution()
          .endNodeAffinity()
          .endAffinity()
          .endSpec();
    }
    return pod.build();
  }

  @Test
  void the_earlier_three_workloads_and_the_smoke_workload_create_the_same_objects_as_before() {
    assertEquals(
        List.of("500-nodes", "5000-nodes", "5000-nodes-affinity"),
        Workload.ALL.subList(0, 3).stream().map(Workload::name).toList());
    var sizes = List.of(List.of(500, 500, 1_000, 1_000), List.of(5_000, 1_000, 1_000, 10_000),
        List.of(5_000, 5_000, 1_000, 10_000), List.of(20, 20, 50, 100));
    var workloads = new ArrayList<>(Workload.ALL.subList(0, 3));
    workloads.add(Workload.SMOKE);
    for (int w = 0; w < workloads.size(); w++) {
      var workload = workloads.get(w);
      boolean affinity = workload.name().equals("5000-nodes-affinity");
      assertEquals(
          sizes.get(w),
          List.of(workload.nodes(), workload.initialPods(), workload.streamPods(), workload.pods()),
          workload.name());
      assertEquals(List.of("bench"), workload.namespaces(), workload.name());
      assertEquals("bench", workload.namespace(), workload.name());
      for (int i : new int[] {0, 1, workload.nodes() - 1}) {
        assertEquals(earlierNode(i, affinity), workload.node(i), workload.name() + " node " + i);
      }
      for (int i : new int[] {0, 7, workload.initialPods() - 1, workload.initialPods() + 3}) {
        assertEquals(
            earlierPod("initial-" + i, "default-scheduler", Workload.nodeName(i % workload.nodes()), null, affinity),
            workload.initialPod(i),
            workload.name() + " initial pod " + i);
      }
      for (var role : List.of(Workload.WARMUP, Workload.STREAM, Workload.BACKLOG)) {
        assertEquals(
            earlierPod(role + "-00042", "kubesched", null, role, affinity),
            workload.measuredPod(role + "-00042", "kubesched", role),
            workload.name() + " " + role + " pod");
      }
    }
  }

  private static PodAffinityTerm antiAffinityTerm(Pod pod) {
    var terms = pod.getSpec().getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    assertEquals(1, terms.size(), pod.getMetadata().getName());
    return terms.get(0);
  }

  /** Whether {@code term}, of a pod in {@code namespace}, selects {@code other} (matchLabels only, as here). */
  private static boolean selects(PodAffinityTerm term, String namespace, Pod other) {
    var namespaces = term.getNamespaces().isEmpty() ? List.of(namespace) : term.getNamespaces();
    var labels = other.getMetadata().getLabels();
    return namespaces.contains(other.getMetadata().getNamespace())
        && labels.entrySet().containsAll(term.getLabelSelector().getMatchLabels().entrySet());
  }

  @Test
  void anti_affinity_pods_carry_the_templates_term_in_sched_0_and_sched_1_and_nodes_their_hostname() {
    var expected = new LabelSelector(List.of(), Map.of("color", "green"));
    var initial = ANTI_AFFINITY.initialPod(3);
    var measured = ANTI_AFFINITY.measuredPod("stream-00001", "kubesched", Workload.STREAM);
    assertAll(
        () -> assertEquals(List.of("sched-0", "sched-1"), ANTI_AFFINITY.namespaces()),
        () -> assertEquals("sched-0", initial.getMetadata().getNamespace()),
        () -> assertEquals("sched-1", measured.getMetadata().getNamespace()),
        () -> assertEquals(Map.of("color", "green"), initial.getMetadata().getLabels()),
        () -> assertEquals(
            Map.of("color", "green", Workload.ROLE_LABEL, Workload.STREAM), measured.getMetadata().getLabels()),
        () -> assertNull(measured.getSpec().getNodeName()),
        () -> assertEquals(Map.of("kubernetes.io/hostname", "node-04999"),
            ANTI_AFFINITY.node(4_999).getMetadata().getLabels()));
    for (var pod : List.of(initial, measured)) {
      var term = antiAffinityTerm(pod);
      assertAll(
          () -> assertEquals(expected, term.getLabelSelector()),
          () -> assertEquals("kubernetes.io/hostname", term.getTopologyKey()),
          () -> assertEquals(List.of("sched-1", "sched-0"), term.getNamespaces()),
          () -> assertNull(term.getNamespaceSelector()),
          () -> assertTrue(selects(term, pod.getMetadata().getNamespace(), initial)),
          () -> assertTrue(selects(term, pod.getMetadata().getNamespace(), measured)));
    }
  }

  @Test
  void initial_anti_affinity_pods_are_placed_without_breaking_the_anti_affinity() {
    var pods =
        IntStream.range(0, ANTI_AFFINITY.initialPods()).mapToObj(ANTI_AFFINITY::initialPod).toList();
    var byNode = new HashMap<String, List<Pod>>();
    pods.forEach(p -> byNode.computeIfAbsent(p.getSpec().getNodeName(), n -> new ArrayList<>()).add(p));
    assertEquals(ANTI_AFFINITY.initialPods(), byNode.size(), "nodes with an initial pod");
    for (var onNode : byNode.values()) {
      for (var pod : onNode) {
        for (var other : onNode) {
          // The topology is the hostname, so a node is a domain: no other pod there may be selected.
          assertTrue(
              pod == other || !selects(antiAffinityTerm(pod), pod.getMetadata().getNamespace(), other),
              () -> pod.getMetadata().getName() + " shares " + pod.getSpec().getNodeName());
        }
      }
    }
  }

  @Test
  void the_anti_affinity_phases_fit_one_pod_per_free_node_and_a_workload_that_does_not_is_refused() {
    assertEquals(4_000, ANTI_AFFINITY.measuredPodLimit());
    assertTrue(
        500 + ANTI_AFFINITY.streamPods() + ANTI_AFFINITY.pods() <= ANTI_AFFINITY.measuredPodLimit(),
        "the default warm-up, stream and backlog do not fit");
    assertEquals(2_000, ANTI_AFFINITY.pods(), "scheduler_perf's 5000Nodes_2000Pods");
    var tooMany =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Workload("w", 5_000, 1_000, 1_000, 3_001, PodShape.POD_ANTI_AFFINITY));
    assertTrue(tooMany.getMessage().contains("do not fit"), tooMany.getMessage());
    var twoOnANode =
        assertThrows(
            IllegalArgumentException.class, () -> new Workload("w", 10, 11, 0, 0, PodShape.POD_ANTI_AFFINITY));
    assertTrue(twoOnANode.getMessage().contains("more than 1 on a node"), twoOnANode.getMessage());
    new Workload("w", 10, 11, 0, 0, PodShape.PLAIN);
  }

  @Test
  void a_warm_up_that_does_not_fit_the_anti_affinity_workload_is_refused_before_anything_starts() throws Exception {
    var message = refusedWarmUp("5000-nodes,5000-nodes-anti-affinity", "1001");
    assertTrue(message.contains("5000-nodes-anti-affinity: a warm-up of 1001"), message);
    assertTrue(message.contains("choose --warmup 1000 or less"), message);
  }

  @Test
  void spreading_nodes_have_three_zones_round_robin_and_only_measured_pods_carry_the_constraint() {
    var zones = new HashMap<String, Integer>();
    for (int i = 0; i < SPREADING.nodes(); i++) {
      var labels = SPREADING.node(i).getMetadata().getLabels();
      assertEquals(List.of("moon-1", "moon-2", "moon-3").get(i % 3), labels.get("topology.kubernetes.io/zone"));
      assertEquals(Workload.nodeName(i), labels.get("kubernetes.io/hostname"));
      zones.merge(labels.get("topology.kubernetes.io/zone"), 1, Integer::sum);
    }
    assertEquals(Map.of("moon-1", 1_667, "moon-2", 1_667, "moon-3", 1_666), zones);

    var measured = SPREADING.measuredPod("backlog-00001", "kubesched", Workload.BACKLOG);
    var constraints = measured.getSpec().getTopologySpreadConstraints();
    assertEquals(1, constraints.size());
    var constraint = constraints.get(0);
    assertAll(
        () -> assertEquals(5, constraint.getMaxSkew()),
        () -> assertEquals("topology.kubernetes.io/zone", constraint.getTopologyKey()),
        () -> assertEquals("DoNotSchedule", constraint.getWhenUnsatisfiable()),
        () -> assertEquals(new LabelSelector(List.of(), Map.of("color", "blue")), constraint.getLabelSelector()),
        () -> assertEquals(
            Map.of("color", "blue", Workload.ROLE_LABEL, Workload.BACKLOG), measured.getMetadata().getLabels()),
        () -> assertEquals("bench", measured.getMetadata().getNamespace()),
        () -> assertEquals(List.of("bench-initial", "bench"), SPREADING.namespaces()));

    var initial = SPREADING.initialPod(4_999);
    assertAll(
        () -> assertEquals(Map.of(), initial.getMetadata().getLabels()),
        () -> assertTrue(initial.getSpec().getTopologySpreadConstraints().isEmpty()),
        () -> assertNull(initial.getSpec().getAffinity()),
        () -> assertEquals("node-04999", initial.getSpec().getNodeName()));
  }

  @Test
  void the_spread_is_valid_when_the_measured_pods_start() {
    var selector = SPREADING.measuredPod("x", "kubesched", Workload.WARMUP)
        .getSpec().getTopologySpreadConstraints().get(0).getLabelSelector().getMatchLabels();
    var matchingByZone = new HashMap<String, Integer>(Map.of("moon-1", 0, "moon-2", 0, "moon-3", 0));
    for (int i = 0; i < SPREADING.initialPods(); i++) {
      var pod = SPREADING.initialPod(i);
      if (pod.getMetadata().getNamespace().equals(SPREADING.namespace())
          && pod.getMetadata().getLabels().entrySet().containsAll(selector.entrySet())) {
        var node = Integer.parseInt(pod.getSpec().getNodeName().substring("node-".length()));
        matchingByZone.merge(
            SPREADING.node(node).getMetadata().getLabels().get("topology.kubernetes.io/zone"), 1, Integer::sum);
      }
    }
    int skew = matchingByZone.values().stream().mapToInt(Integer::intValue).max().orElseThrow()
        - matchingByZone.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
    assertTrue(skew <= PodShape.MAX_SKEW, () -> "skew at start: " + matchingByZone);
  }

  @Test
  void the_placement_check_counts_anti_affinity_pods_sharing_a_node_and_the_spread_skew() {
    var a = ANTI_AFFINITY.initialPod(0);
    var b = new PodBuilder(ANTI_AFFINITY.measuredPod("b", "kubesched", Workload.STREAM))
        .editSpec().withNodeName("node-00000").endSpec().build();
    var c = new PodBuilder(ANTI_AFFINITY.measuredPod("c", "kubesched", Workload.STREAM))
        .editSpec().withNodeName("node-01001").endSpec().build();
    var pending = ANTI_AFFINITY.measuredPod("d", "kubesched", Workload.STREAM);
    assertEquals(
        "2 anti-affinity pods share a node with another (0 honours the constraint)",
        PodShape.POD_ANTI_AFFINITY.placementCheck(Map.of(), List.of(a, b, c, pending)).orElseThrow());
    assertTrue(
        PodShape.POD_ANTI_AFFINITY.placementCheck(Map.of(), List.of(a, c, pending)).orElseThrow().startsWith("0 "));

    var zones = new HashMap<String, String>();
    var pods = new ArrayList<Pod>();
    for (int i = 0; i < 9; i++) {
      zones.put(Workload.nodeName(i), SPREADING.node(i).getMetadata().getLabels().get("topology.kubernetes.io/zone"));
      pods.add(SPREADING.initialPod(i));
    }
    for (int i = 0; i < 7; i++) {
      // Every third node is in moon-1: seven blue pods there, none elsewhere.
      pods.add(new PodBuilder(SPREADING.measuredPod("s" + i, "kubesched", Workload.BACKLOG))
          .editSpec().withNodeName(Workload.nodeName(3 * (i % 3))).endSpec().build());
    }
    assertEquals(
        "spread pods per zone {moon-1=7, moon-2=0, moon-3=0}, skew 7 (at most 5 honours the constraint)",
        PodShape.TOPOLOGY_SPREADING.placementCheck(zones, pods).orElseThrow());
    assertTrue(PodShape.PLAIN.placementCheck(zones, pods).isEmpty());
  }

  private static int milliCpu(Pod pod) {
    var requests = pod.getSpec().getContainers().get(0).getResources().getRequests();
    return requests.get("cpu").getNumericalAmount().movePointRight(3).intValueExact();
  }

  @Test
  void the_preemption_workload_has_scheduler_perfs_preemption_async_5000_nodes_sizes() {
    // default_preemption/performance-config.yaml, PreemptionAsync/5000Nodes: initNodes 5000, initPods 20000,
    // measurePods 5000 (here the backlog; the stream and warm-up come before it), threshold 570 pods/s.
    assertEquals(
        List.of(5_000, 20_000, 1_000, 5_000, 1_000),
        List.of(PREEMPTION.nodes(), PREEMPTION.initialPods(), PREEMPTION.streamPods(), PREEMPTION.pods(),
            PREEMPTION.preemptors()));
    assertEquals(PodShape.PREEMPTION, PREEMPTION.shape());
    assertEquals(Duration.ofMillis(200), PodShape.PREEMPTOR_INTERVAL, "churn intervalMilliseconds");
    assertEquals(List.of("bench-low", "bench", "bench-high"), PREEMPTION.namespaces());
    assertTrue(Workload.ALL.contains(PREEMPTION), "in the published table");
    assertEquals(PodShape.PREEMPTION, Workload.named("smoke-preemption").shape());
    for (var workload : Workload.ALL) {
      assertEquals(workload.shape() == PodShape.PREEMPTION, workload.preemptors() > 0, workload.name());
    }
  }

  @Test
  void low_priority_pods_fill_each_node_to_3600m_with_grace_period_0_and_no_priority() {
    var cpuByNode = new HashMap<String, Integer>();
    for (int i = 0; i < PREEMPTION.initialPods(); i++) {
      var pod = PREEMPTION.initialPod(i);
      cpuByNode.merge(pod.getSpec().getNodeName(), milliCpu(pod), Integer::sum);
    }
    assertEquals(PREEMPTION.nodes(), cpuByNode.size());
    assertEquals(List.of(3_600), cpuByNode.values().stream().distinct().toList(), "4 x 900m on every node");

    var low = PREEMPTION.initialPod(17);
    var resources = low.getSpec().getContainers().get(0).getResources();
    assertAll(
        () -> assertEquals("bench-low", low.getMetadata().getNamespace()),
        () -> assertEquals(0L, low.getSpec().getTerminationGracePeriodSeconds(), "victims must go at once"),
        () -> assertNull(low.getSpec().getPriorityClassName()),
        () -> assertNull(low.getSpec().getPriority()),
        () -> assertEquals(Map.of("cpu", new Quantity("900m"), "memory", new Quantity("500Mi")),
            resources.getRequests()),
        () -> assertEquals(resources.getRequests(), resources.getLimits()),
        () -> assertEquals(80, low.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort()));
  }

  @Test
  void measured_preemption_pods_are_the_default_pod_with_grace_period_0() {
    // pod-default.yaml, like the plain workloads' measured pods, but gone at once when preempted.
    for (var role : List.of(Workload.WARMUP, Workload.STREAM, Workload.BACKLOG)) {
      assertEquals(
          new PodBuilder(earlierPod(role + "-00042", "kubesched", null, role, false))
              .editSpec().withTerminationGracePeriodSeconds(0L).endSpec().build(),
          PREEMPTION.measuredPod(role + "-00042", "kubesched", role));
    }
  }

  @Test
  void a_preemptor_is_pod_high_priority_and_fits_a_node_only_once_every_pod_there_is_evicted() {
    var preemptor = PREEMPTION.preemptor(7, "kubesched");
    var spec = preemptor.getSpec();
    var resources = spec.getContainers().get(0).getResources();
    var priorityClass = Workload.preemptorPriorityClass();
    assertAll(
        () -> assertEquals("preemptor-00007", preemptor.getMetadata().getName()),
        () -> assertEquals("bench-high", preemptor.getMetadata().getNamespace()),
        () -> assertEquals(Map.of(Workload.ROLE_LABEL, "preemptor"), preemptor.getMetadata().getLabels()),
        () -> assertEquals("kubesched", spec.getSchedulerName()),
        () -> assertNull(spec.getNodeName()),
        () -> assertEquals(0L, spec.getTerminationGracePeriodSeconds()),
        () -> assertEquals(Map.of("cpu", new Quantity("3970m"), "memory", new Quantity("500Mi")),
            resources.getRequests()),
        () -> assertEquals(resources.getRequests(), resources.getLimits()),
        () -> assertTrue(spec.getContainers().get(0).getPorts().isEmpty()),
        () -> assertEquals(priorityClass.getMetadata().getName(), spec.getPriorityClassName()),
        () -> assertEquals(9_999_999, priorityClass.getValue()),
        () -> assertEquals(Boolean.FALSE, priorityClass.getGlobalDefault()),
        () -> assertNull(priorityClass.getPreemptionPolicy(), "the default: PreemptLowerPriority"));

    int node = 4_000;
    int lowOnNode = 4 * milliCpu(PREEMPTION.initialPod(0));
    int measured = milliCpu(PREEMPTION.measuredPod("m", "kubesched", Workload.STREAM));
    int preemptorCpu = milliCpu(preemptor);
    assertTrue(node - lowOnNode >= measured, "a measured pod fits beside the low-priority pods");
    assertTrue(node - lowOnNode < preemptorCpu, "a preemptor does not fit without preemption");
    assertTrue(node - milliCpu(PREEMPTION.initialPod(0)) < preemptorCpu, "three victims are not enough");
    assertTrue(node >= preemptorCpu, "the four victims are");
    assertTrue(node - preemptorCpu < measured, "a preemptor leaves no room for a measured pod");

    assertThrows(IllegalStateException.class, () -> SPREADING.preemptor(0, "kubesched"));
  }

  @Test
  void the_preemption_phases_fit_beside_the_low_priority_pods_and_the_preemptors_and_others_are_refused() {
    // 4 measured pods beside each node's 3600m, less a node's 4 for each of the 1 000 preemptors.
    assertEquals(16_000, PREEMPTION.measuredPodLimit());
    assertEquals(250 * 4 - 25 * 4, Workload.SMOKE_PREEMPTION.measuredPodLimit());
    assertTrue(500 + Workload.SMOKE_PREEMPTION.streamPods() + Workload.SMOKE_PREEMPTION.pods()
        <= Workload.SMOKE_PREEMPTION.measuredPodLimit(), "the default warm-up does not fit the smoke");
    var fiveOnANode =
        assertThrows(
            IllegalArgumentException.class, () -> new Workload("w", 10, 41, 0, 0, 1, PodShape.PREEMPTION));
    assertTrue(fiveOnANode.getMessage().contains("more than 4 on a node"), fiveOnANode.getMessage());
    var tooMany =
        assertThrows(
            IllegalArgumentException.class, () -> new Workload("w", 10, 40, 20, 17, 3, PodShape.PREEMPTION));
    assertTrue(tooMany.getMessage().contains("do not fit 10 nodes beside 3 preemptors"), tooMany.getMessage());
    new Workload("w", 10, 40, 20, 8, 3, PodShape.PREEMPTION);
    assertThrows(IllegalArgumentException.class, () -> new Workload("w", 10, 10, 0, 0, 11, PodShape.PREEMPTION));
    assertThrows(IllegalArgumentException.class, () -> new Workload("w", 10, 10, 0, 0, 1, PodShape.PLAIN));
  }

  @Test
  void a_warm_up_that_does_not_fit_beside_the_preemptors_is_refused_before_anything_starts() throws Exception {
    var message = refusedWarmUp("smoke-preemption", "751");
    assertTrue(message.contains("choose --warmup 750 or less"), message);
  }

  /**
   * Runs the benchmark with paths that do not exist, expecting it to refuse the warm-up before it starts
   * anything (exit status 2).
   *
   * @return what it wrote
   */
  private static String refusedWarmUp(String workloads, String warmup) throws Exception {
    var bytes = new ByteArrayOutputStream();
    var log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String[] args = {
      "--project", "/nonexistent", "--kube-scheduler", "/nonexistent", "--kube-version", "v0",
      "--out", "/nonexistent/out.md", "--workloads", workloads, "--warmup", warmup
    };
    assertEquals(2, E2eBenchmark.run(args, log));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void every_member_of_every_group_is_created_once_and_a_groups_last_member_after_the_rest_of_its_window() {
    for (int groups : new int[] {1, 5, 10, 17}) {
      for (int size : new int[] {1, 4, 8}) {
        for (int window : new int[] {1, 3, 8, groups}) {
          var seen = new HashMap<Workload.Member, Integer>();
          for (int i = 0; i < groups * size; i++) {
            var member = Workload.member(i, groups, size, window);
            assertTrue(member.group() >= 0 && member.group() < groups && member.member() >= 0 && member.member() < size,
                member.toString());
            assertNull(seen.put(member, i), () -> member + " twice");
            // Round-robin within the window: member m of every group of the window before member m + 1 of any.
            int first = member.group() / window * window;
            int inWindow = Math.min(window, groups - first);
            assertEquals(first * size + member.member() * inWindow + (member.group() - first), i, member.toString());
          }
          assertEquals(groups * size, seen.size());
        }
      }
    }
    assertEquals(new Workload.Member(1, 0), Workload.member(1, 1_000, 8, 1_000), "member 0 of every group first");
    assertEquals(new Workload.Member(0, 1), Workload.member(1_000, 1_000, 8, 1_000));
    assertThrows(IllegalArgumentException.class, () -> Workload.member(40, 10, 4, 10));
    assertThrows(IllegalArgumentException.class, () -> Workload.member(-1, 10, 4, 10));
  }

  @Test
  void the_gang_workloads_stream_groups_eight_at_a_time_and_backlog_all_at_once() {
    var gangs = Workload.named("5000-nodes-gangs");
    assertEquals(
        List.of(5_000, 1_000, 1_000, 8_000, 8, 125, 1_000),
        List.of(gangs.nodes(), gangs.initialPods(), gangs.streamPods(), gangs.pods(), gangs.groupSize(),
            gangs.groups(Workload.STREAM), gangs.groups(Workload.BACKLOG)));
    assertEquals(0, gangs.groups(Workload.WARMUP), "the warm-up's pods are single");
    assertEquals(new Workload.Member(8, 0), gangs.member(Workload.STREAM, 64), "the second window of the stream");
    assertEquals(new Workload.Member(999, 0), gangs.member(Workload.BACKLOG, 999));
    var smoke = Workload.named("smoke-gangs");
    assertEquals(
        List.of(20, 4, 5, 10), List.of(smoke.nodes(), smoke.groupSize(), smoke.groups(Workload.STREAM),
            smoke.groups(Workload.BACKLOG)));
    assertEquals(0, Workload.SMOKE.groups(Workload.BACKLOG));
    assertThrows(IllegalArgumentException.class, () -> new Workload("w", 20, 0, 20, 42, 0, PodShape.GANG, 4));
    assertThrows(IllegalArgumentException.class, () -> new Workload("w", 20, 0, 20, 40, 0, PodShape.GANG, 0));
    assertThrows(IllegalArgumentException.class, () -> new Workload("w", 20, 0, 20, 40, 0, PodShape.PLAIN, 4));
    assertThrows(IllegalStateException.class, () -> Workload.SMOKE.podGroup(Workload.STREAM, 0));
  }

  @Test
  void a_group_member_is_the_default_pod_naming_its_group_and_the_group_a_gang_of_its_size() {
    var gangs = Workload.named("smoke-gangs");
    var member = gangs.groupMember(Workload.BACKLOG, new Workload.Member(7, 3), "kubesched");
    var expected = new PodBuilder(earlierPod("backlog-00007-3", "kubesched", null, Workload.BACKLOG, false))
        .editSpec().withNewSchedulingGroup().withPodGroupName("backlog-00007").endSchedulingGroup().endSpec().build();
    assertEquals(expected, member);
    var group = gangs.podGroup(Workload.BACKLOG, 7);
    assertAll(
        () -> assertEquals("scheduling.k8s.io/v1beta1", group.getApiVersion()),
        () -> assertEquals("PodGroup", group.getKind()),
        () -> assertEquals("backlog-00007", group.getMetadata().getName()),
        () -> assertEquals("bench", group.getMetadata().getNamespace()),
        () -> assertEquals(4, group.getSpec().getSchedulingPolicy().getGang().getMinCount()),
        () -> assertNull(group.getSpec().getSchedulingPolicy().getBasic()),
        () -> assertEquals(List.of("bench"), gangs.namespaces()),
        () -> assertEquals(
            List.of("--feature-gates=GenericWorkload=true", "--runtime-config=scheduling.k8s.io/v1beta1=true"),
            PodShape.GANG.apiServerFlags()),
        () -> assertEquals(List.of("--feature-gates=GenericWorkload=true"), PodShape.GANG.kubeSchedulerFlags()),
        () -> assertEquals(List.of(), PodShape.PLAIN.apiServerFlags(), "the other workloads' figures stay as they were"));
  }

  @Test
  void the_scale_shapes_have_scheduler_perfs_sizes_and_are_not_in_the_published_table() {
    // misc/performance-config.yaml: SchedulingBasic/5000Nodes_50000Pods (initNodes 5000, initPods 5000,
    // measurePods 50000; threshold 790 pods/s) and SchedulingDaemonset/15000Nodes (one named node and
    // initNodes 15000, measurePods 30000; threshold 1100 pods/s).
    var basic = Workload.named("5000-nodes-50000-pods");
    var daemonset = Workload.named("15000-nodes-daemonset");

    assertEquals(List.of(5_000, 5_000, 50_000), List.of(basic.nodes(), basic.initialPods(), basic.pods()));
    assertEquals(PodShape.PLAIN, basic.shape());
    assertEquals(List.of(15_001, 0, 30_000), List.of(daemonset.nodes(), daemonset.initialPods(), daemonset.pods()));
    assertEquals(PodShape.DAEMONSET, daemonset.shape());
    assertEquals(List.of(basic, daemonset), Workload.SCALE);
    assertTrue(Workload.SCALE.stream().noneMatch(Workload.ALL::contains), "run only when named");
  }

  @Test
  void daemonset_pods_require_node_0_by_name_and_request_nothing_and_only_node_0_holds_them_all() {
    var daemonset = Workload.named("15000-nodes-daemonset");
    var pod = daemonset.measuredPod("backlog-00001", "kubesched", Workload.BACKLOG);

    var term =
        pod.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
            .getNodeSelectorTerms();
    assertEquals(1, term.size());
    var field = term.get(0).getMatchFields().get(0);
    assertEquals(List.of("metadata.name", "In", List.of("node-00000")), List.of(field.getKey(), field.getOperator(), field.getValues()));
    assertTrue(term.get(0).getMatchExpressions().isEmpty());
    var container = pod.getSpec().getContainers().get(0);
    assertTrue(container.getPorts().isEmpty(), "daemonset-pod.yaml has no port");
    assertTrue(container.getResources() == null || container.getResources().getRequests().isEmpty(), "nor requests");
    assertEquals("node-00000", daemonset.node(0).getMetadata().getName());
    assertEquals(new Quantity("90000"), daemonset.node(0).getStatus().getAllocatable().get("pods"));
    assertEquals(new Quantity("110"), daemonset.node(1).getStatus().getAllocatable().get("pods"));
    assertEquals(Map.of("kubernetes.io/hostname", "node-00007"), daemonset.node(7).getMetadata().getLabels());
    assertEquals(90_000, daemonset.measuredPodLimit(), "node 0's pods; no other node takes one");
    var tooMany =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Workload("too-many", 10, 0, 1_000, 89_001, PodShape.DAEMONSET));
    assertTrue(tooMany.getMessage().contains("do not fit 10 nodes"), tooMany.getMessage());
  }

  @Test
  void the_other_shapes_pods_still_request_100m_and_500Mi_with_a_port() {
    var pod = Workload.named("5000-nodes-50000-pods").measuredPod("backlog-00001", "kubesched", Workload.BACKLOG);

    assertEquals(100, milliCpu(pod));
    assertEquals(80, pod.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort());
  }
}
