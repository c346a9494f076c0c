package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One of a pod's {@code spec.topologySpreadConstraints}: how unevenly the pods {@code labelSelector} selects
 * may be spread over the domains of {@code topologyKey}.
 *
 * @param maxSkew the largest allowed difference between the number of matching pods in a domain and the
 *     smallest such number (at least 1)
 * @param topologyKey the node label whose values are the domains
 * @param whenUnsatisfiable whether a placement that exceeds {@code maxSkew} is refused or only scored lower
 * @param labelSelector the pods counted; {@code null} when the constraint has none, which counts no pod
 * @param minDomains the number of domains below which the smallest count is taken as 0 (1 when unset, which
 *     has no effect); only with {@link WhenUnsatisfiable#DO_NOT_SCHEDULE}
 * @param nodeAffinityPolicy whether nodes the pod's node affinity and selector exclude are left out of the
 *     counts ({@link InclusionPolicy#HONOR}, the default) or counted ({@link InclusionPolicy#IGNORE})
 * @param nodeTaintsPolicy whether nodes with taints the pod does not tolerate are left out of the counts
 *     ({@link InclusionPolicy#HONOR}) or counted ({@link InclusionPolicy#IGNORE}, the default)
 * @param matchLabelKeys label keys whose values, taken from the incoming pod, narrow the selector
 */
@API(status = STABLE, since = "0.1.0")
public record TopologySpreadConstraint(
    int maxSkew,
    String topologyKey,
    WhenUnsatisfiable whenUnsatisfiable,
    @Nullable LabelSelector labelSelector,
    int minDomains,
    InclusionPolicy nodeAffinityPolicy,
    InclusionPolicy nodeTaintsPolicy,
    List<String> matchLabelKeys) {

  /** What happens to a placement that would exceed the skew. */
  public enum WhenUnsatisfiable {
    /** The node is filtered out. */
    DO_NOT_SCHEDULE,
    /** The node is only scored lower. */
    SCHEDULE_ANYWAY
  }

  /** Whether a node that a pod's rules exclude still counts for spreading. */
  public enum InclusionPolicy {
    /** Only nodes the rule admits count. */
    HONOR,
    /** Every node counts. */
    IGNORE
  }

  public TopologySpreadConstraint {
    matchLabelKeys = List.copyOf(matchLabelKeys);
  }

  /**
   * @return a constraint with the API's defaults: {@code minDomains} 1, node affinity honoured, taints
   *     ignored, no {@code matchLabelKeys}
   */
  public static TopologySpreadConstraint of(
      int maxSkew, String topologyKey, WhenUnsatisfiable whenUnsatisfiable, @Nullable LabelSelector selector) {
    return new TopologySpreadConstraint(
        maxSkew,
        topologyKey,
        whenUnsatisfiable,
        selector,
        1,
        InclusionPolicy.HONOR,
        InclusionPolicy.IGNORE,
        List.of());
  }
}
