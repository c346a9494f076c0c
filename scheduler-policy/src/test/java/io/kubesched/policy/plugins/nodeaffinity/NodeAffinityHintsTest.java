package io.kubesched.policy.plugins.nodeaffinity;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.requirement;
import static io.kubesched.policy.plugins.FilterFixtures.term;
import static io.kubesched.policy.plugins.FilterFixtures.withRequiredTerms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement.Operator;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Resources;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code nodeaffinity/node_affinity_test.go} hint table ({@code Test_isSchedulableAfterNodeChange})
 * under kube's case names; its cases with objects of the wrong type are left out (the Java types cannot).
 */
class NodeAffinityHintsTest {

  private static final NodeSelectorTerm FOO_IN_BAR = term(List.of(requirement("foo", Operator.IN, "bar")), List.of());

  private static NodeInfo labelled(Map<String, String> labels) {
    return node("n").labels(labels).build();
  }

  /** kube's {@code st.MakeNode().Capacity(nil)}: 32 pods allocatable, the labels given. */
  private static NodeInfo withCapacity(Map<String, String> labels) {
    return node("n").labels(labels).allocatable(new Resources(0, 0, 0, 32, Map.of())).build();
  }

  static Stream<Arguments> kubeCases() {
    var none = new NodeAffinityFilter();
    var enforced = new NodeAffinityFilter(List.of(FOO_IN_BAR));
    var fooBar = Map.of("foo", "bar");
    return Stream.of(
        argumentSet("skip-queue-on-add", none, null, labelled(Map.of()), false),
        argumentSet("queue-on-add", none, null, labelled(fooBar), true),
        argumentSet("skip-unrelated-changes", none, labelled(Map.of()), withCapacity(Map.of()), false),
        argumentSet("skip-unrelated-changes-on-labels", none, labelled(Map.of()), labelled(Map.of("k", "v")), false),
        argumentSet("skip-labels-changes-on-node-from-suitable-to-unsuitable",
            none, labelled(fooBar), labelled(Map.of("k", "v")), false),
        argumentSet("queue-on-labels-change-makes-pod-schedulable", none, labelled(Map.of()), labelled(fooBar), true),
        argumentSet("skip-unrelated-change-that-keeps-pod-schedulable",
            none, labelled(fooBar), withCapacity(fooBar), false),
        argumentSet("skip-queue-on-add-scheduler-enforced-node-affinity", enforced, null, labelled(Map.of()), false),
        argumentSet("queue-on-add-scheduler-enforced-node-affinity", enforced, null, labelled(fooBar), true));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void node_added_or_relabelled(
      NodeAffinityFilter filter, @Nullable NodeInfo before, NodeInfo after, boolean queue) {
    var pod = withRequiredTerms(FOO_IN_BAR).build();
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, ClusterChange.of(ClusterChange.NODE_LABELS));
    assertEquals(queue, filter.isSchedulableAfter(pod, update));
  }
}
