package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.policy.Explanation;
import io.kubesched.policy.GroupExplanation;
import io.kubesched.policy.Policy;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a {@link Controller}'s next decision would be for one pod, made by {@link Controller#explain}: the
 * profile's {@link Policy} explaining the pod ({@link Single}), or its pod group ({@link Group}), or why it
 * cannot be explained ({@link Unexplained}: the pod is bound, its profile's policy is a plain function, its
 * group waits for members, ...). Immutable.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface PodExplanation
    permits PodExplanation.Single, PodExplanation.Group, PodExplanation.Unexplained {

  /** @return the pod's {@code namespace/name} */
  String pod();

  /** @return the profile (scheduler name) that schedules the pod */
  String profile();

  /**
   * @return what else holds the pod that an explanation does not show, one sentence each: scheduling gates,
   *     a node preemption nominated it to, a member of its group the library refuses; empty if nothing
   */
  List<String> notes();

  /**
   * Renders the explanation as text: a line naming the pod and its profile, the notes, then the library's
   * table ({@link Explanation#toTable()} or {@link GroupExplanation#toTable()}), or the reason it is not
   * explained.
   */
  default String toTable() {
    var text = new StringBuilder();
    text.append("pod ").append(pod()).append(" (profile ").append(profile()).append(")\n");
    notes().forEach(note -> text.append("note: ").append(note).append('\n'));
    if (this instanceof Single single) {
      text.append(single.explanation().toTable());
    } else if (this instanceof Group group) {
      text.append(group.explanation().toTable());
    } else {
      text.append("not explained: ").append(((Unexplained) this).reason()).append('\n');
    }
    return text.toString();
  }

  /**
   * A pod scheduled on its own, explained by its profile's policy.
   *
   * @param pod the pod's {@code namespace/name}
   * @param profile its scheduler name
   * @param notes as {@link PodExplanation#notes()}
   * @param explanation the policy's explanation, on the nodes and nominations the next decision reads
   */
  record Single(String pod, String profile, List<String> notes, Explanation explanation)
      implements PodExplanation {

    public Single {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(profile, "profile");
      notes = List.copyOf(notes);
      Objects.requireNonNull(explanation, "explanation");
    }
  }

  /**
   * A member of a pod group the controller places with its group, explained as the group's next trial: its
   * pending members, in the order tried, each with its own explanation.
   *
   * @param pod the pod's {@code namespace/name}
   * @param profile its scheduler name
   * @param notes as {@link PodExplanation#notes()}
   * @param explanation the policy's explanation of the group's trial
   */
  record Group(String pod, String profile, List<String> notes, GroupExplanation explanation)
      implements PodExplanation {

    public Group {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(profile, "profile");
      notes = List.copyOf(notes);
      Objects.requireNonNull(explanation, "explanation");
    }
  }

  /**
   * A pod of the controller that cannot be explained now.
   *
   * @param pod the pod's {@code namespace/name}
   * @param profile its scheduler name
   * @param notes as {@link PodExplanation#notes()}
   * @param reason why, as a sentence: for example {@code it is bound to node node-1; only a pod waiting for a
   *     node is explained}, or that the profile's policy is a plain {@link io.kubesched.api.FinderFunc}, which
   *     decides without saying why per node and plugin
   */
  record Unexplained(String pod, String profile, List<String> notes, String reason) implements PodExplanation {

    public Unexplained {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(profile, "profile");
      notes = List.copyOf(notes);
      Objects.requireNonNull(reason, "reason");
    }
  }
}
