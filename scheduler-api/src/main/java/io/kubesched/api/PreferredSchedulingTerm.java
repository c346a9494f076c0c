package io.kubesched.api;

/**
 * A preference of a pod's node affinity: nodes matching {@code preference} gain {@code weight}.
 *
 * @param weight 1 to 100
 * @param preference the term a node must match to gain the weight
 */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {}
