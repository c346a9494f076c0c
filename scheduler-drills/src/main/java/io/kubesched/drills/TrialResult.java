package io.kubesched.drills;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one trial found.
 *
 * @param fault the fault's {@link Fault#name()}
 * @param pods how many pods the stream created during the trial
 * @param violations the invariants broken once it settled
 * @param relists the scheduler's LIST requests from the fault's injection to the check
 * @param recovery from the fault healed to every placeable pod bound; empty if that never happened within the
 *     settle timeout
 */
record TrialResult(String fault, int pods, List<Violation> violations, int relists, Optional<Duration> recovery) {

  TrialResult {
    violations = List.copyOf(violations);
  }
}
