package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.node;
import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link NodeAdapter#toNodeInfo}. */
class NodeAdapterTest {

  private static final long GI = 1L << 30;

  @Test
  void allocatable_is_read_with_the_pod_count_and_extended_resources() {
    var node =
        node("n1")
            .allocatable(
                "cpu", "3920m",
                "memory", "8Gi",
                "ephemeral-storage", "100Gi",
                "pods", "110",
                "nvidia.com/gpu", "2",
                "hugepages-1Gi", "2Gi",
                "foo", "9")
            .build();

    var info = NodeAdapter.toNodeInfo(node, List.of());

    assertEquals(
        new Resources(3920, 8 * GI, 100 * GI, 110, Map.of("nvidia.com/gpu", 2L, "hugepages-1Gi", 2 * GI)),
        info.allocatable());
  }

  @Test
  void a_node_without_status_offers_nothing() {
    assertEquals(Resources.ZERO, NodeAdapter.toNodeInfo(node("n1").build(), List.of()).allocatable());
  }

  @Test
  void name_and_labels_are_copied() {
    var info = NodeAdapter.toNodeInfo(node("n1").label("zone", "a").label("disktype", "ssd").build(), List.of());

    assertEquals("n1", info.name());
    assertEquals(Map.of("zone", "a", "disktype", "ssd"), info.labels());
  }

  @Test
  void a_node_without_labels_or_taints_has_empty_ones() {
    var info = NodeAdapter.toNodeInfo(node("n1").build(), List.of());

    assertEquals(Map.of(), info.labels());
    assertEquals(List.of(), info.taints());
  }

  @Test
  void taints_are_mapped_with_their_effects_and_an_empty_value_when_unset() {
    var node =
        node("n1")
            .taint("dedicated", "gpu", "NoSchedule")
            .taint("node.kubernetes.io/unreachable", null, "NoExecute")
            .taint("soft", "", "PreferNoSchedule")
            .build();

    assertEquals(
        List.of(
            new Taint("dedicated", "gpu", TaintEffect.NO_SCHEDULE),
            new Taint("node.kubernetes.io/unreachable", "", TaintEffect.NO_EXECUTE),
            new Taint("soft", "", TaintEffect.PREFER_NO_SCHEDULE)),
        NodeAdapter.toNodeInfo(node, List.of()).taints());
  }

  @Test
  void a_cordoned_node_is_unschedulable() {
    assertTrue(NodeAdapter.toNodeInfo(node("n1").unschedulable(true).build(), List.of()).unschedulable());
  }

  @Test
  void a_node_is_schedulable_unless_cordoned() {
    assertFalse(NodeAdapter.toNodeInfo(node("n1").unschedulable(false).build(), List.of()).unschedulable());
    assertFalse(NodeAdapter.toNodeInfo(node("n1").unschedulable(null).build(), List.of()).unschedulable());
    assertFalse(NodeAdapter.toNodeInfo(node("n1").build(), List.of()).unschedulable());
  }

  @Test
  void requested_is_the_sum_of_the_given_pods() {
    PodInfo web = PodAdapter.toPodInfo(pod("default", "web").container("app", "cpu", "500m", "memory", "1Gi").build());
    PodInfo db =
        PodAdapter.toPodInfo(
            pod("default", "db").container("db", "cpu", "1", "memory", "2Gi", "nvidia.com/gpu", "1").build());

    var info = NodeAdapter.toNodeInfo(node("n1").allocatable("cpu", "4").build(), List.of(web, db));

    assertEquals(new Resources(1500, 3 * GI, 0, 2, Map.of("nvidia.com/gpu", 1L)), info.requested());
    assertEquals(List.of(web, db), info.pods());
  }

  @Test
  void a_node_without_pods_requests_nothing() {
    assertEquals(Resources.ZERO, NodeAdapter.toNodeInfo(node("n1").allocatable("cpu", "4").build(), List.of()).requested());
  }

  @Test
  void images_are_read_with_their_names_and_sizes_in_order() {
    var node =
        node("n1")
            .image(500_000_000L, "registry.k8s.io/pause:3.10", "registry.k8s.io/pause@sha256:ee6521f290b2")
            .image(42L, "nginx:1.27")
            .build();

    assertEquals(
        List.of(
            new ContainerImage(List.of("registry.k8s.io/pause:3.10", "registry.k8s.io/pause@sha256:ee6521f290b2"), 500_000_000L),
            new ContainerImage(List.of("nginx:1.27"), 42L)),
        NodeAdapter.toNodeInfo(node, List.of()).images());
  }

  @Test
  void an_image_without_size_has_size_zero_and_a_node_without_images_has_none() {
    assertEquals(
        List.of(new ContainerImage(List.of("busybox"), 0)),
        NodeAdapter.toNodeInfo(node("n1").image(null, "busybox").build(), List.of()).images());
    assertEquals(List.of(), NodeAdapter.toNodeInfo(node("n1").build(), List.of()).images());
  }

  @Test
  void images_survive_alongside_allocatable() {
    var node = node("n1").allocatable("cpu", "2").image(7L, "a").build();

    var info = NodeAdapter.toNodeInfo(node, List.of());

    assertEquals(2000, info.allocatable().milliCpu());
    assertEquals(List.of(new ContainerImage(List.of("a"), 7)), info.images());
  }

  /** TestNodeInfoAddPod of kube-scheduler's framework/types_test.go: its three pods on one node. */
  @Test
  void requested_and_non_zero_requested_are_summed_over_the_pods_as_kube_scheduler_does() {
    var test1 = pod("node_info_cache_test", "test-1").container("c", "cpu", "100m", "memory", "500").overhead("cpu", "500m");
    var test2 =
        pod("node_info_cache_test", "test-2").container("c", "cpu", "200m").overhead("cpu", "500m", "memory", "500");
    var test3 =
        pod("node_info_cache_test", "test-3")
            .container("c", "cpu", "200m")
            .initContainer("i", "cpu", "500m", "memory", "200Mi")
            .overhead("cpu", "500m", "memory", "500");
    var pods =
        List.of(
            PodAdapter.toPodInfo(test1.build()),
            PodAdapter.toPodInfo(test2.build()),
            PodAdapter.toPodInfo(test3.build()));

    var info = NodeAdapter.toNodeInfo(node("test-node").build(), pods);

    assertEquals(2300, info.requested().milliCpu());
    assertEquals(209_716_700, info.requested().memory());
    assertEquals(2300, info.nonZeroRequested().milliCpu());
    assertEquals(419_431_900, info.nonZeroRequested().memory());
  }
}
