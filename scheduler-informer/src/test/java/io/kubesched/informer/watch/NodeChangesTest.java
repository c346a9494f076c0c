package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeChangesTest {

  private static NodeBuilder node() {
    return new NodeBuilder()
        .withNewMetadata()
        .withName("n")
        .withLabels(Map.of("zone", "a"))
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity("2")))
        .endStatus();
  }

  @Test
  void a_status_heartbeat_lets_no_pod_fit() {
    Node before = node().build();
    Node after = node().editStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    assertFalse(NodeChanges.mayLetPodsFit(before, after));
  }

  @Test
  void more_allocatable_may_let_pods_fit() {
    Node after = node().editStatus().withAllocatable(Map.of("cpu", new Quantity("4"))).endStatus().build();
    assertTrue(NodeChanges.mayLetPodsFit(node().build(), after));
  }

  @Test
  void new_labels_may_let_pods_fit() {
    Node after = node().editMetadata().withLabels(Map.of("zone", "b")).endMetadata().build();
    assertTrue(NodeChanges.mayLetPodsFit(node().build(), after));
  }

  @Test
  void uncordoning_may_let_pods_fit() {
    Node cordoned = node().editSpec().withUnschedulable(true).endSpec().build();
    assertTrue(NodeChanges.mayLetPodsFit(cordoned, node().build()));
  }

  @Test
  void removing_a_taint_may_let_pods_fit() {
    Node tainted = node().editSpec().addNewTaint().withKey("k").withEffect("NoSchedule").endTaint().endSpec().build();
    assertTrue(NodeChanges.mayLetPodsFit(tainted, node().build()));
  }

  // kube's nodedeclaredfeatures_test.go TestEnqueueExtensionsNodeUpdate; its "Node Add with feature" is the node
  // informer's add, which moves every waiting pod (ClusterEvent.NODE_ADD).

  private static Node declaring(String... features) {
    return LineFields.with(node().build(), "status", Map.of("declaredFeatures", List.of(features)));
  }

  @Test
  void node_update_features_added() {
    assertTrue(NodeChanges.mayLetPodsFit(node().build(), declaring("FeatureA")));
  }

  @Test
  void node_update_features_unchanged() {
    assertFalse(NodeChanges.mayLetPodsFit(declaring("FeatureA"), declaring("FeatureA")));
  }

  @Test
  void a_feature_withdrawn_is_a_change_too_and_an_empty_list_is_none() {
    assertTrue(NodeChanges.mayLetPodsFit(declaring("FeatureA", "FeatureB"), declaring("FeatureA")));
    assertFalse(NodeChanges.mayLetPodsFit(node().build(), declaring()));
  }
}
