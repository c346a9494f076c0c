/**
 * kube-scheduler's {@code nodeaffinity} plugin: the {@code NodeAffinity} filter (node selector and required node
 * affinity, with the scheduler-enforced terms) and scorer (preferred terms). Internal: not exported; users reach
 * them through {@link io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodeaffinity;

import org.jspecify.annotations.NullMarked;
