package io.kubesched.policy.plugins.volumerestrictions;

import static io.kubesched.api.AccessMode.READ_WRITE_MANY;
import static io.kubesched.api.AccessMode.READ_WRITE_ONCE_POD;
import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.podWithVolumes;
import static io.kubesched.policy.plugins.StorageFixtures.claimWithModes;
import static io.kubesched.policy.plugins.StorageFixtures.snapshot;
import static io.kubesched.policy.plugins.StorageFixtures.storage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.api.Volume.AwsElasticBlockStore;
import io.kubesched.api.Volume.GcePersistentDisk;
import io.kubesched.api.Volume.Iscsi;
import io.kubesched.api.Volume.Rbd;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code volumerestrictions/volume_restrictions_test.go} ({@code
 * TestGCEDiskConflicts}, {@code TestAWSDiskConflicts}, {@code TestRBDDiskConflicts}, {@code
 * TestISCSIDiskConflicts}, {@code TestAccessModeConflicts}), and edge cases. Its other tests are of queueing
 * hints and of in-place resize, which this library does not have.
 */
class VolumeRestrictionsFilterTest {

  private static final String ERR_REASON = "node(s) had no available disk";
  private static final Outcome CONFLICT = Outcome.unschedulable(ERR_REASON);

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
            cases("GCE", new GcePersistentDisk("foo", false), new GcePersistentDisk("bar", false)),
            cases("AWS", new AwsElasticBlockStore("foo", false), new AwsElasticBlockStore("bar", false)),
            cases(
                "RBD",
                new Rbd(List.of("a", "b"), "foo", "bar", false),
                new Rbd(List.of("c", "d"), "foo", "bar", false)),
            cases(
                "ISCSI",
                new Iscsi("127.0.0.1:3260", "iqn.2016-12.server:storage.target01", 0, false),
                new Iscsi("127.0.0.1:3260", "iqn.2017-12.server:storage.target01", 0, false)),
            // A volume of another kind never conflicts; the adapter does not even hand it over.
            Stream.of(
                argumentSet(
                    "GCE: pod with a volume that doesn't have restrictions",
                    pod().build(),
                    nodeWith(),
                    Outcome.FIT)))
        .flatMap(s -> s);
  }

  /** The four cases each of kube-scheduler's disk conflict tests runs, for one kind of volume. */
  private static Stream<Arguments> cases(String kind, Volume volState, Volume volState2) {
    return Stream.of(
        argumentSet(kind + ": nothing", pod().build(), nodeWith(), Outcome.FIT),
        argumentSet(kind + ": one state", pod().build(), nodeWith(podWithVolumes(volState)), Outcome.FIT),
        argumentSet(
            kind + ": same state", podWithVolumes(volState), nodeWith(podWithVolumes(volState)), CONFLICT),
        argumentSet(
            kind + ": different state",
            podWithVolumes(volState2),
            nodeWith(podWithVolumes(volState)),
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(PodInfo pod, NodeInfo node, Outcome expected) {
    assertOutcome(expected, filter.filter(pod, node));
  }

  static Stream<Arguments> pairs() {
    return Stream.of(
        argumentSet(
            "the same GCE disk read-only twice is shared",
            new GcePersistentDisk("d", true),
            new GcePersistentDisk("d", true),
            false),
        argumentSet(
            "the same GCE disk read-only once conflicts",
            new GcePersistentDisk("d", true),
            new GcePersistentDisk("d", false),
            true),
        argumentSet(
            "the same EBS volume conflicts even read-only twice",
            new AwsElasticBlockStore("v", true),
            new AwsElasticBlockStore("v", true),
            true),
        argumentSet(
            "RBD images sharing one monitor of several conflict",
            new Rbd(List.of("a", "b"), "p", "i", false),
            new Rbd(List.of("b", "c"), "p", "i", false),
            true),
        argumentSet(
            "RBD images in another pool do not conflict",
            new Rbd(List.of("a"), "p", "i", false),
            new Rbd(List.of("a"), "q", "i", false),
            false),
        argumentSet(
            "RBD images of another name do not conflict",
            new Rbd(List.of("a"), "p", "i", false),
            new Rbd(List.of("a"), "p", "j", false),
            false),
        argumentSet(
            "the same RBD image read-only twice is shared",
            new Rbd(List.of("a"), "p", "i", true),
            new Rbd(List.of("a"), "p", "i", true),
            false),
        argumentSet(
            "iSCSI disks of the same IQN conflict whatever their portal and lun",
            new Iscsi("10.0.0.1:3260", "iqn.x", 0, false),
            new Iscsi("10.0.0.2:3260", "iqn.x", 1, false),
            true),
        argumentSet(
            "the same iSCSI IQN read-only twice is shared",
            new Iscsi("p", "iqn.x", 0, true),
            new Iscsi("p", "iqn.x", 0, true),
            false),
        argumentSet(
            "the same iSCSI IQN read-only once conflicts",
            new Iscsi("p", "iqn.x", 0, true),
            new Iscsi("p", "iqn.x", 0, false),
            true),
        argumentSet(
            "volumes of different kinds with the same name do not conflict",
            new GcePersistentDisk("x", false),
            new AwsElasticBlockStore("x", false),
            false));
  }

  @ParameterizedTest
  @MethodSource("pairs")
  void two_volumes_conflict_as_kubernetes_rules_say(Volume wanted, Volume existing, boolean conflict) {
    var result = filter.filter(podWithVolumes(wanted), nodeWith(podWithVolumes(existing)));

    assertOutcome(conflict ? CONFLICT : Outcome.FIT, result);
  }

  @Test
  void a_conflict_with_any_pod_on_the_node_rejects() {
    var disk = new GcePersistentDisk("d", false);

    assertOutcome(
        CONFLICT,
        filter.filter(
            podWithVolumes(new GcePersistentDisk("other", false), disk),
            nodeWith(podWithVolumes(new GcePersistentDisk("x", false)), pod().build(), podWithVolumes(disk))));
  }

  @Test
  void the_reason_describes_the_pods_conflicting_volume() {
    var result =
        filter.filter(
            podWithVolumes(new Rbd(List.of("m"), "pool", "image", false)),
            nodeWith(podWithVolumes(new Rbd(List.of("m"), "pool", "image", true))));

    assertEquals(List.of(new Reason.DiskConflict("RBD image pool/image")), FilterFixtures.reasons(result));
  }

  // ---------------------------------------------------------------- TestAccessModeConflicts

  private static final String RWOP_CONFLICT =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by "
          + "another pod";

  /** kube's {@code preFilterWantStatus}: success, Skip (every node fits), or a rejection of every node. */
  enum Pre {
    SUCCESS,
    SKIP,
    REJECT
  }

  private static final PersistentVolumeClaim RWOP_1 = claimWithModes("claim-with-rwop-1", READ_WRITE_ONCE_POD);
  private static final PersistentVolumeClaim RWOP_2 = claimWithModes("claim-with-rwop-2", READ_WRITE_ONCE_POD);
  private static final PersistentVolumeClaim RWX = claimWithModes("claim-with-rwx", READ_WRITE_MANY);

  private static PodInfo podWithClaims(String name, String... claims) {
    return pod(name).persistentVolumeClaims(List.of(claims)).nodeName("node-1").build();
  }

  static Stream<Arguments> accessModeCases() {
    var podWithOnePvc = podWithClaims("pod-with-one-pvc", "claim-with-rwop-1");
    var podWithTwoPvcs = podWithClaims("pod-with-two-pvcs", "claim-with-rwop-1", "claim-with-rwop-2");
    var podWithOneConflict = podWithClaims("pod-with-one-conflict", "claim-with-rwop-1");
    var podWithTwoConflicts = podWithClaims("pod-with-two-conflicts", "claim-with-rwop-1", "claim-with-rwop-2");
    var podWithReadWriteManyPvc = podWithClaims("pod-with-rwx", "claim-with-rwx");
    return Stream.of(
        argumentSet("nothing", PodInfo.builder("", "").build(), List.of(), List.of(), Pre.SKIP, Outcome.FIT),
        argumentSet(
            "failed to get PVC",
            podWithOnePvc,
            List.of(),
            List.of(),
            Pre.REJECT,
            Outcome.unresolvable("persistentvolumeclaim \"claim-with-rwop-1\" not found")),
        argumentSet(
            "no access mode conflict",
            podWithOnePvc,
            List.of(podWithReadWriteManyPvc),
            List.of(RWOP_1, RWX),
            Pre.SKIP,
            Outcome.FIT),
        argumentSet(
            "access mode conflict, unschedulable",
            podWithOneConflict,
            List.of(podWithOnePvc, podWithReadWriteManyPvc),
            List.of(RWOP_1, RWX),
            Pre.SUCCESS,
            Outcome.unschedulable(RWOP_CONFLICT)),
        argumentSet(
            "two conflicts, unschedulable",
            podWithTwoConflicts,
            List.of(podWithTwoPvcs, podWithReadWriteManyPvc),
            List.of(RWOP_1, RWOP_2, RWX),
            Pre.SUCCESS,
            Outcome.unschedulable(RWOP_CONFLICT)));
  }

  @ParameterizedTest
  @MethodSource("accessModeCases")
  void testAccessModeConflicts(
      PodInfo pod, List<PodInfo> existingPods, List<PersistentVolumeClaim> claims, Pre pre, Outcome expected) {
    var node = node("node-1").pods(existingPods).build();
    var prepared = filter.prepare(pod, snapshot(storage(claims, List.of(), List.of()), node));

    switch (pre) {
      case SKIP -> assertTrue(assertInstanceOf(VolumeRestrictionsFilter.Prepared.class, prepared).skipped());
      case SUCCESS -> {
        var kept = assertInstanceOf(VolumeRestrictionsFilter.Prepared.class, prepared);
        assertFalse(kept.skipped());
        assertTrue(kept.checkDisks() || !kept.everyNode().fits());
      }
      case REJECT -> {
        var rejected = assertInstanceOf(PreFilter.PodRejected.class, prepared, "kube's PreFilter turns the pod away");
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.rejection().code());
      }
    }
    assertOutcome(expected, prepared.filter(pod, node));
  }

  static Stream<Arguments> readWriteOncePodEdges() {
    var user = podWithClaims("user", "claim-with-rwop-1");
    return Stream.of(
        argumentSet(
            "a claim in use on another node rejects every node, an empty one too",
            podWithClaims("p", "claim-with-rwop-1"),
            List.of(node("node-2").pods(List.of(user)).build()),
            List.of(RWOP_1),
            Outcome.unschedulable(RWOP_CONFLICT)),
        argumentSet(
            "a claim of the same name in another namespace is another claim",
            podWithClaims("p", "claim-with-rwop-1"),
            List.of(node("node-2").pods(List.of(PodInfo.builder("other", "user")
                .persistentVolumeClaims(List.of("claim-with-rwop-1")).build())).build()),
            List.of(RWOP_1),
            Outcome.FIT),
        argumentSet(
            "another pod's generic ephemeral claim is not counted as in use",
            podWithClaims("p", "claim-with-rwop-1"),
            List.of(node("node-2").pods(List.of(pod("user").persistentVolumeClaims(List.of("claim-with-rwop-1"))
                .ephemeralVolumeClaims(List.of("claim-with-rwop-1")).build())).build()),
            List.of(RWOP_1),
            Outcome.FIT),
        argumentSet(
            "the pod's own generic ephemeral claims are not looked up",
            pod("p").persistentVolumeClaims(List.of("p-scratch")).ephemeralVolumeClaims(List.of("p-scratch"))
                .build(),
            List.of(node("node-2").pods(List.of(user)).build()),
            List.of(),
            Outcome.FIT),
        argumentSet(
            "a claim without ReadWriteOncePod may be shared",
            podWithClaims("p", "claim-with-rwx"),
            List.of(node("node-2").pods(List.of(podWithClaims("user", "claim-with-rwx"))).build()),
            List.of(RWX),
            Outcome.FIT),
        argumentSet(
            "a missing claim rejects the pod even when others are fine",
            podWithClaims("p", "claim-with-rwx", "nowhere"),
            List.of(),
            List.of(RWX),
            Outcome.unresolvable("persistentvolumeclaim \"nowhere\" not found")),
        argumentSet(
            "a disk conflict on the node is reported before the claim in use",
            pod("p").volumes(List.of(new GcePersistentDisk("d", false)))
                .persistentVolumeClaims(List.of("claim-with-rwop-1")).build(),
            List.of(node("n").pods(List.of(podWithVolumes(new GcePersistentDisk("d", false)), user)).build()),
            List.of(RWOP_1),
            CONFLICT),
        argumentSet(
            "inline CSI volumes never conflict",
            podWithVolumes(new Volume.Csi("csi.example.com", "v", false)),
            List.of(node("n").pods(List.of(podWithVolumes(new Volume.Csi("csi.example.com", "v", false))))
                .build()),
            List.of(),
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("readWriteOncePodEdges")
  void read_write_once_pod_edge_case(
      PodInfo pod, List<NodeInfo> nodes, List<PersistentVolumeClaim> claims, Outcome expected) {
    var cluster = ClusterSnapshot.of(nodes).withStorage(storage(claims, List.of(), List.of()));
    var prepared = filter.prepare(pod, cluster);

    assertOutcome(expected, prepared.filter(pod, nodes.isEmpty() ? node("n").build() : nodes.get(0)));
    if (expected.code() != Code.SUCCESS && expected != CONFLICT) {
      assertOutcome(expected, prepared.filter(pod, node("empty").build()));
    }
  }

  @Test
  void the_claims_in_use_are_named_in_the_pods_order() {
    var pod = podWithClaims("p", "claim-with-rwop-2", "claim-with-rwx", "claim-with-rwop-1");
    var node = node("n").pods(List.of(podWithClaims("u", "claim-with-rwop-1", "claim-with-rwop-2"))).build();

    var result =
        filter.prepare(pod, snapshot(storage(List.of(RWOP_1, RWOP_2, RWX), List.of(), List.of()), node))
            .filter(pod, node);

    assertEquals(
        List.of(new VolumeRestrictionsFilter.ReadWriteOncePodConflict(
            List.of("claim-with-rwop-2", "claim-with-rwop-1"))),
        FilterFixtures.reasons(result));
  }

  @Test
  void it_reads_the_claims_only() {
    assertEquals(Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS), filter.reads());
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("VolumeRestrictions", filter.name());
  }
}
