package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** scheduler_perf's DRA shapes (dra/performance-config.yaml) as the runner builds them, and what a run reports. */
class DraWorkloadTest {

  private static final Workload TEMPLATE = Workload.named("500-nodes-dra-template");
  private static final Workload STEADY = Workload.named("500-nodes-dra-steady-state");

  @Test
  void the_dra_shapes_have_scheduler_perfs_sizes_and_are_run_only_when_named() {
    // SchedulingWithResourceClaimTemplate/5000pods_500nodes: nodesWithDRA 500, 10 devices, initClaims 2500;
    // SteadyStateClusterResourceClaimTemplate/empty_500nodes: the same nodes, initClaims 0.
    assertAll(
        () -> assertEquals(List.of(500, 0, 2_500), List.of(TEMPLATE.nodes(), TEMPLATE.initialPods(), TEMPLATE.initialClaims())),
        () -> assertEquals(List.of(500, 0, 0), List.of(STEADY.nodes(), STEADY.initialPods(), STEADY.initialClaims())),
        () -> assertEquals(List.of(TEMPLATE, STEADY), Workload.DRA),
        () -> assertTrue(Workload.DRA.stream().noneMatch(Workload.ALL::contains), "not in the published table"),
        () -> assertTrue(STEADY.shape().deletesBound()),
        () -> assertFalse(TEMPLATE.shape().deletesBound()),
        () -> assertEquals(List.of("bench-init", "bench"), TEMPLATE.namespaces()),
        () -> assertEquals(List.of("bench"), STEADY.namespaces()));
  }

  @Test
  void the_measured_pods_share_the_devices_left_with_the_default_warm_up_and_the_pods_one_by_one() {
    // 5 000 devices less 2 500 allocated beforehand less 20 created one by one.
    assertEquals(2_480, TEMPLATE.measuredPodLimit());
    assertTrue(500 + TEMPLATE.streamPods() + TEMPLATE.pods() <= TEMPLATE.measuredPodLimit(), "a warm-up of 500 fits");
    assertTrue(500 + STEADY.streamPods() + STEADY.pods() <= STEADY.measuredPodLimit(), "a warm-up of 500 fits");
    var tooMany =
        assertThrows(IllegalArgumentException.class, () -> new Workload("x", 10, 0, 40, 41, PodShape.DRA_CLAIM_TEMPLATE));
    assertTrue(tooMany.getMessage().contains("do not fit 10 nodes"), tooMany.getMessage());
    var initial =
        assertThrows(IllegalArgumentException.class, () -> new Workload("x", 10, 5, 10, 10, PodShape.DRA_STEADY_STATE));
    assertTrue(initial.getMessage().contains("no initial pods"), initial.getMessage());
  }

  @Test
  void a_measured_pod_claims_one_device_through_the_template_and_requests_nothing_else() {
    var pod = STEADY.measuredPod("backlog-00001", "kubesched", Workload.BACKLOG);

    var entry = pod.getSpec().getResourceClaims().get(0);
    var container = pod.getSpec().getContainers().get(0);
    assertAll(
        () -> assertEquals(1, pod.getSpec().getResourceClaims().size()),
        () -> assertEquals(List.of("resource", "test-claim-template"), List.of(entry.getName(), entry.getResourceClaimTemplateName())),
        () -> assertNull(entry.getResourceClaimName()),
        () -> assertEquals("resource", container.getResources().getClaims().get(0).getName()),
        () -> assertTrue(container.getResources().getRequests().isEmpty(), "pod-with-claim-template.yaml requests nothing"),
        () -> assertTrue(container.getPorts().isEmpty(), "nor has a port"),
        () -> assertEquals("bench", pod.getMetadata().getNamespace()));
    var template = TEMPLATE.claimTemplate();
    var request = template.getSpec().getSpec().getDevices().getRequests().get(0);
    assertEquals(List.of("req-0", "test-class", 1L),
        List.of(request.getName(), request.getExactly().getDeviceClassName(),
            request.getExactly().getCount() == null ? 1L : request.getExactly().getCount()));
    assertEquals("device.driver == \"test-driver.cdi.k8s.io\"",
        Workload.deviceClass().getSpec().getSelectors().get(0).getCel().getExpression());
  }

