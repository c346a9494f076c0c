package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.dra.AllocationResult;
import io.kubesched.api.dra.DynamicResources;
import io.kubesched.api.dra.ResourceClaim;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import java.time.Clock;
import java.util.List;

/**
 * kube's structured allocator: made once per pod's attempt over one snapshot's slices, classes and allocated
 * devices (every claim's allocation in {@link DynamicResources#claims()}, the assumed ones included), then asked
 * per node. {@link #allocate} is called concurrently for different nodes. SKELETON: the allocator work replaces
 * this body.
 */
public final class Allocator {

  private Allocator() {}

  /**
   * @param resources the slices, classes, claims and taint rules of the snapshot
   * @param selectors the CEL compiler and cache, shared across attempts
   * @param clock for allocation timestamps of devices with binding conditions
   * @return an allocator over them
   */
  public static Allocator create(DynamicResources resources, DeviceSelectors selectors, Clock clock) {
    return new Allocator();
  }

  /**
   * Allocates all of {@code claims} together on {@code node}, or none (kube's {@code Allocate}).
   *
   * @param node the node
   * @param claims the claims of one pod that are not allocated yet
   * @return the allocations, one per claim in order; that the node cannot satisfy them; or an error
   */
  public Outcome allocate(NodeInfo node, List<ResourceClaim> claims) {
    return new Outcome.Failed("not implemented yet");
  }

  /** What {@link #allocate} found. */
  public sealed interface Outcome {
    /** @param results one allocation per claim, in the order given */
    record Allocated(List<AllocationResult> results) implements Outcome {
      public Allocated {
        results = List.copyOf(results);
      }
    }

    /** The node cannot satisfy the claims (kube's nil result without an error). */
    record Unsuitable() implements Outcome {}

    /** @param message kube's error (a CEL error, a missing class, …) */
    record Failed(String message) implements Outcome {}
  }
}
