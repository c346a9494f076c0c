package io.kubesched.policy.plugins.nodevolumelimits;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.AWS_EBS_IN_TREE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.EBS_CSI_DRIVER;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.GCE_CSI_DRIVER;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.HOSTPATH_IN_TREE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.NODE;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.SC_NAME;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.claim;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.csiNode;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.ephemeralPod;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.kubeStorage;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.node;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.ownedBy;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.podWithClaims;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.podWithVolumes;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.snapshot;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.storage;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.storageClass;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.verdict;
import static io.kubesched.policy.plugins.nodevolumelimits.VolumeLimitsFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterData;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.api.Volume.AwsElasticBlockStore;
import io.kubesched.api.Volume.GcePersistentDisk;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.nodevolumelimits.NodeVolumeLimitsFilter.MaxVolumeCountExceeded;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code nodevolumelimits/csi_test.go}: {@code TestCSILimits} and {@code
 * TestVolumeLimitScalingGate}, under kube's names, on the storage kube's fake listers hold ({@link
 * VolumeLimitsFixtures#kubeStorage}), and edge cases of the port.
 *
 * <p>Not ported, as the domain model cannot express them: {@code TestCSILimits}' "should count
 * VolumeAttachments towards volume limit when no pods exist" and "should schedule pod when VolumeAttachments
 * count does not exceed limit" (no VolumeAttachment objects); {@code TestVolumeLimitScalingGate}'s "gate
 * enabled - fail when driver not installed and PreventPodSchedulingIfMissing is true" and "gate disabled - skip
 * driver presence check (regardless of CSIDriver presence)" (CsiDriver has no {@code
 * preventPodSchedulingIfMissing}); {@code TestCSILimits_DeferredResizeSkipped} (no resize status on a pod);
 * the queueing-hint tests ({@code TestCSILimitsQHint}, {@code TestCSILimitsAddedPVCQHint}, {@code
 * TestCSILimitsDeletedVolumeAttachmentQHint}, {@code TestCSILimitsAfterCSINodeUpdatedQHint}), which test the
 * requeueing of pods, not this filter.
 *
 * <p>kube's expected "persistentvolumeclaims ... not found" comes from its test's fake lister; the informer's
 * lister that kube-scheduler runs with says "persistentvolumeclaim", which is what this port says.
 */
class NodeVolumeLimitsFilterTest {

  private static final Outcome EXCEEDED = Outcome.unschedulable("node(s) exceed max volume count");
  private static final Outcome EPHEMERAL_MISSING =
      Outcome.unresolvable("looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found");

  private static final List<String> EBS = List.of(EBS_CSI_DRIVER);
  private static final List<String> EBS_GCE = List.of(EBS_CSI_DRIVER, GCE_CSI_DRIVER);
  private static final List<String> IN_TREE_EBS = List.of(AWS_EBS_IN_TREE, EBS_CSI_DRIVER);

  /** A case of {@code TestCSILimits}. */
  record Case(
      PodInfo newPod,
      List<PodInfo> existingPods,
      List<PersistentVolumeClaim> extraClaims,
      int maxVols,
      List<String> driverNames,
      String limitSource,
      Outcome want) {}

