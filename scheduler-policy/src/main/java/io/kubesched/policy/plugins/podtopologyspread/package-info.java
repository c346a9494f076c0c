/**
 * kube-scheduler's {@code podtopologyspread} plugin: the {@code PodTopologySpread} filter and scorer, with the
 * constraints, default constraints and counting they share. Internal: not exported; users reach them through {@link
 * io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers} with {@link
 * io.kubesched.policy.plugins.args.PodTopologySpreadArgs}.
 */
@NullMarked
package io.kubesched.policy.plugins.podtopologyspread;

import org.jspecify.annotations.NullMarked;
