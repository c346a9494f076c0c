/**
 * kube's structured-parameters allocator: which devices of the published slices satisfy a pod's claims on one
 * node. Ported from {@code k8s.io/dynamic-resource-allocation@v0.37.2/structured}, the {@code internal/incubating}
 * variant kube-scheduler 1.37 runs with its default features, and from the parts of kube-scheduler's
 * DynamicResources plugin that shape the allocator's input ({@code allocateddevices.go}: the allocated state;
 * the slice tracker behind {@code dra_manager.go}: DeviceTaintRules applied to the slices' devices).
 *
 * <ul>
 *   <li>{@link io.kubesched.policy.plugins.dynamicresources.structured.Allocator}: the entry point ({@code
 *       Allocator}, {@code NewAllocator}, {@code Allocate}).
 *   <li>{@code Pools}: {@code GatherPools}, pool generations, incomplete and invalid pools, node matching.
 *   <li>{@code Search}: one {@code Allocate} call, the depth-first search with kube's order and messages.
 *   <li>{@code Constraint}: {@code matchAttribute} and {@code distinctAttribute}.
 *   <li>{@code ConsumableCapacity}: capacity request policies and what a share consumes.
 *   <li>{@code AllocatedState}: what the claims' allocations hold.
 * </ul>
 *
 * <p>Pure: no I/O, no clock but the one given. Threads: an {@code Allocator} is shared by the threads that filter
 * nodes for one pod; each {@code allocate} call keeps its search to itself. Internal: not exported.
 */
@NullMarked
package io.kubesched.policy.plugins.dynamicresources.structured;

import org.jspecify.annotations.NullMarked;
