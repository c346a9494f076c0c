package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.DeviceId;
import io.kubesched.api.ResourceClaim;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the claims' allocations already hold: kube's {@code AllocatedState} as the DynamicResources plugin builds it
 * ({@code foreachAllocatedDevice} in {@code allocateddevices.go}). Devices allocated for admin access are not
 * counted; a device allocated with a share id is a shared device whose consumed capacities add up.
 *
 * <p>Built from every claim it is a walk over every allocated device: at 5 000 nodes with three devices allocated on
 * each, that walk was half of a decision's time ({@code DynamicResourcesBenchmark}: 14 ms of 28 ms at 69 decisions a
 * second). Consecutive attempts mostly see the same claims with one or two changed (the claim just reserved, one
 * the watch updated), so {@link #derive} lays the changes over the state the previous attempt built, as a delta of
 * counts, and rebuilds from scratch only when the changes are many. kube keeps the same state incrementally in its
 * claim tracker and clones it per attempt.
 *
 * <p>Immutable after construction; shared by every thread of one {@link Allocator} and by later attempts.
 */
final class AllocatedState {

  /** Changed devices laid over the base before a rebuild is cheaper than the lookups through the delta. */
  static final int MAX_DELTA = 4096;

  /**
   * What the allocations hold of one device, or (in a delta) how that changed.
   *
   * @param dedicated allocations holding it exclusively
   * @param shares allocations holding a share of it
   * @param capacityShares shares that record consumed capacity
   * @param capacity the consumed capacity of those shares, by name
   */
  private record Tally(int dedicated, int shares, int capacityShares, Map<String, BigDecimal> capacity) {
    static final Tally NONE = new Tally(0, 0, 0, Map.of());

    Tally plus(Tally other, int sign) {
      var sum = new HashMap<>(capacity);
      other.capacity.forEach((name, q) -> sum.merge(name, sign > 0 ? q : q.negate(), BigDecimal::add));
      return new Tally(
          dedicated + sign * other.dedicated,
          shares + sign * other.shares,
          capacityShares + sign * other.capacityShares,
          sum);
    }
  }

  private final Map<DeviceId, Tally> base;
  private final Map<DeviceId, Tally> delta;

  private AllocatedState(Map<DeviceId, Tally> base, Map<DeviceId, Tally> delta) {
    this.base = base;
    this.delta = delta;
  }

  /** @return the devices the allocations of {@code claims} hold */
  static AllocatedState of(List<ResourceClaim> claims) {
    var tallies = new HashMap<DeviceId, Tally>(Math.max(16, claims.size() * 4));
    for (var claim : claims) {
      add(tallies, claim, 1);
    }
    return new AllocatedState(tallies, Map.of());
  }

  /**
   * The state of {@code claims} from this one, built for {@code previous}: where {@code claims} is {@code previous}
   * with a few claims replaced, added or removed (compared by identity, in order), only those are counted again.
   *
   * @return the state of {@code claims}
   */
  AllocatedState derive(List<ResourceClaim> previous, List<ResourceClaim> claims) {
    if (previous == claims) {
      return this;
    }
    var changes = ClaimChanges.between(previous, claims);
    if (changes == null) {
      return of(claims);
    }
    var next = new HashMap<>(delta);
    changes.removed().forEach(claim -> add(next, claim, -1));
    changes.added().forEach(claim -> add(next, claim, 1));
    next.values().removeIf(t -> t.dedicated == 0 && t.shares == 0 && t.capacityShares == 0
        && t.capacity.values().stream().allMatch(q -> q.signum() == 0));
    if (next.size() > MAX_DELTA) {
      return of(claims);
    }
    return new AllocatedState(base, next);
  }

  private static void add(Map<DeviceId, Tally> tallies, ResourceClaim claim, int sign) {
    var allocation = claim.allocation();
    if (allocation == null) {
      return;
    }
    for (var result : allocation.devices()) {
      if (result.adminAccess()) {
        continue;
      }
      Tally change;
      if (result.shareId() == null) {
        change = new Tally(1, 0, 0, Map.of());
      } else if (result.consumedCapacity().isEmpty()) {
        change = new Tally(0, 1, 0, Map.of());
      } else {
        var consumed = new HashMap<String, BigDecimal>();
        result.consumedCapacity().forEach((name, q) -> consumed.merge(name, q.value(), BigDecimal::add));
        change = new Tally(0, 1, 1, consumed);
      }
      tallies.merge(result.deviceId(), sign > 0 ? change : Tally.NONE.plus(change, -1), (a, b) -> a.plus(b, 1));
    }
  }

  private Tally tally(DeviceId id) {
    var counted = base.get(id);
    var changed = delta.isEmpty() ? null : delta.get(id);
    if (changed == null) {
      return counted == null ? Tally.NONE : counted;
    }
    return (counted == null ? Tally.NONE : counted).plus(changed, 1);
  }

  /** @return whether the device is allocated to a claim exclusively */
  boolean isDedicated(DeviceId id) {
    return tally(id).dedicated > 0;
  }

  /** @return whether any share of the device is allocated */
  boolean hasShare(DeviceId id) {
    return tally(id).shares > 0;
  }

  /** @return what the shares of the device consume, by capacity name; {@code null} when none is recorded */
  @Nullable Map<String, BigDecimal> aggregatedCapacity(DeviceId id) {
    var tally = tally(id);
    return tally.capacityShares > 0 ? Map.copyOf(tally.capacity) : null;
  }

  /** @return whether the device is allocated in any way: kube's {@code IsDeviceAllocated} */
  boolean isAllocated(DeviceId id) {
    var tally = tally(id);
    return tally.dedicated > 0 || tally.shares > 0 || tally.capacityShares > 0;
  }

  /** @return how many devices the delta over the base counts again (for tests) */
  int deltaSize() {
    return delta.size();
  }
}
