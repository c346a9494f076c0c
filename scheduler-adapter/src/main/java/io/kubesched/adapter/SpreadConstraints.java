package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A pod's {@code spec.topologySpreadConstraints} read into {@link TopologySpreadConstraint}s, with the API's
 * defaults: {@code minDomains} 1, {@code nodeAffinityPolicy} Honor, {@code nodeTaintsPolicy} Ignore. Skews,
 * keys and domain counts are kept as given (an unset {@code maxSkew} reads as 0, as Go reads it); what the
 * model cannot hold is an error.
 */
final class SpreadConstraints {

  private static final String FIELD = "spec.topologySpreadConstraints";

  private SpreadConstraints() {}

  /**
   * @param object the pod, for error messages
   * @return the pod's constraints, in order
   * @throws MalformedObjectException naming {@code object}, the field and its value, if {@code
   *     whenUnsatisfiable} is not {@code DoNotSchedule} or {@code ScheduleAnyway}, an inclusion policy is not
   *     {@code Honor} or {@code Ignore}, or the label selector has an unknown operator or values that do not
   *     fit it
   */
  static List<TopologySpreadConstraint> read(PodSpec spec, String object) {
    var constraints = new ArrayList<TopologySpreadConstraint>();
    var all = orEmpty(spec.getTopologySpreadConstraints());
    for (int i = 0; i < all.size(); i++) {
      var field = FIELD + "[" + i + "]";
      var c = all.get(i);
      if (c == null) {
        throw new MalformedObjectException(
            object, field + ".whenUnsatisfiable", "", "is not DoNotSchedule or ScheduleAnyway", null);
      }
      constraints.add(
          new TopologySpreadConstraint(
              c.getMaxSkew() == null ? 0 : c.getMaxSkew(),
              SharedStrings.shared(orEmpty(c.getTopologyKey())),
              whenUnsatisfiable(c.getWhenUnsatisfiable(), object, field + ".whenUnsatisfiable"),
              LabelSelectors.read(c.getLabelSelector(), object, field + ".labelSelector"),
              c.getMinDomains() == null ? 1 : c.getMinDomains(),
              policy(c.getNodeAffinityPolicy(), InclusionPolicy.HONOR, object, field + ".nodeAffinityPolicy"),
              policy(c.getNodeTaintsPolicy(), InclusionPolicy.IGNORE, object, field + ".nodeTaintsPolicy"),
              PodAffinities.strings(c.getMatchLabelKeys())));
    }
    return constraints;
  }

  private static WhenUnsatisfiable whenUnsatisfiable(@Nullable String text, String object, String field) {
    return switch (orEmpty(text)) {
      case "DoNotSchedule" -> WhenUnsatisfiable.DO_NOT_SCHEDULE;
      case "ScheduleAnyway" -> WhenUnsatisfiable.SCHEDULE_ANYWAY;
      default -> throw new MalformedObjectException(
          object, field, orEmpty(text), "is not DoNotSchedule or ScheduleAnyway", null);
    };
  }

  /**
   * An unset policy is {@code unset}; an empty one is an error (kube-scheduler would read it as neither Honor
   * nor Ignore).
   */
  private static InclusionPolicy policy(
      @Nullable String text, InclusionPolicy unset, String object, String field) {
    if (text == null) {
      return unset;
    }
    return switch (text) {
      case "Honor" -> InclusionPolicy.HONOR;
      case "Ignore" -> InclusionPolicy.IGNORE;
      default -> throw new MalformedObjectException(object, field, text, "is not Honor or Ignore", null);
    };
  }
}
