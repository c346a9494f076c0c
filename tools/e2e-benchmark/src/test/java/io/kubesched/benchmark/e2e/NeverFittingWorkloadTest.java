package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * scheduler_perf's {@code Unschedulable} and {@code SchedulingWithMixedChurn} shapes and the label-patch flood as
 * the runner builds them, and what a run of them reports.
 */
class NeverFittingWorkloadTest {

  private static final Workload UNSCHEDULABLE = Workload.named("unschedulable");
  private static final Workload MIXED = Workload.named("mixed-churn");
  private static final Workload FLOOD = Workload.named("label-patch-flood");

  @Test
  void the_shapes_have_scheduler_perfs_threshold_sizes_and_are_run_only_when_named() {
    // Unschedulable/5kNodes/100Init/10kPods and SchedulingWithMixedChurn/5000Nodes_10000Pods; the flood: the
    // issue's 1 000 pods pending and 5 patches, beside 500-nodes' measured pods.
    assertAll(
        () -> assertEquals(List.of(5_000, 100, 10_000), List.of(UNSCHEDULABLE.nodes(), UNSCHEDULABLE.initialPods(), UNSCHEDULABLE.pods())),
        () -> assertEquals(List.of(5_000, 0, 10_000), List.of(MIXED.nodes(), MIXED.initialPods(), MIXED.pods())),
        () -> assertEquals(List.of(500, 500, 1_000, 1_000), List.of(FLOOD.nodes(), FLOOD.initialPods(), FLOOD.pods(), FLOOD.floodPods())),
        () -> assertEquals(5, PodShape.FLOOD_PATCHES),
        () -> assertEquals(List.of(UNSCHEDULABLE, MIXED, FLOOD), Workload.NEVER_FITTING),
        () -> assertTrue(Workload.NEVER_FITTING.stream().noneMatch(Workload.ALL::contains), "not in the published table"),
        () -> assertTrue(Workload.NEVER_FITTING.stream().allMatch(w -> w.shape().neverFits())),
        () -> assertTrue(Workload.ALL.stream().noneMatch(w -> w.shape().neverFits()), "the others count no attempts"),
        () -> assertEquals(Optional.of(Duration.ofMillis(200)), PodShape.UNSCHEDULABLE.churnInterval()),
        () -> assertEquals(Optional.of(Duration.ofMillis(1_000)), PodShape.MIXED_CHURN.churnInterval()),
        () -> assertEquals(Optional.empty(), PodShape.LABEL_PATCH_FLOOD.churnInterval()),
        () -> assertEquals(Optional.empty(), PodShape.PREEMPTION.churnInterval()),
        () -> assertEquals(List.of("bench", "bench-churn"), UNSCHEDULABLE.namespaces()));
    for (var smoke : Workload.SMOKE_NEVER_FITTING) {
      assertEquals(smoke, Workload.named(smoke.name()));
      assertTrue(smoke.shape().neverFits(), smoke.name());
    }
  }

  @Test
  void the_flood_shape_and_only_it_has_flood_pods() {
    assertThrows(IllegalArgumentException.class, () -> Workload.flood("w", 10, 0, 10, 10, 0));
    assertThrows(
        IllegalArgumentException.class, () -> new Workload("w", 10, 0, 10, 10, 0, PodShape.UNSCHEDULABLE, 0, 5));
    assertEquals(0, UNSCHEDULABLE.floodPods());
  }

