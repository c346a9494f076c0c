package io.kubesched.policy.plugins.nodedeclaredfeatures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodRuntime;
import io.kubesched.policy.DefaultPolicy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The filter inside {@link DefaultPolicy}: where the pod goes, kube's unschedulable message, the explain table. */
class NodeDeclaredFeaturesPolicyTest {

  private static final PodInfo RESTARTS_ALL =
      PodInfo.builder("shop", "web-1")
          .requests(100, 64L << 20)
          .runtime(new PodRuntime(false, null, Set.of("RestartAllContainers"), false))
          .build();

  private static NodeInfo.Builder node(String name) {
    return NodeInfo.builder(name).allocatable(4000, 8L << 30, 110);
  }

  @Test
  void the_default_policy_places_the_pod_on_the_only_node_that_declares_what_it_needs() {
    var policy = DefaultPolicy.builder().seed(7).build();
    var nodes =
        List.of(
            node("plain-0").build(),
            node("declaring").declaredFeatures(List.of("RestartAllContainersOnContainerExits")).build(),
            node("plain-1").declaredFeatures(List.of("VolumeBindMountOptions")).build());

    assertEquals(Decision.bind("declaring"), policy.find(RESTARTS_ALL, nodes));
  }

  @Test
  void where_no_node_declares_it_the_message_is_kube_schedulers() {
    var policy = DefaultPolicy.builder().seed(7).build();
    var nodes = List.of(node("plain-0").build(), node("plain-1").build());

    var refused = assertInstanceOf(Decision.Unschedulable.class, policy.find(RESTARTS_ALL, nodes));

    assertEquals(
        "0/2 nodes are available: 2 node(s) didn't match Pod's required features. preemption: 0/2 nodes are"
            + " available: 2 Preemption is not helpful for scheduling.",
        refused.message(2));
  }

  @Test
  void the_explain_table_names_the_filter_and_kubes_reason_per_node() {
    var policy = DefaultPolicy.builder().seed(7).build();
    var nodes =
        List.of(
            node("plain").build(),
            node("declaring").declaredFeatures(List.of("RestartAllContainersOnContainerExits")).build());

    var table = policy.explain(RESTARTS_ALL, nodes).toTable();

    assertTrue(
        table.lines().anyMatch(l -> l.trim().startsWith("plain")
            && l.contains("NodeDeclaredFeatures: node(s) didn't match Pod's required features")),
        table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("*  declaring")), table);
  }
}
