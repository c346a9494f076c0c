package io.kubesched.drills;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one trial found.
 *
 * @param fault the fault's {@link Fault#name()}
 * @param pods how many pods the stream created during the trial
 * @param violations the invariants broken once it settled
 * @param relists the scheduler's LIST requests from the fault's injection to the check
 * @param recovery from the fault healed to every placeable pod bound; empty if that never happened within the
 *     settle timeout
 * @param boundToDeletedNode how many pods were bound to a node the fault deleted, when it was deleted or while
 *     it was gone; empty for a fault that deletes no node
 */
record TrialResult(String fault, int pods, List<Violation> violations, int relists, Optional<Duration> recovery,
    OptionalInt boundToDeletedNode) {

  TrialResult {
    violations = List.copyOf(violations);
  }

  /** A trial of a fault that deletes no node. */
  TrialResult(String fault, int pods, List<Violation> violations, int relists, Optional<Duration> recovery) {
    this(fault, pods, violations, relists, recovery, OptionalInt.empty());
  }
}
