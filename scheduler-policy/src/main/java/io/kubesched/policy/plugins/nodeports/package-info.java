/**
 * kube-scheduler's {@code nodeports} plugin: the {@code NodePorts} filter. Internal: not exported; users reach it
 * through {@link io.kubesched.policy.plugins.Filters#nodePorts()}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodeports;

import org.jspecify.annotations.NullMarked;
