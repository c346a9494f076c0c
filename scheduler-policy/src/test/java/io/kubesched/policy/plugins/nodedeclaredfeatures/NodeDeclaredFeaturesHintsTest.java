package io.kubesched.policy.plugins.nodedeclaredfeatures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code TestEnqueueExtensionsNodeUpdate} ({@code
 * nodedeclaredfeatures/nodedeclaredfeatures_test.go}), under kube's names, and a reordering of the same features,
 * which kube's hint compares as lists. Kube's {@code TestIsSchedulableAfterTargetPodUpdate} is about the waiting
 * pod's own update, which moves the pod without {@link NodeDeclaredFeaturesFilter#isSchedulableAfter}.
 */
class NodeDeclaredFeaturesHintsTest {

  private final NodeDeclaredFeaturesFilter filter = new NodeDeclaredFeaturesFilter();

  static Stream<Arguments> nodeChanges() {
    return Stream.of(
        argumentSet("Node Add with feature", null, node("FeatureA"), true),
        argumentSet("Node Update (Features Added)", node(), node("FeatureA"), true),
        argumentSet("Node Update (Features Unchanged)", node("FeatureA"), node("FeatureA"), false),
        argumentSet("the same features in another order", node("FeatureA", "FeatureB"), node("FeatureB", "FeatureA"),
            true));
  }

  @ParameterizedTest
  @MethodSource("nodeChanges")
  void isSchedulableAfterNodeChange(@Nullable NodeInfo before, NodeInfo after, boolean queue) {
    var pod = PodInfo.builder("default", "test-pod").build();
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, Set.of(ClusterChange.NODE_DECLARED_FEATURES));
    assertEquals(queue, filter.isSchedulableAfter(pod, update));
  }

  private static NodeInfo node(String... features) {
    return NodeInfo.builder("node-1").declaredFeatures(List.of(features)).build();
  }
}
