package io.kubesched.policy.plugins.noderesources;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static io.kubesched.policy.plugins.FilterFixtures.EXTENDED_A;
import static io.kubesched.policy.plugins.FilterFixtures.EXTENDED_B;
import static io.kubesched.policy.plugins.FilterFixtures.HUGEPAGES;
import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.requesting;
import static io.kubesched.policy.plugins.FilterFixtures.requests;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.NodeInfo;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.Reason.InsufficientResource;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The filter cases of kube-scheduler's {@code noderesources/fit_test.go} ({@code TestEnoughRequests}, {@code
 * TestNotEnoughRequests}, {@code TestStorageRequests}, {@code TestRestartableInitContainers}), and edge cases.
 *
 * <p>A pod here carries its effective requests, which the adapter computes (containers summed, the maximum
 * with each init container, sidecars added, overhead added, pod-level requests preferred): the cases about
 * init containers, overhead and pod-level resources are written with the requests kube-scheduler computes for
 * them. The cases where kube-scheduler hands an extended resource backed by a DeviceClass to DynamicResources run
 * through {@code prepare} over a snapshot holding the class ({@link #backedByDra}); "not enabled" is a snapshot
 * without classes (a policy without DynamicResources, whose loop does not watch them).
 */
class NodeResourcesFitFilterTest {

  private static final String KUBE_IO_A = "kubernetes.io/something";
  private static final String KUBE_IO_B = "subdomain.kubernetes.io/something";
  private static final String DRA_RESOURCE = "extended.resource.dra.io/something";

  /** kube-scheduler's {@code makeAllocatableResources(10, 20, 32, 5, 20, 5)}. */
  private static final Resources ALLOCATABLE =
      new Resources(10, 20, 20, 32, Map.of(EXTENDED_A, 5L, HUGEPAGES, 5L));

  /** The requests of a pod whose containers request nothing. */
  private static final Resources NOTHING = requests(0, 0);

  private static Resources cpuMem(long milliCpu, long memory) {
    return requests(milliCpu, memory);
  }

  private static Resources with(long milliCpu, long memory, String resource, long amount) {
    return requests(milliCpu, memory, 0, Map.of(resource, amount));
  }

  private static Resources storage(long milliCpu, long memory, long ephemeralStorage) {
    return requests(milliCpu, memory, ephemeralStorage, Map.of());
  }

  private static InsufficientResource lack(String resource, long requested, long used, long capacity) {
    return new InsufficientResource(resource, requested, used, capacity);
  }

  private static NodeInfo nodeWith(Resources allocatable, @Nullable Resources existingPod) {
    var pods =
        existingPod == null ? List.<PodInfo>of() : List.of(pod("existing").requests(existingPod).build());
    return node("n").allocatable(allocatable).pods(pods).build();
  }

  /** A case of {@code TestEnoughRequests}: the node has one pod already, and {@link #ALLOCATABLE}. */
  private static Arguments enough(
      String name, Resources pod, Resources existing, Outcome expected, InsufficientResource... insufficient) {
    return argumentSet(
        name,
        new NodeResourcesFitFilter(),
        requesting(pod),
        nodeWith(ALLOCATABLE, existing),
        expected,
        List.of(insufficient));
  }

  private static final DeviceClass DRA_CLASS = new DeviceClass("device-class-name", List.of(), List.of(), DRA_RESOURCE);

  private static FilterResult preparedFilter(Resources pod, NodeInfo node, DeviceClass... classes) {
    var podInfo = requesting(pod);
    var snapshot = ClusterSnapshot.of(List.of(node))
        .withDynamicResources(DynamicResources.of(List.of(), List.of(classes), List.of(), List.of()));
    return new NodeResourcesFitFilter().prepare(podInfo, snapshot).filter(podInfo, node);
  }

  @Test
  void backedByDra() {
    // kube's "extended resource backed by DRA": the node does not offer it, DynamicResources allocates it
    assertTrue(preparedFilter(with(1, 1, DRA_RESOURCE, 1), nodeWith(ALLOCATABLE, NOTHING), DRA_CLASS).fits());
  }

  @Test
  void backedByDraThroughTheImplicitName() {
    var implicit = "deviceclass.resource.kubernetes.io/device-class-name";
    var plain = new DeviceClass("device-class-name", List.of(), List.of(), null);
    assertTrue(preparedFilter(with(1, 1, implicit, 1), nodeWith(ALLOCATABLE, NOTHING), plain).fits());
  }

  @Test
  void backedByDraButOfferedByADevicePluginIsChecked() {
    var node = nodeWith(new Resources(10, 20, 20, 32, Map.of(DRA_RESOURCE, 1L)), with(0, 0, DRA_RESOURCE, 1));
    var result = preparedFilter(with(1, 1, DRA_RESOURCE, 1), node, DRA_CLASS);
    assertEquals("Insufficient extended.resource.dra.io/something",
        assertInstanceOf(FilterResult.Rejected.class, result).reasons().get(0).message());
  }

  @Test
  void notBackedByDraIsCheckedThoughClassesExist() {
    var result = preparedFilter(with(1, 1, EXTENDED_B, 1), nodeWith(ALLOCATABLE, NOTHING), DRA_CLASS);
    assertEquals("Insufficient example.com/bbb",
        assertInstanceOf(FilterResult.Rejected.class, result).reasons().get(0).message());
  }

  static Stream<Arguments> enoughRequests() {
    return Stream.of(
        enough("no resources requested always fits", NOTHING, cpuMem(10, 20), Outcome.FIT),
        enough(
            "too many resources fails",
            cpuMem(1, 1),
            cpuMem(10, 20),
            Outcome.unschedulable("Insufficient cpu", "Insufficient memory"),
            lack("cpu", 1, 10, 10),
            lack("memory", 1, 20, 20)),
        enough(
            "too many resources fails due to init container cpu",
            cpuMem(3, 1),
            cpuMem(8, 19),
            Outcome.unschedulable("Insufficient cpu"),
            lack("cpu", 3, 8, 10)),
        enough(
            "too many resources fails due to highest init container cpu",
            cpuMem(3, 1),
            cpuMem(8, 19),
            Outcome.unschedulable("Insufficient cpu"),
            lack("cpu", 3, 8, 10)),
        enough(
            "too many resources fails due to init container memory",
            cpuMem(1, 3),
            cpuMem(9, 19),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 3, 19, 20)),
        enough(
            "too many resources fails due to highest init container memory",
            cpuMem(1, 3),
            cpuMem(9, 19),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 3, 19, 20)),
        enough(
            "init container fits because it's the max, not sum, of containers and init containers",
            cpuMem(1, 1),
            cpuMem(9, 19),
            Outcome.FIT),
        enough(
            "multiple init containers fit because it's the max, not sum, of containers and init containers",
            cpuMem(1, 1),
            cpuMem(9, 19),
            Outcome.FIT),
        enough("both resources fit", cpuMem(1, 1), cpuMem(5, 5), Outcome.FIT),
        enough(
            "one resource memory fits",
            cpuMem(2, 1),
            cpuMem(9, 5),
            Outcome.unschedulable("Insufficient cpu"),
            lack("cpu", 2, 9, 10)),
        enough(
            "one resource cpu fits",
            cpuMem(1, 2),
            cpuMem(5, 19),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 2, 19, 20)),
        enough("equal edge case", cpuMem(5, 1), cpuMem(5, 19), Outcome.FIT),
        enough("equal edge case for init container", cpuMem(5, 1), cpuMem(5, 19), Outcome.FIT),
        enough("extended resource fits", with(0, 0, EXTENDED_A, 1), NOTHING, Outcome.FIT),
        enough("extended resource fits for init container", with(0, 0, EXTENDED_A, 1), NOTHING, Outcome.FIT),
        enough(
            "extended resource capacity enforced",
            with(1, 1, EXTENDED_A, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 10, 0, 5)),
        enough(
            "extended resource capacity enforced for init container",
            with(1, 1, EXTENDED_A, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 10, 0, 5)),
        enough(
            "extended resource allocatable enforced",
            with(1, 1, EXTENDED_A, 1),
            with(0, 0, EXTENDED_A, 5),
            Outcome.unschedulable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 1, 5, 5)),
        enough(
            "extended resource allocatable enforced for init container",
            with(1, 1, EXTENDED_A, 1),
            with(0, 0, EXTENDED_A, 5),
            Outcome.unschedulable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 1, 5, 5)),
        enough(
            "extended resource allocatable enforced for multiple containers",
            with(2, 2, EXTENDED_A, 6),
            with(0, 0, EXTENDED_A, 2),
            Outcome.unresolvable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 6, 2, 5)),
        enough(
            "extended resource allocatable admits multiple init containers",
            with(1, 1, EXTENDED_A, 3),
            with(0, 0, EXTENDED_A, 2),
            Outcome.FIT),
        enough(
            "extended resource allocatable enforced for multiple init containers",
            with(1, 1, EXTENDED_A, 6),
            with(0, 0, EXTENDED_A, 2),
            Outcome.unresolvable("Insufficient example.com/aaa"),
            lack(EXTENDED_A, 6, 2, 5)),
        enough(
            "extended resource allocatable enforced for unknown resource",
            with(1, 1, EXTENDED_B, 1),
            NOTHING,
            Outcome.unresolvable("Insufficient example.com/bbb"),
            lack(EXTENDED_B, 1, 0, 0)),
        enough(
            "extended resource allocatable enforced for unknown resource for init container",
            with(1, 1, EXTENDED_B, 1),
            NOTHING,
            Outcome.unresolvable("Insufficient example.com/bbb"),
            lack(EXTENDED_B, 1, 0, 0)),
        enough(
            "kubernetes.io resource capacity enforced",
            with(1, 1, KUBE_IO_A, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient kubernetes.io/something"),
            lack(KUBE_IO_A, 10, 0, 0)),
        enough(
            "kubernetes.io resource capacity enforced for init container",
            with(1, 1, KUBE_IO_B, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient subdomain.kubernetes.io/something"),
            lack(KUBE_IO_B, 10, 0, 0)),
        enough(
            "hugepages resource capacity enforced",
            with(1, 1, HUGEPAGES, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient hugepages-2Mi"),
            lack(HUGEPAGES, 10, 0, 5)),
        enough(
            "hugepages resource capacity enforced for init container",
            with(1, 1, HUGEPAGES, 10),
            NOTHING,
            Outcome.unresolvable("Insufficient hugepages-2Mi"),
            lack(HUGEPAGES, 10, 0, 5)),
        enough(
            "hugepages resource allocatable enforced for multiple containers",
            with(2, 2, HUGEPAGES, 6),
            with(0, 0, HUGEPAGES, 2),
            Outcome.unresolvable("Insufficient hugepages-2Mi"),
            lack(HUGEPAGES, 6, 2, 5)),
        argumentSet(
            "skip checking ignored extended resource",
            new NodeResourcesFitFilter(List.of("example.com/bbb"), List.of()),
            requesting(with(1, 1, EXTENDED_B, 1)),
            nodeWith(ALLOCATABLE, NOTHING),
            Outcome.FIT,
            List.of()),
        enough("resources + pod overhead fits", cpuMem(1 + 3, 1 + 13), cpuMem(5, 5), Outcome.FIT),
        enough(
            "requests + overhead does not fit for memory",
            cpuMem(1 + 1, 1 + 15),
            cpuMem(5, 5),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 16, 5, 20)),
        argumentSet(
            "skip checking ignored extended resource via resource groups",
            new NodeResourcesFitFilter(List.of(), List.of("example.com")),
            requesting(requests(1, 1, 0, Map.of(EXTENDED_B, 1L, KUBE_IO_A, 1L))),
            nodeWith(ALLOCATABLE, NOTHING),
            Outcome.unresolvable("Insufficient kubernetes.io/something"),
            List.of(lack(KUBE_IO_A, 1, 0, 0))),
        enough(
            "skip checking extended resource request with quantity zero via resource groups",
            with(1, 1, EXTENDED_A, 0),
            with(0, 0, EXTENDED_A, 6),
            Outcome.FIT),
        enough(
            "skip checking resource request with quantity zero",
            with(0, 0, EXTENDED_A, 1),
            with(20, 30, EXTENDED_A, 1),
            Outcome.FIT),
        enough("both pod-level and container-level resources fit", cpuMem(1, 2), cpuMem(5, 5), Outcome.FIT),
        enough(
            "pod-level cpu resource not fit",
            cpuMem(7, 2),
            cpuMem(5, 5),
            Outcome.unschedulable("Insufficient cpu"),
            lack("cpu", 7, 5, 10)),
        enough(
            "pod-level memory resource not fit",
            cpuMem(3, 2),
            cpuMem(5, 19),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 2, 19, 20)),
        argumentSet(
            "pod-level hugepages resource fit",
            new NodeResourcesFitFilter(),
            requesting(with(3, 2, HUGEPAGES, 5)),
            nodeWith(ALLOCATABLE, null),
            Outcome.FIT,
            List.of()),
        argumentSet(
            "both pod-level and container-level hugepages resource fit",
            new NodeResourcesFitFilter(),
            requesting(with(3, 2, HUGEPAGES, 5)),
            nodeWith(ALLOCATABLE, null),
            Outcome.FIT,
            List.of()),
        argumentSet(
            "pod-level hugepages resource not fit",
            new NodeResourcesFitFilter(),
            requesting(with(3, 2, HUGEPAGES, 10)),
            nodeWith(ALLOCATABLE, null),
            Outcome.unresolvable("Insufficient hugepages-2Mi"),
            List.of(lack(HUGEPAGES, 10, 0, 5))),
        enough(
            "one pod-level cpu resource fits and all init and non-init containers resources fit",
            cpuMem(3, 2),
            cpuMem(5, 19),
            Outcome.unschedulable("Insufficient memory"),
            lack("memory", 2, 19, 20)),
        enough("extended resource backed by device plugin", with(0, 0, EXTENDED_A, 1), NOTHING, Outcome.FIT),
        enough(
            "extended resource backed by DRA, nil draManager",
            with(1, 1, EXTENDED_A, 1),
            NOTHING,
            Outcome.FIT),
        enough(
            "extended resource backed by DRA not enabled",
            with(1, 1, DRA_RESOURCE, 1),
            NOTHING,
            Outcome.unresolvable("Insufficient extended.resource.dra.io/something"),
            lack(DRA_RESOURCE, 1, 0, 0)),
        enough(
            "extended resource NOT backed by DRA",
            with(1, 1, EXTENDED_B, 1),
            NOTHING,
            Outcome.unresolvable("Insufficient example.com/bbb"),
            lack(EXTENDED_B, 1, 0, 0)),
        enough(
            "extended resource was backed by Device Plugin (Allocatable: 0), global cache",
            with(0, 0, EXTENDED_A, 1),
            with(0, 0, EXTENDED_A, 0),
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("enoughRequests")
  void kube_scheduler_enough_requests_case(
      NodeResourcesFitFilter filter,
      PodInfo pod,
      NodeInfo node,
      Outcome expected,
      List<InsufficientResource> insufficient) {
    assertOutcome(expected, filter.filter(pod, node));
    assertEquals(insufficient, filter.insufficientResources(pod, node));
  }

  /** {@code TestNotEnoughRequests}: room for one pod only, and it is taken. */
  static Stream<Arguments> notEnoughRequests() {
    return Stream.of(
        argumentSet(
            "even without specified resources, predicate fails when there's no space for additional pod",
            NOTHING,
            cpuMem(10, 20)),
        argumentSet(
            "even if both resources fit, predicate fails when there's no space for additional pod",
            cpuMem(1, 1),
            cpuMem(5, 5)),
        argumentSet(
            "even for equal edge case, predicate fails when there's no space for additional pod",
            cpuMem(5, 1),
            cpuMem(5, 19)),
        argumentSet(
            "even for equal edge case, predicate fails when there's no space for additional pod due to init "
                + "container",
            cpuMem(5, 1),
            cpuMem(5, 19)));
  }

  @ParameterizedTest
  @MethodSource("notEnoughRequests")
  void kube_scheduler_not_enough_requests_case(Resources pod, Resources existing) {
    var filter = new NodeResourcesFitFilter();
    var node = nodeWith(new Resources(10, 20, 0, 1, Map.of()), existing);

    assertOutcome(Outcome.unschedulable("Too many pods"), filter.filter(requesting(pod), node));
    assertEquals(List.of(lack("pods", 1, 1, 1)), filter.insufficientResources(requesting(pod), node));
  }

  /** {@code TestStorageRequests}. */
  static Stream<Arguments> storageRequests() {
    return Stream.of(
        argumentSet("empty storage requested, and pod fits", cpuMem(1, 1), cpuMem(2, 10), Outcome.FIT),
        argumentSet(
            "storage ephemeral local storage request exceeds allocatable",
            storage(0, 0, 25),
            cpuMem(2, 2),
            Outcome.unresolvable("Insufficient ephemeral-storage")),
        argumentSet("ephemeral local storage is sufficient", storage(0, 0, 5), storage(2, 2, 10), Outcome.FIT),
        argumentSet("pod fits", storage(0, 0, 10), cpuMem(2, 2), Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("storageRequests")
  void kube_scheduler_storage_requests_case(Resources pod, Resources existing, Outcome expected) {
    var node = nodeWith(ALLOCATABLE, existing);

    assertOutcome(expected, new NodeResourcesFitFilter().filter(requesting(pod), node));
  }

  /** {@code TestRestartableInitContainers}: a sidecar's requests add to the containers'. */
  static Stream<Arguments> restartableInitContainers() {
    return Stream.of(
        argumentSet("allow pod without restartable init containers", NOTHING, Outcome.FIT),
        argumentSet("allow pod with restartable init containers", NOTHING, Outcome.FIT),
        argumentSet(
            "allow pod if the total requested resources do not exceed the node's allocatable resources",
            cpuMem(1 + 1, 0),
            Outcome.FIT),
        argumentSet(
            "not allow pod if the total requested resources do exceed the node's allocatable resources",
            cpuMem(1 + 2, 0),
            Outcome.unresolvable("Insufficient cpu")));
  }

  @ParameterizedTest
  @MethodSource("restartableInitContainers")
  void kube_scheduler_restartable_init_containers_case(Resources pod, Outcome expected) {
    var node = nodeWith(new Resources(2, 0, 0, 1, Map.of()), null);

    assertOutcome(expected, new NodeResourcesFitFilter().filter(requesting(pod), node));
  }

  // ---------------------------------------------------------------- edge cases

  @Test
  void every_insufficient_resource_is_reported_in_kube_schedulers_order() {
    var node =
        nodeWith(new Resources(1, 1, 1, 1, Map.of()), requests(1, 1, 1, Map.of("b.io/y", 1L, "a.io/x", 1L)));
    var pod = requesting(requests(1, 1, 1, Map.of("b.io/y", 1L, "a.io/x", 1L)));

    assertOutcome(
        Outcome.unresolvable(
            "Too many pods",
            "Insufficient cpu",
            "Insufficient memory",
            "Insufficient ephemeral-storage",
            "Insufficient a.io/x",
            "Insufficient b.io/y"),
        new NodeResourcesFitFilter().filter(pod, node));
  }

  @Test
  void a_pod_requesting_nothing_is_still_counted_against_the_pod_limit() {
    assertOutcome(
        Outcome.unschedulable("Too many pods"),
        new NodeResourcesFitFilter()
            .filter(requesting(NOTHING), nodeWith(new Resources(0, 0, 0, 0, Map.of()), null)));
  }

  @Test
  void the_pod_limit_never_makes_a_rejection_unresolvable() {
    var node = nodeWith(new Resources(10, 10, 0, 0, Map.of()), null);

    var result = new NodeResourcesFitFilter().filter(requesting(cpuMem(1, 1)), node);

    assertEquals(Code.UNSCHEDULABLE, result.code());
  }

  @Test
  void one_request_beyond_the_whole_allocatable_makes_the_rejection_unresolvable() {
    var node = nodeWith(new Resources(10, 10, 0, 32, Map.of()), cpuMem(10, 10));

    assertOutcome(
        Outcome.unresolvable("Insufficient cpu", "Insufficient memory"),
        new NodeResourcesFitFilter().filter(requesting(cpuMem(1, 11)), node));
  }

  @Test
  void an_overcommitted_node_has_room_for_nothing() {
    var node = nodeWith(new Resources(10, 10, 0, 32, Map.of()), cpuMem(12, 0));

    assertOutcome(
        Outcome.unschedulable("Insufficient cpu"),
        new NodeResourcesFitFilter().filter(requesting(cpuMem(1, 0)), node));
  }

  @Test
  void a_huge_request_does_not_overflow() {
    var node = nodeWith(new Resources(Long.MAX_VALUE, 10, 0, 32, Map.of()), cpuMem(Long.MAX_VALUE, 0));

    assertOutcome(
        Outcome.unschedulable("Insufficient cpu"),
        new NodeResourcesFitFilter().filter(requesting(cpuMem(Long.MAX_VALUE, 0)), node));
  }

  @Test
  void ignored_resources_never_skip_hugepages_or_kubernetes_io_resources() {
    var filter =
        new NodeResourcesFitFilter(
            List.of(HUGEPAGES, KUBE_IO_B), List.of("kubernetes.io", "subdomain.kubernetes.io"));
    var pod = requesting(requests(0, 0, 0, Map.of(HUGEPAGES, 9L, KUBE_IO_B, 1L, KUBE_IO_A, 1L)));

    assertOutcome(
        Outcome.unresolvable(
            "Insufficient hugepages-2Mi",
            "Insufficient kubernetes.io/something",
            "Insufficient subdomain.kubernetes.io/something"),
        filter.filter(pod, nodeWith(ALLOCATABLE, null)));
  }

  @Test
  void an_ignored_group_is_the_part_before_the_slash_only() {
    var filter = new NodeResourcesFitFilter(List.of(), List.of("example"));
    var pod = requesting(with(0, 0, EXTENDED_B, 1));

    assertOutcome(
        Outcome.unresolvable("Insufficient example.com/bbb"), filter.filter(pod, nodeWith(ALLOCATABLE, null)));
  }

  @Test
  void the_kubernetes_extended_resource_rule_is_followed() {
    assertTrue(NodeResourcesFitFilter.isExtendedResourceName("example.com/gpu"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("hugepages-2Mi"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("kubernetes.io/x"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("a.kubernetes.io/x"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("requests.example.com/x"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("Example.com/x"));
    assertTrue(!NodeResourcesFitFilter.isExtendedResourceName("example.com/-x"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/b/c", "/x", "Example.com/x", "example.com/", "x_"})
  void an_invalid_ignored_resource_is_rejected_naming_the_argument(String name) {
    var error =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NodeResourcesFitFilter(List.of("ok.io/a", name), List.of()));

    assertTrue(error.getMessage().startsWith("ignoredResources[1]"), error.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "example.com/x", "-x"})
  void an_invalid_ignored_resource_group_is_rejected_naming_the_argument(String group) {
    var error =
        assertThrows(
            IllegalArgumentException.class, () -> new NodeResourcesFitFilter(List.of(), List.of(group)));

    assertTrue(error.getMessage().startsWith("ignoredResourceGroups[0]"), error.getMessage());
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("NodeResourcesFit", new NodeResourcesFitFilter().name());
  }
}
