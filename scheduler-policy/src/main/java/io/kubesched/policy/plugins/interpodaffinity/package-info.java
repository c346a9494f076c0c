/**
 * kube-scheduler's {@code interpodaffinity} plugin: the {@code InterPodAffinity} filter (required affinity and
 * anti-affinity, the existing pods' anti-affinity) and scorer (preferred terms, the existing pods' terms), over the
 * terms and counts they share. Internal: not exported; users reach them through {@link
 * io.kubesched.policy.plugins.Filters} and {@link io.kubesched.policy.plugins.Scorers}.
 */
@NullMarked
package io.kubesched.policy.plugins.interpodaffinity;

import org.jspecify.annotations.NullMarked;
