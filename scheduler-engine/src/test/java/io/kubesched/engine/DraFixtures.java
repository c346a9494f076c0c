package io.kubesched.engine;

import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.ResourceClaim;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Claims and allocations for the {@link DeviceCache} tests. */
final class DraFixtures {

  static final String NS = "ns";

  private DraFixtures() {}

  /** A claim with no request, not allocated, reserved for nobody. */
  static ResourceClaim claim(String name, String uid) {
    return new ResourceClaim(
        NS, name, uid, "1", null, Map.of(), List.of(), List.of(), List.of(), null, List.of(), false);
  }

  /** An allocation of the devices {@code d/p/<device>} for request {@code r}. */
  static AllocationResult allocation(String... devices) {
    return new AllocationResult(
        java.util.Arrays.stream(devices)
            .map(d -> new DeviceAllocation("r", "d", "p", d, false, List.of(), List.of(), List.of(), null, Map.of()))
            .toList(),
        List.of(),
        null,
        null);
  }

  static ClaimAllocation assumed(ResourceClaim claim, @Nullable AllocationResult allocation) {
    return new ClaimAllocation(claim.namespace(), claim.name(), claim.uid(), allocation);
  }

  /** {@code claim} as the watch shows it once the binder wrote {@code allocation} and reserved it for the pod. */
  static ResourceClaim written(ResourceClaim claim, AllocationResult allocation, String podUid) {
    return claim.withAllocation(allocation).withReservedFor(List.of(ConsumerRef.pod("pod-" + podUid, podUid)));
  }
}
