package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The claims that differ between two lists of claims that are mostly the same objects in the same order, as two
 * consecutive snapshots of the engine's device cache are: a claim replaced in place (updated by the watch or an
 * assumption), added or removed. Compared by identity, so a walk over 5 000 claims costs pointer comparisons only.
 *
 * @param removed the claims of the first list that the second does not hold
 * @param added the claims of the second list that the first does not hold
 */
record ClaimChanges(List<ResourceClaim> removed, List<ResourceClaim> added) {

  /**
   * Edits beyond which the lists are not worth comparing: the caller starts over. The engine's device cache lays
   * each pod's assumption over its claims anew in every view, so every claim of a binding in flight (16 at once by
   * default, their claims written before the binding) counts as replaced: the bound leaves room for many.
   */
  static final int MAX_EDITS = 512;

  /** How far ahead an inserted or removed run of claims is looked for. */
  private static final int LOOKAHEAD = 8;

  /**
   * @return what changed from {@code before} to {@code after}, found by walking both in step and resynchronising
   *     after an insertion, a removal or a replacement of up to {@value #LOOKAHEAD} claims; {@code null} when more
   *     than {@value #MAX_EDITS} claims changed or the order changed too much to tell
   */
  static @Nullable ClaimChanges between(List<ResourceClaim> before, List<ResourceClaim> after) {
    var removed = new ArrayList<ResourceClaim>();
    var added = new ArrayList<ResourceClaim>();
    int i = 0;
    int j = 0;
    while (i < before.size() && j < after.size()) {
      if (before.get(i) == after.get(j)) {
        i++;
        j++;
        continue;
      }
      int[] skip = resynchronise(before, i, after, j);
      if (skip == null) {
        return null;
      }
      removed.addAll(before.subList(i, i + skip[0]));
      added.addAll(after.subList(j, j + skip[1]));
      i += skip[0];
      j += skip[1];
      if (removed.size() + added.size() > MAX_EDITS) {
        return null;
      }
    }
    removed.addAll(before.subList(i, before.size()));
    added.addAll(after.subList(j, after.size()));
    if (removed.size() + added.size() > MAX_EDITS) {
      return null;
    }
    return new ClaimChanges(removed, added);
  }

  /**
   * @return how many claims of {@code before} (from {@code i}) and of {@code after} (from {@code j}) to skip so that
   *     the next ones are the same object again, the fewest in all first; {@code null} if none within reach
   */
  private static int @Nullable [] resynchronise(
      List<ResourceClaim> before, int i, List<ResourceClaim> after, int j) {
    for (int total = 1; total <= 2 * LOOKAHEAD; total++) {
      for (int skipBefore = Math.max(0, total - LOOKAHEAD); skipBefore <= Math.min(total, LOOKAHEAD); skipBefore++) {
        int skipAfter = total - skipBefore;
        int a = i + skipBefore;
        int b = j + skipAfter;
        if (a > before.size() || b > after.size()) {
          continue;
        }
        if (a == before.size() || b == after.size() || before.get(a) == after.get(b)) {
          return new int[] {skipBefore, skipAfter};
        }
      }
    }
    return null;
  }
}
