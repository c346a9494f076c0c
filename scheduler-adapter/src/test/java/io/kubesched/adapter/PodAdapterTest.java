package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.kubesched.api.ContainerRequests;
import io.kubesched.api.HostPort;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.Resources;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PodAdapter#toPodInfo}: every field a placement policy sees. */
class PodAdapterTest {

  private static ContainerBuilder containerWithPorts(String name) {
    return new ContainerBuilder().withName(name).withImage("nginx");
  }

  private static ContainerPortBuilder port(int containerPort) {
    return new ContainerPortBuilder().withContainerPort(containerPort);
  }

  @Test
  void namespace_name_uid_labels_and_node_selector_are_copied() {
    var pod =
        pod("shop", "cart")
            .label("app", "cart")
            .label("tier", "back")
            .nodeSelector("disktype", "ssd")
            .container("app", "cpu", "100m");

    PodInfo info = PodAdapter.toPodInfo(pod.build());

    assertEquals("shop", info.namespace());
    assertEquals("cart", info.name());
    assertEquals("uid-cart", info.uid());
    assertEquals("shop/cart", info.key());
    assertEquals(Map.of("app", "cart", "tier", "back"), info.labels());
    assertEquals(Map.of("disktype", "ssd"), info.nodeSelector());
  }

  @Test
  void a_pod_without_labels_or_node_selector_has_empty_ones() {
    var info = PodAdapter.toPodInfo(pod().build());

    assertEquals(Map.of(), info.labels());
    assertEquals(Map.of(), info.nodeSelector());
    assertEquals(List.of(), info.tolerations());
    assertEquals(List.of(), info.hostPorts());
  }

  @Test
  void the_scheduler_name_defaults_to_default_scheduler_when_unset() {
    assertEquals("default-scheduler", PodAdapter.toPodInfo(pod().build()).schedulerName());
  }

  @Test
  void an_empty_scheduler_name_is_the_default_scheduler() {
    assertEquals("default-scheduler", PodAdapter.toPodInfo(pod().schedulerName("").build()).schedulerName());
  }

  @Test
  void a_pod_without_spec_asks_for_the_default_scheduler() {
    var pod = pod().build();
    pod.setSpec(null);

    assertEquals("default-scheduler", PodAdapter.schedulerName(pod));
    assertEquals(0, PodAdapter.toPodInfo(pod).priority());
  }

  @Test
  void a_named_scheduler_is_kept() {
    assertEquals("my-scheduler", PodAdapter.toPodInfo(pod().schedulerName("my-scheduler").build()).schedulerName());
  }

  @Test
  void priority_defaults_to_zero() {
    assertEquals(0, PodAdapter.toPodInfo(pod().priority(null).build()).priority());
  }

  @Test
  void priority_is_kept() {
    assertEquals(1000, PodAdapter.toPodInfo(pod().priority(1000).build()).priority());
    assertEquals(-5, PodAdapter.toPodInfo(pod().priority(-5).build()).priority());
  }

  @Test
  void only_ports_with_a_positive_host_port_are_host_ports() {
    var app =
        containerWithPorts("app")
            .withPorts(
                port(8080).build(),
                port(8081).withHostPort(0).build(),
                port(80).withHostPort(80).build())
            .build();

    assertEquals(List.of(new HostPort("TCP", "0.0.0.0", 80)), PodAdapter.toPodInfo(pod().container(app).build()).hostPorts());
  }

  @Test
  void a_host_port_defaults_to_tcp_on_every_address() {
    var app = containerWithPorts("app").withPorts(port(80).withHostPort(8080).build()).build();

    var ports = PodAdapter.toPodInfo(pod().container(app).build()).hostPorts();

    assertEquals(List.of(new HostPort("TCP", HostPort.ALL_ADDRESSES, 8080)), ports);
  }

