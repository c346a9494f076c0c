package io.kubesched.informer;

import java.util.Set;

/**
 * The argument checks every {@link SchedulerMetrics} shares, kept apart from {@link MicrometerMetrics} so
 * that {@link SchedulerMetrics#NONE} checks the same without loading Micrometer. Stateless.
 */
final class MetricsArguments {

  private static final Set<String> RESULTS =
      Set.of(SchedulerMetrics.SCHEDULED, SchedulerMetrics.UNSCHEDULABLE, SchedulerMetrics.ERROR);

  private MetricsArguments() {}

  /** @throws IllegalArgumentException if {@code profile} is blank */
  static String profile(String profile) {
    if (profile.isBlank()) {
      throw new IllegalArgumentException("profile must not be blank: '" + profile + "'");
    }
    return profile;
  }

  /** @throws IllegalArgumentException if {@code result} is not one of kube-scheduler's three */
  static String result(String result) {
    if (!RESULTS.contains(result)) {
      throw new IllegalArgumentException(
          "result must be scheduled, unschedulable or error: '" + result + "'");
    }
    return result;
  }

  /** @throws IllegalArgumentException if {@code attempts} is below 1 */
  static int attempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
    }
    return attempts;
  }

  /** @throws IllegalArgumentException naming {@code what} if {@code nanos} is negative */
  static long duration(String what, long nanos) {
    if (nanos < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + nanos + " ns");
    }
    return nanos;
  }
}
