/**
 * kube-scheduler's {@code nodeunschedulable} plugin: the {@code NodeUnschedulable} filter. Internal: not exported;
 * users reach it through {@link io.kubesched.policy.plugins.Filters#nodeUnschedulable()}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodeunschedulable;

import org.jspecify.annotations.NullMarked;
