package io.kubesched.policy.plugins;

import io.kubesched.api.LabelSelector;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One label selector asked about many pods' labels in one walk over the cluster (the spread and pod affinity
 * PreFilters' counts), remembering its last answers by label map.
 *
 * <p>The adapter gives equal label maps one instance (the pods of one ReplicaSet or DaemonSet share one), so a
 * walk meets the same few maps again and again and matches each of them once rather than once per pod. The
 * answers are keyed by reference: a map equal to one remembered but another instance is matched afresh, so
 * the answer is always the selector's own, whether or not maps are shared. Remembers the last {@value #SLOTS}
 * maps. Mutable, and confined to the one thread that walks.
 */
final class LabelMatches {

  private static final int SLOTS = 4;

  private final @Nullable LabelSelector selector;
  private final Object[] maps = new Object[SLOTS];
  private final boolean[] answers = new boolean[SLOTS];
  private int next;

  /** @param selector the selector; null selects no labels (an absent selector in a term or constraint) */
  LabelMatches(@Nullable LabelSelector selector) {
    this.selector = selector;
  }

  /** @return whether the selector selects {@code labels}; false for a null selector */
  boolean test(Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    for (int i = 0; i < SLOTS; i++) {
      if (maps[i] == labels) {
        return answers[i];
      }
    }
    boolean answer = selector.matches(labels);
    maps[next] = labels;
    answers[next] = answer;
    next = (next + 1) % SLOTS;
    return answer;
  }
}
