package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.expressions;
import static io.kubesched.adapter.Fixtures.node;
import static io.kubesched.adapter.Fixtures.nodeAffinity;
import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.preferred;
import static io.kubesched.adapter.Fixtures.requirement;
import static io.kubesched.adapter.Fixtures.resources;
import static io.kubesched.adapter.Fixtures.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
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
    var e = readingPod(pod().sidecar("proxy", "ephemeral-storage", "1 x").build());

    assertNames(e, "pod default/web", "spec.initContainers[proxy].resources.requests[ephemeral-storage]", "1 x");
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
  void a_malformed_pod_level_request_names_its_field() {
    var e = readingPod(pod().container("c").podRequests("cpu", "1.5.5").build());

    assertEquals("pod default/web: spec.resources.requests[cpu] '1.5.5' is not a valid quantity", e.getMessage());
    assertNames(e, "pod default/web", "spec.resources.requests[cpu]", "1.5.5");
  }

  @Test
  void a_negative_pod_level_limit_names_its_field() {
    var e = readingPod(pod().container("c").podResources(Map.of(), resources("memory", "-1")).build());

    assertEquals("pod default/web: spec.resources.limits[memory] '-1' must not be negative", e.getMessage());
  }

  @Test
  void an_unknown_required_node_selector_operator_names_term_requirement_and_operator() {
    var affinity =
        nodeAffinity(
            List.of(expressions(requirement("zone", "In", "a"), requirement("zone", "Like", "a"))), List.of());

    var e = readingPod(pod("shop", "cart").affinity(affinity).build());

    assertEquals(
        "pod shop/cart: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[1].operator 'Like' is not In, NotIn, Exists, DoesNotExist, Gt or Lt",
        e.getMessage());
    assertNames(
        e,
        "pod shop/cart",
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[1].operator",
        "Like");
  }

  @Test
  void an_unknown_field_operator_of_a_later_required_term_names_that_term() {
    var affinity =
        nodeAffinity(
            List.of(
                expressions(requirement("zone", "In", "a")),
                term(List.of(), List.of(requirement("metadata.name", "Equals", "n1")))),
            List.of());

    var e = readingPod(pod().affinity(affinity).build());

    assertNames(
        e,
        "pod default/web",
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1]"
            + ".matchFields[0].operator",
        "Equals");
  }

  @Test
  void an_unknown_preferred_operator_names_the_preference() {
    var affinity =
        nodeAffinity(
            null,
            List.of(
                preferred(10, expressions(requirement("zone", "In", "a"))),
                preferred(20, expressions(requirement("disk", "Exists"), requirement("gpu", "Gte", "1")))));

    var e = readingPod(pod().affinity(affinity).build());

    assertEquals(
        "pod default/web: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].preference"
            + ".matchExpressions[1].operator 'Gte' is not In, NotIn, Exists, DoesNotExist, Gt or Lt",
        e.getMessage());
  }

  @Test
  void node_selector_operators_are_case_sensitive() {
    var affinity = nodeAffinity(List.of(expressions(requirement("zone", "in", "a"))), List.of());

    var e = readingPod(pod().affinity(affinity).build());

    assertEquals("in", e.value());
  }

  @Test
  void a_missing_node_selector_operator_is_malformed() {
    var affinity = nodeAffinity(List.of(expressions(requirement("zone", null, "a"))), List.of());

    var e = readingPod(pod().affinity(affinity).build());

    assertNames(
        e,
        "pod default/web",
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
            + ".matchExpressions[0].operator",
        "");
  }

  @Test
  void a_required_node_affinity_without_terms_is_malformed() {
    var e = readingPod(pod().affinity(nodeAffinity(List.of(), List.of())).build());

    assertEquals(
        "pod default/web: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
            + " '[]' must list at least one term",
        e.getMessage());
  }

  @Test
  void a_gce_disk_without_name_names_the_volume() {
    var volume = new VolumeBuilder().withName("data").withNewGcePersistentDisk().endGcePersistentDisk().build();

    var e = readingPod(pod().volume(volume).build());

    assertEquals("pod default/web: spec.volumes[data].gcePersistentDisk.pdName '' must not be empty", e.getMessage());
  }

  @Test
  void an_ebs_volume_without_id_names_the_volume() {
    var volume = new VolumeBuilder().withName("ebs").withNewAwsElasticBlockStore().withVolumeID("").endAwsElasticBlockStore().build();

    var e = readingPod(pod().volume(volume).build());

    assertEquals("pod default/web: spec.volumes[ebs].awsElasticBlockStore.volumeID '' must not be empty", e.getMessage());
  }

  @Test
  void an_rbd_volume_without_monitors_names_the_volume() {
    var volume = new VolumeBuilder().withName("ceph").withNewRbd().withImage("img").endRbd().build();

    var e = readingPod(pod().volume(volume).build());

    assertEquals("pod default/web: spec.volumes[ceph].rbd.monitors '[]' must name at least one monitor", e.getMessage());
  }

  @Test
  void an_rbd_volume_without_image_names_the_volume() {
    var volume = new VolumeBuilder().withName("ceph").withNewRbd().withMonitors("m1").endRbd().build();

    var e = readingPod(pod().volume(volume).build());

    assertNames(e, "pod default/web", "spec.volumes[ceph].rbd.image", "");
  }

  @Test
  void an_iscsi_lun_out_of_range_names_the_volume_and_lun() {
    var volume =
        new VolumeBuilder().withName("san").withNewIscsi().withTargetPortal("p:3260").withIqn("iqn.x").withLun(256).endIscsi().build();

    var e = readingPod(pod().volume(volume).build());

    assertEquals("pod default/web: spec.volumes[san].iscsi.lun '256' is not a lun (0..255)", e.getMessage());
  }

  @Test
  void a_negative_iscsi_lun_is_malformed() {
    var volume =
        new VolumeBuilder().withName("san").withNewIscsi().withTargetPortal("p:3260").withIqn("iqn.x").withLun(-1).endIscsi().build();

    assertNames(readingPod(pod().volume(volume).build()), "pod default/web", "spec.volumes[san].iscsi.lun", "-1");
  }

  @Test
  void an_iscsi_volume_without_portal_or_iqn_names_the_missing_field() {
    var noPortal = new VolumeBuilder().withName("a").withNewIscsi().withIqn("iqn.x").endIscsi().build();
    var noIqn = new VolumeBuilder().withName("b").withNewIscsi().withTargetPortal("p").endIscsi().build();

    assertNames(readingPod(pod().volume(noPortal).build()), "pod default/web", "spec.volumes[a].iscsi.targetPortal", "");
    assertNames(readingPod(pod().volume(noIqn).build()), "pod default/web", "spec.volumes[b].iscsi.iqn", "");
  }

  @Test
  void a_volume_of_two_conflicting_kinds_is_malformed() {
    var volume =
        new VolumeBuilder()
            .withName("both")
            .withNewGcePersistentDisk().withPdName("d").endGcePersistentDisk()
            .withNewAwsElasticBlockStore().withVolumeID("v").endAwsElasticBlockStore()
            .build();

    var e = readingPod(pod().volume(volume).build());

    assertEquals(
        "pod default/web: spec.volumes[both] 'gcePersistentDisk, awsElasticBlockStore' may not specify more than one"
            + " volume type",
        e.getMessage());
  }

  @Test
  void a_negative_image_size_names_the_node_and_image() {
    var e = readingNode(node("n1").image(10L, "a").image(-5L, "b").build());

    assertEquals("node n1: status.images[1].sizeBytes '-5' must not be negative", e.getMessage());
    assertNames(e, "node n1", "status.images[1].sizeBytes", "-5");
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
