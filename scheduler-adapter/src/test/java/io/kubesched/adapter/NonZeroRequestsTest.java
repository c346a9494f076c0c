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
 * {@link PodAdapter#nonZeroRequests}: the CPU and memory kube-scheduler's scores count ({@code
 * PodInfo.CalculateResource}'s {@code Non0CPU} and {@code Non0Mem}), next to the effective requests.
 */
class NonZeroRequestsTest {

  private static final long MI = 1L << 20;
  private static final long GI = 1L << 30;
  private static final long DEFAULT_CPU = 100;
  private static final long DEFAULT_MEMORY = 200 * MI;

  private static Resources cpuAndMemory(long milliCpu, long memory) {
    return new Resources(milliCpu, memory, 0, 1, Map.of());
  }

  private static Arguments row(String name, PodFixture pod, Resources requests, Resources nonZero) {
    return Arguments.of(Named.of(name, pod.build()), requests, nonZero);
  }

  /** Cases of k8s.io/kubernetes pkg/scheduler/framework/types_test.go, without the DRA ones. */
  static Stream<Arguments> kubeSchedulerCases() {
    return Stream.of(
        // TestPodInfoCalculateResources
        row("requestless container", pod().container("c"), cpuAndMemory(0, 0), cpuAndMemory(DEFAULT_CPU, DEFAULT_MEMORY)),
        row(
            "1X container with requests",
            pod().container("c", "cpu", "500m", "memory", "500Mi"),
            cpuAndMemory(500, 500 * MI),
            cpuAndMemory(500, 500 * MI)),
        row(
            "2X container with requests",
            pod().container("a", "cpu", "500m", "memory", "500Mi").container("b", "cpu", "700m", "memory", "800Mi"),
            cpuAndMemory(1200, 1300 * MI),
            cpuAndMemory(1200, 1300 * MI)),
        row(
            "1X container and 1X init container with pod-level requests",
            pod()
                .initContainer("i", "cpu", "500m", "memory", "500Mi")
                .container("c", "cpu", "500m", "memory", "500Mi")
                .podRequests("cpu", "1200m", "memory", "1200Mi"),
            cpuAndMemory(1200, 1200 * MI),
            cpuAndMemory(1200, 1200 * MI)),
        row(
            "1X container and 1X sidecar container with pod-level requests",
            pod()
                .sidecar("s", "cpu", "500m", "memory", "500Mi")
                .container("c", "cpu", "500m", "memory", "500Mi")
                .podRequests("cpu", "1200m", "memory", "1200Mi"),
            cpuAndMemory(1200, 1200 * MI),
            cpuAndMemory(1200, 1200 * MI)),
        row(
            "1X container with pod-level memory requests",
            pod().initContainer("i").container("c").podRequests("memory", "1200Mi"),
            cpuAndMemory(0, 1200 * MI),
            cpuAndMemory(DEFAULT_CPU, 1200 * MI)),
        row(
            "1X container with pod-level cpu requests",
            pod().initContainer("i").container("c").podRequests("cpu", "500m"),
            cpuAndMemory(500, 0),
            cpuAndMemory(500, DEFAULT_MEMORY)),
        row(
            "1X container unsupported resources and pod-level supported resources",
            pod()
                .initContainer("i", "ephemeral-storage", "500Mi")
                .container("c", "ephemeral-storage", "800Mi")
                .podRequests("cpu", "500m"),
            new Resources(500, 0, 800 * MI, 1, Map.of()),
            new Resources(500, DEFAULT_MEMORY, 800 * MI, 1, Map.of())),
        // TestNodeInfoAddPod's three pods
        row(
            "test-1: requests for both and CPU overhead",
            pod().container("c", "cpu", "100m", "memory", "500").overhead("cpu", "500m"),
            cpuAndMemory(600, 500),
            cpuAndMemory(600, 500)),
        row(
            "test-2: no memory request, overhead for both",
            pod().container("c", "cpu", "200m").overhead("cpu", "500m", "memory", "500"),
            cpuAndMemory(700, 500),
            cpuAndMemory(700, DEFAULT_MEMORY + 500)),
        row(
            "test-3: an init container requesting the default memory, the container none",
            pod()
                .container("c", "cpu", "200m")
                .initContainer("i", "cpu", "500m", "memory", "200Mi")
                .overhead("cpu", "500m", "memory", "500"),
            cpuAndMemory(1000, DEFAULT_MEMORY + 500),
            cpuAndMemory(1000, DEFAULT_MEMORY + 500)));
  }

