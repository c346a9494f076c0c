/**
 * The runtime that runs a policy's plugins for one pod, as kube-scheduler's {@code framework/runtime} and
 * {@code schedule_one.go} do: the {@link io.kubesched.policy.framework.runtime.Evaluator} prepares the filters
 * (PreFilter), tries the nominated node, searches for feasible nodes from the round-robin start on the calling
 * thread or over {@link io.kubesched.policy.framework.runtime.NodeWorkers} with the same outcome, runs the
 * {@link io.kubesched.policy.framework.runtime.PostFilter} when none fits, scores the feasible nodes and
 * selects the host. It sees only the extension points of {@code io.kubesched.policy.framework};
 * {@link io.kubesched.policy.Policy} holds an evaluator and keeps what lasts between pods. Internal: not
 * exported, no compatibility promise.
 */
@NullMarked
package io.kubesched.policy.framework.runtime;

import org.jspecify.annotations.NullMarked;
