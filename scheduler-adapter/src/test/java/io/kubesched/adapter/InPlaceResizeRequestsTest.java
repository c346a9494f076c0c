package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.resources;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.adapter.Fixtures.PodFixture;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pods resized in place (InPlacePodVerticalScaling, GA since 1.35; pod-level resize, beta and on since 1.36)
 * in {@link PodAdapter#effectiveRequests} and {@link PodAdapter#nonZeroRequests}: per resource, the largest
 * of spec, allocated and actuated requests, the spec left out while a resize is infeasible.
 */
class InPlaceResizeRequestsTest {

  private static final Map<String, Quantity> NONE = Map.of();

  private static Resources cpu(long milliCpu) {
    return new Resources(milliCpu, 0, 0, 1, Map.of());
  }

  private static PodFixture infeasible(PodFixture pod) {
    return pod.condition("PodResizePending", "True", "Infeasible");
  }

  private static Arguments row(String name, PodFixture pod, Resources requests) {
    return Arguments.of(Named.of(name, pod.build()), requests);
  }

  /**
   * The cases of k8s.io/component-helpers resource/helpers_test.go with {@code UseStatusResources} (and,
   * where Kubernetes sets it, {@code InPlacePodLevelResourcesVerticalScalingEnabled}), as kube-scheduler 1.37
   * counts a pod: TestPodResourceRequests, TestAggregateContainerRequestsAndLimits (requests) and
   * TestPodRequestsAndLimitsVerticalScalingWrappers (requests). The cases that turn the status off do not
   * apply: kube-scheduler 1.37 always reads it.
   */
  static Stream<Arguments> componentHelpersCases() {
    return Stream.of(
        row(
            "resized, infeasible",
            infeasible(pod().container("container-1", "cpu", "4").containerStatus("container-1", NONE, resources("cpu", "2"))),
            cpu(2000)),
        row(
            "resized, infeasible & in-progress",
            infeasible(
                pod()
                    .container("container-1", "cpu", "6")
                    .containerStatus("container-1", resources("cpu", "4"), resources("cpu", "2"))),
            cpu(4000)),
        row(
            "resized, no resize status",
            pod().container("container-1", "cpu", "4").containerStatus("container-1", NONE, resources("cpu", "2")),
            cpu(4000)),
        row(
            "resized: per-resource 3-way maximum",
            pod()
                .container("container-1", "cpu", "30m", "memory", "20M", "ephemeral-storage", "10G")
                .containerStatus(
                    "container-1",
                    resources("cpu", "20m", "memory", "10M", "ephemeral-storage", "30G"),
                    resources("cpu", "10m", "memory", "30M", "ephemeral-storage", "20G")),
            new Resources(30, 30_000_000, 30_000_000_000L, 1, Map.of())),
        row(
            "resized, restartable init container, infeasible",
            infeasible(
                pod()
                    .sidecar("restartable-init-1", "cpu", "4")
                    .initContainerStatus("restartable-init-1", NONE, resources("cpu", "2"))),
            cpu(2000)),
        row(
            "resized, restartable init container, no resize status",
            pod()
                .sidecar("restartable-init-1", "cpu", "4")
                .initContainerStatus("restartable-init-1", NONE, resources("cpu", "2")),
            cpu(4000)),
        row(
            "aggregate request resolves max of sums instead of sum of maxes",
            pod()
                .container("c1", "cpu", "1")
                .container("c2", "cpu", "2")
                .containerStatus("c1", resources("cpu", "2"), null)
                .containerStatus("c2", resources("cpu", "1"), null),
            cpu(3000)),
        row(
            "regularcontainers with empty requests, but status with non-empty requests",
            pod().container("container-1").containerStatus("container-1", NONE, resources("cpu", "2")),
            cpu(2000)),
        row(
            "always-restart init containers with empty requests, but status with non-empty requests",
            pod().sidecar("container-1").initContainerStatus("container-1", NONE, resources("cpu", "2")),
            cpu(2000)),
        row(
            "aggregate container request/limit resolves directly from pod status when PLR vertical scaling enabled",
            pod()
                .container("c1", resources("cpu", "1"), resources("cpu", "2"))
                .podStatusResources(resources("cpu", "4"), resources("cpu", "3")),
            cpu(4000)),
        row(
            "falls back to container status aggregation when PLR vertical scaling enabled but podAllocatedResources is nil",
            pod()
                .container("c1", resources("cpu", "1"), resources("cpu", "2"))
                .containerStatus("c1", resources("cpu", "6"), resources("cpu", "5"))
                .podStatusResources(NONE, resources("cpu", "3")),
            cpu(6000)),
        row(
            "falls back to container status aggregation when PLR vertical scaling enabled but podResources is nil",
            pod()
                .container("c1", resources("cpu", "1"), resources("cpu", "2"))
                .containerStatus("c1", resources("cpu", "6"), resources("cpu", "5"))
                .podStatusResources(resources("cpu", "6"), null),
            cpu(6000)),
        row(
            "pod level requests/limits with PLR vertical scaling enabled and status populated",
            pod()
                .podResources(resources("cpu", "2"), resources("cpu", "4"))
                .container("c1", resources("cpu", "1"), resources("cpu", "2"))
                .podStatusResources(resources("cpu", "3"), resources("cpu", "3.5")),
            cpu(3500)),
        row(
            "pod level requests/limits with PLR vertical scaling enabled and infeasible resize",
            infeasible(
                pod()
                    .podResources(resources("cpu", "10"), resources("cpu", "20"))
                    .container("c1", resources("cpu", "1"), resources("cpu", "2"))
                    .podStatusResources(resources("cpu", "3"), resources("cpu", "4"))),
            cpu(4000)),
        row(
            "container limits aggregation with infeasible resize",
            infeasible(pod().container("c1", NONE, resources("cpu", "10")).containerStatus("c1", NONE, NONE)),
            cpu(0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("componentHelpersCases")
  void counts_as_component_helpers_with_status_resources(io.fabric8.kubernetes.api.model.Pod pod, Resources expected) {
    assertEquals(expected, PodAdapter.effectiveRequests(pod));
  }

  @Test
  void a_pod_without_status_counts_its_spec() {
    var pod = pod().container("app", "cpu", "1").build();
    pod.setStatus(null);

    assertEquals(cpu(1000), PodAdapter.effectiveRequests(pod));
  }

  @Test
  void a_deferred_resize_still_counts_the_spec() {
    // TestResizeConditionsAndSupportedResources: Deferred is not Infeasible.
    var pod =
        pod()
            .container("app", "cpu", "4")
            .containerStatus("app", resources("cpu", "2"), resources("cpu", "2"))
            .condition("PodResizePending", "True", "Deferred");

    assertEquals(cpu(4000), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void a_resize_in_progress_counts_the_larger_of_spec_and_status() {
    var shrinking =
        pod()
            .container("app", "cpu", "1")
            .containerStatus("app", resources("cpu", "1"), resources("cpu", "3"))
            .condition("PodResizeInProgress", "True", "");
    var growing =
        pod()
            .container("app", "cpu", "5")
            .containerStatus("app", resources("cpu", "5"), resources("cpu", "3"))
            .condition("PodResizeInProgress", "True", "");

    assertEquals(cpu(3000), PodAdapter.effectiveRequests(shrinking.build()));
    assertEquals(cpu(5000), PodAdapter.effectiveRequests(growing.build()));
  }

  @Test
  void only_the_first_resize_pending_condition_counts_whatever_its_status() {
    var first =
        pod()
            .container("app", "cpu", "4")
            .containerStatus("app", NONE, resources("cpu", "2"))
            .condition("PodResizePending", "False", "Infeasible")
            .condition("PodResizePending", "True", "Deferred");
    var second =
        pod()
            .container("app", "cpu", "4")
            .containerStatus("app", NONE, resources("cpu", "2"))
            .condition("PodResizePending", "True", "Deferred")
            .condition("PodResizePending", "True", "Infeasible");

    assertEquals(cpu(2000), PodAdapter.effectiveRequests(first.build()));
    assertEquals(cpu(4000), PodAdapter.effectiveRequests(second.build()));
  }

  @Test
  void an_infeasible_container_that_reports_nothing_counts_nothing() {
    var pod = infeasible(pod().container("a", "cpu", "4").container("b", "cpu", "1").containerStatus("b", NONE, resources("cpu", "2")));

    assertEquals(cpu(2000), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void a_status_is_found_by_name_in_either_list() {
    // Kubernetes looks a container's status up among the container statuses, then the init container ones.
    var pod =
        pod()
            .container("app", "cpu", "1")
            .sidecar("proxy", "cpu", "1")
            .initContainerStatus("app", resources("cpu", "3"), null)
            .containerStatus("proxy", resources("cpu", "2"), null);

    assertEquals(cpu(5000), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void pod_level_status_stands_for_the_container_statuses() {
    var pod =
        pod()
            .container("app", "cpu", "1")
            .containerStatus("app", resources("cpu", "5"), resources("cpu", "5"))
            .podStatusResources(resources("cpu", "2"), resources("cpu", "2"));

    assertEquals(cpu(2000), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void pod_level_requests_count_the_larger_of_spec_and_pod_level_status() {
    var pod =
        pod()
            .podRequests("cpu", "2", "memory", "1Gi")
            .container("app", "cpu", "1", "memory", "512Mi")
            .podStatusResources(resources("cpu", "3", "memory", "512Mi"), resources("cpu", "1", "memory", "512Mi"));

    assertEquals(new Resources(3000, 1L << 30, 0, 1, Map.of()), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void the_overhead_is_added_to_the_resized_total() {
    var pod =
        pod().container("app", "cpu", "1").containerStatus("app", NONE, resources("cpu", "3")).overhead("cpu", "250m");

    assertEquals(cpu(3250), PodAdapter.effectiveRequests(pod.build()));
  }

  @Test
  void non_zero_requests_fill_kube_scheduler_defaults_into_each_walk() {
    // The spec names no request, so the spec walk counts the defaults; the actuated walk counts its CPU
    // and the default memory.
    var raised = pod().container("app").containerStatus("app", NONE, resources("cpu", "300m")).build();
    var below = pod().container("app").containerStatus("app", NONE, resources("cpu", "50m")).build();

    assertAll(
        () ->
            assertEquals(
                new Resources(300, PodInfo.DEFAULT_MEMORY_REQUEST, 0, 1, Map.of()), PodAdapter.nonZeroRequests(raised)),
        () -> assertEquals(cpu(300), PodAdapter.effectiveRequests(raised)),
        () ->
            assertEquals(
                new Resources(PodInfo.DEFAULT_MILLI_CPU_REQUEST, PodInfo.DEFAULT_MEMORY_REQUEST, 0, 1, Map.of()),
                PodAdapter.nonZeroRequests(below)),
        () -> assertEquals(cpu(50), PodAdapter.effectiveRequests(below)));
  }

  @Test
  void to_pod_info_counts_the_resized_requests() {
    var pod = pod().container("app", "cpu", "1").containerStatus("app", resources("cpu", "2"), null).build();

    var info = PodAdapter.toPodInfo(pod);

    assertEquals(cpu(2000), info.requests());
    assertEquals(2000, info.nonZeroRequests().milliCpu());
  }

  @Test
  void a_malformed_status_quantity_names_its_field() {
    var pod = pod("ns", "p").container("app", "cpu", "1").containerStatus("app", resources("cpu", "2x"), null).build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.effectiveRequests(pod));

    assertEquals("pod ns/p", e.object());
    assertEquals("status.containerStatuses[app].allocatedResources[cpu]", e.field());
    assertEquals("2x", e.value());
  }

  @Test
  void a_malformed_pod_level_status_quantity_names_its_field() {
    var pod = pod("ns", "p").container("app", "cpu", "1").podStatusResources(NONE, resources("memory", "-1")).build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.effectiveRequests(pod));

    assertEquals("status.resources.requests[memory]", e.field());
  }
}
