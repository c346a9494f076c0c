package io.kubesched.engine;

import static io.kubesched.engine.DraFixtures.NS;
import static io.kubesched.engine.DraFixtures.allocation;
import static io.kubesched.engine.DraFixtures.assumed;
import static io.kubesched.engine.DraFixtures.claim;
import static io.kubesched.engine.DraFixtures.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceTaint;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DeviceCache}: the informers' objects, the assumptions laid over them, and when an assumption ends. */
class DeviceCacheTest {

  private final DeviceCache cache = new DeviceCache();

  private static ResourceSlice slice(String name) {
    return new ResourceSlice(
        name, "d", new ResourcePool("p", 1, 1), NodeSelection.ALL_NODES, false, List.of(), List.of());
  }

  @Test
  void a_view_shares_the_lists_of_the_kinds_that_did_not_change_and_keeps_equal_objects() {
    var first = slice("s1");
    cache.putSlice(first);
    cache.putClaim(claim("c", "u1"));
    var before = cache.dynamicResources();

    assertFalse(cache.putSlice(slice("s1")), "an equal slice changes nothing");
    cache.putClaim(claim("d", "u2"));
    var after = cache.dynamicResources();

    assertNotSame(before, after);
    assertSame(before.slices(), after.slices(), "the slices did not change: the same list, so the same index");
    assertSame(first, after.slices().get(0), "the object seen first is kept");
    assertSame(before.claims().get(0), after.claims().get(0), "the claims keep their order and objects");
    assertEquals(2, after.claims().size());
  }

  @Test
  void a_claim_whose_assumptions_did_not_change_keeps_the_object_laid_over_it() {
    cache.putClaim(claim("c", "u1"));
    cache.putClaim(claim("d", "u2"));
    cache.assume("pod1", List.of(assumed(claim("c", "u1"), allocation("g0"))));
    var before = cache.dynamicResources();

    cache.assume("pod2", List.of(assumed(claim("d", "u2"), allocation("g1"))));
    var after = cache.dynamicResources();

    var c = after.claim(NS, "c").orElseThrow();
    assertSame(before.claim(NS, "c").orElseThrow(), c, "pod1's assumption did not change");
    assertEquals(List.of(ConsumerRef.pod("", "pod1")), c.reservedFor());
    assertEquals(allocation("g0"), c.allocation());
    var d = after.claim(NS, "d").orElseThrow();
    assertEquals(List.of(ConsumerRef.pod("", "pod2")), d.reservedFor());
    assertEquals(allocation("g1"), d.allocation());
  }

  @Test
  void the_objects_seen_are_what_each_decision_reads() {
    var gpu = new DeviceClass("gpu", List.of(), List.of(), null);
    var rule = new DeviceTaintRule("r", "d", null, null, new DeviceTaint("k", "", DeviceTaint.Effect.NONE, null));
    cache.putSlice(slice("s1"));
    cache.putDeviceClass(gpu);
    cache.putClaim(claim("c", "u1"));
    cache.putTaintRule(rule);

    var read = cache.dynamicResources();

    assertEquals(List.of(slice("s1")), read.slices());
    assertEquals(List.of(gpu), read.deviceClasses());
    assertEquals(List.of(claim("c", "u1")), read.claims());
    assertEquals(List.of(rule), read.taintRules());

    cache.removeSlice("s1");
    cache.removeDeviceClass("gpu");
    cache.removeClaim(NS, "c");
    cache.removeTaintRule("r");
    var empty = cache.dynamicResources();
    assertTrue(empty.slices().isEmpty() && empty.deviceClasses().isEmpty() && empty.claims().isEmpty()
        && empty.taintRules().isEmpty());
  }

  @Test
  void the_same_instance_until_something_changes() {
    cache.putClaim(claim("c", "u1"));
    var first = cache.dynamicResources();

    assertSame(first, cache.dynamicResources());
    assertFalse(cache.putClaim(claim("c", "u1")), "an unchanged claim changes nothing");
    assertSame(first, cache.dynamicResources());
    cache.forget("nobody");
    assertSame(first, cache.dynamicResources());

    cache.assume("pod1", List.of(assumed(claim("c", "u1"), allocation("g0"))));
    assertNotSame(first, cache.dynamicResources());
  }

