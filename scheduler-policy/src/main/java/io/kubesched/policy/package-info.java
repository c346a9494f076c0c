/**
 * The policy users build and hand to the controller: {@link io.kubesched.policy.Policy} runs {@link
 * io.kubesched.policy.framework.Filter}s and weighted {@link io.kubesched.policy.framework.Scorer}s as
 * kube-scheduler runs its profile's plugins and explains its choice ({@link io.kubesched.policy.Explanation}),
 * {@link io.kubesched.policy.GroupPlacement} places a pod group, and preemption is kube's {@code
 * DefaultPreemption} PostFilter.
 */
@NullMarked
package io.kubesched.policy;

import org.jspecify.annotations.NullMarked;
