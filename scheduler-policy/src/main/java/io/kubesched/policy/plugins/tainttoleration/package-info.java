/**
 * kube-scheduler's {@code tainttoleration} plugin: the {@code TaintToleration} filter and scorer. Internal: not
 * exported; users reach them through {@link io.kubesched.policy.plugins.Filters} and {@link
 * io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.tainttoleration;

import org.jspecify.annotations.NullMarked;
