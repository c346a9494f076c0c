/**
 * The policy engine: {@link io.kubesched.policy.Filter}s reject nodes with {@link
 * io.kubesched.policy.Reason}s, {@link io.kubesched.policy.Scorer}s rank the rest, {@link
 * io.kubesched.policy.Policy} runs them as kube-scheduler does and explains its choice.
 */
@NullMarked
package io.kubesched.policy;

import org.jspecify.annotations.NullMarked;
