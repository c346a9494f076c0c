package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimRef;
import io.kubesched.api.CsiDriver;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeBinding;
import io.kubesched.api.VolumeMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link StorageCache#replaceObjects}: a relist refreshes the objects and keeps the reservations. */
class StorageCacheReplaceTest {

  private static PersistentVolumeClaim claim(String name) {
    return new PersistentVolumeClaim(
        "ns", name, "uid-" + name, "fast", "", Set.of(), VolumeMode.FILESYSTEM, 1, null, "", false, false, false, "", "");
  }

  private static PersistentVolume volume(String name) {
    return new PersistentVolume(name, "fast", 1, Set.of(), VolumeMode.FILESYSTEM, "", List.of(), Map.of(), null,
        PersistentVolume.Phase.AVAILABLE, false, "", "");
  }

  @Test
  void the_relisted_objects_replace_the_old_ones_and_reservations_stay_laid_over_them() {
    var live = new StorageCache();
    live.putClaim(claim("data"));
    live.putVolume(volume("pv-1"));
    live.putVolume(volume("pv-gone"));
    live.putCsiDriver(new CsiDriver("d", true, false));
    assertEquals(Optional.empty(), live.reserve("pod-1", "node-a",
        List.of(new VolumeBinding.Static("ns", "data", "uid-data", "pv-1"))));

    var relisted = new StorageCache();
    relisted.putClaim(claim("data"));
    relisted.putVolume(volume("pv-1"));
    relisted.putStorageClass(new StorageClass("fast", "csi.example.com", true, List.of()));

    assertTrue(live.replaceObjects(relisted));

    var storage = live.storage();
    assertEquals(Optional.empty(), storage.volume("pv-gone"), "deleted while unwatched");
    assertEquals(Optional.empty(), storage.csiDriver("d"));
    assertTrue(storage.storageClass("fast").isPresent());
    assertEquals(new ClaimRef("ns", "data", "uid-data"), storage.volume("pv-1").orElseThrow().claimRef(),
        "the reservation survives the relist");
    assertEquals(List.of(new VolumeBinding.Static("ns", "data", "uid-data", "pv-1")), live.reserved("pod-1"));
    assertEquals(Optional.of(volume("pv-1")), live.seenVolume("pv-1"));
    assertEquals(0, relisted.reserved("pod-1").size(), "the source is not changed");
  }

  @Test
  void the_same_objects_change_nothing_and_keep_the_storage_instance() {
    var live = new StorageCache();
    live.putClaim(claim("data"));
    var relisted = new StorageCache();
    relisted.putClaim(claim("data"));
    var before = live.storage();

    assertFalse(live.replaceObjects(relisted));
    assertSame(before, live.storage());
    assertFalse(live.replaceObjects(live));

    relisted.putVolume(volume("pv-1"));
    assertTrue(live.replaceObjects(relisted));
    assertNotSame(before, live.storage());
  }

  @Test
  void a_reservation_whose_volume_is_gone_after_the_relist_lays_over_nothing_until_released() {
    var live = new StorageCache();
    live.putClaim(claim("data"));
    live.putVolume(volume("pv-1"));
    live.reserve("pod-1", "node-a", List.of(new VolumeBinding.Static("ns", "data", "uid-data", "pv-1")));
    var relisted = new StorageCache();
    relisted.putClaim(claim("data"));

    live.replaceObjects(relisted);

    assertEquals(List.of(), live.storage().volumes());
    live.release("pod-1");
    assertEquals(List.of(), live.reserved("pod-1"));
  }
}
