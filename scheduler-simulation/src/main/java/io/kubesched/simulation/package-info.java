/**
 * What-if: {@link io.kubesched.simulation.Simulation} places pods on a {@link io.kubesched.api.ClusterSnapshot} as the
 * controller would (its queue, cache of assumed pods and decision step), without binding anything, and answers
 * capacity, drain and policy-change questions. Experimental.
 */
@NullMarked
package io.kubesched.simulation;

import org.jspecify.annotations.NullMarked;
