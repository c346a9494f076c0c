package io.kubesched.policy.plugins.helper;

import org.jspecify.annotations.Nullable;

/**
 * The last few yes-or-no answers of a question asked over one walk of the cluster's pods, keyed by the
 * instances asked about (compared by reference), for {@link LabelMatches} and the inter-pod affinity plugin's
 * {@code InterPodAffinityTerms.ExistingTermMatches}.
 *
 * <p>The adapter makes equal label maps and pod affinity terms one instance each, so a walk meets the same few
 * again and again. A key that is equal to one remembered but another instance is simply not found and asked
 * afresh, so an answer never depends on whether values are shared. Remembers {@value #SLOTS} answers, the
 * oldest replaced first. Mutable, and confined to the one thread that walks.
 */
public final class RecentAnswers {

  private static final int SLOTS = 4;

  private final @Nullable Object[] firsts = new Object[SLOTS];
  private final @Nullable Object[] seconds = new Object[SLOTS];
  private final boolean[] answers = new boolean[SLOTS];
  private int next;

  /** @return the slot of the answer for exactly these instances, or -1 */
  public int find(Object first, @Nullable Object second) {
    for (int i = 0; i < SLOTS; i++) {
      if (firsts[i] == first && seconds[i] == second) {
        return i;
      }
    }
    return -1;
  }

  /** @return the answer in {@code slot}, one {@link #find} returned */
  public boolean answer(int slot) {
    return answers[slot];
  }

  /** Remembers {@code answer} for these instances, in place of the oldest; returns it. */
  public boolean remember(Object first, @Nullable Object second, boolean answer) {
    firsts[next] = first;
    seconds[next] = second;
    answers[next] = answer;
    next = (next + 1) % SLOTS;
    return answer;
  }
}
