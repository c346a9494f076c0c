package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClaimRef;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeBinding;
import io.kubesched.api.VolumeMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** {@link StorageCache#replaceObjects}: the objects become the relisted ones, the reservations stay. */
class StorageCacheReplaceProperties {

  private static final List<String> NAMES = List.of("a", "b", "c", "d");

  @Provide
  Arbitrary<Set<String>> names() {
    return Arbitraries.of(NAMES).set().ofMaxSize(NAMES.size());
  }

  private static PersistentVolumeClaim claim(String name) {
    return new PersistentVolumeClaim(
        "ns", name, "uid-" + name, "", "", Set.of(), VolumeMode.FILESYSTEM, 1, null, "", false, false, false, "", "");
  }

  private static PersistentVolume volume(String name, long capacity) {
    return new PersistentVolume("pv-" + name, "", capacity, Set.of(), VolumeMode.FILESYSTEM, "", List.of(), Map.of(),
        null, PersistentVolume.Phase.AVAILABLE, false, "", "");
  }

  @Property
  void after_a_relist_the_objects_are_the_relisted_ones_and_every_reservation_is_still_held_and_shown(
      @ForAll("names") Set<String> before,
      @ForAll("names") Set<String> after,
      @ForAll("names") Set<String> reserved,
      @ForAll boolean resized) {
    var live = new StorageCache();
    before.forEach(n -> {
      live.putClaim(claim(n));
      live.putVolume(volume(n, 1));
    });
    for (var n : reserved) {
      live.reserve("pod-" + n, "node", List.of(new VolumeBinding.Static("ns", n, "uid-" + n, "pv-" + n)));
    }
    var held = NAMES.stream().filter(n -> !live.reserved("pod-" + n).isEmpty()).toList();
    var relisted = new StorageCache();
    after.forEach(n -> {
      relisted.putClaim(claim(n));
      relisted.putVolume(volume(n, resized ? 2 : 1));
    });
    Statistics.label("reservations held").collect(!held.isEmpty());
    Statistics.label("objects changed").collect(!before.equals(after) || (resized && !after.isEmpty()));
    Statistics.label("reservations held").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("objects changed").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });

    boolean changed = live.replaceObjects(relisted);

    assertEquals(!before.equals(after) || (resized && !after.isEmpty()), changed);
    var storage = live.storage();
    for (var n : NAMES) {
      assertEquals(after.contains(n) ? Optional.of(claim(n)) : Optional.empty(), live.seenClaim("ns", n));
      assertEquals(
          after.contains(n) ? Optional.of(volume(n, resized ? 2 : 1)) : Optional.empty(), live.seenVolume("pv-" + n));
      assertEquals(held.contains(n), !live.reserved("pod-" + n).isEmpty(), "the reservation of " + n);
      var shown = storage.volume("pv-" + n);
      assertEquals(after.contains(n), shown.isPresent());
      shown.ifPresent(v -> assertEquals(held.contains(n) ? new ClaimRef("ns", n, "uid-" + n) : null, v.claimRef()));
    }
  }
}
