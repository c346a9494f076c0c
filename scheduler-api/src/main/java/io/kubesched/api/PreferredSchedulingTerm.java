package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A preference of a pod's node affinity: nodes matching {@code preference} gain {@code weight}.
 *
 * @param weight 1 to 100
 * @param preference the term a node must match to gain the weight
 */
@API(status = STABLE, since = "0.1.0")
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {}
