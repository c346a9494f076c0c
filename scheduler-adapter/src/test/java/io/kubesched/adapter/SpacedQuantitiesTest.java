package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.MalformedObjectException;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kubernetes' {@code Quantity.UnmarshalJSON} trims the JSON string with Go's {@code strings.TrimSpace} before
 * parsing it, so {@code " 1"} is the quantity 1 wherever a quantity is read from JSON; only what is left after the
 * trim must be a quantity.
 */
class SpacedQuantitiesTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Test
  void a_pod_request_written_with_spaces_reads_as_kubernetes_reads_it() {
    var pod =
        JSON.unmarshal(
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "ns", "name": "web", "uid": "u1"},
             "spec": {"containers": [{"name": "app", "resources": {"requests":
               {"cpu": " 1", "memory": "\\t2Gi ", "example.com/gpu": " 3 "}}}]}}
            """,
            Pod.class);

    var requests = PodAdapter.effectiveRequests(pod);

    assertEquals(1000, requests.milliCpu());
    assertEquals(2L << 30, requests.memory());
    assertEquals(3L, requests.extended().get("example.com/gpu"));
  }

  @Test
  void a_node_allocatable_written_with_spaces_reads_as_kubernetes_reads_it() {
    var node =
        JSON.unmarshal(
            """
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
             "status": {"allocatable": {"cpu": "4 ", "pods": " 110"}}}
            """,
            Node.class);

    var info = NodeAdapter.toNodeInfo(node, List.of());

    assertEquals(4000, info.allocatable().milliCpu());
    assertEquals(110, info.allocatable().pods());
  }

  @Test
  void a_space_inside_the_quantity_is_still_malformed_and_named_as_written() {
    var pod =
        JSON.unmarshal(
            """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "ns", "name": "web"},
             "spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": " 1 m"}}}]}}
            """,
            Pod.class);

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertEquals(" 1 m", e.value());
    assertTrue(e.field().endsWith("[cpu]"), e.field());
  }

  @ParameterizedTest(name = "U+{0} is trimmed as Go trims it")
  @ValueSource(ints = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F,
      0x205F, 0x3000})
  void go_white_space_is_trimmed(int codePoint) {
    var space = Character.toString(codePoint);

    assertEquals(new BigDecimal("1.5"), Quantities.exact(space + "1.5" + space));
  }

  @ParameterizedTest(name = "U+{0} is not Go white space, so the quantity is malformed")
  @ValueSource(ints = {0x1C, 0x1F, 0x200B, 0xFEFF})
  void what_go_does_not_call_white_space_is_kept(int codePoint) {
    var text = Character.toString(codePoint) + "1";

    assertThrows(IllegalArgumentException.class, () -> Quantities.exact(text));
  }
}
