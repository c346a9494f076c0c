package io.kubesched.drills;

import io.kubesched.drills.Snapshot.PodView;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One kind of failure a trial injects while the pod stream runs. {@link #inject} returns once the fault has
 * done its harm (a restart done, a stall held for its time); {@link #heal} ends it. The runner measures
 * recovery from the end of {@code heal}. Called from the runner's thread only, one trial at a time.
 */
interface Fault {

  /** @return the name {@code --faults} selects it by, such as {@code apiserver-restart} */
  String name();

  /** Injects the fault and holds it for as long as it lasts. */
  void inject(Target target) throws Exception;

  /** Ends the fault; a no-op for a fault that ends by itself. */
  void heal(Target target) throws Exception;

  /**
   * @return whether the fault must make the scheduler's informers list again (a trial where the scheduler
   *     made no LIST request after it is then a {@link Violation.Kind#NO_RELIST})
   */
  default boolean forcesRelist() {
    return false;
  }

  /** @return the pods this fault created in its last {@link #inject} that must be bound once it has healed */
  default Set<String> mustBind() {
    return Set.of();
  }

  /** @return how many pods this fault created in its last {@link #inject} (besides the stream's) */
  default int podsCreated() {
    return 0;
  }

  /**
   * @return the pods this fault deleted in its last {@link #inject}, as last seen before their deletion: the
   *     checker does not look for them, and does not check their topology spread groups
   */
  default List<PodView> deletedPods() {
    return List.of();
  }

  /** @return the nodes this fault deleted (and may have created again) in its last {@link #inject} */
  default Set<String> deletedNodes() {
    return Set.of();
  }

  /**
   * @return how many pods were bound to a node this fault deleted, when it was deleted or while it was gone, in
   *     its last trial; empty for a fault that deletes no node
   */
  default OptionalInt boundToDeletedNode() {
    return OptionalInt.empty();
  }
}
