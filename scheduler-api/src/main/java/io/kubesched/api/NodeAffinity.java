package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A pod's node affinity ({@code spec.affinity.nodeAffinity}).
 *
 * @param required the terms of {@code requiredDuringSchedulingIgnoredDuringExecution}: a node must match at
 *     least one; empty when the pod has no such requirement (the API server rejects an empty list, so empty
 *     means absent)
 * @param preferred the terms of {@code preferredDuringSchedulingIgnoredDuringExecution}
 */
@API(status = STABLE, since = "0.1.0")
public record NodeAffinity(List<NodeSelectorTerm> required, List<PreferredSchedulingTerm> preferred) {

  /** No node affinity. */
  public static final NodeAffinity NONE = new NodeAffinity(List.of(), List.of());

  public NodeAffinity {
    required = List.copyOf(required);
    preferred = List.copyOf(preferred);
  }
}
