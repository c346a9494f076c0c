package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A label selector as pod affinity terms, topology spread constraints, ReplicaSets and StatefulSets write it
 * ({@code metav1.LabelSelector}): a set of labels matches when it has every pair of {@code matchLabels} and
 * meets every requirement of {@code matchExpressions}. The empty selector matches every set of labels.
 *
 * <p>Where Kubernetes distinguishes an absent selector (which matches nothing in an affinity term or a spread
 * constraint), the model holds {@code null} in place of a selector; see the fields that say so.
 *
 * @param matchLabels labels that must be present with these values
 * @param matchExpressions requirements that must all hold
 */
@API(status = STABLE, since = "0.1.0")
public record LabelSelector(Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {

  /** The empty selector: matches every set of labels. */
  public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

  public LabelSelector {
    matchLabels = Map.copyOf(matchLabels);
    matchExpressions = List.copyOf(matchExpressions);
  }

  /** @return a selector of {@code matchLabels} only */
  public static LabelSelector of(Map<String, String> matchLabels) {
    return new LabelSelector(matchLabels, List.of());
  }

  /** @return a selector of {@code matchExpressions} only */
  public static LabelSelector of(LabelSelectorRequirement... matchExpressions) {
    return new LabelSelector(Map.of(), List.of(matchExpressions));
  }

  /** @return whether this selector has no requirement at all, and so matches everything */
  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }

  /** @return whether {@code labels} meet every pair and requirement of this selector */
  public boolean matches(Map<String, String> labels) {
    for (var pair : matchLabels.entrySet()) {
      if (!pair.getValue().equals(labels.get(pair.getKey()))) {
        return false;
      }
    }
    for (var requirement : matchExpressions) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** @return this selector with {@code requirements} added to its expressions */
  public LabelSelector and(List<LabelSelectorRequirement> requirements) {
    if (requirements.isEmpty()) {
      return this;
    }
    var all = new java.util.ArrayList<>(matchExpressions);
    all.addAll(requirements);
    return new LabelSelector(matchLabels, all);
  }
}
