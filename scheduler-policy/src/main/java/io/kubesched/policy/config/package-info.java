/**
 * Reads policies from files: a kube-scheduler configuration ({@link
 * io.kubesched.policy.config.SchedulerConfiguration}, {@code kind: KubeSchedulerConfiguration}, one {@link
 * io.kubesched.policy.config.SchedulerProfile} per profile) and kube-scheduler's former {@code kind: Policy}
 * ({@link io.kubesched.policy.config.PolicyFile}: {@code predicates} with {@code name}/{@code argument}, {@code
 * priorities} with {@code name}/{@code weight}/{@code argument}), JSON or YAML. Pure: no Kubernetes client.
 */
@NullMarked
package io.kubesched.policy.config;

import org.jspecify.annotations.NullMarked;