  @Test
  void a_churn_pod_is_pod_high_priority_large_cpu_and_fits_no_node() {
    var pod = UNSCHEDULABLE.neverFittingPod(3, "kubesched");
    var container = pod.getSpec().getContainers().get(0);

    assertAll(
        () -> assertEquals("never-fits-00003", pod.getMetadata().getName()),
        () -> assertEquals("bench-churn", pod.getMetadata().getNamespace()),
        () -> assertEquals(Map.of(Workload.ROLE_LABEL, PodShape.NEVER_FITS), pod.getMetadata().getLabels()),
        () -> assertEquals("kubesched", pod.getSpec().getSchedulerName()),
        () -> assertEquals(PodShape.CHURN_PRIORITY_CLASS, pod.getSpec().getPriorityClassName()),
        () -> assertEquals(Map.of("cpu", new Quantity("9000m"), "memory", new Quantity("500Mi")),
            container.getResources().getRequests()),
        () -> assertTrue(container.getResources().getLimits().isEmpty(), "the template sets no limits"),
        () -> assertEquals(80, container.getPorts().get(0).getContainerPort()),
        () -> assertTrue(pod.getSpec().getNodeSelector().isEmpty()));
    assertTrue(milliCpu(pod) > milliCpu(UNSCHEDULABLE.node(0).getStatus().getAllocatable().get("cpu")),
        "more CPU than a node has");
    assertEquals(10, Workload.churnPriorityClass().getValue());
    assertThrows(IllegalStateException.class, () -> Workload.SMOKE.neverFittingPod(0, "kubesched"));
  }

  @Test
  void a_flood_pod_selects_every_node_has_no_priority_and_is_turned_away_by_its_cpu_alone() {
    var pod = FLOOD.neverFittingPod(0, "kubesched");

    assertNull(pod.getSpec().getPriorityClassName());
    for (int i : new int[] {0, 1, FLOOD.nodes() - 1}) {
      var node = FLOOD.node(i);
      assertTrue(node.getMetadata().getLabels().entrySet().containsAll(pod.getSpec().getNodeSelector().entrySet()),
          "node " + i + " matches the selector");
      assertTrue(milliCpu(pod) > milliCpu(node.getStatus().getAllocatable().get("cpu")));
      assertFalse(node.getMetadata().getLabels().containsKey(PodShape.PATCHED_LABEL), "no pod selects the patched label");
    }
    assertTrue(UNSCHEDULABLE.node(0).getMetadata().getLabels().isEmpty(), "the churn shapes' nodes stay unlabelled");
  }

  @Test
  void a_churn_node_is_ready_and_holds_no_pod_and_a_churn_service_is_service_default() {
    var node = Workload.churnNode(2);
    var service = Workload.churnService(2);

    assertAll(
        () -> assertEquals("node-churn-00002", node.getMetadata().getName()),
        () -> assertEquals(Map.of("pods", new Quantity("0")), node.getStatus().getCapacity()),
        () -> assertEquals("True", node.getStatus().getConditions().get(0).getStatus()),
        () -> assertEquals("Ready", node.getStatus().getConditions().get(0).getType()),
        () -> assertEquals("service-churn-00002", service.getMetadata().getName()),
        () -> assertEquals("bench-churn", service.getMetadata().getNamespace()),
        () -> assertEquals(Map.of("app", "foo"), service.getSpec().getSelector()),
        () -> assertEquals(8080, service.getSpec().getPorts().get(0).getPort()),
        () -> assertEquals(new IntOrString(8080), service.getSpec().getPorts().get(0).getTargetPort()),
        () -> assertEquals("TCP", service.getSpec().getPorts().get(0).getProtocol()));
  }

