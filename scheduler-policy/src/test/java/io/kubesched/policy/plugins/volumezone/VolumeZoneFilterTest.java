package io.kubesched.policy.plugins.volumezone;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.StorageFixtures.claim;
import static io.kubesched.policy.plugins.StorageFixtures.snapshot;
import static io.kubesched.policy.plugins.StorageFixtures.storage;
import static io.kubesched.policy.plugins.StorageFixtures.storageClass;
import static io.kubesched.policy.plugins.StorageFixtures.unboundClaim;
import static io.kubesched.policy.plugins.StorageFixtures.volume;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_BETA_REGION;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_BETA_ZONE;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_REGION;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_ZONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterData;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code volumezone/volume_zone_test.go} ({@code TestSingleZone}, {@code
 * TestMultiZone}, {@code TestWithBinding}) under its case names, and edge cases. Each case runs {@link
 * VolumeZoneFilter#prepare} (kube's PreFilter) and the prepared filter on the case's node; kube's expected
 * PreFilter status is one of {@link Pre}. Its other tests are of queueing hints and of in-place resize, which
 * this library does not have.
 */
class VolumeZoneFilterTest {

  private static final Outcome CONFLICT = Outcome.unresolvable("node(s) had no available volume zone");

  private final VolumeZoneFilter plugin = new VolumeZoneFilter();

  /** kube's {@code wantPreFilterStatus}: success, Skip (every node fits), or a rejection of every node. */
  enum Pre {
    SUCCESS,
    SKIP,
    REJECT
  }

  // ---------------------------------------------------------------- TestSingleZone

  private static final Storage SINGLE_ZONE =
      storage(
          List.of(
              claim("PVC_1", "Vol_1"),
              claim("PVC_2", "Vol_2"),
              claim("PVC_3", "Vol_3"),
              claim("PVC_4", "Vol_not_exist"),
              claim("PVC_Stable_1", "Vol_Stable_1"),
              claim("PVC_Stable_2", "Vol_Stable_2"),
              claim("PVC_Stable_3", "Vol_Stable_3")),
          List.of(
              volume("Vol_1", Map.of(LABEL_BETA_ZONE, "us-west1-a")),
              volume("Vol_2", Map.of(LABEL_BETA_REGION, "us-west1", "uselessLabel", "none")),
              volume("Vol_3", Map.of(LABEL_BETA_REGION, "us-west1")),
              volume("Vol_Stable_1", Map.of(LABEL_ZONE, "us-west1-a")),
              volume("Vol_Stable_2", Map.of(LABEL_REGION, "us-west1", "uselessLabel", "none")),
              volume("Vol_Stable_3", Map.of(LABEL_ZONE, "us-west1-a", LABEL_REGION, "us-west1-a"))),
          List.of());

  static Stream<Arguments> singleZone() {
    return Stream.of(
        kube("pod without volume", PodInfo.builder("default", "pod_1").build(),
            host(Map.of(LABEL_BETA_ZONE, "us-west1-a")), Pre.SKIP, Outcome.FIT),
        kube("node without labels", createPodWithVolume("pod_1", "PVC_1"), host(Map.of()), Pre.SUCCESS, Outcome.FIT),
        kube("beta zone label matched", createPodWithVolume("pod_1", "PVC_1"),
            host(Map.of(LABEL_BETA_ZONE, "us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("beta region label matched", createPodWithVolume("pod_1", "PVC_2"),
            host(Map.of(LABEL_BETA_REGION, "us-west1", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("beta region label doesn't match", createPodWithVolume("pod_1", "PVC_2"),
            host(Map.of(LABEL_BETA_REGION, "no_us-west1", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT),
        kube("beta zone label doesn't match", createPodWithVolume("pod_1", "PVC_1"),
            host(Map.of(LABEL_BETA_ZONE, "no_us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT),
        kube("zone label matched", createPodWithVolume("pod_1", "PVC_Stable_1"),
            host(Map.of(LABEL_ZONE, "us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("region label matched", createPodWithVolume("pod_1", "PVC_Stable_2"),
            host(Map.of(LABEL_REGION, "us-west1", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("region label doesn't match", createPodWithVolume("pod_1", "PVC_Stable_2"),
            host(Map.of(LABEL_REGION, "no_us-west1", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT),
        kube("zone label doesn't match", createPodWithVolume("pod_1", "PVC_Stable_1"),
            host(Map.of(LABEL_ZONE, "no_us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT),
        kube("pv with zone and region, node with only zone", createPodWithVolume("pod_1", "PVC_Stable_3"),
            host(Map.of(LABEL_ZONE, "us-west1-a")), Pre.SUCCESS, CONFLICT),
        kube("pv with zone,node with beta zone", createPodWithVolume("pod_1", "PVC_Stable_1"),
            host(Map.of(LABEL_BETA_ZONE, "us-west1-a")), Pre.SUCCESS, CONFLICT),
        kube("pv with beta label,node with ga label, matched", createPodWithVolume("pod_1", "PVC_1"),
            host(Map.of(LABEL_ZONE, "us-west1-a")), Pre.SUCCESS, Outcome.FIT),
        kube("pv with beta label,node with ga label, don't match", createPodWithVolume("pod_1", "PVC_1"),
            host(Map.of(LABEL_ZONE, "us-west1-b")), Pre.SUCCESS, CONFLICT));
  }

  @ParameterizedTest
  @MethodSource("singleZone")
  void testSingleZone(PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    check(SINGLE_ZONE, pod, node, pre, expected);
  }

  // ---------------------------------------------------------------- TestMultiZone

  private static final Storage MULTI_ZONE =
      storage(
          List.of(
              claim("PVC_1", "Vol_1"),
              claim("PVC_2", "Vol_2"),
              claim("PVC_3", "Vol_3"),
              claim("PVC_4", "Vol_not_exist"),
              claim("PVC_Stable_1", "Vol_Stable_1"),
              claim("PVC_Stable_2", "Vol_Stable_2")),
          List.of(
              volume("Vol_1", Map.of(LABEL_BETA_ZONE, "us-west1-a")),
              volume("Vol_2", Map.of(LABEL_BETA_ZONE, "us-west1-b", "uselessLabel", "none")),
              volume("Vol_3", Map.of(LABEL_BETA_ZONE, "us-west1-c__us-west1-a")),
              volume("Vol_Stable_1", Map.of(LABEL_ZONE, "us-west1-a")),
              volume("Vol_Stable_2", Map.of(LABEL_ZONE, "us-west1-c__us-west1-a"))),
          List.of());

  static Stream<Arguments> multiZone() {
    return Stream.of(
        kube("node without labels", createPodWithVolume("pod_1", "PVC_3"), host(Map.of()), Pre.SUCCESS, Outcome.FIT),
        kube("beta zone label matched", createPodWithVolume("pod_1", "PVC_3"),
            host(Map.of(LABEL_BETA_ZONE, "us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("beta zone label doesn't match", createPodWithVolume("pod_1", "PVC_1"),
            host(Map.of(LABEL_BETA_ZONE, "us-west1-b", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT),
        kube("zone label matched", createPodWithVolume("pod_1", "PVC_Stable_2"),
            host(Map.of(LABEL_ZONE, "us-west1-a", "uselessLabel", "none")), Pre.SUCCESS, Outcome.FIT),
        kube("zone label doesn't match", createPodWithVolume("pod_1", "PVC_Stable_1"),
            host(Map.of(LABEL_ZONE, "us-west1-b", "uselessLabel", "none")), Pre.SUCCESS, CONFLICT));
  }

  @ParameterizedTest
  @MethodSource("multiZone")
  void testMultiZone(PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    check(MULTI_ZONE, pod, node, pre, expected);
  }

  // ---------------------------------------------------------------- TestWithBinding

  private static final Storage WITH_BINDING =
      storage(
          List.of(
              claim("PVC_1", "Vol_1"),
              unboundClaim("PVC_NoSC", "Class_0"),
              unboundClaim("PVC_EmptySC", ""),
              unboundClaim("PVC_WaitSC", "Class_Wait"),
              unboundClaim("PVC_ImmediateSC", "Class_Immediate")),
          List.of(volume("Vol_1", Map.of(LABEL_BETA_ZONE, "us-west1-a"))),
          List.of(storageClass("Class_Immediate", false), storageClass("Class_Wait", true)));

  private static final NodeInfo TEST_NODE = host(Map.of(LABEL_BETA_ZONE, "us-west1-a", "uselessLabel", "none"));

  static Stream<Arguments> withBinding() {
    return Stream.of(
        kube("label zone failure domain matched", createPodWithVolume("pod_1", "PVC_1"), TEST_NODE, Pre.SUCCESS,
            Outcome.FIT),
        kube("unbound volume empty storage class", createPodWithVolume("pod_1", "PVC_EmptySC"), TEST_NODE,
            Pre.REJECT, Outcome.unresolvable("PersistentVolumeClaim had no pv name and storageClass name")),
        // kube's fake lister says "storageclasses.storage.k8s.io"; its informers' listers (what a running
        // kube-scheduler reports) name the resource in the singular.
        kube("unbound volume no storage class", createPodWithVolume("pod_1", "PVC_NoSC"), TEST_NODE, Pre.REJECT,
            Outcome.unresolvable("storageclass.storage.k8s.io \"Class_0\" not found")),
        // kube's class has no binding mode here ("VolumeBindingMode not set for StorageClass"); the API server
        // defaults it to Immediate, which is what the model holds, and then kube says this.
        kube("unbound volume immediate binding mode", createPodWithVolume("pod_1", "PVC_ImmediateSC"), TEST_NODE,
            Pre.REJECT, Outcome.unresolvable("PersistentVolume had no name")),
        kube("unbound volume wait binding mode", createPodWithVolume("pod_1", "PVC_WaitSC"), TEST_NODE, Pre.SKIP,
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("withBinding")
  void testWithBinding(PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    check(WITH_BINDING, pod, node, pre, expected);
  }

  // ---------------------------------------------------------------- beyond kube's tables

  static Stream<Arguments> edgeCases() {
    var zoneA = host(Map.of(LABEL_ZONE, "us-west1-a"));
    return Stream.of(
        kube("a claim that does not exist rejects every node", createPodWithVolume("pod_1", "PVC_missing"),
            zoneA, Pre.REJECT, Outcome.unresolvable("persistentvolumeclaim \"PVC_missing\" not found")),
        kube("a claim of another namespace is not the pod's", PodInfo.builder("other", "pod_1")
                .persistentVolumeClaims(List.of("PVC_1")).build(), zoneA, Pre.REJECT,
            Outcome.unresolvable("persistentvolumeclaim \"PVC_1\" not found")),
        kube("a claim bound to a volume that does not exist rejects every node",
            createPodWithVolume("pod_1", "PVC_4"), zoneA, Pre.REJECT,
            Outcome.unresolvable("persistentvolume \"Vol_not_exist\" not found")),
        kube("the claims of generic ephemeral volumes are not read", PodInfo.builder("default", "pod_1")
                .persistentVolumeClaims(List.of("PVC_missing", "PVC_1"))
                .ephemeralVolumeClaims(List.of("PVC_missing")).build(), zoneA, Pre.SUCCESS, Outcome.FIT),
        kube("every claim's volume must match", PodInfo.builder("default", "pod_1")
                .persistentVolumeClaims(List.of("PVC_1", "PVC_B")).build(), zoneA, Pre.SUCCESS, CONFLICT),
        kube("zones are trimmed of spaces", createPodWithVolume("pod_1", "PVC_Spaced"),
            host(Map.of(LABEL_ZONE, "us-west1-b")), Pre.SUCCESS, Outcome.FIT),
        kube("a label with an empty zone is ignored", createPodWithVolume("pod_1", "PVC_Broken"),
            host(Map.of(LABEL_ZONE, "elsewhere")), Pre.SKIP, Outcome.FIT),
        kube("a node's deprecated label does not stand for a volume's new one",
            createPodWithVolume("pod_1", "PVC_Region"),
            host(Map.of(LABEL_BETA_REGION, "us-west1", LABEL_ZONE, "us-west1-a")), Pre.SUCCESS, CONFLICT),
        kube("a node with only a region label is constrained by a volume's zone",
            createPodWithVolume("pod_1", "PVC_1"), host(Map.of(LABEL_REGION, "us-west1")), Pre.SUCCESS, CONFLICT),
        kube("a volume without zone labels constrains nothing", createPodWithVolume("pod_1", "PVC_Plain"),
            zoneA, Pre.SKIP, Outcome.FIT));
  }

  private static final Storage EDGES =
      storage(
          List.of(
              claim("PVC_1", "Vol_1"),
              claim("PVC_4", "Vol_not_exist"),
              claim("PVC_B", "Vol_B"),
              claim("PVC_Spaced", "Vol_Spaced"),
              claim("PVC_Broken", "Vol_Broken"),
              claim("PVC_Region", "Vol_Region"),
              claim("PVC_Plain", "Vol_Plain")),
          List.of(
              volume("Vol_1", Map.of(LABEL_BETA_ZONE, "us-west1-a")),
              volume("Vol_B", Map.of(LABEL_ZONE, "us-west1-b")),
              volume("Vol_Spaced", Map.of(LABEL_ZONE, " us-west1-a __\tus-west1-b ")),
              volume("Vol_Broken", Map.of(LABEL_ZONE, "us-west1-a____us-west1-b")),
              volume("Vol_Region", Map.of(LABEL_REGION, "us-west1")),
              volume("Vol_Plain", Map.of("uselessLabel", "none"))),
          List.of());

  @ParameterizedTest
  @MethodSource("edgeCases")
  void edge_case(PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    check(EDGES, pod, node, pre, expected);
  }

  @Test
  void the_conflict_names_the_volume_and_its_label() {
    var pod = createPodWithVolume("pod_1", "PVC_Stable_3");
    var prepared = plugin.prepare(pod, snapshot(SINGLE_ZONE));

    var result = prepared.filter(pod, host(Map.of(LABEL_ZONE, "us-west1-a", LABEL_REGION, "us-west1")));

    assertEquals(
        List.of(new VolumeZoneFilter.VolumeZoneConflict("Vol_Stable_3", LABEL_REGION)), FilterFixtures.reasons(result));
  }

  @Test
  void label_values_are_read_as_kube_reads_them() {
    assertEquals(Optional.of(Set.of("a")), VolumeZoneFilter.zones("a"));
    assertEquals(Optional.of(Set.of("a", "b")), VolumeZoneFilter.zones("a__b__a"));
    assertEquals(Optional.of(Set.of("a_b")), VolumeZoneFilter.zones("a_b"));
    assertEquals(Optional.of(Set.of("a", "_b")), VolumeZoneFilter.zones("a___b"));
    assertEquals(Optional.of(Set.of("a", "b")), VolumeZoneFilter.zones("\u00a0a\u2003__ b\u0085"));
    assertEquals(Optional.empty(), VolumeZoneFilter.zones(""));
    assertEquals(Optional.empty(), VolumeZoneFilter.zones("a__"));
    assertEquals(Optional.empty(), VolumeZoneFilter.zones("__a"));
    assertEquals(Optional.empty(), VolumeZoneFilter.zones("a__ __b"));
  }

  @Test
  void unprepared_it_fits_pods_without_claims_and_errs_for_others() {
    var bare = host(Map.of(LABEL_ZONE, "z"));

    assertTrue(plugin.filter(PodInfo.builder("default", "p").build(), bare).fits());
    assertEquals(Code.ERROR, plugin.filter(createPodWithVolume("p", "PVC_1"), bare).code());
  }

  @Test
  void it_reads_claims_volumes_and_classes_and_has_kubes_name() {
    var reads = Set.of(
        ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES, ClusterData.STORAGE_CLASSES);

    assertEquals(reads, plugin.reads());
    assertEquals(reads, plugin.prepare(createPodWithVolume("p", "PVC_1"), snapshot(SINGLE_ZONE)).reads());
    assertEquals("VolumeZone", plugin.name());
  }

  // ---------------------------------------------------------------- helpers

  private void check(Storage storage, PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    var prepared = plugin.prepare(pod, snapshot(storage, node));

    switch (pre) {
      case SKIP -> {
        var kept = assertInstanceOf(VolumeZoneFilter.Prepared.class, prepared);
        assertTrue(kept.topologies().isEmpty(), "kube's PreFilter skips the plugin");
      }
      case SUCCESS -> {
        var kept = assertInstanceOf(VolumeZoneFilter.Prepared.class, prepared);
        assertTrue(!kept.topologies().isEmpty(), "kube's PreFilter keeps the volumes' topologies");
      }
      case REJECT -> {
        assertInstanceOf(PreFilter.PodRejected.class, prepared, "kube's PreFilter turns the pod away");
        assertOutcome(expected, prepared.filter(pod, host(Map.of())));
      }
    }
    assertOutcome(expected, prepared.filter(pod, node));
  }

  private static Arguments kube(String name, PodInfo pod, NodeInfo node, Pre pre, Outcome expected) {
    return argumentSet(name, pod, node, pre, expected);
  }

  /** kube's {@code createPodWithVolume}: a pod in {@code default} with one claim volume. */
  private static PodInfo createPodWithVolume(String pod, String pvc) {
    return PodInfo.builder("default", pod).persistentVolumeClaims(List.of(pvc)).build();
  }

  private static NodeInfo host(Map<String, String> labels) {
    return node("host1").labels(labels).build();
  }
}
