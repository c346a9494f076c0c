package io.kubesched.policy.plugins.nodevolumelimits;

import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.NODE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.podWithClaims;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.podWithVolumes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code TestCSILimitsQHint} ({@code nodevolumelimits/csi_test.go}), kube's hint for
 * a bound pod's deletion, under kube's names. Kube's hints for claims added, CSINodes updated and VolumeAttachments
 * deleted are about objects whose changes move the pod without {@link NodeVolumeLimitsFilter#isSchedulableAfter}.
 */
class NodeVolumeLimitsHintsTest {

  private final NodeVolumeLimitsFilter filter = new NodeVolumeLimitsFilter();

  static Stream<Arguments> assignedPodDeletions() {
    return Stream.of(
        argumentSet("return a Queue when a deleted pod has a PVC", bound(podWithClaims("placeholder")), true),
        argumentSet("return a Queue when a deleted pod has a inline migratable volume",
            bound(podWithVolumes(new Volume.AwsElasticBlockStore("", false))), true),
        argumentSet("return a QueueSkip when a deleted pod doesn't have any volume", bound(podWithVolumes()), false),
        argumentSet("return a QueueSkip when a deleted pod is not scheduled.",
            podWithClaims("csi-ebs.csi.aws.com-0"), false));
  }

  @ParameterizedTest
  @MethodSource("assignedPodDeletions")
  void isSchedulableAfterAssignedPodDeleted(PodInfo deleted, boolean queue) {
    var pod = podWithClaims("csi-ebs.csi.aws.com-2");
    assertEquals(queue, filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  @Test
  void volumesTheFilterDoesNotCountDoNotHelp() {
    var deleted = bound(podWithVolumes(
        new Volume.Csi("csi.example.com", "v", false), new Volume.Iscsi("p", "iqn", 0, false)));
    assertFalse(filter.isSchedulableAfter(podWithClaims("c"), new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  @Test
  void anyNodeAddedMayHelp() {
    var added = new ClusterUpdate.NodeAdded(NodeInfo.builder(NODE).build());
    assertTrue(filter.isSchedulableAfter(podWithClaims("c"), added));
  }

  private static PodInfo bound(PodInfo pod) {
    return pod.toBuilder().nodeName(NODE).build();
  }
}