  @Test
  void an_assumed_claim_shows_its_allocation_and_the_pod_until_forgotten() {
    var c = claim("c", "u1");
    cache.putClaim(c);

    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));

    var shown = cache.dynamicResources().claim(NS, "c").orElseThrow();
    assertEquals(allocation("g0"), shown.allocation());
    assertEquals(List.of(ConsumerRef.pod("", "pod1")), shown.reservedFor());
    assertEquals(c, cache.seenClaim(NS, "c").orElseThrow(), "the informer's view is kept beside");

    cache.forget("pod1");
    assertEquals(c, cache.dynamicResources().claim(NS, "c").orElseThrow());
    assertEquals(List.of(), cache.assumed("pod1"));
  }

  @Test
  void a_pod_sharing_an_allocated_claim_is_added_to_reserved_for() {
    var c = claim("c", "u1");
    cache.putClaim(c);
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));

    cache.assume("pod2", List.of(assumed(c, null)));

    var shown = cache.dynamicResources().claim(NS, "c").orElseThrow();
    assertEquals(allocation("g0"), shown.allocation());
    assertEquals(List.of(ConsumerRef.pod("", "pod1"), ConsumerRef.pod("", "pod2")), shown.reservedFor());

    cache.forget("pod1");
    shown = cache.dynamicResources().claim(NS, "c").orElseThrow();
    assertNull(shown.allocation(), "pod2 only reserved what pod1 allocated");
    assertEquals(List.of(ConsumerRef.pod("", "pod2")), shown.reservedFor());
  }

  @Test
  void the_assumption_ends_once_the_watch_shows_the_claim_allocated() {
    var c = claim("c", "u1");
    cache.putClaim(c);
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));

    cache.putClaim(written(c, allocation("g0"), "pod1"));

    assertEquals(List.of(), cache.assumed("pod1"));
    assertEquals(written(c, allocation("g0"), "pod1"), cache.dynamicResources().claim(NS, "c").orElseThrow());
  }

  @Test
  void an_allocation_the_watch_shows_wins_over_the_one_assumed() {
    var c = claim("c", "u1");
    cache.putClaim(c);
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));

    cache.putClaim(written(c, allocation("g1"), "other"));

    assertEquals(allocation("g1"), cache.dynamicResources().claim(NS, "c").orElseThrow().allocation());
    assertEquals(List.of(), cache.assumed("pod1"));
  }

  @Test
  void an_unrelated_update_keeps_the_assumption() {
    var c = claim("c", "u1");
    cache.putClaim(c);
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));

    cache.putClaim(c.withReservedFor(List.of(ConsumerRef.pod("x", "pod9"))));

    assertEquals(List.of(assumed(c, allocation("g0"))), cache.assumed("pod1"));
    assertEquals(allocation("g0"), cache.dynamicResources().claim(NS, "c").orElseThrow().allocation());
  }

  @Test
  void a_reservation_ends_once_the_watch_shows_the_pod_reserved() {
    var c = claim("c", "u1").withAllocation(allocation("g0"));
    cache.putClaim(c);
    cache.assume("pod2", List.of(assumed(c, null)));
    assertEquals(1, cache.assumed("pod2").size());

    cache.putClaim(c.withReservedFor(List.of(ConsumerRef.pod("web", "pod2"))));

    assertEquals(List.of(), cache.assumed("pod2"));
  }

  @Test
  void the_assumption_ends_when_the_claim_is_deleted_or_replaced() {
    var c = claim("c", "u1");
    var d = claim("d", "u2");
    cache.putClaim(c);
    cache.putClaim(d);
    cache.assume("pod1", List.of(assumed(c, allocation("g0")), assumed(d, allocation("g1"))));

    cache.removeClaim(NS, "c");
    assertEquals(List.of(assumed(d, allocation("g1"))), cache.assumed("pod1"));

    cache.putClaim(claim("d", "u3"));
    assertEquals(List.of(), cache.assumed("pod1"));
    assertNull(cache.dynamicResources().claim(NS, "d").orElseThrow().allocation(), "the new claim is not allocated");
  }

  @Test
  void what_the_watch_already_shows_is_not_assumed() {
    var c = written(claim("c", "u1"), allocation("g0"), "pod1");
    cache.putClaim(c);

    cache.assume("pod1", List.of(assumed(c, null)));

    assertEquals(List.of(), cache.assumed("pod1"));
  }

  @Test
  void a_claim_not_seen_yet_is_laid_over_once_it_appears() {
    var c = claim("c", "u1");
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));
    assertTrue(cache.dynamicResources().claims().isEmpty());

    cache.putClaim(c);

    assertEquals(allocation("g0"), cache.dynamicResources().claim(NS, "c").orElseThrow().allocation());
  }

  @Test
  void a_relist_keeps_the_assumptions_it_does_not_make_moot() {
    var c = claim("c", "u1");
    var d = claim("d", "u2");
    cache.putClaim(c);
    cache.putClaim(d);
    cache.putSlice(slice("gone"));
    cache.assume("pod1", List.of(assumed(c, allocation("g0"))));
    cache.assume("pod2", List.of(assumed(d, allocation("g1"))));
    var relisted = new DeviceCache();
    relisted.putClaim(c);
    relisted.putClaim(written(d, allocation("g1"), "pod2"));

    assertTrue(cache.replaceObjects(relisted));

    assertEquals(List.of(), cache.dynamicResources().slices());
    assertEquals(List.of(assumed(c, allocation("g0"))), cache.assumed("pod1"));
    assertEquals(List.of(), cache.assumed("pod2"));
    assertEquals(allocation("g0"), cache.dynamicResources().claim(NS, "c").orElseThrow().allocation());
  }

  /** The claim for pod1's extended resources as its decision carries it: to create, with {@code g0} allocated. */
  private static ClaimAllocation toCreate() {
    var create = new ExtendedResourceClaim("pod-1", "pod1", List.of(), List.of());
    return new ClaimAllocation(NS, ExtendedResourceClaim.NAME_BEFORE_CREATION, "extended-resources-pod1",
        allocation("g0"), create);
  }

  private List<String> allocatedDevices() {
    var devices = new java.util.ArrayList<String>();
    for (var claim : cache.dynamicResources().claims()) {
      var allocation = claim.allocation();
      if (allocation != null) {
        allocation.devices().forEach(d -> devices.add(claim.name() + ":" + d.device()));
      }
    }
    return devices;
  }

  @Test
  void a_claim_to_create_takes_its_devices_before_it_exists() {
    cache.assume("pod1", List.of(toCreate()));

    assertEquals(List.of("<extended-resources>:g0"), allocatedDevices());
    var shown = cache.dynamicResources().claims().get(0);
    assertEquals("pod1", java.util.Objects.requireNonNull(shown.controller()).uid());
    assertEquals("true", shown.annotations().get(ExtendedResourceClaim.ANNOTATION));

    cache.forget("pod1");
    assertEquals(List.of(), allocatedDevices());
  }

  @Test
  void once_created_the_claim_holds_its_devices_under_its_name_until_the_watch_shows_it_allocated() {
    cache.assume("pod1", List.of(toCreate()));
    cache.putClaim(claim("pod-1-extended-resources-x", "u9")); // the watch shows the claim created, not allocated yet

    cache.created("pod1", "extended-resources-pod1", "pod-1-extended-resources-x", "u9");

    assertEquals(List.of("pod-1-extended-resources-x:g0"), allocatedDevices(), "no gap, and no device twice");
    cache.putClaim(written(claim("pod-1-extended-resources-x", "u9"), allocation("g0"), "pod1"));
    assertEquals(List.of(), cache.assumed("pod1"), "the watch holds it now");
    assertEquals(List.of("pod-1-extended-resources-x:g0"), allocatedDevices());
  }

  @Test
  void a_claim_the_watch_shows_allocated_before_created_is_called_is_not_assumed_again() {
    cache.assume("pod1", List.of(toCreate()));
    cache.putClaim(written(claim("pod-1-extended-resources-x", "u9"), allocation("g0"), "pod1"));
    assertEquals(2, allocatedDevices().size(), "until created is called both show; never fewer");

    cache.created("pod1", "extended-resources-pod1", "pod-1-extended-resources-x", "u9");

    assertEquals(List.of(), cache.assumed("pod1"));
    assertEquals(List.of("pod-1-extended-resources-x:g0"), allocatedDevices());
  }
}
