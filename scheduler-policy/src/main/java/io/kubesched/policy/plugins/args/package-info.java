/**
 * The arguments users pass to {@link io.kubesched.policy.plugins.Filters} and {@link
 * io.kubesched.policy.plugins.Scorers}, as kube-scheduler's {@code pkg/scheduler/apis/config} (types_pluginargs.go)
 * declares its plugins' arguments: the topology spread constraints' defaults ({@link
 * io.kubesched.policy.plugins.args.PodTopologySpreadArgs}), the resources a scorer weighs ({@link
 * io.kubesched.policy.plugins.args.ScoredResource}) and the points of a scoring function ({@link
 * io.kubesched.policy.plugins.args.ShapePoint}). Immutable records that validate at construction. Exported: they
 * appear in the factories' signatures and in the Policy file's results; they depend on the api only, so that both
 * the factories and the plugins build on them.
 */
@NullMarked
package io.kubesched.policy.plugins.args;

import org.jspecify.annotations.NullMarked;
