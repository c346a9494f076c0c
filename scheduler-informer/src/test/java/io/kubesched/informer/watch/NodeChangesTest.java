package io.kubesched.informer.watch;

import io.kubesched.api.ClusterChange;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    assertEquals(Set.of(), NodeChanges.changes(before, after));
  }

  @Test
  void more_allocatable_may_let_pods_fit() {
    Node after = node().editStatus().withAllocatable(Map.of("cpu", new Quantity("4"))).endStatus().build();
    assertEquals(Set.of(ClusterChange.NODE_ALLOCATABLE), NodeChanges.changes(node().build(), after));
  }

  @Test
  void new_labels_may_let_pods_fit() {
    Node after = node().editMetadata().withLabels(Map.of("zone", "b")).endMetadata().build();
    assertEquals(Set.of(ClusterChange.NODE_LABELS), NodeChanges.changes(node().build(), after));
  }

  @Test
  void uncordoning_may_let_pods_fit() {
    Node cordoned = node().editSpec().withUnschedulable(true).endSpec().build();
    assertEquals(Set.of(ClusterChange.NODE_TAINTS), NodeChanges.changes(cordoned, node().build()), "kube's taint change");
  }

  @Test
  void several_changes_at_once_are_each_reported() {
    Node after = node().editMetadata().withLabels(Map.of("zone", "b")).endMetadata()
        .editSpec().withUnschedulable(true).endSpec()
        .editStatus().withAllocatable(Map.of("cpu", new Quantity("4"))).endStatus().build();
    assertEquals(Set.of(ClusterChange.NODE_LABELS, ClusterChange.NODE_TAINTS, ClusterChange.NODE_ALLOCATABLE),
        NodeChanges.changes(node().build(), after));
  }

  @Test
  void removing_a_taint_may_let_pods_fit() {
    Node tainted = node().editSpec().addNewTaint().withKey("k").withEffect("NoSchedule").endTaint().endSpec().build();
    assertEquals(Set.of(ClusterChange.NODE_TAINTS), NodeChanges.changes(tainted, node().build()));
  }

  // kube's nodedeclaredfeatures_test.go TestEnqueueExtensionsNodeUpdate; its "Node Add with feature" is the node
  // informer's add (ClusterChange.NODE_ADDED, which every built-in filter registers).

  private static Node declaring(String... features) {
    return LineFields.with(node().build(), "status", Map.of("declaredFeatures", List.of(features)));
  }

  @Test
  void node_update_features_added() {
    assertEquals(Set.of(ClusterChange.NODE_DECLARED_FEATURES), NodeChanges.changes(node().build(), declaring("FeatureA")));
  }

  @Test
  void node_update_features_unchanged() {
    assertEquals(Set.of(), NodeChanges.changes(declaring("FeatureA"), declaring("FeatureA")));
  }

  @Test
  void a_feature_withdrawn_is_a_change_too_and_an_empty_list_is_none() {
    assertEquals(Set.of(ClusterChange.NODE_DECLARED_FEATURES),
        NodeChanges.changes(declaring("FeatureA", "FeatureB"), declaring("FeatureA")));
    assertEquals(Set.of(), NodeChanges.changes(node().build(), declaring()));
  }
}