  static Stream<Arguments> testCsiLimits() {
    var runningPod = podWithClaims("csi-ebs.csi.aws.com-3");
    var pendingVolumePod = podWithClaims("csi-4");
    var unboundPvcPod2 = podWithClaims("csi-4");
    var missingPvPod = podWithClaims("csi-6");
    var noScPvcPod = podWithClaims("csi-5");
    var gceTwoVolPod = podWithClaims("csi-pd.csi.storage.gke.io-1", "csi-pd.csi.storage.gke.io-2");
    var inTreeOneVolPod = podWithClaims("csi-kubernetes.io/aws-ebs-0");
    var inTreeTwoVolPod = podWithClaims("csi-kubernetes.io/aws-ebs-1", "csi-kubernetes.io/aws-ebs-2");
    var csiEbsOneVolPod = podWithClaims("csi-ebs.csi.aws.com-0");
    var csiEbsTwoVolPod = podWithClaims("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");
    var inTreeNonMigratableOneVolPod = podWithClaims("csi-kubernetes.io/hostpath-0");

    var ephemeralVolumePod = ephemeralPod("abc", "12345", "xyz");
    var ephemeralClaim = ownedBy(claim("abc-xyz", SC_NAME, ""), "12345");
    var conflictingClaim = claim("abc-xyz", SC_NAME, "");
    var ephemeralTwoVolumePod = ephemeralPod("abc", "12345II", "x", "y");
    var ephemeralClaimX = ownedBy(claim("abc-x", SC_NAME, ""), "12345II");
    var ephemeralClaimY = ownedBy(claim("abc-y", SC_NAME, ""), "12345II");

    var inTreeInlineVolPod = podWithVolumes(new AwsElasticBlockStore("aws-inline1", false));
    var inTreeInlineVolPodWithSameCsiVolumeId =
        podWithVolumes(new AwsElasticBlockStore("csi-ebs.csi.aws.com-1", false));
    // config maps and secrets are not carried by the domain model: such a pod has no volume at all
    var onlyConfigmapAndSecretVolPod = podWithVolumes();
    var pvcPodWithConfigmapAndSecret = podWithClaims("csi-ebs.csi.aws.com-0");
    var ephemeralPodWithConfigmapAndSecret = ephemeralPod("abc", "", "xyz");
    var inlineMigratablePodWithConfigmapAndSecret = podWithVolumes(new AwsElasticBlockStore("aws-inline1", false));

    return Stream.of(
        argumentSet("fits when node volume limit >= new pods CSI volume",
            new Case(csiEbsOneVolPod, List.of(runningPod, csiEbsTwoVolPod), List.of(), 4, EBS, "csinode",
                Outcome.FIT)),
        argumentSet("doesn't when node volume limit <= pods CSI volume",
            new Case(csiEbsOneVolPod, List.of(runningPod, csiEbsTwoVolPod), List.of(), 2, EBS, "csinode",
                EXCEEDED)),
        argumentSet("should when driver does not support volume limits",
            new Case(csiEbsOneVolPod, List.of(runningPod, csiEbsTwoVolPod), List.of(), 2, EBS,
                "csinode-with-no-limit", Outcome.FIT)),
        argumentSet("count pending PVCs towards volume limit <= pods CSI volume",
            new Case(csiEbsOneVolPod, List.of(pendingVolumePod, csiEbsTwoVolPod), List.of(), 2, EBS, "csinode",
                EXCEEDED)),
        argumentSet("count multiple pending pvcs towards volume limit >= pods CSI volume",
            new Case(csiEbsOneVolPod, List.of(pendingVolumePod, unboundPvcPod2, csiEbsTwoVolPod), List.of(), 4,
                EBS, "csinode", Outcome.FIT)),
        argumentSet("should count PVCs with invalid PV name but valid SC",
            new Case(csiEbsOneVolPod, List.of(missingPvPod, csiEbsTwoVolPod), List.of(), 2, EBS, "csinode",
                EXCEEDED)),
        argumentSet("don't count pvcs with missing SC towards volume limit",
            new Case(csiEbsOneVolPod, List.of(runningPod, noScPvcPod), List.of(), 2, EBS, "csinode",
                Outcome.FIT)),
        argumentSet("count pvcs with the same type towards volume limit",
            new Case(csiEbsOneVolPod, List.of(gceTwoVolPod, csiEbsTwoVolPod), List.of(), 2, EBS_GCE, "csinode",
                EXCEEDED)),
        argumentSet("don't count pvcs with different type towards volume limit",
            new Case(gceTwoVolPod, List.of(csiEbsTwoVolPod, runningPod), List.of(), 2, EBS_GCE, "csinode",
                Outcome.FIT)),
        argumentSet("should count in-tree volumes if migration is enabled",
            new Case(inTreeOneVolPod, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS, "csinode", EXCEEDED)),
        argumentSet("nil csi node",
            new Case(inTreeInlineVolPod, List.of(inTreeTwoVolPod), List.of(), 0, IN_TREE_EBS, "", Outcome.FIT)),
        argumentSet("should count unbound in-tree volumes if migration is enabled",
            new Case(pendingVolumePod, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS, "csinode", EXCEEDED)),
        argumentSet("should not limit pod if volume used does not report limits",
            new Case(inTreeOneVolPod, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS,
                "csinode-with-no-limit", Outcome.FIT)),
        argumentSet("should not count non-migratable in-tree volumes",
            new Case(inTreeNonMigratableOneVolPod, List.of(csiEbsTwoVolPod), List.of(), 2,
                List.of(HOSTPATH_IN_TREE, EBS_CSI_DRIVER), "csinode", Outcome.FIT)),
        argumentSet("should count in-tree inline volumes if migration is enabled",
            new Case(inTreeInlineVolPod, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS, "csinode",
                EXCEEDED)),
        argumentSet("should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)",
            new Case(inTreeOneVolPod, List.of(csiEbsTwoVolPod), List.of(), 2, IN_TREE_EBS, "csinode", EXCEEDED)),
        argumentSet("should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree "
                + "volumes)",
            new Case(inTreeInlineVolPod, List.of(csiEbsTwoVolPod, inTreeOneVolPod), List.of(), 3, IN_TREE_EBS,
                "csinode", EXCEEDED)),
        argumentSet("should not count in-tree, inline and csi volumes if migration is enabled (when scheduling "
                + "in-tree volumes)",
            new Case(inTreeInlineVolPodWithSameCsiVolumeId, List.of(csiEbsTwoVolPod, inTreeOneVolPod), List.of(), 3,
                IN_TREE_EBS, "csinode", Outcome.FIT)),
        argumentSet("should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)",
            new Case(csiEbsOneVolPod, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS, "csinode", EXCEEDED)),
        argumentSet("ephemeral volume missing",
            new Case(ephemeralVolumePod, List.of(), List.of(), 0, EBS, "csinode-with-no-limit",
                EPHEMERAL_MISSING)),
        argumentSet("ephemeral volume not owned",
            new Case(ephemeralVolumePod, List.of(), List.of(conflictingClaim), 0, EBS, "csinode-with-no-limit",
                new Outcome(Code.ERROR, List.of("PVC test/abc-xyz was not created for pod test/abc (pod is not "
                    + "owner)")))),
        argumentSet("ephemeral volume unbound",
            new Case(ephemeralVolumePod, List.of(), List.of(ephemeralClaim), 0, EBS, "csinode-with-no-limit",
                Outcome.FIT)),
        argumentSet("ephemeral doesn't when node volume limit <= pods CSI volume",
            new Case(ephemeralVolumePod, List.of(runningPod, csiEbsTwoVolPod), List.of(ephemeralClaim), 2, EBS,
                "csinode", EXCEEDED)),
        argumentSet("ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
            new Case(csiEbsOneVolPod, List.of(runningPod, ephemeralTwoVolumePod),
                List.of(ephemeralClaimX, ephemeralClaimY), 2, EBS, "csinode", EXCEEDED)),
        // kube 1.37 no longer has the gate; the case stays, with the same expectation
        argumentSet("persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, "
                + "ephemeral disabled",
            new Case(csiEbsOneVolPod, List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
                List.of(ephemeralClaim), 3, EBS, "csinode", EXCEEDED)),
        argumentSet("persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
            new Case(csiEbsOneVolPod, List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
                List.of(ephemeralClaim), 3, EBS, "csinode", EXCEEDED)),
        argumentSet("persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume",
            new Case(csiEbsOneVolPod, List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
                List.of(ephemeralClaim), 5, EBS, "csinode", Outcome.FIT)),
        argumentSet("skip Filter when the pod only uses secrets and configmaps",
            new Case(onlyConfigmapAndSecretVolPod, List.of(), List.of(), 2, EBS, "csinode", Outcome.FIT)),
        argumentSet("don't skip Filter when the pod has pvcs",
            new Case(pvcPodWithConfigmapAndSecret, List.of(), List.of(), 2, EBS, "csinode", Outcome.FIT)),
        argumentSet("don't skip Filter when the pod has ephemeral volumes",
            new Case(ephemeralPodWithConfigmapAndSecret, List.of(), List.of(), 0, EBS, "csinode-with-no-limit",
                EPHEMERAL_MISSING)),
        argumentSet("don't skip Filter when the pod has inline migratable volumes",
            new Case(inlineMigratablePodWithConfigmapAndSecret, List.of(inTreeTwoVolPod), List.of(), 2, IN_TREE_EBS,
                "csinode", EXCEEDED)));
  }

