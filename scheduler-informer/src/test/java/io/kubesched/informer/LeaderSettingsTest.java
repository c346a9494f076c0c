package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Named.named;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LeaderSettingsTest {

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private static LeaderSettings timings(long leaseMillis, long renewMillis, long retryMillis) {
    return new LeaderSettings(
        "kube-system", "my-scheduler", ms(leaseMillis), ms(renewMillis), ms(retryMillis));
  }

  @Test
  void the_defaults_are_kube_schedulers_with_the_lease_named_after_the_scheduler_in_kube_system() {
    // component-base RecommendedDefaultLeaderElectionConfiguration: 15 s, 10 s, 2 s; namespace kube-system.
    assertEquals(
        new LeaderSettings(
            "kube-system",
            "my-scheduler",
            Duration.ofSeconds(15),
            Duration.ofSeconds(10),
            Duration.ofSeconds(2)),
        LeaderSettings.defaults("my-scheduler"));
  }

  static Stream<Arguments> validSettings() {
    return Stream.of(
        valid("kube-scheduler's defaults", timings(15_000, 10_000, 2_000)),
        valid("the short timings of the tests", timings(1_000, 600, 100)),
        valid("a renew deadline 1 ms over the retry period and its jitter", timings(1_000, 221, 100)),
        valid(
            "a lock name with dots",
            new LeaderSettings("ns-1", "a.b-c.d", ms(2_000), ms(1_000), ms(100))));
  }

  private static Arguments valid(String name, LeaderSettings settings) {
    return Arguments.of(named(name, settings));
  }

  @ParameterizedTest
  @MethodSource("validSettings")
  void valid_settings_are_accepted(LeaderSettings settings) {
    assertDoesNotThrow(
        () ->
            new LeaderSettings(
                settings.lockNamespace(),
                settings.lockName(),
                settings.leaseDuration(),
                settings.renewDeadline(),
                settings.retryPeriod()));
  }

  record Invalid(
      String namespace, String name, Duration lease, Duration renew, Duration retry, String message) {}

  private static Arguments timings(
      String name, long lease, long renew, long retry, String message) {
    return Arguments.of(
        named(name, new Invalid("kube-system", "s", ms(lease), ms(renew), ms(retry), message)));
  }

  private static Arguments lock(String name, String namespace, String lockName, String message) {
    return Arguments.of(
        named(name, new Invalid(namespace, lockName, ms(15_000), ms(10_000), ms(2_000), message)));
  }

  static Stream<Arguments> invalidSettings() {
    return Stream.of(
        lock("a blank namespace", " ", "s", "lockNamespace must be a DNS-1123 label"),
        lock("an upper-case namespace", "Kube-System", "s", "was 'Kube-System'"),
        lock("a namespace of 64 characters", "n".repeat(64), "s", "at most 63"),
        lock("an empty lock name", "ns", "", "lockName must be a DNS-1123 subdomain"),
        lock("a lock name with '_'", "ns", "my_scheduler", "was 'my_scheduler'"),
        lock("a lock name ending in '-'", "ns", "sched-", "was 'sched-'"),
        lock("a lock name of 254 characters", "ns", "s".repeat(254), "at most 253"),
        timings("a zero lease duration", 0, 600, 100, "leaseDuration must be at least 1 ms, was PT0S"),
        timings("a negative renew deadline", 1_000, -1, 100, "renewDeadline must be at least 1 ms"),
        Arguments.of(
            named(
                "a retry period under a millisecond",
                new Invalid(
                    "ns",
                    "s",
                    ms(1_000),
                    ms(600),
                    Duration.ofNanos(999_999),
                    "retryPeriod must be at least 1 ms, was PT0.000999999S"))),
        timings(
            "a lease duration that is not whole seconds",
            1_500,
            600,
            100,
            "leaseDuration must be a whole number of seconds (a Lease stores seconds), was PT1.5S"),
        timings(
            "a renew deadline as long as the lease",
            1_000,
            1_000,
            100,
            "renewDeadline PT1S must be shorter than leaseDuration PT1S"),
        timings(
            "a renew deadline longer than the lease",
            1_000,
            2_000,
            100,
            "renewDeadline PT2S must be shorter than leaseDuration PT1S"),
        timings(
            "a renew deadline equal to the retry period plus its jitter",
            1_000,
            220,
            100,
            "renewDeadline PT0.22S must be longer than retryPeriod PT0.1S plus its jitter, PT0.22S"),
        // client-go's TestLeaderElectionConfigValidation accepts 15 s / 2 s / 1 s (2 s > 1.2 × 1 s);
        // fabric8 wants more than 1 s + 1.2 s, and would refuse it when the election starts.
        timings(
            "client-go's valid 15 s / 2 s / 1 s, too tight for fabric8",
            15_000,
            2_000,
            1_000,
            "must be longer than retryPeriod PT1S plus its jitter, PT2.2S"));
  }

  @ParameterizedTest
  @MethodSource("invalidSettings")
  void invalid_settings_are_rejected_with_a_message_naming_the_field_and_value(Invalid invalid) {
    var error =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new LeaderSettings(
                    invalid.namespace(),
                    invalid.name(),
                    invalid.lease(),
                    invalid.renew(),
                    invalid.retry()));
    assertTrue(
        error.getMessage().contains(invalid.message()),
        () -> "expected the message to contain '" + invalid.message() + "', was: " + error.getMessage());
  }
}
