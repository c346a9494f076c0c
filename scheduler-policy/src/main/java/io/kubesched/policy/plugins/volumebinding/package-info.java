/**
 * kube-scheduler's {@code volumebinding} plugin: the {@code VolumeBinding} filter, which plans where each unbound
 * claim of a pod would bind on a node, and its capacity scorer. Internal: not exported; users reach them through
 * {@link io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.volumebinding;

import org.jspecify.annotations.NullMarked;
