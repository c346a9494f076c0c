package io.kubesched.informer;

import io.kubesched.policy.Explanation;
import io.kubesched.policy.GroupExplanation;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the loop's next decision would be for one pod of its profiles ({@link SchedulingLoop#explain}): the
 * policy's explanation of the pod, or of its pod group, or why neither can be given. Exactly one of {@code
 * pod}, {@code group} and a non-empty {@code unexplained} is set. Immutable.
 *
 * @param key the pod's {@code namespace/name}
 * @param profile the pod's scheduler name (one of the loop's profiles)
 * @param notes what else holds the pod that the explanation does not show (scheduling gates, a nomination),
 *     one sentence each; empty if nothing
 * @param pod the policy's explanation of the pod alone; null if it is explained with its group, or not at all
 * @param group the policy's explanation of the pod's group; null if it is explained alone, or not at all
 * @param unexplained why the pod is not explained (it is bound, its policy is a plain function, ...); empty
 *     when it is
 */
public record LoopExplanation(
    String key,
    String profile,
    List<String> notes,
    @Nullable Explanation pod,
    @Nullable GroupExplanation group,
    String unexplained) {

  public LoopExplanation {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(profile, "profile");
    notes = List.copyOf(notes);
    Objects.requireNonNull(unexplained, "unexplained");
    int set = (pod != null ? 1 : 0) + (group != null ? 1 : 0) + (unexplained.isEmpty() ? 0 : 1);
    if (set != 1) {
      throw new IllegalArgumentException("exactly one of pod, group and unexplained must be given, got " + set);
    }
  }

  static LoopExplanation unexplained(String key, String profile, List<String> notes, String why) {
    return new LoopExplanation(key, profile, notes, null, null, why);
  }
}
