package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.node;
import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.resources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.MalformedObjectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What cannot be read is reported as a {@link MalformedObjectException} naming object, field and value. */
class MalformedInputTest {

  private static MalformedObjectException readingPod(Pod pod) {
    return assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));
  }

  private static MalformedObjectException readingNode(Node node) {
    return assertThrows(MalformedObjectException.class, () -> NodeAdapter.toNodeInfo(node, List.of()));
  }

  private static void assertNames(MalformedObjectException e, String object, String field, String value) {
    assertEquals(object, e.object());
    assertEquals(field, e.field());
    assertEquals(value, e.value());
    var message = e.getMessage();
    assertTrue(message.startsWith(object + ": " + field + " '" + value + "'"), message);
  }

  @Test
  void a_malformed_container_cpu_request_names_pod_container_resource_and_value() {
    var e = readingPod(pod("shop", "cart").container("app", "cpu", "12x", "memory", "1Gi").build());

    assertNames(e, "pod shop/cart", "spec.containers[app].resources.requests[cpu]", "12x");
    assertEquals("pod shop/cart: spec.containers[app].resources.requests[cpu] '12x' is not a valid quantity", e.getMessage());
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
  }

  @Test
  void effective_requests_report_the_same_malformed_quantity() {
    var pod = pod("shop", "cart").container("app", "cpu", "12x").build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.effectiveRequests(pod));

    assertNames(e, "pod shop/cart", "spec.containers[app].resources.requests[cpu]", "12x");
  }

  @Test
  void a_malformed_init_container_memory_request_names_the_init_container() {
    var e = readingPod(pod().container("app", "memory", "1Gi").initContainer("init", "memory", "1.5.5").build());

    assertNames(e, "pod default/web", "spec.initContainers[init].resources.requests[memory]", "1.5.5");
  }

  @Test
  void a_malformed_sidecar_request_names_the_sidecar() {
    var e = readingPod(pod().sidecar("proxy", "ephemeral-storage", " 1").build());

    assertNames(e, "pod default/web", "spec.initContainers[proxy].resources.requests[ephemeral-storage]", " 1");
  }

  @Test
  void a_negative_overhead_names_the_overhead() {
    var e = readingPod(pod().container("app", "cpu", "1").overhead("cpu", "-1").build());

    assertNames(e, "pod default/web", "spec.overhead[cpu]", "-1");
    assertTrue(e.getMessage().endsWith("must not be negative"), e.getMessage());
  }

  @Test
  void a_malformed_extended_resource_names_it() {
    var e = readingPod(pod().container("app", "nvidia.com/gpu", "m").build());

    assertNames(e, "pod default/web", "spec.containers[app].resources.requests[nvidia.com/gpu]", "m");
  }

  @Test
  void an_empty_quantity_is_malformed() {
    var e = readingPod(pod().container("app", "memory", "").build());

    assertNames(e, "pod default/web", "spec.containers[app].resources.requests[memory]", "");
  }

  @Test
  void a_limit_that_stands_for_an_unset_request_is_read() {
    var e = readingPod(pod().container("app", Map.of(), resources("cpu", "12x")).build());

    assertEquals("pod default/web", e.object());
    assertEquals("12x", e.value());
    assertTrue(e.field().startsWith("spec.containers[app].resources."), e.field());
    assertTrue(e.field().endsWith("[cpu]"), e.field());
  }

  @Test
  void a_malformed_limit_is_reported_at_the_limit() {
    var e = readingPod(pod().container("app", Map.of(), resources("cpu", "12x")).build());

    assertNames(e, "pod default/web", "spec.containers[app].resources.limits[cpu]", "12x");
  }

  @Test
  void a_toleration_with_an_unknown_operator_names_its_index_and_operator() {
    var e =
        readingPod(
            pod().toleration("k", "Exists", null, "NoSchedule").toleration("k", "Like", "v", "NoSchedule").build());

    assertNames(e, "pod default/web", "spec.tolerations[1].operator", "Like");
  }

  @Test
  void a_toleration_with_an_unknown_effect_names_its_index_and_effect() {
    var e = readingPod(pod().toleration("k", "Equal", "v", "NoWay").build());

    assertNames(e, "pod default/web", "spec.tolerations[0].effect", "NoWay");
  }

  @Test
  void a_toleration_effect_is_case_sensitive() {
    var e = readingPod(pod().toleration("k", "Exists", null, "noschedule").build());

    assertNames(e, "pod default/web", "spec.tolerations[0].effect", "noschedule");
  }

  @Test
  void a_host_port_out_of_range_names_the_container() {
    var app =
        new ContainerBuilder()
            .withName("app")
            .withPorts(new ContainerPortBuilder().withContainerPort(80).withHostPort(70000).build())
            .build();

    var e = readingPod(pod().container(app).build());

    assertNames(e, "pod default/web", "spec.containers[app].ports.hostPort", "70000");
  }

  @Test
  void a_negative_host_port_is_malformed() {
    var app =
        new ContainerBuilder()
            .withName("app")
            .withPorts(new ContainerPortBuilder().withContainerPort(80).withHostPort(-1).build())
            .build();

    assertNames(readingPod(pod().container(app).build()), "pod default/web", "spec.containers[app].ports.hostPort", "-1");
  }

  @Test
  void a_node_taint_with_an_unknown_effect_names_the_node_and_taint() {
    var e = readingNode(node("n1").taint("ok", "", "NoSchedule").taint("k", "v", "Sometimes").build());

    assertNames(e, "node n1", "spec.taints[1].effect", "Sometimes");
  }

  @Test
  void a_node_taint_without_effect_is_malformed() {
    var e = readingNode(node("n1").taint("k", "v", null).build());

    assertNames(e, "node n1", "spec.taints[0].effect", "");
  }

  @Test
  void a_node_taint_without_key_is_malformed() {
    var e = readingNode(node("n1").taint("", "v", "NoSchedule").build());

    assertNames(e, "node n1", "spec.taints[0].key", "");
  }

  @Test
  void a_malformed_allocatable_memory_names_the_node() {
    var e = readingNode(node("n1").allocatable("cpu", "4", "memory", "12x").build());

    assertNames(e, "node n1", "status.allocatable[memory]", "12x");
    assertTrue(e.getMessage().startsWith("node n1: status.allocatable[memory] '12x'"), e.getMessage());
  }

  @Test
  void a_malformed_allocatable_pod_count_names_the_node() {
    var e = readingNode(node("n1").allocatable("pods", "1.1.0").build());

    assertNames(e, "node n1", "status.allocatable[pods]", "1.1.0");
  }
}
