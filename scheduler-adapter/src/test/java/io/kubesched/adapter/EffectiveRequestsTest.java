package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.resources;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.Resources;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link PodAdapter#effectiveRequests}: Kubernetes' {@code PodRequests} (k8s.io/component-helpers). */
class EffectiveRequestsTest {

  private static final long KI = 1024;
  private static final long MI = 1024 * KI;
  private static final long GI = 1024 * MI;

  /** CPU and memory, and one pod: what most of these pods request. */
  private static Resources cpuAndMemory(long milliCpu, long memory) {
    return new Resources(milliCpu, memory, 0, 1, Map.of());
  }

  private static Resources requests(Pod pod) {
    return PodAdapter.effectiveRequests(pod);
  }

  @Test
  void the_containers_requests_are_summed() {
    var pod = pod().container("app", "cpu", "500m", "memory", "1Gi").container("log", "cpu", "250m", "memory", "256Mi");

    assertEquals(cpuAndMemory(750, GI + 256 * MI), requests(pod.build()));
  }

  @Test
  void a_pod_without_containers_requests_one_pod_and_nothing_else() {
    assertEquals(new Resources(0, 0, 0, 1, Map.of()), requests(pod().build()));
  }

  @Test
  void a_pod_without_spec_requests_one_pod() {
    var pod = pod().build();
    pod.setSpec(null);

    assertEquals(new Resources(0, 0, 0, 1, Map.of()), requests(pod));
  }

  @Test
  void containers_without_resources_request_one_pod_only() {
    var pod = pod().container("app").container("log");

    assertEquals(new Resources(0, 0, 0, 1, Map.of()), requests(pod.build()));
  }

  @Test
  void an_init_container_larger_than_all_containers_sets_the_request() {
    var pod =
        pod()
            .initContainer("migrate", "cpu", "2", "memory", "100Mi")
            .container("app", "cpu", "500m", "memory", "1Gi")
            .container("log", "cpu", "500m", "memory", "1Gi");

    // cpu from the init container, memory from the containers: the maximum is per resource.
    assertEquals(cpuAndMemory(2000, 2 * GI), requests(pod.build()));
  }

  @Test
  void an_init_container_smaller_than_the_containers_changes_nothing() {
    var pod = pod().initContainer("init", "cpu", "100m", "memory", "10Mi").container("app", "cpu", "1", "memory", "1Gi");

    assertEquals(cpuAndMemory(1000, GI), requests(pod.build()));
  }

  @Test
  void init_containers_run_one_at_a_time_so_only_the_largest_counts() {
    var pod =
        pod()
            .initContainer("first", "cpu", "1", "memory", "3Gi")
            .initContainer("second", "cpu", "1500m", "memory", "1Gi")
            .container("app", "cpu", "100m", "memory", "100Mi");

    assertEquals(cpuAndMemory(1500, 3 * GI), requests(pod.build()));
  }

  @Test
  void a_sidecar_adds_to_the_containers_and_to_later_init_containers() {
    var pod =
        pod()
            .sidecar("proxy", "cpu", "500m", "memory", "64Mi")
            .initContainer("migrate", "cpu", "1", "memory", "10Mi")
            .container("app", "cpu", "200m", "memory", "128Mi");

    // containers: 200m + 500m = 700m; migrate runs beside the proxy: 1 + 500m = 1500m.
    // memory: containers 128Mi + 64Mi = 192Mi; migrate 10Mi + 64Mi = 74Mi.
    assertEquals(cpuAndMemory(1500, 192 * MI), requests(pod.build()));
  }

  @Test
  void a_sidecar_does_not_add_to_earlier_init_containers() {
    var pod =
        pod()
            .initContainer("setup", "cpu", "1")
            .sidecar("proxy", "cpu", "500m")
            .container("app", "cpu", "200m");

    // setup runs alone (1000m); afterwards app and proxy run together (700m).
    assertEquals(cpuAndMemory(1000, 0), requests(pod.build()));
  }

  @Test
  void a_sidecar_counts_with_the_containers_even_without_other_init_containers() {
    var pod = pod().sidecar("proxy", "cpu", "300m", "memory", "50Mi").container("app", "cpu", "200m", "memory", "50Mi");

    assertEquals(cpuAndMemory(500, 100 * MI), requests(pod.build()));
  }

