/**
 * The extension points a policy is made of, as kube-scheduler's {@code pkg/scheduler/framework} declares its
 * plugin interfaces: a {@link io.kubesched.policy.framework.Filter} rejects a node with {@link
 * io.kubesched.policy.framework.Reason}s ({@link io.kubesched.policy.framework.FilterResult}), a {@link
 * io.kubesched.policy.framework.Scorer} ranks the nodes left, and the optional capabilities ({@link
 * io.kubesched.policy.framework.PreFilter}, {@link io.kubesched.policy.framework.PreScorer}, {@link
 * io.kubesched.policy.framework.ScoreNormalizer}, {@link io.kubesched.policy.framework.PodTracking}, {@link
 * io.kubesched.policy.framework.OnlyNodes}, {@link io.kubesched.policy.framework.VolumeBinder}, {@link
 * io.kubesched.policy.framework.ClaimAllocator}) are separate
 * interfaces. Exported: users implement these to write their own plugins and meet them in explanations. It
 * depends on the api only; {@link io.kubesched.policy.Policy} and the built-in plugins build on it.
 */
@NullMarked
package io.kubesched.policy.framework;

import org.jspecify.annotations.NullMarked;
