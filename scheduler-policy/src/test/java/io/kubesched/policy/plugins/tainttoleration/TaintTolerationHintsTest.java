package io.kubesched.policy.plugins.tainttoleration;

import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.policy.plugins.FilterFixtures.equal;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.taint;
import static io.kubesched.policy.plugins.FilterFixtures.tolerating;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code tainttoleration/taint_toleration_test.go} hint table ({@code
 * TestIsSchedulableAfterNodeChange}) under kube's case names; its cases with objects of the wrong type are left out
 * (the Java types cannot).
 */
class TaintTolerationHintsTest {

  private final TaintTolerationFilter filter = new TaintTolerationFilter();

  private static NodeInfo nodeWithTaints(Taint... taints) {
    return node("nodeA").taints(List.of(taints)).build();
  }

  static Stream<Arguments> kubeCases() {
    var pod = tolerating(equal("dedicated", "user2", NO_SCHEDULE));
    return Stream.of(
        argumentSet("skip-queue-on-untoleratedtaint-node-added",
            pod, null, nodeWithTaints(taint("dedicated", "user1", NO_SCHEDULE)), false),
        argumentSet("queue-on-toleratedtaint-node-added",
            pod, null, nodeWithTaints(taint("dedicated", "user2", NO_SCHEDULE)), true),
        argumentSet("skip-unrelated-change",
            pod, nodeWithTaints(taint("dedicated", "user1", NO_SCHEDULE)),
            nodeWithTaints(taint("dedicated", "user1", NO_SCHEDULE), taint("dedicated", "user3", NO_SCHEDULE)), false),
        argumentSet("queue-on-taint-change",
            pod, nodeWithTaints(taint("dedicated", "user1", NO_SCHEDULE)),
            nodeWithTaints(taint("dedicated", "user2", NO_SCHEDULE)), true));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void node_added_or_its_taints_changed(PodInfo pod, @Nullable NodeInfo before, NodeInfo after, boolean queue) {
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, ClusterChange.of(ClusterChange.NODE_TAINTS));
    assertEquals(queue, filter.isSchedulableAfter(pod, update));
  }
}