  @Test
  void sidecars_accumulate_for_the_init_containers_after_them() {
    var pod =
        pod()
            .sidecar("a", "cpu", "100m")
            .initContainer("between", "cpu", "1")
            .sidecar("b", "cpu", "200m")
            .initContainer("last", "cpu", "1");

    // between: 1000 + 100; last: 1000 + 100 + 200; long-running: 100 + 200.
    assertEquals(cpuAndMemory(1300, 0), requests(pod.build()));
  }

  @Test
  void a_sidecar_larger_than_everything_counts_once_with_the_containers() {
    var pod = pod().sidecar("big", "cpu", "4").container("app", "cpu", "1");

    assertEquals(cpuAndMemory(5000, 0), requests(pod.build()));
  }

  @Test
  void an_init_container_with_restart_policy_other_than_always_is_not_a_sidecar() {
    var pod = pod().container("app", "cpu", "1");
    var built = pod.initContainer("init", "cpu", "500m").build();
    built.getSpec().getInitContainers().get(0).setRestartPolicy("OnFailure");

    assertEquals(cpuAndMemory(1000, 0), requests(built));
  }

  @Test
  void a_request_left_unset_counts_as_its_limit() {
    var pod =
        pod().container("app", resources("memory", "1Gi"), resources("cpu", "1", "memory", "2Gi"));

    assertEquals(cpuAndMemory(1000, GI), requests(pod.build()));
  }

  @Test
  void a_container_with_limits_only_requests_its_limits() {
    var pod = pod().container("app", Map.of(), resources("cpu", "750m", "memory", "300Mi"));

    assertEquals(cpuAndMemory(750, 300 * MI), requests(pod.build()));
  }

  @Test
  void an_init_container_with_limits_only_requests_its_limits() {
    var pod = pod().initContainer("init", Map.of(), resources("cpu", "3")).container("app", "cpu", "1");

    assertEquals(cpuAndMemory(3000, 0), requests(pod.build()));
  }

  @Test
  void overhead_is_added() {
    var pod = pod().container("app", "cpu", "500m", "memory", "1Gi").overhead("cpu", "250m", "memory", "120Mi");

    assertEquals(cpuAndMemory(750, GI + 120 * MI), requests(pod.build()));
  }

  @Test
  void overhead_is_added_after_the_init_container_maximum() {
    var pod = pod().initContainer("init", "cpu", "2").container("app", "cpu", "500m").overhead("cpu", "100m");

    assertEquals(cpuAndMemory(2100, 0), requests(pod.build()));
  }

  @Test
  void overhead_alone_is_requested_by_a_pod_without_containers() {
    var pod = pod().overhead("cpu", "10m", "memory", "1Mi");

    assertEquals(cpuAndMemory(10, MI), requests(pod.build()));
  }

  @Test
  void ephemeral_storage_and_extended_resources_follow_the_same_rules() {
    var pod =
        pod()
            .initContainer("init", "ephemeral-storage", "5Gi", "nvidia.com/gpu", "4")
            .container("a", "ephemeral-storage", "1Gi", "nvidia.com/gpu", "1", "hugepages-2Mi", "4Mi")
            .container("b", "ephemeral-storage", "1Gi", "nvidia.com/gpu", "1", "hugepages-2Mi", "2Mi");

    assertEquals(
        new Resources(0, 0, 5 * GI, 1, Map.of("nvidia.com/gpu", 4L, "hugepages-2Mi", 6 * MI)),
        requests(pod.build()));
  }

  @Test
  void unknown_resource_names_are_ignored() {
    var pod = pod().container("app", "cpu", "1", "foo", "5", "example", "3");

    assertEquals(cpuAndMemory(1000, 0), requests(pod.build()));
  }

  @Test
  void pods_is_one_whatever_the_number_of_containers() {
    var pod = pod().container("a", "cpu", "1").container("b", "cpu", "1").container("c", "cpu", "1").initContainer("i", "cpu", "1");

    assertEquals(1, requests(pod.build()).pods());
  }

  @Test
  void cpu_is_rounded_up_to_whole_millicores() {
    var pod = pod().container("app", "cpu", "0.1m", "memory", "0.5");

    assertEquals(cpuAndMemory(1, 1), requests(pod.build()));
  }

  @Test
  void fractional_amounts_are_rounded_once_for_the_whole_pod() {
    var pod = pod().container("a", "cpu", "0.5m", "memory", "0.5").container("b", "cpu", "0.5m", "memory", "0.5");

    assertEquals(cpuAndMemory(1, 1), requests(pod.build()));
  }
}
