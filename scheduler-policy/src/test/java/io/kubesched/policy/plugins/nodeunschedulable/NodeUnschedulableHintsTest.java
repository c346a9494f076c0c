package io.kubesched.policy.plugins.nodeunschedulable;

import static io.kubesched.api.TaintEffect.NO_EXECUTE;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.taint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code nodeunschedulable/node_unschedulable_test.go} hint table ({@code
 * TestIsSchedulableAfterNodeChange}) under kube's case names; its cases with objects of the wrong type are left out
 * (the Java types cannot).
 */
class NodeUnschedulableHintsTest {

  private final NodeUnschedulableFilter filter = new NodeUnschedulableFilter();

  private static NodeInfo cordoned(boolean unschedulable, boolean notReady) {
    return node("n").unschedulable(unschedulable)
        .taints(notReady ? List.of(taint("node.kubernetes.io/not-ready", "", NO_EXECUTE)) : List.of())
        .build();
  }

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet("skip-queue-on-unschedulable-node-added", null, cordoned(true, false), false),
        argumentSet("queue-on-schedulable-node-added", null, cordoned(false, false), true),
        argumentSet("skip-unrelated-change-unschedulable-true", cordoned(true, false), cordoned(true, true), false),
        argumentSet("skip-unrelated-change-unschedulable-false", cordoned(false, false), cordoned(false, true), false),
        argumentSet("queue-on-unschedulable-field-change", cordoned(true, false), cordoned(false, false), true));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void node_added_or_its_taints_changed(@Nullable NodeInfo before, NodeInfo after, boolean queue) {
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, ClusterChange.of(ClusterChange.NODE_TAINTS));
    assertEquals(queue, filter.isSchedulableAfter(pod().build(), update));
  }
}