  @ParameterizedTest
  @MethodSource
  void testCsiLimits(Case c) {
    var storage = kubeStorage(c.driverNames(), c.limitSource(), c.maxVols(), c.extraClaims());

    assertOutcome(c.want(), verdict(c.newPod(), node(NODE, c.existingPods()), storage));
  }

  @ParameterizedTest
  @CsvSource({
    "'gate enabled - allow scheduling when CSIDriver exists but PreventPodSchedulingIfMissing is not set', "
        + "no-csi-driver, 0",
    "'gate enabled - driver installed within limit', csinode, 2",
    "'gate enabled - allow scheduling when CSIDriver object missing', no-csi-driver, 0",
  })
  void testVolumeLimitScalingGate(String name, String limitSource, int limit) {
    var storage = kubeStorage(EBS, limitSource, limit, List.of());

    assertOutcome(Outcome.FIT, verdict(podWithClaims("csi-ebs.csi.aws.com-0"), node(NODE, List.of()), storage));
  }

  // ---------------------------------------------------------------- the port's own cases

  private final NodeVolumeLimitsFilter filter = new NodeVolumeLimitsFilter();

  @Test
  void namesItselfAndReadsTheStorageObjectsKubeReads() {
    assertEquals("NodeVolumeLimits", filter.name());
    assertEquals(
        Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES, ClusterData.STORAGE_CLASSES,
            ClusterData.CSI_NODES, ClusterData.CSI_DRIVERS),
        filter.reads());
  }

  @Test
  void withoutPrepareItCannotDecide() {
    assertEquals(Code.ERROR, filter.filter(podWithClaims("c"), node(NODE, List.of())).code());
  }

  @Test
  void aRejectionSaysWhichDriverIsFullAndHowFull() {
    var storage = kubeStorage(EBS, "csinode", 2, List.of());
    var existing = podWithClaims("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");

    var result = verdict(podWithClaims("csi-ebs.csi.aws.com-0"), node(NODE, List.of(existing)), storage);

    assertEquals(
        List.of(new MaxVolumeCountExceeded(EBS_CSI_DRIVER, 2, 2, 1)), ((FilterResult.Rejected) result).reasons());
  }

  @Test
  void aVolumeThePodSharesWithAPodOfTheNodeIsNotNew() {
    var storage = kubeStorage(EBS, "csinode", 2, List.of());
    var existing = podWithClaims("csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");

    var result = verdict(podWithClaims("csi-ebs.csi.aws.com-2"), node(NODE, List.of(existing)), storage);

    assertOutcome(Outcome.FIT, result);
  }

  @Test
  void aMissingClaimOfThePodRejectsEveryNodeEvenWithoutCsiNode() {
    var storage = kubeStorage(EBS, "", 0, List.of());

    assertOutcome(
        Outcome.unresolvable("looking up PVC test/gone: persistentvolumeclaim \"gone\" not found"),
        verdict(podWithClaims("gone"), node("elsewhere", List.of()), storage));
  }

  @Test
  void aMissingClaimOfAPodOnTheNodeIsNotCounted() {
    var storage = kubeStorage(EBS, "csinode", 1, List.of());

    var result = verdict(
        podWithClaims("csi-ebs.csi.aws.com-0"), node(NODE, List.of(podWithClaims("gone", "gone-too"))), storage);

    assertOutcome(Outcome.FIT, result);
  }

  @Test
  void anEphemeralClaimAPodOnTheNodeDoesNotOwnIsAnError() {
    var storage = kubeStorage(EBS, "csinode", 5, List.of(claim("abc-xyz", SC_NAME, "")));

    var result = verdict(
        podWithClaims("csi-ebs.csi.aws.com-0"), node(NODE, List.of(ephemeralPod("abc", "1", "xyz"))), storage);

    assertOutcome(
        new Outcome(Code.ERROR, List.of("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)")),
        result);
  }

  @Test
  void inlineCsiVolumesAreNotCountedAsInKube137() {
    var storage = storage(List.of(), List.of(), List.of(), List.of(csiNode(0, List.of("inline.csi"))));
    var existing = podWithVolumes(new Volume.Csi("inline.csi", "a", false));

    var result = verdict(podWithVolumes(new Volume.Csi("inline.csi", "b", false)), node(NODE, List.of(existing)),
        storage);

    assertOutcome(Outcome.FIT, result);
  }

  @Test
  void inlineGceDisksCountOncePerDiskForTheGceDriver() {
    var storage = storage(List.of(), List.of(), List.of(), List.of(csiNode(1, List.of(GCE_CSI_DRIVER))));
    var existing = podWithVolumes(new GcePersistentDisk("disk-a", true));

    assertOutcome(Outcome.FIT,
        verdict(podWithVolumes(new GcePersistentDisk("disk-a", true)), node(NODE, List.of(existing)), storage));
    assertOutcome(EXCEEDED,
        verdict(podWithVolumes(new GcePersistentDisk("disk-b", false)), node(NODE, List.of(existing)), storage));
  }

  @Test
  void anInlineEbsIdKubeCannotTranslateIsAnErrorOnlyWhereTheNodeHasACsiNode() {
    var pod = podWithVolumes(new AwsElasticBlockStore("aws://us-east-1a/not-a-volume", false));
    var withCsiNode = storage(List.of(), List.of(), List.of(), List.of(csiNode(5, List.of(EBS_CSI_DRIVER))));

    assertEquals(Code.ERROR, verdict(pod, node(NODE, List.of()), withCsiNode).code());
    assertOutcome(Outcome.FIT, verdict(pod, node("no-csi-node", List.of()), withCsiNode));
  }

  @ParameterizedTest
  @CsvSource({
    "vol-0123, vol-0123",
    "anything-else, anything-else",
    "aws://us-east-1a/vol-0123, vol-0123",
    "aws:///vol-0123, vol-0123",
    "aws://us-east-1a/vol-0123/, vol-0123",
    "aws://us-east-1a/vol-0123?x=y, vol-0123",
    "aws://us-east-1a/vol-%30123, vol-0123",
  })
  void ebsVolumeIdsAreTranslatedAsKubeDoes(String kubernetesId, String volumeId) {
    assertEquals(volumeId, NodeVolumeLimitsFilter.ebsVolumeId(kubernetesId));
  }

  @ParameterizedTest
  @CsvSource({
    "aws://vol-0123",
    "aws://us-east-1a/disk-1",
    "aws://us-east-1a/vol-1/extra",
    "aws://us-east-1a/vol-1%2Fextra",
    "aws://us-east-1a/vol-1%zz",
  })
  void ebsVolumeIdsKubeRejects(String kubernetesId) {
    assertNull(NodeVolumeLimitsFilter.ebsVolumeId(kubernetesId));
  }

  @Test
  void aClassOfAnInTreeProvisionerWhoseMigrationKubeDoesNotCountIsNotCounted() {
    var storage = storage(
        List.of(claim("files", "azure", ""), claim("disk", "azure-disk", "")),
        List.of(),
        List.of(storageClass("azure", "kubernetes.io/azure-file"), storageClass("azure-disk",
            "kubernetes.io/azure-disk")),
        List.of(csiNode(0, List.of("file.csi.azure.com", "disk.csi.azure.com"))));

    assertOutcome(Outcome.FIT, verdict(podWithClaims("files"), node(NODE, List.of()), storage));
    assertOutcome(EXCEEDED, verdict(podWithClaims("disk"), node(NODE, List.of()), storage));
  }

  @Test
  void aClaimBoundToAVolumeWithoutHandleIsNotCounted() {
    var storage = storage(
        List.of(claim("c", SC_NAME, "pv")),
        List.of(volume("pv", EBS_CSI_DRIVER, "")),
        List.of(storageClass(SC_NAME, EBS_CSI_DRIVER)),
        List.of(csiNode(0, EBS)));

    assertOutcome(Outcome.FIT, verdict(podWithClaims("c"), node(NODE, List.of()), storage));
  }

  @Test
  void eachNodeIsHeldToItsOwnCsiNode() {
    var storage = storage(
        List.of(claim("c", "", "pv")), List.of(volume("pv", EBS_CSI_DRIVER, "h")), List.of(),
        List.of(csiNode(0, EBS), csiNode("roomy", 1, EBS)));
    var prepared = filter.prepare(podWithClaims("c"), snapshot(storage));
    var pod = podWithClaims("c");

    assertOutcome(EXCEEDED, prepared.filter(pod, node(NODE, List.of())));
    assertOutcome(Outcome.FIT, prepared.filter(pod, node("roomy", List.of())));
  }
}
