package io.kubesched.drills;

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
}
