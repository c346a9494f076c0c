package io.kubesched.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The measured cluster is what HeapMeasurementCluster's Javadoc says, and every store variant works. */
class HeapMeasurementTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @Test
  void every_pod_parses_into_a_running_deployment_pod_bound_to_its_node() {
    var cluster = new HeapMeasurementCluster(10, 30);
    var names = new HashSet<String>();
    var uids = new HashSet<String>();
    for (int n = 0; n < 20; n++) {
      var node = SERIALIZATION.unmarshal(cluster.nodeJson(n), Node.class);
      var info = NodeAdapter.toNodeInfo(node, List.of());
      assertEquals(HeapMeasurementCluster.nodeName(n), info.name());
      assertEquals(31_850, info.allocatable().milliCpu());
      assertEquals(n % 10 == 9 ? 1 : 0, info.taints().size());
      assertTrue(info.images().size() >= 8, "system images missing");
      for (int slot = 0; slot < 10; slot++) {
        var pod = SERIALIZATION.unmarshal(cluster.podJson(n, slot), Pod.class);
        var podInfo = PodAdapter.toPodInfo(pod);
        assertEquals(info.name(), podInfo.nodeName());
        assertEquals("ReplicaSet", podInfo.owner().kind());
        assertEquals(2, pod.getSpec().getContainers().size());
        assertEquals(9, pod.getSpec().getContainers().get(0).getEnv().size());
        assertEquals(2, pod.getMetadata().getManagedFields().size());
        assertEquals(5, pod.getStatus().getConditions().size());
        assertEquals("Running", pod.getStatus().getPhase());
        assertTrue(names.add(podInfo.namespace() + "/" + podInfo.name()), "pod name repeated");
        assertTrue(uids.add(podInfo.uid()), "pod uid repeated");
        for (var image : podInfo.images()) {
          assertTrue(
              info.images().stream().anyMatch(i -> i.names().contains(image)),
              image + " is not among the images of " + info.name());
        }
      }
    }
  }

  @Test
  void the_same_cluster_is_generated_every_time() {
    var first = new HeapMeasurementCluster(3, 2);
    var second = new HeapMeasurementCluster(3, 2);
    for (int n = 0; n < 3; n++) {
      assertEquals(first.nodeJson(n), second.nodeJson(n));
      for (int slot = 0; slot < 3; slot++) {
        assertEquals(first.podJson(n, slot), second.podJson(n, slot));
      }
    }
  }

  @Test
  void a_template_fills_every_hole_and_names_a_missing_value() {
    var template = new HeapMeasurementCluster.Template("a${X}b${Y}${X}");
    assertEquals("a1b21", template.fill(Map.of("X", "1", "Y", "2")));
    var error = assertThrows(IllegalArgumentException.class, () -> template.fill(Map.of("X", "1")));
    assertEquals("no value for ${Y}", error.getMessage());
  }

  @ParameterizedTest
  @EnumSource(HeapMeasurement.Variant.class)
  void every_store_gives_the_same_PodInfo_and_NodeInfo_as_the_objects_parsed(
      HeapMeasurement.Variant variant) {
    var fill = new HeapMeasurement(60, 10, 60).fill(variant);
    assertEquals(2 + 12, fill.checked());
    assertEquals(0, fill.mismatches());
    assertTrue(fill.readNanos() > 0);
  }

  @Test
  void options_must_be_known_and_positive() {
    assertEquals(Map.of("--nodes", 7), HeapMeasurement.options(new String[] {"--nodes", "7"}));
    assertFalse(HeapMeasurement.options(new String[0]).containsKey("--rounds"));
    assertEquals(
        "unknown option --pods; known: [--nodes, --pods-per-node, --deployments, --rounds]",
        refused("--pods", "1"));
    assertEquals("--rounds must be a positive integer, was 0", refused("--rounds", "0"));
    assertEquals("--nodes needs a value", refused("--nodes"));
  }

  @Test
  void stores_are_every_store_unless_named() {
    assertEquals(List.of(HeapMeasurement.Variant.values()), HeapMeasurement.stores(new String[] {"--nodes", "7"}));
    assertEquals(
        List.of(HeapMeasurement.Variant.DEFAULT, HeapMeasurement.Variant.KEPT),
        HeapMeasurement.stores(new String[] {"--stores", "kept,default", "--rounds", "1"}));
    assertEquals(
        List.of("--nodes", "7", "--rounds", "1"),
        List.of(HeapMeasurement.withoutStores(new String[] {"--nodes", "7", "--stores", "kept", "--rounds", "1"})));
    assertEquals(
        "--stores names unknown store 'kep' in 'kep'; valid: [default, trimmed, reduced, kept]",
        assertThrows(
                IllegalArgumentException.class, () -> HeapMeasurement.stores(new String[] {"--stores", "kep"}))
            .getMessage());
    assertEquals(
        "--stores needs a value",
        assertThrows(IllegalArgumentException.class, () -> HeapMeasurement.stores(new String[] {"--stores"}))
            .getMessage());
  }

  private static String refused(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> HeapMeasurement.options(args)).getMessage();
  }
}
