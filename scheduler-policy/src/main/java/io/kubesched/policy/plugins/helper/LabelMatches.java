package io.kubesched.policy.plugins.helper;

import io.kubesched.api.LabelSelector;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One label selector asked about many pods' labels in one walk over the cluster (the spread and pod affinity
 * PreFilters' counts), remembering its {@linkplain RecentAnswers recent answers} by label map: the pods of one
 * ReplicaSet or DaemonSet share one map, so each map is matched once rather than once per pod. Mutable, and
 * confined to the one thread that walks.
 */
public final class LabelMatches {

  private final @Nullable LabelSelector selector;
  private final RecentAnswers recent = new RecentAnswers();

  /** @param selector the selector; null selects no labels (an absent selector in a term or constraint) */
  public LabelMatches(@Nullable LabelSelector selector) {
    this.selector = selector;
  }

  /** @return whether the selector selects {@code labels}; false for a null selector */
  public boolean test(Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    int slot = recent.find(labels, null);
    return slot >= 0 ? recent.answer(slot) : recent.remember(labels, null, selector.matches(labels));
  }
}
