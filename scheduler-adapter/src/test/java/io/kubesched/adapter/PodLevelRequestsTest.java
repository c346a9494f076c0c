package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.resources;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.adapter.Fixtures.PodFixture;
import io.kubesched.api.Resources;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pod-level resources ({@code spec.resources}, the PodLevelResources feature, on by default since 1.34) in
 * {@link PodAdapter#effectiveRequests}.
 */
class PodLevelRequestsTest {

  private static final long MI = 1L << 20;
  private static final long GI = 1L << 30;

  private static Resources cpuAndMemory(long milliCpu, long memory) {
    return new Resources(milliCpu, memory, 0, 1, Map.of());
  }

  private static Resources with(long milliCpu, long memory, Map<String, Long> extended) {
    return new Resources(milliCpu, memory, 0, 1, extended);
  }

  private static Arguments row(String name, PodFixture pod, Resources requests) {
    return Arguments.of(Named.of(name, pod.build()), requests);
  }

  /**
   * TestPodLevelResourceRequests of k8s.io/component-helpers resource/helpers_test.go, the cases with pod-level
   * resources enabled. Kubernetes' cases with {@code storage} use {@code ephemeral-storage} here: the scheduler
   * does not account for {@code storage}, so those cases could not fail.
   */
  static Stream<Arguments> componentHelpersCases() {
    return Stream.of(
        row("nil", pod(), cpuAndMemory(0, 0)),
        row("pod level memory resource", pod().podRequests("memory", "2Mi"), cpuAndMemory(0, 2 * MI)),
        row(
            "pod level memory and container level cpu resources",
            pod().podRequests("memory", "2Mi").container("c", "cpu", "2m"),
            cpuAndMemory(2, 2 * MI)),
        row(
            "pod level unsupported resources set at both pod-level and container-level",
            pod().podRequests("ephemeral-storage", "2Mi").container("c", "ephemeral-storage", "3Mi"),
            new Resources(0, 0, 3 * MI, 1, Map.of())),
        row(
            "pod level unsupported resources set at pod-level",
            pod().podRequests("ephemeral-storage", "2Mi").container("c", "memory", "3Mi"),
            cpuAndMemory(0, 3 * MI)),
        row(
            "only container level resources set",
            pod().container("c", "memory", "3Mi", "cpu", "2m"),
            cpuAndMemory(2, 3 * MI)),
        row(
            "both container-level and pod-level resources set",
            pod().podRequests("memory", "6Mi", "cpu", "8m").container("c", "memory", "3Mi", "cpu", "2m"),
            cpuAndMemory(8, 6 * MI)),
        row(
            "container-level resources and init container set",
            pod().container("c", "memory", "3Mi", "cpu", "2m").initContainer("i", "memory", "5Mi", "cpu", "4m"),
            cpuAndMemory(4, 5 * MI)),
        row(
            "container-level resources and sidecar container set",
            pod().container("c", "memory", "3Mi", "cpu", "2m").sidecar("s", "memory", "5Mi", "cpu", "4m"),
            cpuAndMemory(6, 8 * MI)),
        row(
            "container-level resources, init and sidecar container set",
            pod()
                .container("c", "memory", "3Mi", "cpu", "2m")
                .sidecar("s", "memory", "5Mi", "cpu", "4m")
                .initContainer("i", "memory", "6Mi", "cpu", "8m"),
            cpuAndMemory(12, 11 * MI)),
        row(
            "pod-level resources, container-level resources, init and sidecar container set",
            pod()
                .podRequests("memory", "15Mi", "cpu", "18m")
                .container("c", "memory", "3Mi", "cpu", "2m")
                .sidecar("s", "memory", "5Mi", "cpu", "4m")
                .initContainer("i", "memory", "6Mi", "cpu", "8m"),
            cpuAndMemory(18, 15 * MI)),
        row(
            "pod-level resources, hugepage request/limit single page size",
            pod()
                .podResources(
                    resources("memory", "10Mi", "hugepages-2Mi", "2Mi"), resources("hugepages-2Mi", "2Mi")),
            with(0, 10 * MI, Map.of("hugepages-2Mi", 2 * MI))),
        row(
            "pod-level resources, hugepage request/limit multiple page sizes",
            pod()
                .podResources(
                    resources("cpu", "1", "hugepages-2Mi", "2Mi", "hugepages-1Gi", "1Gi"),
                    resources("hugepages-2Mi", "2Mi", "hugepages-1Gi", "1Gi")),
            with(1000, 0, Map.of("hugepages-2Mi", 2 * MI, "hugepages-1Gi", GI))),
        row(
            "pod-level resources, container-level resources, hugepage request/limit single page size",
            pod()
                .podResources(resources("cpu", "1", "hugepages-2Mi", "10Mi"), resources("hugepages-2Mi", "10Mi"))
                .container("c", resources("hugepages-2Mi", "6Mi"), resources("hugepages-2Mi", "6Mi")),
            with(1000, 0, Map.of("hugepages-2Mi", 10 * MI))),
        row(
            "pod-level resources, container-level resources, hugepage request/limit multiple page sizes",
            pod()
                .podResources(
                    resources("cpu", "1", "hugepages-2Mi", "10Mi", "hugepages-1Gi", "2Gi"),
                    resources("hugepages-2Mi", "10Mi", "hugepages-1Gi", "2Gi"))
                .container("c", resources("cpu", "1", "hugepages-1Gi", "2Gi"), resources("hugepages-1Gi", "2Gi")),
            with(1000, 0, Map.of("hugepages-2Mi", 10 * MI, "hugepages-1Gi", 2 * GI))),
        row(
            "pod-level resources, container-level resources, hugepage request/limit multiple page sizes between"
                + " pod-level and container-level",
            pod()
                .podResources(resources("cpu", "1", "hugepages-2Mi", "10Mi"), resources("hugepages-2Mi", "10Mi"))
                .container(
                    "c", resources("memory", "4Mi", "hugepages-1Gi", "1Gi"), resources("hugepages-1Gi", "1Gi")),
            with(1000, 4 * MI, Map.of("hugepages-2Mi", 10 * MI, "hugepages-1Gi", GI))));
  }

  /**
   * TestApplyPodLevelResourceDefaults of k8s.io/kubernetes pkg/registry/core/pod/strategy_test.go: the
   * pod-level requests the API server stores are the requests the scheduler then uses.
   */
  static Stream<Arguments> apiServerDefaultingCases() {
    return Stream.of(
        row(
            "empty resources struct",
            pod().container("c1", resources("cpu", "100m", "memory", "128Mi"), resources("cpu", "200m", "memory", "256Mi"))
                .podResources(Map.of(), Map.of()),
            cpuAndMemory(100, 128 * MI)),
        row(
            "memory request set, container limits set for CPU",
            pod()
                .container("c1", resources("cpu", "100m", "memory", "128Mi"), resources("cpu", "100m"))
                .container("c2", resources("cpu", "200m", "memory", "128Mi"), resources("cpu", "200m"))
                .podRequests("memory", "256Mi"),
            cpuAndMemory(300, 256 * MI)),
        row(
            "memory request set, containers have CPU reqs (5m, 6m) and limits (9m, 10m)",
            pod()
                .container("c1", resources("cpu", "5m"), resources("cpu", "9m"))
                .container("c2", resources("cpu", "6m"), resources("cpu", "10m"))
                .podRequests("memory", "256Mi"),
            cpuAndMemory(11, 256 * MI)),
        row(
            "pod-level CPU request set, containers have memory requests (128Mi, 128Mi) and limits (256Mi, 256Mi)",
            pod()
                .container("c1", resources("memory", "128Mi"), resources("memory", "256Mi"))
                .container("c2", resources("memory", "128Mi"), resources("memory", "256Mi"))
                .podRequests("cpu", "200m"),
            cpuAndMemory(200, 256 * MI)),
        row(
            "pod memory limit set, CPU limit defaulted from containers",
            pod()
                .container("c1", resources("cpu", "100m", "memory", "128Mi"), resources("cpu", "100m", "memory", "128Mi"))
                .container("c2", resources("cpu", "80m", "memory", "128Mi"), resources("cpu", "100m", "memory", "128Mi"))
                .podResources(resources("memory", "256Mi"), resources("memory", "256Mi")),
            cpuAndMemory(180, 256 * MI)),
        row(
            "pod requests defaulted from container requests when limits set",
            pod()
                .container("c1", resources("cpu", "100m", "memory", "128Mi"), resources("cpu", "200m", "memory", "256Mi"))
                .podResources(Map.of(), resources("cpu", "500m", "memory", "512Mi")),
            cpuAndMemory(100, 128 * MI)),
        row(
            "unsupported resources ignored",
            pod()
                .container("c1", resources("example.com/gpu", "1"), resources("example.com/gpu", "1"))
                .podRequests("example.com/gpu", "1"),
            with(0, 0, Map.of("example.com/gpu", 1L))),
        row(
            "a pod-level limit of a resource no container requests becomes the pod-level request",
            pod().container("c", "memory", "64Mi").podResources(Map.of(), resources("cpu", "2", "memory", "1Gi")),
            cpuAndMemory(2000, 64 * MI)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"componentHelpersCases", "apiServerDefaultingCases"})
  void effective_requests_follow_kubernetes_pod_level_rules(Pod pod, Resources requests) {
    assertEquals(requests, PodAdapter.effectiveRequests(pod));
  }

  @Test
  void overhead_is_added_to_pod_level_requests() {
    var pod = pod().container("c", "cpu", "100m").podRequests("cpu", "1", "memory", "1Gi").overhead("cpu", "250m");

    assertEquals(cpuAndMemory(1250, GI), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void a_pod_level_request_replaces_the_containers_total_even_when_smaller() {
    var pod = pod().container("a", "cpu", "2").container("b", "cpu", "2").podRequests("cpu", "1");

    assertEquals(cpuAndMemory(1000, 0), PodAdapter.effectiveRequests(pod.build()));
  }
}