  @Test
  void a_host_port_keeps_its_protocol_and_address() {
    var dns =
        containerWithPorts("dns")
            .withPorts(
                port(53).withHostPort(53).withProtocol("UDP").withHostIP("10.0.0.1").build(),
                port(9000).withHostPort(9000).withProtocol("SCTP").withHostIP("").build())
            .build();

    var ports = PodAdapter.toPodInfo(pod().container(dns).build()).hostPorts();

    assertEquals(List.of(new HostPort("UDP", "10.0.0.1", 53), new HostPort("SCTP", "0.0.0.0", 9000)), ports);
  }

  @Test
  void host_ports_of_every_container_are_collected_in_order() {
    var a = containerWithPorts("a").withPorts(port(80).withHostPort(80).build()).build();
    var b = containerWithPorts("b").withPorts(port(443).withHostPort(443).build()).build();

    var ports = PodAdapter.toPodInfo(pod().container(a).container(b).build()).hostPorts();

    assertEquals(List.of(new HostPort("TCP", "0.0.0.0", 80), new HostPort("TCP", "0.0.0.0", 443)), ports);
  }

  @Test
  void an_ordinary_init_container_binds_no_host_port_once_the_pod_runs() {
    var init = containerWithPorts("init").withPorts(port(8081).withHostPort(8081).build()).build();

    assertEquals(List.of(), PodAdapter.toPodInfo(pod().initContainer(init).build()).hostPorts());
  }

  @Test
  void a_sidecar_binds_its_host_ports_for_the_pod_s_life() {
    var sidecar =
        containerWithPorts("proxy").withRestartPolicy("Always").withPorts(port(8081).withHostPort(8081).build()).build();

    assertEquals(
        List.of(new HostPort("TCP", "0.0.0.0", 8081)),
        PodAdapter.toPodInfo(pod().initContainer(sidecar).build()).hostPorts());
  }

  @Test
  void the_containers_requesting_scalar_resources_are_kept_numbered_init_containers_first() {
    var pod = pod()
        .initContainer("setup", "example.com/gpu", "2")
        .sidecar("proxy", "cpu", "100m")
        .container("main", "cpu", "1", "example.com/gpu", "1", "memory", "1Gi")
        .container("idle", "example.com/gpu", "0")
        .build();

    assertEquals(
        List.of(
            new ContainerRequests(0, "setup", true, false, List.of("example.com/gpu"), Map.of("example.com/gpu", 2L)),
            new ContainerRequests(2, "main", false, false, List.of("cpu", "example.com/gpu", "memory"),
                Map.of("example.com/gpu", 1L))),
        PodAdapter.toPodInfo(pod).containerRequests());
  }

  @Test
  void a_sidecar_requesting_a_scalar_resource_is_marked_as_one() {
    var pod = pod().sidecar("proxy", "example.com/nic", "1").container("main", "cpu", "1").build();

    assertEquals(
        List.of(new ContainerRequests(0, "proxy", true, true, List.of("example.com/nic"), Map.of("example.com/nic", 1L))),
        PodAdapter.toPodInfo(pod).containerRequests());
  }

  @Test
  void a_pod_without_scalar_requests_keeps_no_container() {
    assertEquals(List.of(), PodAdapter.toPodInfo(pod().container("main", "cpu", "1").build()).containerRequests());
  }

  @Test
  void tolerations_are_mapped() {
    var pod =
        pod()
            .toleration("dedicated", "Equal", "gpu", "NoSchedule")
            .toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute")
            .toleration("soft", null, "yes", "PreferNoSchedule")
            .toleration(null, "Exists", null, null)
            .toleration("any-effect", "Equal", "v", "");

    var tolerations = PodAdapter.toPodInfo(pod.build()).tolerations();

    assertEquals(
        List.of(
            new Toleration("dedicated", Toleration.Operator.EQUAL, "gpu", TaintEffect.NO_SCHEDULE),
            new Toleration("node.kubernetes.io/unreachable", Toleration.Operator.EXISTS, "", TaintEffect.NO_EXECUTE),
            new Toleration("soft", Toleration.Operator.EQUAL, "yes", TaintEffect.PREFER_NO_SCHEDULE),
            new Toleration("", Toleration.Operator.EXISTS, "", null),
            new Toleration("any-effect", Toleration.Operator.EQUAL, "v", null)),
        tolerations);
  }

