/**
 * kube-scheduler's former {@code nodelabel} plugin (the {@code CheckNodeLabelPresence} predicate and {@code
 * NodeLabelPriority} priority of the scheduler Policy): a filter and a scorer on the presence of node labels.
 * Internal: not exported; users reach them through {@link io.kubesched.policy.plugins.Filters#labelPresence} and
 * {@link io.kubesched.policy.plugins.Scorers#nodeLabel}.
 */
@NullMarked
package io.kubesched.policy.plugins.nodelabel;

import org.jspecify.annotations.NullMarked;
