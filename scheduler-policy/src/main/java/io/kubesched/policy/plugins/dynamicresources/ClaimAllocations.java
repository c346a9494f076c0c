package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.PodInfo;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DynamicResources;
import java.util.HashMap;
import java.util.List;

/**
 * What a decision's {@link ClaimAllocation}s do to the claims once written (kube's Reserve, as its assume cache
 * shows it before PreBind), checked: {@link DynamicResources#withClaimAllocations}, refusing a decision that names a
 * claim the snapshot does not hold (but the claim for extended resources it creates) or allocates one already allocated (what the properties check decisions with).
 * Pure.
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
    for (var a : allocations) {
      if (!a.toCreate()) { // a claim to create is not in the snapshot yet: withClaimAllocations adds it
        byKey.put(a.namespace() + "/" + a.name(), a);
      }
    }
    int found = 0;
    for (var claim : resources.claims()) {
      var planned = byKey.get(claim.key());
      if (planned == null || !planned.uid().equals(claim.uid())) {
        continue;
      }
      found++;
      if (planned.allocation() != null && claim.allocation() != null) {
        throw new IllegalArgumentException("claim " + claim.key() + " is allocated already; pod " + pod.key()
            + "'s decision allocates it again");
      }
    }
    if (found != byKey.size()) {
      throw new IllegalArgumentException("pod " + pod.key() + "'s decision names claims the snapshot does not hold: "
          + byKey.keySet());
    }
    return resources.withClaimAllocations(ConsumerRef.pod(pod.name(), pod.uid()), allocations);
  }
}
