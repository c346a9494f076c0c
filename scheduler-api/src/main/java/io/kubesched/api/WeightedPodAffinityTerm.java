package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A preferred term of a pod's pod affinity or anti-affinity: nodes in a domain with pods the term selects
 * gain (affinity) or lose (anti-affinity) {@code weight}.
 *
 * @param weight 1 to 100
 * @param term the term
 */
@API(status = STABLE, since = "0.1.0")
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
