package io.kubesched.policy;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.Decision;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What {@link GroupPlacement#place} decides for a pod group's pending members: enough of them fit together
 * ({@link Placed}), or the group does not fit now ({@link Unschedulable}) and nothing of it is to be assumed.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface GroupDecision {

  /**
   * A member that fits, with its node.
   *
   * @param pod the member
   * @param bind where it goes; never with volume bindings (members that need them are refused)
   */
  record Member(PodInfo pod, Decision.Bind bind) {}

  /**
   * At least the group's minimum fits, counting the members placed before: bind {@code fitted}, in order
   * (each was decided on a snapshot holding the earlier ones), and requeue {@code unfitted} on their own.
   *
   * @param fitted the members that fit, in the order they were tried; empty only when the members placed before
   *     already reach the minimum and no pending member fits (kube's group then succeeds with nothing to bind)
   * @param unfitted the members that did not fit, by uid, each with its own decision, in the order tried (a
   *     member whose node needs volumes bound first is among them, with {@link
   *     GroupPlacement#VOLUMES_NOT_SUPPORTED})
   */
  record Placed(List<Member> fitted, Map<String, Decision.Unschedulable> unfitted) implements GroupDecision {
    public Placed {
      fitted = List.copyOf(fitted);
      unfitted = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unfitted));
    }
  }

  /**
   * The group does not fit now: nothing is to be assumed. The members that fitted in the trial are reported
   * with {@code message}, the others with their own decision (kube-scheduler reports them the same way).
   *
   * @param message the group's reason, as kube-scheduler words it (for example {@code minCount (6) cannot be
   *     satisfied: 4 scheduled, 0 remaining})
   * @param fitted the members that fitted in the trial, in order
   * @param unfitted the members that did not fit, by uid, each with its own decision, in the order tried; then
   *     the members never tried (the trial stopped early, or before any member), each with a decision whose
   *     {@link Decision.Unschedulable#preFilterMessage()} is {@code message}
   */
  record Unschedulable(String message, List<PodInfo> fitted, Map<String, Decision.Unschedulable> unfitted)
      implements GroupDecision {
    public Unschedulable {
      fitted = List.copyOf(fitted);
      unfitted = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unfitted));
    }
  }
}
