package io.kubesched.engine;

import io.kubesched.api.PodResourceClaim;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterData;
import io.kubesched.api.PodInfo;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UnsupportedFeaturesTest {

  static Stream<Arguments> pods() {
    var pod = PodInfo.builder("default", "db-0");
    return Stream.of(
        Arguments.of("a pod without claims is not refused", pod.build(), Optional.empty()),
        Arguments.of(
            "a PersistentVolumeClaim names the claim and volume binding",
            pod.persistentVolumeClaims(List.of("data")).build(),
            Optional.of(
                "pod default/db-0 uses PersistentVolumeClaim \"data\": the scheduling policy has no volume binding"
                    + " rule (it does not read PersistentVolumeClaims)")),
        Arguments.of(
            "several claims are all named",
            PodInfo.builder("default", "db-0").persistentVolumeClaims(List.of("data", "db-0-scratch")).build(),
            Optional.of(
                "pod default/db-0 uses PersistentVolumeClaims \"data\", \"db-0-scratch\": the scheduling policy has"
                    + " no volume binding rule (it does not read PersistentVolumeClaims)")),
        Arguments.of(
            "a ResourceClaim names the claim and dynamic resource allocation",
            PodInfo.builder("ml", "train").resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "gpu"))).build(),
            Optional.of(
                "pod ml/train uses ResourceClaim \"gpu\": the scheduling policy has no dynamic resource allocation"
                    + " rule (it does not read ResourceClaims)")),
        Arguments.of(
            "both features give one sentence each",
            PodInfo.builder("ml", "train")
                .persistentVolumeClaims(List.of("data"))
                .resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "gpu"), PodResourceClaim.ofClaim("nic", "nic")))
                .build(),
            Optional.of(
                "pod ml/train uses PersistentVolumeClaim \"data\": the scheduling policy has no volume binding rule"
                    + " (it does not read PersistentVolumeClaims); pod ml/train uses ResourceClaims \"gpu\", \"nic\":"
                    + " the scheduling policy has no dynamic resource allocation rule (it does not read"
                    + " ResourceClaims)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pods")
  void refusal(String name, PodInfo pod, Optional<String> message) {
    assertEquals(message, UnsupportedFeatures.refusal(pod, Set.of(ClusterData.NAMESPACES)));
  }

  static Stream<Arguments> podsForAVolumeBindingPolicy() {
    return Stream.of(
        Arguments.of(
            "claims are bound by a policy that reads them",
            PodInfo.builder("default", "db-0").persistentVolumeClaims(List.of("data")).build(),
            Optional.empty()),
        Arguments.of(
            "a ResourceClaim is still refused by a policy that reads no ResourceClaims, and only it",
            PodInfo.builder("ml", "train")
                .persistentVolumeClaims(List.of("data"))
                .resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "gpu")))
                .build(),
            Optional.of(
                "pod ml/train uses ResourceClaim \"gpu\": the scheduling policy has no dynamic resource allocation"
                    + " rule (it does not read ResourceClaims)")));
  }

  static Stream<Arguments> podsForADynamicResourcesPolicy() {
    return Stream.of(
        Arguments.of(
            "ResourceClaims are allocated by a policy that reads them",
            PodInfo.builder("ml", "train").resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "gpu"))).build(),
            Optional.empty()),
        Arguments.of(
            "a PersistentVolumeClaim is still refused by a policy that reads no PersistentVolumeClaims, and only it",
            PodInfo.builder("ml", "train")
                .persistentVolumeClaims(List.of("data"))
                .resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "gpu")))
                .build(),
            Optional.of(
                "pod ml/train uses PersistentVolumeClaim \"data\": the scheduling policy has no volume binding rule"
                    + " (it does not read PersistentVolumeClaims)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podsForADynamicResourcesPolicy")
  void refusalWhenThePolicyReadsResourceClaims(String name, PodInfo pod, Optional<String> message) {
    var reads = EnumSet.of(ClusterData.RESOURCE_CLAIMS, ClusterData.RESOURCE_SLICES, ClusterData.DEVICE_CLASSES);
    assertEquals(message, UnsupportedFeatures.refusal(pod, reads));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podsForAVolumeBindingPolicy")
  void refusalWhenThePolicyReadsClaims(String name, PodInfo pod, Optional<String> message) {
    var reads = EnumSet.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES);
    assertEquals(message, UnsupportedFeatures.refusal(pod, reads));
  }
}
