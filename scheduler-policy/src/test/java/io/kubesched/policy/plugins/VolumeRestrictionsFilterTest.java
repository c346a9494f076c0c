package io.kubesched.policy.plugins;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.nodeWith;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.podWithVolumes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.api.Volume.AwsElasticBlockStore;
import io.kubesched.api.Volume.GcePersistentDisk;
import io.kubesched.api.Volume.Iscsi;
import io.kubesched.api.Volume.Rbd;
import io.kubesched.policy.Reason;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code volumerestrictions/volume_restrictions_test.go} ({@code
 * TestGCEDiskConflicts}, {@code TestAWSDiskConflicts}, {@code TestRBDDiskConflicts}, {@code
 * TestISCSIDiskConflicts}), and edge cases. Its {@code ReadWriteOncePod} cases need persistent volume claims,
 * which the domain model does not carry.
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

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("VolumeRestrictions", filter.name());
  }
}
