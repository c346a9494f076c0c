package io.kubesched.api;

/**
 * A preferred term of a pod's pod affinity or anti-affinity: nodes in a domain with pods the term selects
 * gain (affinity) or lose (anti-affinity) {@code weight}.
 *
 * @param weight 1 to 100
 * @param term the term
 */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
