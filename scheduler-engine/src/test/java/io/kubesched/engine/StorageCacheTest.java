package io.kubesched.engine;

import static io.kubesched.engine.StorageFixtures.NS;
import static io.kubesched.engine.StorageFixtures.claim;
import static io.kubesched.engine.StorageFixtures.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimRef;
import io.kubesched.api.VolumeBinding;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StorageCacheTest {

  private final StorageCache cache = new StorageCache();

  private static VolumeBinding.Static bind(String claim, String volume) {
    return new VolumeBinding.Static(NS, claim, "uid-" + claim, volume);
  }

  private static VolumeBinding.Provision provision(String claim) {
    return new VolumeBinding.Provision(NS, claim, "uid-" + claim);
  }

  @Test
  void a_reserved_volume_shows_its_claim_and_a_provisioned_claim_its_node() {
    cache.putClaim(claim("a"));
    cache.putClaim(claim("b"));
    cache.putVolume(volume("pv1", null));

    assertEquals(Optional.empty(), cache.reserve("pod-1", "n1", List.of(bind("a", "pv1"), provision("b"))));

    var storage = cache.storage();
    assertEquals(new ClaimRef(NS, "a", "uid-a"), storage.volume("pv1").orElseThrow().claimRef());
    assertEquals("n1", storage.claim(NS, "b").orElseThrow().selectedNode());
    assertEquals(null, cache.seenVolume("pv1").orElseThrow().claimRef(), "what the informers saw is unchanged");
    assertEquals("", cache.seenClaim(NS, "b").orElseThrow().selectedNode());
    assertEquals(List.of(bind("a", "pv1"), provision("b")), cache.reserved("pod-1"));
  }

  @Test
  void a_volume_reserved_for_one_claim_is_refused_to_another_until_released() {
    cache.putClaim(claim("a"));
    cache.putClaim(claim("b"));
    cache.putVolume(volume("pv1", null));
    cache.reserve("pod-1", "n1", List.of(bind("a", "pv1")));

    assertEquals(
        Optional.of("persistentvolume \"pv1\" is already bound or reserved to another claim"),
        cache.reserve("pod-2", "n2", List.of(bind("b", "pv1"))));
    assertEquals(List.of(), cache.reserved("pod-2"), "nothing reserved");

    cache.release("pod-1");

    assertEquals(Optional.empty(), cache.reserve("pod-2", "n2", List.of(bind("b", "pv1"))));
    assertEquals(new ClaimRef(NS, "b", "uid-b"), cache.storage().volume("pv1").orElseThrow().claimRef());
  }

  @Test
  void pods_sharing_a_claim_share_its_volume_and_it_stays_reserved_until_the_last_releases() {
    cache.putClaim(claim("a"));
    cache.putClaim(claim("b"));
    cache.putVolume(volume("pv1", null));
    assertEquals(Optional.empty(), cache.reserve("pod-1", "n1", List.of(bind("a", "pv1"))));
    assertEquals(Optional.empty(), cache.reserve("pod-2", "n1", List.of(bind("a", "pv1"))));

    cache.release("pod-2");

    assertTrue(cache.reserve("pod-3", "n1", List.of(bind("b", "pv1"))).isPresent(), "pod-1 still holds it");
  }

  @Test
  void a_volume_bound_to_another_claim_or_gone_and_a_claim_gone_are_refused() {
    cache.putClaim(claim("a"));
    cache.putVolume(volume("pv1", "other"));

    assertEquals(
        Optional.of("persistentvolume \"pv1\" is already bound or reserved to another claim"),
        cache.reserve("pod-1", "n1", List.of(bind("a", "pv1"))));
    assertEquals(
        Optional.of("persistentvolume \"pv2\" not found"), cache.reserve("pod-1", "n1", List.of(bind("a", "pv2"))));
    assertEquals(
        Optional.of("persistentvolumeclaim \"x\" not found"), cache.reserve("pod-1", "n1", List.of(provision("x"))));
  }

  @Test
  void one_reservation_cannot_give_a_volume_to_two_claims() {
    cache.putClaim(claim("a"));
    cache.putClaim(claim("b"));
    cache.putVolume(volume("pv1", null));

    assertTrue(cache.reserve("pod-1", "n1", List.of(bind("a", "pv1"), bind("b", "pv1"))).isPresent());
  }

  @Test
  void a_failed_reservation_leaves_nothing_and_replaces_the_pods_earlier_one() {
    cache.putClaim(claim("a"));
    cache.putVolume(volume("pv1", null));
    cache.reserve("pod-1", "n1", List.of(bind("a", "pv1")));

    assertTrue(cache.reserve("pod-1", "n1", List.of(provision("a"), bind("a", "missing"))).isPresent());

    assertEquals(List.of(), cache.reserved("pod-1"));
    assertEquals(null, cache.storage().volume("pv1").orElseThrow().claimRef());
    assertEquals("", cache.storage().claim(NS, "a").orElseThrow().selectedNode());
  }

  @Test
  void storage_is_the_same_instance_until_an_object_or_a_reservation_changes() {
    cache.putClaim(claim("a"));
    cache.putVolume(volume("pv1", null));
    var first = cache.storage();

    assertSame(first, cache.storage());
    assertFalse(cache.putVolume(volume("pv1", null)), "the same object again changes nothing");
    assertSame(first, cache.storage());
    cache.release("nobody");
    assertSame(first, cache.storage());

    cache.reserve("pod-1", "n1", List.of(bind("a", "pv1")));
    var reserved = cache.storage();
    assertNotSame(first, reserved);

    cache.release("pod-1");
    assertNotSame(reserved, cache.storage());
    assertEquals(null, cache.storage().volume("pv1").orElseThrow().claimRef());
  }
}