  @Test
  void each_node_publishes_one_slice_of_ten_devices_in_a_pool_named_after_it() {
    var slice = Workload.resourceSlice(7);

    assertAll(
        () -> assertEquals("node-00007", slice.getSpec().getNodeName()),
        () -> assertEquals("node-00007", slice.getSpec().getPool().getName()),
        () -> assertEquals(1L, slice.getSpec().getPool().getResourceSliceCount()),
        () -> assertEquals("test-driver.cdi.k8s.io", slice.getSpec().getDriver()),
        () -> assertEquals(
            IntStream.range(0, 10).mapToObj(d -> "basic-device-" + d).toList(),
            slice.getSpec().getDevices().stream().map(d -> d.getName()).toList()),
        () -> assertEquals("1.2.3", slice.getSpec().getDevices().get(0).getAttributes().get("driverVersion").getVersion()),
        () -> assertEquals("pci0000:01",
            slice.getSpec().getDevices().get(3).getAttributes().get("resource.kubernetes.io/pciRoot").getString()));
  }

  @Test
  void the_claims_allocated_beforehand_take_half_of_every_nodes_devices_once_each() {
    var devices = new HashSet<String>();
    for (int i = 0; i < TEMPLATE.initialClaims(); i++) {
      var claim = Workload.initialClaim(i);
      claim.setStatus(new ResourceClaimStatusBuilder().withAllocation(TEMPLATE.initialAllocation(i)).build());
      var allocation = ClaimCheck.allocationOf(claim);
      assertEquals(allocation.pools(), List.of(allocation.selectedNode()), "on the node its selector names");
      assertTrue(devices.addAll(allocation.devices()), "device " + allocation.devices() + " once");
    }
    assertEquals(2_500, devices.size());
    for (int node = 0; node < 500; node++) {
      var pool = Workload.nodeName(node);
      assertEquals(5, devices.stream().filter(d -> d.contains("/" + pool + "/")).count(), pool);
    }
  }

  @Test
  void the_report_and_the_data_show_the_claims_check_of_each_contestant() throws Exception {
    var ours = run(Contestant.KUBESCHED, new RunResult.Claims(120, 120, 0, 0, 0));
    var ceiling = run(Contestant.CEILING, new RunResult.Claims(120, 80, 120, 0, 0));
    var report = Report.markdown("machine", "command", List.of(ours, ceiling), List.of(Workload.SMOKE_DRA.get(0)));

    assertTrue(report.contains("| | pods bound | claims | unallocated | on another node | device held twice |"), report);
    assertTrue(report.contains("| kubesched | 120 | 120 | 0 | 0 | 0 |"), report);
    assertTrue(report.contains("| bind ceiling | 120 | 80 | 120 | 0 | 0 |"), report);

    var settings =
        new BenchmarkRun.Settings(
            Path.of("."), Path.of("kube-scheduler"), Path.of("runner.jar"), 5000, 5000, null, Path.of("/tmp"),
            Duration.ofSeconds(60), 20, 50, List.of());
    var json = JsonMapper.builder().build().readTree(JsonMapper.builder().build().writeValueAsString(
        RunData.record("abc", "scripts/e2e-benchmark.sh --workloads smoke-dra-template", "v1.37.2", settings,
            Instant.EPOCH, Instant.EPOCH, List.of(ours), List.of(Workload.SMOKE_DRA.get(0)))));
    assertEquals(150, json.get("workloads").get("smoke-dra-template").get("initialClaims").asInt());
    assertEquals(10, json.get("workloads").get("smoke-dra-template").get("devicesPerNode").asInt());
    assertEquals(120, json.get("runs").get(0).get("claims").get("claims").asInt());
    assertEquals(0, json.get("runs").get(0).get("claims").get("sharedDevices").asInt());
  }

  private static RunResult run(Contestant contestant, RunResult.Claims claims) {
    return new RunResult(
        Workload.SMOKE_DRA.get(0), contestant, 1, contestant == Contestant.CEILING ? 32 : 0, 100, 0, 50, 40, 40, 5, 8,
        12, 2, 3, 150, 0, 0, RunResult.Preemption.NONE, RunResult.Gangs.NONE, RunResult.Start.NONE, claims);
  }
}
