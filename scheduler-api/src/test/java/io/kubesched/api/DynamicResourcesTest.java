package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DynamicResourcesTest {

  private static ResourceClaim claim(String name, String uid, AllocationResult allocation) {
    return new ResourceClaim("ns", name, uid, "1", null, Map.of(), List.of(), List.of(), List.of(), allocation,
        List.of(), false);
  }

  private static AllocationResult on(String device) {
    return new AllocationResult(
        List.of(new DeviceAllocation("r", "d", "pool", device, false, List.of(), List.of(), List.of(), null, Map.of())),
        List.of(), null, null);
  }

  @Test
  void a_reserve_shows_the_new_allocation_and_the_pod_in_reserved_for() {
    var resources = DynamicResources.of(
        List.of(), List.of(), List.of(claim("gpu", "u1", null), claim("nic", "u2", on("nic-0"))), List.of());
    var pod = ConsumerRef.pod("p", "uid-p");

    var reserved = resources.withClaimAllocations(pod, List.of(
        new ClaimAllocation("ns", "gpu", "u1", on("gpu-3")), new ClaimAllocation("ns", "nic", "u2", null)));

    var gpu = reserved.claim("ns", "gpu").orElseThrow();
    assertEquals(on("gpu-3"), gpu.allocation());
    assertEquals(List.of(pod), gpu.reservedFor());
    var nic = reserved.claim("ns", "nic").orElseThrow();
    assertEquals(on("nic-0"), nic.allocation(), "already allocated: kept");
    assertEquals(List.of(pod), nic.reservedFor());
    assertNull(resources.claim("ns", "gpu").orElseThrow().allocation(), "the view it came from is unchanged");
  }

  @Test
  void a_claim_of_another_uid_is_left_as_it_is_and_an_empty_reserve_changes_nothing() {
    var resources = DynamicResources.of(List.of(), List.of(), List.of(claim("gpu", "new-uid", null)), List.of());
    var pod = ConsumerRef.pod("p", "uid-p");

    var reserved = resources.withClaimAllocations(pod, List.of(new ClaimAllocation("ns", "gpu", "old-uid", on("g"))));

    assertNull(reserved.claim("ns", "gpu").orElseThrow().allocation());
    assertSame(resources, resources.withClaimAllocations(pod, List.of()));
  }
}
