package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.ClusterChange;
import io.kubesched.fabric8.Fabric8Compat;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Which node updates can let a waiting pod fit, and how. Status heartbeats cannot. */
final class NodeChanges {

  private NodeChanges() {}

  /**
   * kube's {@code NodeSchedulingPropertiesChange}, for what the filters register: labels, taints and {@code
   * spec.unschedulable} (one change for kube), allocatable resources, declared features (an unset list equal to an
   * empty one). Conditions and annotations, which kube reports too, are left out: no filter reads them.
   *
   * @return what changed from {@code before} to {@code after}; empty when nothing placement depends on did
   */
  static Set<ClusterChange> changes(Node before, Node after) {
    var changes = EnumSet.noneOf(ClusterChange.class);
    if (!Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())) {
      changes.add(ClusterChange.NODE_LABELS);
    }
    if (!Objects.equals(spec(before).getTaints(), spec(after).getTaints())
        || !Objects.equals(spec(before).getUnschedulable(), spec(after).getUnschedulable())) {
      changes.add(ClusterChange.NODE_TAINTS);
    }
    if (!Objects.equals(allocatable(before), allocatable(after))) {
      changes.add(ClusterChange.NODE_ALLOCATABLE);
    }
    if (declaredFeaturesChanged(before, after)) {
      changes.add(ClusterChange.NODE_DECLARED_FEATURES);
    }
    return changes;
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
