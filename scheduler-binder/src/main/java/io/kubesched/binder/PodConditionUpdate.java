package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Whether a pod's status needs a condition written, with Kubernetes' {@code podutil.UpdatePodCondition}
 * rule: the condition is written if it is new, or if its status, reason, message, lastProbeTime or
 * lastTransitionTime differ from the pod's; lastTransitionTime becomes {@code now} only when the status
 * changes (or the condition is new). Other fields (observedGeneration) do not by themselves call for a
 * write, as in Kubernetes.
 *
 * <p>{@link #jsonPatch} words the write as a JSON Patch (RFC 6902) that also sets the pod's
 * resourceVersion to the one seen: the API server then applies it only to the pod as seen and answers 409
 * Conflict otherwise (422 if an operation no longer fits), so the index it names is right and nothing
 * written meanwhile is lost. fabric8's mock server applies it alike. kube-scheduler sends a
 * strategic-merge patch instead, which the mock refuses (415); the mock also appends lists in a JSON
 * merge patch instead of replacing them, and drops the connection when a JSON Patch {@code test} fails.
 *
 * <p>Pure functions over fabric8 values; they never change their arguments.
 *
 * @param condition the condition to write, lastTransitionTime set
 * @param index where the pod has a condition of this type, or -1 if it has none
 */
public record PodConditionUpdate(PodCondition condition, int index) {

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(ZoneOffset.UTC);

  /** A condition's time as the API writes it: whole seconds, UTC ({@code 2006-01-02T15:04:05Z}). */
  public static String conditionTime(Instant instant) {
    return SECONDS.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * @param status the pod's status as last seen; null for none
   * @param wanted the condition to have; its type identifies it, its lastTransitionTime is ignored
   * @param now the time to use as lastTransitionTime, in the API's format ({@code 2006-01-02T15:04:05Z})
   * @return the write to make, or empty if the pod has the condition already
   */
  public static Optional<PodConditionUpdate> of(@Nullable PodStatus status, PodCondition wanted, String now) {
    int index = indexOf(status, wanted.getType());
    if (index < 0) {
      return Optional.of(new PodConditionUpdate(withTransition(wanted, now), -1));
    }
    var existing = status.getConditions().get(index);
    var sameStatus = Objects.equals(wanted.getStatus(), existing.getStatus());
    var next = withTransition(wanted, sameStatus ? existing.getLastTransitionTime() : now);
    boolean equal =
        sameStatus
            && Objects.equals(next.getReason(), existing.getReason())
            && Objects.equals(next.getMessage(), existing.getMessage())
            && Objects.equals(next.getLastProbeTime(), existing.getLastProbeTime())
            && Objects.equals(next.getLastTransitionTime(), existing.getLastTransitionTime());
    return equal ? Optional.empty() : Optional.of(new PodConditionUpdate(next, index));
  }

  /** @return whether the pod had no condition of this type */
  boolean added() {
    return index < 0;
  }

  /**
   * The write as JSON Patch operations, to be serialized as a JSON array.
   *
   * @param resourceVersion the resourceVersion of the pod {@link #of} was given, set as a precondition;
   *     null for none
   * @param status that pod's status
   */
  public List<Map<String, Object>> jsonPatch(@Nullable String resourceVersion, @Nullable PodStatus status) {
    var ops = new ArrayList<Map<String, Object>>();
    if (resourceVersion != null) {
      ops.add(Map.of("op", "add", "path", "/metadata/resourceVersion", "value", resourceVersion));
    }
    if (index >= 0) {
      ops.add(Map.of("op", "replace", "path", "/status/conditions/" + index, "value", condition));
    } else if (status == null) {
      ops.add(Map.of("op", "add", "path", "/status", "value", Map.of("conditions", List.of(condition))));
    } else if (status.getConditions() == null || status.getConditions().isEmpty()) {
      // The server omits an empty list: add the list itself.
      ops.add(Map.of("op", "add", "path", "/status/conditions", "value", List.of(condition)));
    } else {
      ops.add(Map.of("op", "add", "path", "/status/conditions/-", "value", condition));
    }
    return List.copyOf(ops);
  }

  /** @return the pod's condition of {@code type}, or null */
  public static @Nullable PodCondition find(@Nullable PodStatus status, @Nullable String type) {
    int index = indexOf(status, type);
    return index < 0 ? null : status.getConditions().get(index);
  }

  private static int indexOf(@Nullable PodStatus status, @Nullable String type) {
    if (status == null || status.getConditions() == null) {
      return -1;
    }
    var conditions = status.getConditions();
    for (int i = 0; i < conditions.size(); i++) {
      if (Objects.equals(conditions.get(i).getType(), type)) {
        return i;
      }
    }
    return -1;
  }

  private static PodCondition withTransition(PodCondition condition, @Nullable String time) {
    return new PodConditionBuilder(condition).withLastTransitionTime(time).build();
  }
}