  @Test
  void extended_resources_and_hugepages_are_kept() {
    var pod =
        pod()
            .container(
                "app",
                "cpu", "1",
                "nvidia.com/gpu", "2",
                "hugepages-2Mi", "4Mi",
                "attachable-volumes-aws-ebs", "3");

    var requests = PodAdapter.toPodInfo(pod.build()).requests();

    assertEquals(
        new Resources(
            1000, 0, 0, 1, Map.of("nvidia.com/gpu", 2L, "hugepages-2Mi", 4L << 20, "attachable-volumes-aws-ebs", 3L)),
        requests);
  }

  @Test
  void unknown_resources_without_a_domain_are_ignored() {
    var pod = pod().container("app", "memory", "1Ki", "foo", "7", "gpu", "1");

    assertEquals(new Resources(0, 1024, 0, 1, Map.of()), PodAdapter.toPodInfo(pod.build()).requests());
  }

  @Test
  void a_malformed_quantity_is_reported_even_for_a_resource_the_scheduler_ignores() {
    // The API server refuses such a pod; a server that does not (the fake) must not make us guess.
    var pod = pod().container("app", "memory", "1Ki", "foo", "not-a-quantity");

    var error = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod.build()));
    assertEquals("spec.containers[app].resources.requests[foo]", error.field());
    assertEquals("not-a-quantity", error.value());
  }

  @Test
  void the_requests_are_the_effective_requests() {
    var pod =
        pod()
            .sidecar("proxy", "cpu", "100m")
            .initContainer("init", "cpu", "1", "memory", "1Gi")
            .container("app", "cpu", "500m", "memory", "2Gi")
            .overhead("cpu", "50m")
            .build();

    assertEquals(PodAdapter.effectiveRequests(pod), PodAdapter.toPodInfo(pod).requests());
    assertEquals(new Resources(1150, 2L << 30, 0, 1, Map.of()), PodAdapter.toPodInfo(pod).requests());
  }

  @Test
  void the_owner_is_the_reference_marked_as_controller() {
    var pod =
        pod()
            .owner("ConfigMap", "settings", "uid-cm", null)
            .owner("Node", "n1", "uid-n1", false)
            .owner("ReplicaSet", "web-5d8f", "uid-rs", true);

    assertEquals(new Owner("ReplicaSet", "web-5d8f", "uid-rs"), PodAdapter.toPodInfo(pod.build()).owner());
  }

  @Test
  void a_pod_whose_owners_are_no_controllers_has_no_owner() {
    var pod = pod().owner("ConfigMap", "settings", "uid-cm", false).owner("Secret", "s", "uid-s", null);

    assertNull(PodAdapter.toPodInfo(pod.build()).owner());
    assertNull(PodAdapter.toPodInfo(pod().build()).owner());
  }

  @Test
  void the_first_controller_is_the_owner_should_there_be_several() {
    var pod = pod().owner("StatefulSet", "db", "uid-1", true).owner("ReplicaSet", "rs", "uid-2", true);

    assertEquals(new Owner("StatefulSet", "db", "uid-1"), PodAdapter.toPodInfo(pod.build()).owner());
  }

  @Test
  void the_node_name_is_copied_and_empty_when_unset() {
    assertEquals("n1", PodAdapter.toPodInfo(pod().nodeName("n1").build()).nodeName());
    assertEquals("", PodAdapter.toPodInfo(pod().build()).nodeName());
  }

  @Test
  void images_are_those_of_the_containers_then_of_the_init_containers() {
    var pod =
        pod()
            .initContainer(new ContainerBuilder().withName("migrate").withImage("flyway:10").build())
            .container(new ContainerBuilder().withName("app").withImage("nginx:1.27").build())
            .initContainer(
                new ContainerBuilder().withName("proxy").withImage("envoy@sha256:abc").withRestartPolicy("Always").build())
            .container(new ContainerBuilder().withName("log").withImage("fluent-bit").build());

    assertEquals(
        List.of("nginx:1.27", "fluent-bit", "flyway:10", "envoy@sha256:abc"), PodAdapter.toPodInfo(pod.build()).images());
  }

  @Test
  void images_are_kept_as_written_and_an_unset_image_is_empty() {
    var pod =
        pod()
            .container(new ContainerBuilder().withName("a").withImage("docker.io/library/nginx").build())
            .container(new ContainerBuilder().withName("b").build());

    assertEquals(List.of("docker.io/library/nginx", ""), PodAdapter.toPodInfo(pod.build()).images());
  }

  @Test
  void describe_names_the_pod_by_namespace_and_name() {
    assertEquals("pod shop/cart", PodAdapter.describe(pod("shop", "cart").build()));
  }

  // ---- what preemption reads

  @Test
  void a_pod_without_preemption_policy_may_preempt_lower_priority_pods() {
    var info = PodAdapter.toPodInfo(pod().build());

    assertEquals(PreemptionPolicy.PREEMPT_LOWER_PRIORITY, info.preemptionPolicy());
    assertNull(info.startTime());
    assertEquals("", info.nominatedNodeName());
    assertFalse(info.preemptedByScheduler());
  }

  @Test
  void the_preemption_policy_is_read_by_its_api_name() {
    assertEquals(
        PreemptionPolicy.NEVER, PodAdapter.toPodInfo(pod().preemptionPolicy("Never").build()).preemptionPolicy());
    assertEquals(
        PreemptionPolicy.PREEMPT_LOWER_PRIORITY,
        PodAdapter.toPodInfo(pod().preemptionPolicy("PreemptLowerPriority").build()).preemptionPolicy());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "never", "PreemptNever", "PreemptLowerPriority "})
  void a_preemption_policy_the_api_server_would_refuse_is_malformed(String policy) {
    var e =
        assertThrows(
            MalformedObjectException.class,
            () -> PodAdapter.toPodInfo(pod("shop", "cart").preemptionPolicy(policy).build()));

    assertEquals("pod shop/cart", e.object());
    assertEquals("spec.preemptionPolicy", e.field());
    assertEquals(policy, e.value());
    assertEquals(
        "pod shop/cart: spec.preemptionPolicy '" + policy + "' is not PreemptLowerPriority or Never", e.getMessage());
  }

  @Test
  void the_start_time_is_read_as_rfc_3339() {
    assertEquals(
        Instant.parse("2026-03-02T09:14:31Z"),
        PodAdapter.toPodInfo(pod().startTime("2026-03-02T09:14:31Z").build()).startTime());
    assertEquals(
        Instant.parse("2026-03-02T07:44:31.250Z"),
        PodAdapter.toPodInfo(pod().startTime("2026-03-02T09:14:31.25+01:30").build()).startTime());
    assertEquals(
        Instant.parse("2026-03-02T09:14:31.123456789Z"),
        PodAdapter.toPodInfo(pod().startTime("2026-03-02T09:14:31.123456789Z").build()).startTime());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "yesterday", "2026-03-02", "2026-03-02 09:14:31Z", "2026-03-02T09:14Z", "2026-03-02T09:14:31",
        "2026-02-30T09:14:31Z", "2026-03-02T25:14:31Z", "2026-03-02T09:14:31.Z", "2026-03-02T09:14:31+0100"
      })
  void a_start_time_that_is_not_rfc_3339_is_malformed(String startTime) {
    var e = assertMalformedStartTime(startTime);

    assertEquals("pod shop/cart: status.startTime '" + startTime + "' is not an RFC 3339 time", e.getMessage());
  }

  /**
   * Asserts that the pod shop/cart with {@code startTime} is malformed, naming the pod, the field and the value.
   *
   * @return the exception, for further checks
   */
  static MalformedObjectException assertMalformedStartTime(String startTime) {
    var e =
        assertThrows(
            MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod("shop", "cart").startTime(startTime).build()));

    assertEquals("pod shop/cart", e.object());
    assertEquals("status.startTime", e.field());
    assertEquals(startTime, e.value());
    return e;
  }

  @Test
  void the_nominated_node_is_copied_and_empty_when_unset() {
    assertEquals("n2", PodAdapter.toPodInfo(pod().nominatedNodeName("n2").build()).nominatedNodeName());
    assertEquals("", PodAdapter.toPodInfo(pod().startTime("2026-03-02T09:14:31Z").build()).nominatedNodeName());
  }

  @Test
  void a_pod_without_status_has_none_of_the_status_fields() {
    var pod = pod().build();
    pod.setStatus(null);

    var info = PodAdapter.toPodInfo(pod);

    assertNull(info.startTime());
    assertEquals("", info.nominatedNodeName());
    assertFalse(info.preemptedByScheduler());
  }

  /**
   * kube's {@code TestPodTerminatingByPreemption} (framework/preemption/util_test.go): terminating by preemption
   * is a deletion timestamp and a {@code DisruptionTarget} condition with status {@code True} and reason {@code
   * PreemptionByScheduler}.
   */
  static Stream<Arguments> podTerminatingByPreemption() {
    return Stream.of(
        Arguments.of("pod without DeletionTimestamp", pod("default", "p1"), false),
        Arguments.of(
            "pod with DeletionTimestamp but no DisruptionTarget condition", pod("default", "p1").terminating(), false),
        Arguments.of(
            "pod with DeletionTimestamp, DisruptionTarget condition status False",
            pod("default", "p1").terminating().condition("DisruptionTarget", "False", "PreemptionByScheduler"),
            false),
        Arguments.of(
            "pod with DeletionTimestamp, DisruptionTarget condition reason not PreemptionByScheduler",
            pod("default", "p1").terminating().condition("DisruptionTarget", "True", "SomeOtherReason"),
            false),
        Arguments.of(
            "pod with DeletionTimestamp, DisruptionTarget condition status True and reason PreemptionByScheduler",
            pod("default", "p1").terminating().condition("DisruptionTarget", "True", "PreemptionByScheduler"),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podTerminatingByPreemption")
  void terminating_by_preemption_as_kube_tells_it(String name, Fixtures.PodFixture pod, boolean want) {
    assertEquals(want, PodAdapter.toPodInfo(pod.build()).terminatingByPreemption());
  }

  @Test
  void the_disruption_target_mark_is_read_without_a_deletion_timestamp_too() {
    var info =
        PodAdapter.toPodInfo(pod().condition("DisruptionTarget", "True", "PreemptionByScheduler").build());

    assertTrue(info.preemptedByScheduler());
    assertFalse(info.terminating());
    assertFalse(info.terminatingByPreemption());
  }

  @Test
  void only_the_first_disruption_target_condition_counts_as_kube_reads_it() {
    var first =
        pod().condition("DisruptionTarget", "False", "PreemptionByScheduler")
            .condition("DisruptionTarget", "True", "PreemptionByScheduler");
    var second =
        pod().condition("PodScheduled", "True", "")
            .condition("DisruptionTarget", "True", "PreemptionByScheduler")
            .condition("DisruptionTarget", "False", "EvictionByEvictionAPI");

    assertFalse(PodAdapter.toPodInfo(first.build()).preemptedByScheduler());
    assertTrue(PodAdapter.toPodInfo(second.build()).preemptedByScheduler());
  }
}
