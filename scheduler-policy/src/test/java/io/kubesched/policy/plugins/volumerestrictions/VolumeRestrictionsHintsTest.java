package io.kubesched.policy.plugins.volumerestrictions;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code Test_isSchedulableAfterAssignedPodDeleted} ({@code
 * volumerestrictions/volume_restrictions_test.go}), under kube's names. Kube's {@code
 * Test_isSchedulableAfterPersistentVolumeClaimChange} is about claims, whose changes move the pod without {@link
 * VolumeRestrictionsFilter#isSchedulableAfter}.
 */
class VolumeRestrictionsHintsTest {

  private static final Volume GCE = new Volume.GcePersistentDisk("foo", false);
  private static final Volume GCE_2 = new Volume.GcePersistentDisk("bar", false);
  private static final Volume AWS = new Volume.AwsElasticBlockStore("foo", false);
  private static final Volume AWS_2 = new Volume.AwsElasticBlockStore("bar", false);
  private static final Volume RBD = new Volume.Rbd(List.of("a", "b"), "foo", "bar", false);
  private static final Volume RBD_2 = new Volume.Rbd(List.of("c", "d"), "foo", "bar", false);
  private static final Volume ISCSI =
      new Volume.Iscsi("127.0.0.1:3260", "iqn.2016-12.server:storage.target01", 0, false);
  private static final Volume ISCSI_2 =
      new Volume.Iscsi("127.0.0.1:3260", "iqn.2017-12.server:storage.target01", 0, false);

  private final VolumeRestrictionsFilter filter = new VolumeRestrictionsFilter();

  static Stream<Arguments> assignedPodDeletions() {
    return Stream.of(
        argumentSet("queue-new-object-gcedisk-conflict", withVolume(GCE), withVolume(GCE), true),
        argumentSet("skip-new-object-gcedisk-no-conflict", withVolume(GCE), withVolume(GCE_2), false),
        argumentSet("queue-new-object-awsdisk-conflict", withVolume(AWS), withVolume(AWS), true),
        argumentSet("skip-new-object-awsdisk-no-conflict", withVolume(AWS), withVolume(AWS_2), false),
        argumentSet("queue-new-object-rbddisk-conflict", withVolume(RBD), withVolume(RBD), true),
        argumentSet("skip-new-object-rbddisk-no-conflict", withVolume(RBD), withVolume(RBD_2), false),
        argumentSet("queue-new-object-iscsidisk-conflict", withVolume(ISCSI), withVolume(ISCSI), true),
        argumentSet("skip-new-object-iscsidisk-no-conflict", withVolume(ISCSI), withVolume(ISCSI_2), false),
        argumentSet("queue-has-same-claim", withClaim("pod1", "claim-rwop"), withClaim("pod2", "claim-rwop"), true),
        argumentSet("skip-no-same-claim", withClaim("pod1", "claim-1-rwop"), withClaim("pod2", "claim-2-rwop"),
            false));
  }

  @ParameterizedTest
  @MethodSource("assignedPodDeletions")
  void isSchedulableAfterAssignedPodDeleted(PodInfo pod, PodInfo deleted, boolean queue) {
    assertEquals(queue, filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  @Test
  void aPodOfAnotherNamespaceHelpsWithItsDisksNotWithAClaimOfTheSameName() {
    var pod = pod().volumes(List.of(GCE)).persistentVolumeClaims(List.of("c")).build();
    var withDisk = PodInfo.builder("other", "q").nodeName("node").volumes(List.of(GCE)).build();
    var withClaim = PodInfo.builder("other", "q").nodeName("node").persistentVolumeClaims(List.of("c")).build();
    assertTrue(filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(withDisk)));
    assertFalse(filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(withClaim)));
  }

  @Test
  void sharingOnlyAGenericEphemeralVolumesClaimDoesNotHelp() {
    var ephemeral = pod().persistentVolumeClaims(List.of("p-data")).ephemeralVolumeClaims(List.of("p-data")).build();
    assertFalse(filter.isSchedulableAfter(ephemeral, new ClusterUpdate.AssignedPodDeleted(ephemeral)));
  }

  @Test
  void anyNodeAddedMayHelp() {
    assertTrue(filter.isSchedulableAfter(withVolume(GCE), new ClusterUpdate.NodeAdded(node("n").build())));
  }

  private static PodInfo withVolume(Volume volume) {
    return pod().nodeName("node").volumes(List.of(volume)).build();
  }

  private static PodInfo withClaim(String name, String claim) {
    return pod(name).nodeName("node").persistentVolumeClaims(List.of(claim)).build();
  }
}