  /**
   * Cases of k8s.io/component-helpers resource/helpers_test.go (TestPodRequestsAndLimitsVerticalScalingWrappers),
   * with kube-scheduler's defaults as the non-missing requests.
   */
  static Stream<Arguments> componentHelpersCases() {
    return Stream.of(
        row(
            "non missing container requests applied to init container",
            pod().initContainer("i1", "cpu", "1"),
            cpuAndMemory(1000, 0),
            cpuAndMemory(1000, DEFAULT_MEMORY)),
        row(
            "non missing container requests applied to regular container",
            pod().container("c1", "cpu", "1"),
            cpuAndMemory(1000, 0),
            cpuAndMemory(1000, DEFAULT_MEMORY)));
  }

  /** The same rules at the corners the ported tables leave out. */
  static Stream<Arguments> furtherCases() {
    return Stream.of(
        row(
            "a request written as zero stays zero",
            pod().container("c", "cpu", "0", "memory", "0"),
            cpuAndMemory(0, 0),
            cpuAndMemory(0, 0)),
        row(
            "a limit without request is a request, so no default replaces it",
            pod().container("c", Map.of(), resources("cpu", "1")),
            cpuAndMemory(1000, 0),
            cpuAndMemory(1000, DEFAULT_MEMORY)),
        row(
            "every container without requests counts the defaults",
            pod().container("a").container("b"),
            cpuAndMemory(0, 0),
            cpuAndMemory(2 * DEFAULT_CPU, 2 * DEFAULT_MEMORY)),
        row(
            "init containers without requests count the defaults one at a time",
            pod().initContainer("i").initContainer("j").container("c"),
            cpuAndMemory(0, 0),
            cpuAndMemory(DEFAULT_CPU, DEFAULT_MEMORY)),
        row(
            "a sidecar's defaults add to the containers and to later init containers",
            pod().sidecar("s").initContainer("i", "cpu", "150m").container("c"),
            // init i runs beside s: 150m + 100m, 200Mi (its own default) + 200Mi; afterwards c and s: 200m, 400Mi.
            cpuAndMemory(150, 0),
            cpuAndMemory(250, 2 * DEFAULT_MEMORY)),
        row(
            "overhead is added to the defaults",
            pod().container("c").overhead("cpu", "10m", "memory", "1Mi"),
            cpuAndMemory(10, MI),
            cpuAndMemory(DEFAULT_CPU + 10, DEFAULT_MEMORY + MI)),
        row(
            "with pod-level memory only, every container without CPU counts the CPU default",
            pod().container("a").container("b").podRequests("memory", "1Gi"),
            cpuAndMemory(0, GI),
            cpuAndMemory(2 * DEFAULT_CPU, GI)),
        row(
            "with pod-level requests, a CPU request in one container keeps the default from the others",
            pod().container("a", "cpu", "300m").container("b").podRequests("memory", "1Gi"),
            cpuAndMemory(300, GI),
            cpuAndMemory(300, GI)),
        row(
            "with pod-level requests, CPU overhead keeps the CPU default away",
            pod().container("c").podRequests("memory", "1Gi").overhead("cpu", "50m"),
            cpuAndMemory(50, GI),
            cpuAndMemory(50, GI)),
        row(
            "a pod-level limit alone is the pod-level request, as the API server defaults it",
            pod().container("c").podResources(Map.of(), resources("cpu", "2")),
            cpuAndMemory(2000, 0),
            cpuAndMemory(2000, DEFAULT_MEMORY)),
        row(
            "a pod without containers counts no default",
            pod(),
            cpuAndMemory(0, 0),
            cpuAndMemory(0, 0)),
        row(
            "extended resources and storage are counted as requested",
            pod().container("c", "nvidia.com/gpu", "2", "ephemeral-storage", "1Gi"),
            new Resources(0, 0, GI, 1, Map.of("nvidia.com/gpu", 2L)),
            new Resources(DEFAULT_CPU, DEFAULT_MEMORY, GI, 1, Map.of("nvidia.com/gpu", 2L))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"kubeSchedulerCases", "componentHelpersCases", "furtherCases"})
  void requests_and_non_zero_requests_are_those_kube_scheduler_computes(
      Pod pod, Resources requests, Resources nonZero) {
    assertEquals(requests, PodAdapter.effectiveRequests(pod), "requests");
    assertEquals(nonZero, PodAdapter.nonZeroRequests(pod), "non-zero requests");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"kubeSchedulerCases", "componentHelpersCases", "furtherCases"})
  void the_pod_info_carries_both(Pod pod, Resources requests, Resources nonZero) {
    var info = PodAdapter.toPodInfo(pod);

    assertEquals(requests, info.requests());
    assertEquals(nonZero, info.nonZeroRequests());
  }

  @Test
  void the_defaults_are_kube_scheduler_s_100_millicores_and_200_mebibytes() {
    var nonZero = PodAdapter.nonZeroRequests(pod().container("c").build());

    assertEquals(100, nonZero.milliCpu());
    assertEquals(200L * 1024 * 1024, nonZero.memory());
  }
}
