package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The value types: they copy what they are given, and validate it. */
class RecordsTest {

  private static final Toleration TOLERATE_ALL = new Toleration("", Toleration.Operator.EXISTS, "", null);
  private static final HostPort HTTP = new HostPort("TCP", HostPort.ALL_ADDRESSES, 80);

  private static PodInfo pod(String name, Resources requests, HostPort... ports) {
    return PodInfo.builder("default", name)
        .uid("uid-" + name)
        .schedulerName("my-scheduler")
        .requests(requests)
        .hostPorts(List.of(ports))
        .build();
  }

  private static NodeInfo node(List<PodInfo> pods) {
    return NodeInfo.of("n1", Map.of("zone", "a"), List.of(), false, Resources.of(4000, 8L << 30), pods);
  }

  @Test
  void pod_info_copies_its_maps_and_lists() {
    var labels = new HashMap<>(Map.of("app", "web"));
    var nodeSelector = new HashMap<>(Map.of("zone", "a"));
    var tolerations = new ArrayList<>(List.of(TOLERATE_ALL));
    var hostPorts = new ArrayList<>(List.of(HTTP));
    var pod =
        PodInfo.builder("default", "web")
            .labels(labels)
            .nodeSelector(nodeSelector)
            .tolerations(tolerations)
            .hostPorts(hostPorts)
            .build();

    labels.put("tier", "front");
    nodeSelector.clear();
    tolerations.clear();
    hostPorts.add(new HostPort("UDP", "10.0.0.1", 53));

    assertEquals(Map.of("app", "web"), pod.labels());
    assertEquals(Map.of("zone", "a"), pod.nodeSelector());
    assertEquals(List.of(TOLERATE_ALL), pod.tolerations());
    assertEquals(List.of(HTTP), pod.hostPorts());
  }

  @Test
  void pod_info_collections_cannot_be_modified() {
    var pod = pod("web", Resources.ZERO, HTTP);

    assertThrows(UnsupportedOperationException.class, () -> pod.labels().put("a", "b"));
    assertThrows(UnsupportedOperationException.class, () -> pod.hostPorts().clear());
  }

  @Test
  void a_pod_key_is_namespace_slash_name() {
    assertEquals("default/web", pod("web", Resources.ZERO).key());
  }

  @Test
  void node_info_copies_its_labels_taints_and_pods() {
    var labels = new HashMap<>(Map.of("zone", "a"));
    var taints = new ArrayList<>(List.of(new Taint("k", "v", TaintEffect.NO_SCHEDULE)));
    var pods = new ArrayList<>(List.of(pod("a", Resources.of(100, 0))));
    var node = NodeInfo.of("n1", labels, taints, false, Resources.ZERO, pods);

    labels.clear();
    taints.clear();
    pods.add(pod("b", Resources.of(200, 0)));

    assertEquals(Map.of("zone", "a"), node.labels());
    assertEquals(List.of(new Taint("k", "v", TaintEffect.NO_SCHEDULE)), node.taints());
    assertEquals(1, node.pods().size());
    assertEquals(Resources.of(100, 0), node.requested());
  }

  @Test
  void node_info_of_sums_the_requests_of_its_pods() {
    var a = pod("a", new Resources(500, 1L << 30, 0, 1, Map.of("nvidia.com/gpu", 1L)));
    var b = pod("b", new Resources(250, 512L << 20, 1000, 1, Map.of("hugepages-2Mi", 2L << 20)));

    var node = node(List.of(a, b));

    assertEquals(
        new Resources(
            750, (1L << 30) + (512L << 20), 1000, 2, Map.of("nvidia.com/gpu", 1L, "hugepages-2Mi", 2L << 20)),
        node.requested());
    assertEquals(List.of(a, b), node.pods());
  }

  @Test
  void a_node_without_pods_requests_nothing() {
    assertEquals(Resources.ZERO, node(List.of()).requested());
  }

  @Test
  void with_pod_adds_the_pod_and_its_requests_and_leaves_the_node_unchanged() {
    var a = pod("a", new Resources(500, 100, 0, 1, Map.of()));
    var b = pod("b", new Resources(300, 50, 0, 1, Map.of("nvidia.com/gpu", 2L)));
    var node = node(List.of(a));

    var more = node.withPod(b);

    assertEquals(new Resources(800, 150, 0, 2, Map.of("nvidia.com/gpu", 2L)), more.requested());
    assertEquals(List.of(a, b), more.pods());
    assertEquals(node.name(), more.name());
    assertEquals(node.labels(), more.labels());
    assertEquals(node.allocatable(), more.allocatable());
    assertEquals(new Resources(500, 100, 0, 1, Map.of()), node.requested());
    assertEquals(List.of(a), node.pods());
  }

  @Test
  void used_host_ports_are_those_of_every_pod() {
    var dns = new HostPort("UDP", "10.0.0.1", 53);
    var node = node(List.of(pod("a", Resources.ZERO, HTTP), pod("b", Resources.ZERO), pod("c", Resources.ZERO, dns)));

    assertEquals(List.of(HTTP, dns), node.usedHostPorts());
  }

  @Test
  void host_ports_from_1_to_65535_are_valid() {
    assertEquals(1, new HostPort("TCP", "0.0.0.0", 1).port());
    assertEquals(65535, new HostPort("TCP", "0.0.0.0", 65535).port());
  }

  @Test
  void host_ports_outside_1_to_65535_are_rejected() {
    assertThrows(IllegalArgumentException.class, () -> new HostPort("TCP", "0.0.0.0", 0));
    assertThrows(IllegalArgumentException.class, () -> new HostPort("TCP", "0.0.0.0", 65536));
    assertThrows(IllegalArgumentException.class, () -> new HostPort("TCP", "0.0.0.0", -80));
  }

  @Test
  void host_ports_need_a_protocol_and_an_address() {
    assertThrows(IllegalArgumentException.class, () -> new HostPort("", "0.0.0.0", 80));
    assertThrows(IllegalArgumentException.class, () -> new HostPort("TCP", "", 80));
  }

  @Test
  void a_taint_needs_a_key() {
    assertThrows(IllegalArgumentException.class, () -> new Taint("", "v", TaintEffect.NO_SCHEDULE));
  }

  @Test
  void a_taint_prints_as_kube_scheduler_quotes_it() {
    assertEquals("{k: v}", new Taint("k", "v", TaintEffect.NO_SCHEDULE).toString());
    assertEquals("{k}", new Taint("k", "", TaintEffect.NO_EXECUTE).toString());
  }

  @Test
  void a_malformed_object_exception_keeps_object_field_and_value() {
    var cause = new IllegalArgumentException("x");
    var e =
        new MalformedObjectException(
            "pod default/web", "spec.containers[app].resources.requests[cpu]", "12x", "is bad", cause);

    assertEquals("pod default/web", e.object());
    assertEquals("spec.containers[app].resources.requests[cpu]", e.field());
    assertEquals("12x", e.value());
    assertEquals("pod default/web: spec.containers[app].resources.requests[cpu] '12x' is bad", e.getMessage());
    assertEquals(cause, e.getCause());
    assertTrue(e instanceof SchedulerException);
  }
}