  @Test
  void the_report_and_the_data_show_each_schedulers_attempts_and_the_pods_that_fit_no_node() throws Exception {
    var smoke = Workload.named("smoke-label-patch-flood");
    var kube = run(smoke, Contestant.KUBE_SCHEDULER, new RunResult.Attempts(200, 12, 0),
        new RunResult.NeverFitting(50, 0, 5, 0));
    var ours = run(smoke, Contestant.KUBESCHED, new RunResult.Attempts(190, 3, 10),
        new RunResult.NeverFitting(50, 0, 5, 250));
    var ceiling = run(smoke, Contestant.CEILING, RunResult.Attempts.NONE, new RunResult.NeverFitting(50, 0, 5, Double.NaN));
    var report = Report.markdown("machine", "command", List.of(kube, ours, ceiling), List.of(smoke));

    assertTrue(report.contains("| | measured pods bound | attempts per measured pod | attempts on pods that fit no node |"
        + " pods that fit no node | bound | label patches | attempts by the patches |"), report);
    assertTrue(report.contains("| kube-scheduler | 200 | 1.00 | 12 | 50 | 0 | 5 | 0 |"), report);
    assertTrue(report.contains("| kubesched | 200 | 1.00 | 3 | 50 | 0 | 5 | 250 |"), report);
    assertTrue(report.contains("| bind ceiling | 200 | – | – | 50 | 0 | 5 | – |"), report);
    assertTrue(report.contains("| 190 / 10 / 3 | 50 / 0 | 250 |"), "every run: " + report);
    assertTrue(report.contains("; 50 such pods"), report);

    var settings =
        new BenchmarkRun.Settings(
            Path.of("."), Path.of("kube-scheduler"), Path.of("runner.jar"), 5000, 5000, null, Path.of("/tmp"),
            Duration.ofSeconds(60), 20, 50, List.of());
    var mapper = JsonMapper.builder().build();
    var json = mapper.readTree(mapper.writeValueAsString(
        RunData.record("abc", "scripts/e2e-benchmark.sh --workloads smoke-label-patch-flood", "v1.37.2", settings,
            Instant.EPOCH, Instant.EPOCH, List.of(ours, ceiling), List.of(smoke))));
    var shape = json.get("workloads").get("smoke-label-patch-flood");
    assertTrue(shape.get("neverFitting").asBoolean());
    assertEquals(50, shape.get("floodPods").asInt());
    assertEquals(5, shape.get("labelPatches").asInt());
    var attempts = json.get("runs").get(0).get("attempts");
    assertEquals(List.of(190, 3, 10),
        List.of(attempts.get("scheduled").asInt(), attempts.get("unschedulable").asInt(), attempts.get("error").asInt()));
    assertEquals(250, json.get("runs").get(0).get("neverFitting").get("patchAttempts").asInt());
    assertTrue(json.get("runs").get(1).get("attempts").get("scheduled").isNull(), "the ceiling counts none");
    assertTrue(json.get("runs").get(1).get("neverFitting").get("patchAttempts").isNull());
    assertEquals(200, mapper.readTree(mapper.writeValueAsString(
        RunData.record("abc", "c", "v1.37.2", settings, Instant.EPOCH, Instant.EPOCH, List.of(kube),
            List.of(Workload.named("smoke-unschedulable"))))).get("workloads").get("smoke-unschedulable")
        .get("churnIntervalMs").asInt());
  }

  @Test
  void a_workload_without_such_pods_reports_no_attempts() {
    var plain = new RunResult(
        Workload.SMOKE, Contestant.KUBESCHED, 1, 0, 150, 0, 100, 50, 50, 5, 8, 12, 2, 3, 150, 0, 0,
        RunResult.Preemption.NONE, RunResult.Gangs.NONE, RunResult.Start.NONE);
    var report = Report.markdown("machine", "command", List.of(plain), List.of(Workload.SMOKE));

    assertFalse(report.contains("attempts"), report);
    assertTrue(Double.isNaN(plain.attempts().total()));
  }

  private static RunResult run(
      Workload workload, Contestant contestant, RunResult.Attempts attempts, RunResult.NeverFitting neverFitting) {
    return new RunResult(
        workload, contestant, 1, contestant == Contestant.CEILING ? 16 : 0, 200, 0, 300, 50, 50, 5, 8, 12, 2, 3,
        150, 0, 0, RunResult.Preemption.NONE, RunResult.Gangs.NONE, RunResult.Start.NONE, RunResult.Claims.NONE,
        attempts, neverFitting, Double.NaN);
  }

  private static long milliCpu(Pod pod) {
    return milliCpu(pod.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
  }

  private static long milliCpu(Quantity quantity) {
    return quantity.getNumericalAmount().multiply(BigDecimal.valueOf(1000)).longValue();
  }
}
