package io.kubesched.policy.plugins.nodedeclaredfeatures;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodRuntime;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.nodedeclaredfeatures.NodeDeclaredFeaturesFilter.Prepared;
import io.kubesched.policy.plugins.nodedeclaredfeatures.NodeDeclaredFeaturesFilter.UnsatisfiedFeatures;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler 1.37's {@code nodedeclaredfeatures/nodedeclaredfeatures_test.go} ({@code
 * TestPreFilter}, {@code TestFilter}; {@code TestEnqueueExtensionsNodeUpdate} is the informer's {@code
 * NodeChangesTest}), under kube's names, and the plugin's own edge cases.
 *
 * <p>Not ported, as nothing here corresponds: the {@code "plugin disabled"} cases and {@code TestEventsToRegister}'s
 * (the feature gate is GA and locked on in 1.37; a policy without the filter is the only "disabled" plugin); {@code
 * "Error getting pre-filter state"} (there is no cycle state to lose: a filter used without {@link
 * NodeDeclaredFeaturesFilter#prepare} infers the pod's needs itself, below); {@code
 * TestIsSchedulableAfterTargetPodUpdate} (the controller retries a waiting pod on any update of its spec or labels,
 * which includes every update kube's hint queues on); {@code TestNodeDeclaredFeatures_DeferredResizeSkipped} (the
 * alpha gate {@code InPlacePodVerticalScalingSchedulerPreemption} is off in 1.37 and not implemented).
 */
class NodeDeclaredFeaturesFilterTest {

  private static final String FEATURE_1 = "TestFeature1";
  private static final String FEATURE_2 = "TestFeature2";
  private static final String FEATURE_A = "FeatureA";
  private static final String FEATURE_B = "FeatureB";
  private static final String FEATURE_C = "FeatureC";
  private static final String ERR_REASON = "node(s) didn't match Pod's required features";

  private static final ClusterSnapshot EMPTY = ClusterSnapshot.of(List.of());

  // ---------------------------------------------------------------- TestPreFilter

  /** kube's case: the registry's features, the scheduler's version, and the requirements written (null: Skip). */
  static Stream<Arguments> preFilterCases() {
    return Stream.of(
        argumentSet(
            "Pod with feature requirements",
            List.of(MockFeature.of(FEATURE_1, true, ""), MockFeature.of(FEATURE_2, false, "")),
            "1.35.0",
            Set.of(FEATURE_1)),
        argumentSet(
            "Pod with multiple feature requirements",
            List.of(MockFeature.of(FEATURE_1, true, "1.38.0"), MockFeature.of(FEATURE_2, true, "1.38.0")),
            "1.35.0",
            Set.of(FEATURE_1, FEATURE_2)),
        argumentSet(
            "Pod with no requirements",
            List.of(MockFeature.of(FEATURE_1, false, ""), MockFeature.of(FEATURE_2, false, "")),
            "1.35.0",
            null),
        argumentSet(
            "Feature not required, version > MaxVersion",
            List.of(MockFeature.of(FEATURE_1, true, "1.33.0"), MockFeature.of(FEATURE_2, false, "")),
            "1.34.0",
            null));
  }

  @ParameterizedTest
  @MethodSource("preFilterCases")
  void kube_pre_filter_case(List<MockFeature> features, String version, @Nullable Set<String> expected) {
    var plugin = new NodeDeclaredFeaturesFilter(new FeatureRegistry(features), ComponentVersion.parse(version));

    var prepared = plugin.prepare(pod("test-pod").build(), EMPTY);

    if (expected == null) {
      assertEquals(PreFilter.skip(NodeDeclaredFeaturesFilter.NAME), prepared);
    } else {
      assertEquals(expected, assertInstanceOf(Prepared.class, prepared).required());
    }
  }

  // ---------------------------------------------------------------- TestFilter

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "Node matches requirements",
            node("node-1").declaredFeatures(List.of(FEATURE_A, FEATURE_B)).build(),
            Set.of(FEATURE_A),
            Outcome.FIT),
        argumentSet(
            "Node does not match requirements",
            node("node-1").declaredFeatures(List.of(FEATURE_B)).build(),
            Set.of(FEATURE_A),
            Outcome.unresolvable(ERR_REASON)),
        argumentSet(
            "Node with multiple features, pod requires subset",
            node("node-multi").declaredFeatures(List.of(FEATURE_A, FEATURE_B, FEATURE_C)).build(),
            Set.of(FEATURE_A, FEATURE_C),
            Outcome.FIT),
        argumentSet(
            "Node has no declared features",
            node("node-1").build(),
            Set.of(FEATURE_A),
            Outcome.unresolvable(ERR_REASON)),
        argumentSet(
            "Node with some but not all required features",
            node("node-1").declaredFeatures(List.of(FEATURE_A)).build(),
            Set.of(FEATURE_A, FEATURE_B),
            Outcome.unresolvable(ERR_REASON)));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void kube_filter_case(NodeInfo node, Set<String> preFilterReqs, Outcome expected) {
    assertOutcome(expected, new Prepared(preFilterReqs).filter(pod("test-pod").build(), node));
  }

  // ---------------------------------------------------------------- the plugin's own cases

  @Test
  void a_rejection_keeps_the_missing_features_sorted_as_data() {
    var node = node("n").declaredFeatures(List.of(FEATURE_B)).build();

    var result = new Prepared(Set.of(FEATURE_C, FEATURE_A, FEATURE_B)).filter(pod().build(), node);

    var rejected = assertInstanceOf(FilterResult.Rejected.class, result);
    assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.code());
    assertEquals(List.of(new UnsatisfiedFeatures(List.of(FEATURE_A, FEATURE_C))), rejected.reasons());
  }

  @Test
  void features_a_node_declares_that_no_pod_needs_change_nothing() {
    var node = node("n").declaredFeatures(List.of("SomeFutureFeature", FEATURE_A)).build();

    assertOutcome(Outcome.FIT, new Prepared(Set.of(FEATURE_A)).filter(pod().build(), node));
  }

  @Test
  void without_prepare_the_filter_infers_the_pods_needs_itself() {
    var plugin = new NodeDeclaredFeaturesFilter();
    var needsUserNamespaceOnHostNetwork = pod().runtime(new PodRuntime(true, false, Set.of(), false)).build();
    var declaring = node("yes").declaredFeatures(List.of("UserNamespacesHostNetworkSupport")).build();
    var plain = node("no").build();

    assertOutcome(Outcome.FIT, plugin.filter(needsUserNamespaceOnHostNetwork, declaring));
    assertOutcome(Outcome.unresolvable(ERR_REASON), plugin.filter(needsUserNamespaceOnHostNetwork, plain));
    assertOutcome(Outcome.FIT, plugin.filter(pod().build(), plain));
  }

  @Test
  void a_pod_with_no_needs_skips_the_filter_with_kubes_registry() {
    var prepared = new NodeDeclaredFeaturesFilter().prepare(pod().build(), EMPTY);

    assertEquals(PreFilter.skip("NodeDeclaredFeatures"), prepared);
  }

  @Test
  void the_default_plugin_infers_as_kube_scheduler_v1_37_2() {
    var pod =
        pod()
            .runtime(new PodRuntime(true, false, Set.of("Restart", "RestartAllContainers"), true))
            .build();

    var prepared = new NodeDeclaredFeaturesFilter().prepare(pod, EMPTY);

    assertEquals(
        List.of("RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport", "VolumeBindMountOptions"),
        List.copyOf(assertInstanceOf(Prepared.class, prepared).required()));
  }
}
