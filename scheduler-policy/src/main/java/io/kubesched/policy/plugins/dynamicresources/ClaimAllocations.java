package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.PodInfo;
import io.kubesched.api.dra.ClaimAllocation;
import io.kubesched.api.dra.ConsumerRef;
import io.kubesched.api.dra.DynamicResources;
import io.kubesched.api.dra.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * What a decision's {@link ClaimAllocation}s do to the claims once written (kube's Reserve, as its assume cache
 * shows it before PreBind): each claim gets its new allocation, if any, and the pod in {@code reservedFor}. The pod
 * group trial lays each placed member's allocations into the snapshot the next member is decided on, so a claim the
 * members share is allocated once and its devices are not given twice. Pure.
 */
public final class ClaimAllocations {

  private ClaimAllocations() {}

  /**
   * @param resources the dynamic resources a decision was made on
   * @param pod the pod the decision placed
   * @param allocations the decision's claim allocations
   * @return {@code resources} with the claims allocated and reserved for {@code pod}; the same instance when there
   *     is nothing to apply
   * @throws IllegalArgumentException if an allocation names a claim {@code resources} does not hold, or allocates
   *     a claim already allocated
   */
  public static DynamicResources apply(DynamicResources resources, PodInfo pod, List<ClaimAllocation> allocations) {
    if (allocations.isEmpty()) {
      return resources;
    }
    var byKey = new HashMap<String, ClaimAllocation>();
    allocations.forEach(a -> byKey.put(a.namespace() + "/" + a.name(), a));
    var consumer = ConsumerRef.pod(pod.name(), pod.uid());
    var claims = new ArrayList<ResourceClaim>(resources.claims().size());
    int applied = 0;
    for (var claim : resources.claims()) {
      var planned = byKey.get(claim.key());
      if (planned == null || !planned.uid().equals(claim.uid())) {
        claims.add(claim);
        continue;
      }
      applied++;
      var next = claim;
      if (planned.allocation() != null) {
        if (claim.allocation() != null) {
          throw new IllegalArgumentException("claim " + claim.key() + " is allocated already; pod " + pod.key()
              + "'s decision allocates it again");
        }
        next = next.withAllocation(planned.allocation());
      }
      if (next.reservedFor().stream().noneMatch(r -> r.uid().equals(pod.uid()))) {
        var reserved = new ArrayList<>(next.reservedFor());
        reserved.add(consumer);
        next = next.withReservedFor(reserved);
      }
      claims.add(next);
    }
    if (applied != byKey.size()) {
      throw new IllegalArgumentException("pod " + pod.key() + "'s decision names claims the snapshot does not hold: "
          + byKey.keySet());
    }
    return DynamicResources.of(resources.slices(), resources.deviceClasses(), claims, resources.taintRules());
  }
}
