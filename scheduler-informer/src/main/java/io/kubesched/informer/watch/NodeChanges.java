package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.fabric8.Fabric8Compat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Which node updates can let a waiting pod fit. Status heartbeats cannot; the rest may. */
final class NodeChanges {

  private NodeChanges() {}

  /**
   * @return whether {@code after} differs from {@code before} in what placement depends on: labels,
   *     taints, {@code spec.unschedulable}, allocatable resources or declared features (kube's NodeDeclaredFeatures
   *     queues a pod on a change of {@code status.declaredFeatures}, an unset list equal to an empty one)
   */
  static boolean mayLetPodsFit(Node before, Node after) {
    return !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())
        || !Objects.equals(spec(before).getTaints(), spec(after).getTaints())
        || !Objects.equals(spec(before).getUnschedulable(), spec(after).getUnschedulable())
        || !Objects.equals(allocatable(before), allocatable(after))
        || declaredFeaturesChanged(before, after);
  }

  /** kube's NodeDeclaredFeatures hint for a node update ({@code isSchedulableAfterNodeChange}). */
  static boolean declaredFeaturesChanged(Node before, Node after) {
    return !declaredFeatures(before).equals(declaredFeatures(after));
  }

  private static List<String> declaredFeatures(Node node) {
    var features = node.getStatus() == null ? null : Fabric8Compat.get().declaredFeatures(node.getStatus());
    return features == null ? List.of() : features;
  }

  private static NodeSpec spec(Node node) {
    return node.getSpec() == null ? new NodeSpec() : node.getSpec();
  }

  private static @Nullable Map<String, Quantity> allocatable(Node node) {
    return node.getStatus() == null ? null : node.getStatus().getAllocatable();
  }
}
