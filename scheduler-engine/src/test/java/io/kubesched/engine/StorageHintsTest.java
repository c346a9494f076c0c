package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link QueueingHint}: which pods wait for storage objects. */
class StorageHintsTest {

  @Test
  void a_pod_without_claims_or_attached_volumes_waits_for_no_storage() {
    var hint = QueueingHint.of(PodInfo.builder("ns", "p")
        .volumes(List.of(new Volume.Rbd(List.of("m"), "rbd", "img", false))).build());

    assertSame(QueueingHint.ANY_CHANGE, hint);
    assertFalse(hint.waitsForStorage());
    assertFalse(hint.movedByVolumeSupplyChanged());
    assertFalse(hint.movedByCsiChanged());
  }

  @Test
  void a_pod_with_a_claim_waits_for_that_claim_in_its_namespace_and_for_volume_supply() {
    var hint = QueueingHint.of(PodInfo.builder("ns", "p").persistentVolumeClaims(List.of("data", "p-scratch"))
        .ephemeralVolumeClaims(List.of("p-scratch")).build());

    assertTrue(hint.waitsForStorage());
    assertTrue(hint.movedByClaimChanged("ns", "data"));
    assertTrue(hint.movedByClaimChanged("ns", "p-scratch"));
    assertFalse(hint.movedByClaimChanged("ns", "other"));
    assertFalse(hint.movedByClaimChanged("other", "data"));
    assertTrue(hint.movedByVolumeSupplyChanged());
    assertTrue(hint.movedByCsiChanged());
    assertTrue(hint.movedByClusterChange());
  }

  @Test
  void inline_csi_and_migrated_in_tree_volumes_wait_for_csi_objects_only() {
    for (Volume volume : List.<Volume>of(
        new Volume.Csi("d", "v", false), new Volume.GcePersistentDisk("pd", false),
        new Volume.AwsElasticBlockStore("vol-1", false))) {
      var hint = QueueingHint.of(PodInfo.builder("ns", "p").volumes(List.of(volume)).build());

      assertTrue(hint.movedByCsiChanged(), volume.toString());
      assertFalse(hint.movedByVolumeSupplyChanged(), volume.toString());
      assertFalse(hint.movedByClaimChanged("ns", "v"), volume.toString());
    }
  }

  @Test
  void a_pod_only_its_update_can_help_is_moved_by_no_storage_event() {
    var hint = new QueueingHint(false, "ns", List.of(), List.of(), List.of(), List.of("data"), true);

    assertFalse(hint.waitsForStorage());
    assertFalse(hint.movedByClaimChanged("ns", "data"));
    assertFalse(hint.movedByVolumeSupplyChanged());
    assertFalse(hint.movedByCsiChanged());
  }
}
