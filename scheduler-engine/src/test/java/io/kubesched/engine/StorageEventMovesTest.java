package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which unschedulable pods each storage event moves ({@link ClusterEventMoves#claimChanged}, {@link ClusterEventMoves#storageChanged}). */
class StorageEventMovesTest {

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue =
      new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));
  private final ClusterEventMoves moves = new ClusterEventMoves(queue);

  @BeforeEach
  void parkPods() {
    park("claim", QueueingHint.of(PodInfo.builder("default", "claim").persistentVolumeClaims(List.of("data")).build()));
    park("csi", QueueingHint.of(PodInfo.builder("default", "csi")
        .volumes(List.of(new Volume.Csi("inline.csi.example.com", "scratch", false))).build()));
    park("plain", QueueingHint.of(PodInfo.builder("default", "plain").build()));
    park("refused", QueueingHint.POD_UPDATE_ONLY);
  }

  private void park(String name, QueueingHint hint) {
    queue.add(new QueuedPod("uid-" + name, "default", name, 0, "s"));
    assertEquals(name, queue.poll().name());
    queue.requeueUnschedulable(new QueuedPod("uid-" + name, "default", name, 0, "s"), queue.schedulingCycle(), hint);
  }

  private Map<String, String> places() {
    return Map.of(
        "claim", where(queue, "claim"),
        "csi", where(queue, "csi"),
        "plain", where(queue, "plain"),
        "refused", where(queue, "refused"));
  }

  @Test
  void a_claim_added_or_updated_moves_the_pods_that_use_it() {
    moves.claimChanged(ClusterEvent.PERSISTENT_VOLUME_CLAIM_ADD, "default", "data");

    assertEquals(
        Map.of("claim", "backoff", "csi", "unschedulable", "plain", "unschedulable", "refused", "unschedulable"),
        places());
  }

  @Test
  void a_claim_of_another_name_or_namespace_moves_nothing() {
    moves.claimChanged(ClusterEvent.PERSISTENT_VOLUME_CLAIM_UPDATE, "default", "other");
    moves.claimChanged(ClusterEvent.PERSISTENT_VOLUME_CLAIM_UPDATE, "other", "data");

    assertEquals(
        Map.of("claim", "unschedulable", "csi", "unschedulable", "plain", "unschedulable", "refused", "unschedulable"),
        places());
  }

  @Test
  void a_volume_class_or_capacity_added_or_updated_moves_the_pods_with_claims() {
    for (var event : List.of(
        ClusterEvent.PERSISTENT_VOLUME_ADD, ClusterEvent.PERSISTENT_VOLUME_UPDATE, ClusterEvent.STORAGE_CLASS_ADD,
        ClusterEvent.STORAGE_CLASS_UPDATE, ClusterEvent.CSI_STORAGE_CAPACITY_ADD,
        ClusterEvent.CSI_STORAGE_CAPACITY_UPDATE)) {
      var fresh = new StorageEventMovesTest();
      fresh.parkPods();
      fresh.moves.storageChanged(event);

      assertEquals(
          Map.of("claim", "backoff", "csi", "unschedulable", "plain", "unschedulable", "refused", "unschedulable"),
          fresh.places(),
          event.label());
    }
  }

  @Test
  void a_csi_node_added_or_updated_or_a_csi_driver_updated_moves_the_pods_with_claims_or_attached_volumes() {
    for (var event : List.of(ClusterEvent.CSI_NODE_ADD, ClusterEvent.CSI_NODE_UPDATE, ClusterEvent.CSI_DRIVER_UPDATE)) {
      var fresh = new StorageEventMovesTest();
      fresh.parkPods();
      fresh.moves.storageChanged(event);

      assertEquals(
          Map.of("claim", "backoff", "csi", "backoff", "plain", "unschedulable", "refused", "unschedulable"),
          fresh.places(),
          event.label());
    }
  }

  @Test
  void events_kube_does_not_register_are_refused() {
    var csiDriverAdd = new ClusterEvent(ClusterEvent.Resource.CSI_DRIVER, ClusterEvent.ActionType.ADD, "CSIDriverAdd");
    var volumeDelete =
        new ClusterEvent(ClusterEvent.Resource.PERSISTENT_VOLUME, ClusterEvent.ActionType.DELETE, "PVDelete");

    assertThrows(IllegalArgumentException.class, () -> moves.storageChanged(csiDriverAdd));
    assertThrows(IllegalArgumentException.class, () -> moves.storageChanged(volumeDelete));
    assertThrows(IllegalArgumentException.class, () -> moves.storageChanged(ClusterEvent.PERSISTENT_VOLUME_CLAIM_ADD));
    assertThrows(IllegalArgumentException.class, () -> moves.storageChanged(ClusterEvent.NODE_ADD));
    assertThrows(
        IllegalArgumentException.class, () -> moves.claimChanged(ClusterEvent.PERSISTENT_VOLUME_ADD, "default", "data"));
  }

  @Test
  void the_labels_are_kube_schedulers() {
    assertEquals(
        List.of("PersistentVolumeClaimAdd", "PersistentVolumeClaimUpdate", "PersistentVolumeAdd",
            "PersistentVolumeUpdate", "storage.k8s.io/StorageClassAdd", "storage.k8s.io/StorageClassUpdate",
            "storage.k8s.io/CSINodeAdd", "storage.k8s.io/CSINodeUpdate", "storage.k8s.io/CSIDriverUpdate",
            "storage.k8s.io/CSIStorageCapacityAdd", "storage.k8s.io/CSIStorageCapacityUpdate"),
        List.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM_ADD, ClusterEvent.PERSISTENT_VOLUME_CLAIM_UPDATE,
                ClusterEvent.PERSISTENT_VOLUME_ADD, ClusterEvent.PERSISTENT_VOLUME_UPDATE,
                ClusterEvent.STORAGE_CLASS_ADD, ClusterEvent.STORAGE_CLASS_UPDATE, ClusterEvent.CSI_NODE_ADD,
                ClusterEvent.CSI_NODE_UPDATE, ClusterEvent.CSI_DRIVER_UPDATE, ClusterEvent.CSI_STORAGE_CAPACITY_ADD,
                ClusterEvent.CSI_STORAGE_CAPACITY_UPDATE)
            .stream().map(ClusterEvent::label).toList());
  }
}
