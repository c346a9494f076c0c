package io.kubesched.informer.cycle;

import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import org.jspecify.annotations.Nullable;

/**
 * What the scheduling cycle knows of pod group objects: which sources are honoured, and each group as the
 * informers last showed it. {@link io.kubesched.informer.watch.PodGroupSources} in the running loop; a map in
 * the loop's unit tests. Thread-safe; never blocks.
 */
public interface PodGroupLookup {

  /** Honours no source: every pod is scheduled on its own. */
  PodGroupLookup NONE =
      new PodGroupLookup() {
        @Override
        public boolean honours(PodGroupRef.Source source) {
          return false;
        }

        @Override
        public @Nullable PodGroup group(PodGroupRef ref) {
          return null;
        }

        @Override
        public @Nullable String invalid(PodGroupRef ref) {
          return null;
        }
      };

  /**
   * @return whether pods naming a group of {@code source} are placed with their group: the source is wanted
   *     and the cluster serves its API. A pod naming a group of another source is scheduled on its own.
   */
  boolean honours(PodGroupRef.Source source);

  /** @return the group object, or null while it is not known (not created yet, deleted, or {@link #invalid}) */
  @Nullable PodGroup group(PodGroupRef ref);

  /** @return why the group object that exists cannot be read, naming the field and value; null if it can */
  @Nullable String invalid(PodGroupRef ref);
}
