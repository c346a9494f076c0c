package io.kubesched.policy.plugins.nodedeclaredfeatures;

import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.PodInfo;
import io.kubesched.api.PodRuntime;
import io.kubesched.api.Resources;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduling rules of the features kube 1.37 registers, with the cases of {@code
 * component-helpers/nodedeclaredfeatures}' tests under their names ({@code restart_all_containers_test.go}'s and
 * {@code user_namespaces_host_network_test.go}'s {@code TestInferForScheduling}, {@code framework_test.go}'s {@code
 * TestInferForPodScheduling}); {@code VolumeBindMountOptions} has no test in kube, its cases are ours. Discovery
 * (what a kubelet declares) is the kubelet's business and not ported.
 */
class FeaturesTest {

  private static PodInfo runtime(boolean hostNetwork, @Nullable Boolean hostUsers, Set<String> actions, boolean bind) {
    return pod().runtime(new PodRuntime(hostNetwork, hostUsers, actions, bind)).build();
  }

  @Test
  void the_registry_is_kubes_1_37_registry_sorted_by_name() {
    assertEquals(
        List.of(
            "DRANodeAllocatableResources",
            "DRAOptionalNodeOperations",
            "ExtendWebSocketsToKubelet",
            "InPlacePodLevelResourcesVerticalScaling",
            "InPlacePodVerticalScalingInitContainers",
            "InPlacePodVerticalScalingMemoryBackedVolumes",
            "RestartAllContainersOnContainerExits",
            "UserNamespacesHostNetworkSupport",
            "VolumeBindMountOptions"),
        FeatureRegistry.DEFAULT.names());
  }

  @Test
  void a_feature_registered_twice_is_refused() {
    var twice = List.of(MockFeature.of("A", true, ""), MockFeature.of("A", false, ""));

    assertThrows(IllegalArgumentException.class, () -> new FeatureRegistry(twice));
  }

  // ---------------------------------------------------------------- restartallcontainers

  static Stream<Arguments> restartAllContainers() {
    // The adapter reads the actions of init containers' and containers' rules alike: kube's first two cases (an init
    // container's rule, a regular container's rule) are one action in the pod's runtime here.
    return Stream.of(
        argumentSet("init container with rules", Set.of("RestartAllContainers"), true),
        argumentSet("regular container with rules", Set.of("RestartAllContainers"), true),
        argumentSet("no rules", Set.of(), false),
        argumentSet("a rule that restarts only its own container", Set.of("Restart"), false));
  }

  @ParameterizedTest
  @MethodSource("restartAllContainers")
  void restart_all_containers_case(Set<String> actions, boolean expected) {
    assertEquals(
        expected,
        Features.RESTART_ALL_CONTAINERS_ON_CONTAINER_EXITS.inferForScheduling(runtime(false, null, actions, false)));
  }

  // ---------------------------------------------------------------- usernamespaceshostnetwork

  static Stream<Arguments> userNamespacesHostNetwork() {
    return Stream.of(
        argumentSet("HostNetwork true, HostUsers false", true, false, true),
        argumentSet("HostNetwork true, HostUsers nil", true, null, false),
        argumentSet("HostNetwork true, HostUsers true", true, true, false),
        argumentSet("HostNetwork false, HostUsers false", false, false, false));
  }

  @ParameterizedTest
  @MethodSource("userNamespacesHostNetwork")
  void user_namespaces_host_network_case(boolean hostNetwork, @Nullable Boolean hostUsers, boolean expected) {
    assertEquals(
        expected,
        Features.USER_NAMESPACES_HOST_NETWORK_SUPPORT.inferForScheduling(
            runtime(hostNetwork, hostUsers, Set.of(), false)));
  }

  // ---------------------------------------------------------------- volumebindmountoptions

  @Test
  void volume_bind_mount_options_are_needed_only_by_a_pod_that_sets_them() {
    assertEquals(true, Features.VOLUME_BIND_MOUNT_OPTIONS.inferForScheduling(runtime(false, null, Set.of(), true)));
    assertEquals(false, Features.VOLUME_BIND_MOUNT_OPTIONS.inferForScheduling(runtime(true, false, Set.of(), false)));
  }

  @Test
  void the_other_registered_features_are_needed_by_no_pod_at_scheduling() {
    var everything = runtime(true, false, Set.of("RestartAllContainers", "Restart"), true);
    var asking =
        Set.of("RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport", "VolumeBindMountOptions");

    for (var feature : Features.KUBE_1_37) {
      assertEquals(asking.contains(feature.name()), feature.inferForScheduling(everything), feature.name());
      assertEquals(Optional.empty(), feature.maxVersion(), feature.name());
    }
  }

  // ---------------------------------------------------------------- framework_test.go TestInferForPodScheduling

  /** kube's mock rule: the pod has pod-level resources. */
  private static MockFeature podLevelResources(String maxVersion) {
    return new MockFeature(
        "PodLevelResources",
        pod -> pod.requests().milliCpu() > 0,
        maxVersion.isEmpty() ? Optional.empty() : Optional.of(ComponentVersion.parse(maxVersion)));
  }

  static Stream<Arguments> inferForPodScheduling() {
    var with = pod("pod-with-podlevelresources").requests(new Resources(500, 0, 0, 1, java.util.Map.of())).build();
    var without = pod("pod-without-podlevelresources").build();
    return Stream.of(
        argumentSet("pod with feature, inferred during scheduling", "", with, "1.30.0", Set.of("PodLevelResources")),
        argumentSet("pod without feature", "", without, "1.30.0", Set.of()),
        argumentSet("feature universally available, not inferred during create", "1.30.0", with, "1.31.0", Set.of()),
        argumentSet(
            "pre-release target version", "1.30.0", with, "0.0.0-alpha.2.39+049eafd34dfbd2",
            Set.of("PodLevelResources")),
        argumentSet("exceeds max version", "1.30.0", with, "1.40.0", Set.of()));
    // "target version nil" is not ported: the version is never null here.
  }

  @ParameterizedTest
  @MethodSource("inferForPodScheduling")
  void infer_for_pod_scheduling_case(String maxVersion, PodInfo pod, String target, Set<String> expected) {
    var registry = new FeatureRegistry(List.of(podLevelResources(maxVersion)));

    assertEquals(expected, registry.inferForScheduling(pod, ComponentVersion.parse(target)));
  }

  @Test
  void a_feature_is_still_needed_at_its_max_version_and_no_longer_past_it() {
    var registry = new FeatureRegistry(List.of(MockFeature.of("F", true, "1.37.0")));

    assertEquals(Set.of("F"), registry.inferForScheduling(pod().build(), ComponentVersion.parse("v1.37.0")));
    assertEquals(Set.of("F"), registry.inferForScheduling(pod().build(), ComponentVersion.parse("1.37.0-rc.1")));
    assertEquals(Set.of(), registry.inferForScheduling(pod().build(), ComponentVersion.parse("1.37.1")));
  }

  @Test
  void a_version_that_is_not_major_minor_patch_is_refused_naming_it() {
    var refused = assertThrows(IllegalArgumentException.class, () -> ComponentVersion.parse("1.37"));

    assertEquals("not a version major.minor.patch: \"1.37\"", refused.getMessage());
  }
}
