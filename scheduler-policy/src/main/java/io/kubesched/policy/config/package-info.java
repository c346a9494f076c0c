/**
 * Reads a {@link io.kubesched.policy.Policy} from a Policy file: JSON or YAML in the shape of kube-scheduler's
 * former {@code kind: Policy} ({@code predicates} with {@code name}/{@code argument}, {@code priorities} with
 * {@code name}/{@code weight}/{@code argument}).
 */
@NullMarked
package io.kubesched.policy.config;

import org.jspecify.annotations.NullMarked;
