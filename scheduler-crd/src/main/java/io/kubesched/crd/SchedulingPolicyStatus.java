package io.kubesched.crd;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SchedulingPolicyController} made of a {@link SchedulingPolicy}: the {@value #ACCEPTED} condition
 * and the generation it judged. Written through the {@code status} subresource, so a user's edit of the spec
 * never overwrites it.
 *
 * <p>{@value #ACCEPTED} is {@code True} with reason {@value #REASON_ACCEPTED} while the policy is the one its
 * profile schedules with, and {@code False} with reason {@value #REASON_INVALID} (the message names the field and
 * the value), {@value #REASON_CONFLICT} (an older policy sets the same profile) or {@value
 * #REASON_UNKNOWN_SCHEDULER} (no such profile) otherwise.
 *
 * @param observedGeneration the {@code metadata.generation} the controller last judged; null before it did
 * @param conditions the conditions, {@value #ACCEPTED} among them once judged; never null (empty before)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SchedulingPolicyStatus(
    @JsonPropertyDescription("The metadata.generation the controller last judged.") @Nullable Long observedGeneration,
    @JsonPropertyDescription("Accepted: True while this policy is the one its profile schedules with; False with "
        + "the reason (Invalid, Conflict, UnknownScheduler) and a message otherwise.")
    List<Condition> conditions) {

  /** The condition type. */
  public static final String ACCEPTED = "Accepted";

  /** The reason of {@code Accepted=True}. */
  public static final String REASON_ACCEPTED = "Accepted";

  /** The spec does not parse as a profile, or names what the scheduler cannot run. */
  public static final String REASON_INVALID = "Invalid";

  /** An older SchedulingPolicy sets the same profile. */
  public static final String REASON_CONFLICT = "Conflict";

  /** {@code spec.schedulerName} is none of the scheduler's profiles. */
  public static final String REASON_UNKNOWN_SCHEDULER = "UnknownScheduler";

  /** Copies {@code conditions}; null stands for none. */
  public SchedulingPolicyStatus {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
  }

  /** @return the {@value #ACCEPTED} condition, if the policy was judged */
  @JsonIgnore
  public Optional<Condition> accepted() {
    return conditions.stream().filter(c -> ACCEPTED.equals(c.getType())).findFirst();
  }
}
