package io.kubesched.informer;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Where and how fast {@link LeaderElection} campaigns: the Lease it competes for and its three timings.
 *
 * <p>The rules are kube-scheduler's (component-base and client-go validation) tightened where fabric8
 * 8.0.0's elector would otherwise reject the settings later, when the election starts:
 *
 * <ul>
 *   <li>every duration is at least 1 ms (fabric8 works in milliseconds);
 *   <li>{@code leaseDuration} is a whole number of seconds: the Lease stores {@code leaseDurationSeconds}
 *       as an integer and fabric8 truncates, so 1.5 s would be written as 1 s and a rival would take over
 *       half a second early;
 *   <li>{@code renewDeadline < leaseDuration}, so the leader gives up before a rival may take over;
 *   <li>{@code renewDeadline > retryPeriod + ceil(1.2 × retryPeriod)}: client-go asks only for more than
 *       1.2 × retryPeriod, fabric8 adds its jitter to the period itself.
 * </ul>
 *
 * @param lockNamespace the namespace of the Lease, a DNS-1123 label
 * @param lockName the name of the Lease, a DNS-1123 subdomain
 * @param leaseDuration how long a rival waits after the leader's last renewal before it may take over
 * @param renewDeadline how long the leader keeps retrying a failed renewal before it stops leading
 * @param retryPeriod how long a candidate waits between attempts (jittered by fabric8 while acquiring)
 */
public record LeaderSettings(
    String lockNamespace,
    String lockName,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod) {

  /** The namespace of kube-scheduler's lock. */
  public static final String DEFAULT_NAMESPACE = "kube-system";

  /** kube-scheduler's default lease duration. */
  public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);

  /** kube-scheduler's default renew deadline. */
  public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);

  /** kube-scheduler's default retry period. */
  public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

  /** fabric8's jitter factor ({@code LeaderElector.JITTER_FACTOR}), the same as client-go's. */
  static final double JITTER_FACTOR = 1.2;

  private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS_1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /**
   * @throws IllegalArgumentException naming the field and its value, if a rule above is broken
   */
  public LeaderSettings {
    if (lockNamespace.length() > 63 || !DNS_1123_LABEL.matcher(lockNamespace).matches()) {
      throw new IllegalArgumentException(
          "lockNamespace must be a DNS-1123 label (lower-case letters, digits and '-', at most 63),"
              + " was '"
              + lockNamespace
              + "'");
    }
    if (lockName.length() > 253 || !DNS_1123_SUBDOMAIN.matcher(lockName).matches()) {
      throw new IllegalArgumentException(
          "lockName must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', at most 253),"
              + " was '"
              + lockName
              + "'");
    }
    requireMillis("leaseDuration", leaseDuration);
    requireMillis("renewDeadline", renewDeadline);
    requireMillis("retryPeriod", retryPeriod);
    if (leaseDuration.toNanosPart() != 0) {
      throw new IllegalArgumentException(
          "leaseDuration must be a whole number of seconds (a Lease stores seconds), was "
              + leaseDuration);
    }
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException(
          "renewDeadline "
              + renewDeadline
              + " must be shorter than leaseDuration "
              + leaseDuration);
    }
    var jitteredRetry = longestJitteredRetry(retryPeriod);
    if (renewDeadline.compareTo(jitteredRetry) <= 0) {
      throw new IllegalArgumentException(
          "renewDeadline "
              + renewDeadline
              + " must be longer than retryPeriod "
              + retryPeriod
              + " plus its jitter, "
              + jitteredRetry);
    }
  }

  /**
   * kube-scheduler's defaults, with the lock named after the scheduler so that several schedulers in one
   * cluster elect their leaders independently.
   *
   * @param schedulerName the scheduler's name, which must be a valid Lease name
   * @throws IllegalArgumentException if {@code schedulerName} is not a DNS-1123 subdomain
   */
  public static LeaderSettings defaults(String schedulerName) {
    return new LeaderSettings(
        DEFAULT_NAMESPACE,
        schedulerName,
        DEFAULT_LEASE_DURATION,
        DEFAULT_RENEW_DEADLINE,
        DEFAULT_RETRY_PERIOD);
  }

  /** The longest wait between two attempts to acquire: the period plus fabric8's rounded-up jitter. */
  static Duration longestJitteredRetry(Duration retryPeriod) {
    return retryPeriod.plusMillis((long) Math.ceil(retryPeriod.toMillis() * JITTER_FACTOR));
  }

  private static void requireMillis(String name, Duration value) {
    if (value.toMillis() < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 ms, was " + value);
    }
  }
}
