package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import io.kubesched.policy.plugins.dynamicresources.structured.Allocator;
import java.time.Clock;
import java.util.List;

/**
 * The allocator as the plugin uses it: made once per pod's attempt over the snapshot's dynamic resources, then
 * asked per node, concurrently for different nodes. The seam lets the plugin's tests count and script allocations;
 * in the library it is always {@link Allocator}.
 */
@FunctionalInterface
interface NodeAllocator {

  /** @return the outcome of allocating all of {@code claims} on {@code node}, as {@link Allocator#allocate} */
  Allocator.Outcome allocate(NodeInfo node, List<ResourceClaim> claims);

  /** Makes the allocator for one attempt. */
  @FunctionalInterface
  interface Factory {
    NodeAllocator create(DynamicResources resources);

    /**
     * @return the structured allocator's factory, with one CEL cache and one {@link Allocator.Cache} shared by
     *     every attempt
     */
    static Factory structured(DeviceSelectors selectors, Clock clock) {
      var cache = new Allocator.Cache();
      return resources -> Allocator.create(resources, selectors, clock, cache)::allocate;
    }
  }
}
