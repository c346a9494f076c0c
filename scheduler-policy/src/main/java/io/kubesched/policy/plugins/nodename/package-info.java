/**
 * kube-scheduler's {@code nodename} plugin: the {@code NodeName} filter. Internal: not exported; users reach it
 * through {@link io.kubesched.policy.plugins.Filters#nodeName()}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodename;

import org.jspecify.annotations.NullMarked;
