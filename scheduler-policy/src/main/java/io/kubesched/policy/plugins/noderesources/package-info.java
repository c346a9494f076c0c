/**
 * kube-scheduler's {@code noderesources} plugins: the {@code NodeResourcesFit} filter, its scoring strategies
 * ({@code LeastAllocated}, {@code MostAllocated}, {@code RequestedToCapacityRatio}) as scorers over the shared
 * {@code ResourceAllocation}, and {@code NodeResourcesBalancedAllocation}. Internal: not exported; users reach them
 * through {@link io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.noderesources;

import org.jspecify.annotations.NullMarked;
