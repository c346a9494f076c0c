/**
 * kube-scheduler's {@code dynamicresources} plugin: the {@code DynamicResources} filter, which resolves a pod's
 * ResourceClaims, pins it to the nodes of the claims already allocated and asks the structured allocator for the
 * others on each node, and its score for prioritized lists. Internal: not exported; users reach them through
 * {@link io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.dynamicresources;

import org.jspecify.annotations.NullMarked;
