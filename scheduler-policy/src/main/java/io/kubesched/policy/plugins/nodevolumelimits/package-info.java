/**
 * kube-scheduler's {@code nodevolumelimits} plugin: the {@code NodeVolumeLimits} filter (CSI attach limits).
 * Internal: not exported; users reach it through {@link io.kubesched.policy.plugins.Filters#nodeVolumeLimits()}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodevolumelimits;

import org.jspecify.annotations.NullMarked;
