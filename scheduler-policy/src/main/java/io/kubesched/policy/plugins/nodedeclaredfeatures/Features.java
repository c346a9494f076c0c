package io.kubesched.policy.plugins.nodedeclaredfeatures;

import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The features kube 1.37 registers ({@code component-helpers/nodedeclaredfeatures/features/registry.go}), each with
 * its scheduling rule as kube's {@code InferForScheduling} decides it from the pod's spec. Three ask something of a
 * pod; the others only matter to pod updates (in-place resize) or to other components, so no pod needs them for
 * scheduling. None has a maximum version in 1.37.
 */
final class Features {

  /** A container (or init container) restart rule's action that restarts the whole pod's containers. */
  static final String RESTART_ALL_CONTAINERS_ACTION = "RestartAllContainers";

  /** Needed by a pod with a {@code restartPolicyRules} entry whose action is {@code RestartAllContainers}. */
  static final DeclaredFeature RESTART_ALL_CONTAINERS_ON_CONTAINER_EXITS =
      feature(
          "RestartAllContainersOnContainerExits",
          pod -> pod.runtime().restartRuleActions().contains(RESTART_ALL_CONTAINERS_ACTION));

  /** Needed by a pod on the host's network in a user namespace of its own ({@code hostUsers: false}). */
  static final DeclaredFeature USER_NAMESPACES_HOST_NETWORK_SUPPORT =
      feature(
          "UserNamespacesHostNetworkSupport",
          pod -> pod.runtime().hostNetwork() && Boolean.FALSE.equals(pod.runtime().hostUsers()));

  /** Needed by a pod with a volume mount that sets {@code bindMountOptions}. */
  static final DeclaredFeature VOLUME_BIND_MOUNT_OPTIONS =
      feature("VolumeBindMountOptions", pod -> pod.runtime().bindMountOptions());

  /**
   * Every feature kube 1.37 registers. Those needed by no pod at scheduling: in-place resize of pod-level resources,
   * of non-sidecar init containers and of memory-backed volumes (updates only), WebSockets to the kubelet, DRA's
   * node-allocatable resources, and DRA's optional node operations (which kube's DynamicResources plugin checks
   * itself, since a claim's allocation is not known before PreBind).
   */
  static final List<DeclaredFeature> KUBE_1_37 =
      List.of(
          RESTART_ALL_CONTAINERS_ON_CONTAINER_EXITS,
          neverForScheduling("InPlacePodLevelResourcesVerticalScaling"),
          neverForScheduling("ExtendWebSocketsToKubelet"),
          neverForScheduling("InPlacePodVerticalScalingInitContainers"),
          neverForScheduling("InPlacePodVerticalScalingMemoryBackedVolumes"),
          USER_NAMESPACES_HOST_NETWORK_SUPPORT,
          neverForScheduling("DRANodeAllocatableResources"),
          VOLUME_BIND_MOUNT_OPTIONS,
          neverForScheduling("DRAOptionalNodeOperations"));

  private Features() {}

  private static DeclaredFeature feature(String name, Predicate<PodInfo> needs) {
    return new Rule(name, needs);
  }

  private static DeclaredFeature neverForScheduling(String name) {
    return new Rule(name, pod -> false);
  }

  /** A registered feature: a name and a rule, without a maximum version. */
  private record Rule(String name, Predicate<PodInfo> needs) implements DeclaredFeature {

    @Override
    public boolean inferForScheduling(PodInfo pod) {
      return needs.test(pod);
    }

    @Override
    public Optional<ComponentVersion> maxVersion() {
      return Optional.empty();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
