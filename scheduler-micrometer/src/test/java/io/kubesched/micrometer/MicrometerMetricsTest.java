package io.kubesched.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulerMetrics.PendingGroups;
import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class MicrometerMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MicrometerMetrics metrics = MicrometerMetrics.of(registry);

  private Timer timer(String name, String... tags) {
    var timer = registry.find(name).tags(tags).timer();
    assertNotNull(timer, () -> "no timer " + name + " " + List.of(tags) + " in " + meterIds());
    return timer;
  }

  private double counter(String name, String... tags) {
    var counter = registry.find(name).tags(tags).counter();
    assertNotNull(counter, () -> "no counter " + name + " " + List.of(tags) + " in " + meterIds());
    return counter.count();
  }

  private double gauge(String name, String... tags) {
    var gauge = registry.find(name).tags(tags).gauge();
    assertNotNull(gauge, () -> "no gauge " + name + " " + List.of(tags) + " in " + meterIds());
    return gauge.value();
  }

  private List<Meter.Id> meterIds() {
    return registry.getMeters().stream().map(Meter::getId).toList();
  }

  @ParameterizedTest
  @EnumSource(Result.class)
  void an_attempt_counts_once_and_is_timed_under_its_result_and_profile(Result outcome) {
    metrics.attempt("my-scheduler", outcome, Duration.ofMillis(3));
    var result = outcome.label();

    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", result, "profile", "my-scheduler"));
    var timer = timer(MicrometerMetrics.ATTEMPT_DURATION, "result", result, "profile", "my-scheduler");
    assertEquals(1, timer.count());
    assertEquals(3.0, timer.totalTime(TimeUnit.MILLISECONDS));
  }

  @Test
  void attempts_of_other_profiles_and_results_are_series_of_their_own() {
    metrics.attempt("a", Result.SCHEDULED, Duration.ofNanos(1));
    metrics.attempt("a", Result.SCHEDULED, Duration.ofNanos(2));
    metrics.attempt("a", Result.ERROR, Duration.ofNanos(4));
    metrics.attempt("b", Result.SCHEDULED, Duration.ofNanos(8));

    assertEquals(2, counter(MicrometerMetrics.ATTEMPTS, "result", "scheduled", "profile", "a"));
    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", "error", "profile", "a"));
    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", "scheduled", "profile", "b"));
    assertNull(registry.find(MicrometerMetrics.ATTEMPTS).tags("result", "error", "profile", "b").counter());
    assertEquals(
        3,
        timer(MicrometerMetrics.ATTEMPT_DURATION, "result", "scheduled", "profile", "a")
            .totalTime(TimeUnit.NANOSECONDS));
  }

  @Test
  void the_algorithm_duration_is_one_series_without_labels() {
    metrics.algorithm(Duration.ofMillis(5));
    metrics.algorithm(Duration.ofMillis(7));

    var timers = registry.find(MicrometerMetrics.ALGORITHM_DURATION).timers();
    assertEquals(1, timers.size());
    var timer = timers.iterator().next();
    assertEquals(List.of(), timer.getId().getTags());
    assertEquals(2, timer.count());
    assertEquals(12.0, timer.totalTime(TimeUnit.MILLISECONDS));
  }

  /** kube-scheduler's getAttemptsLabel: the count itself below 15, "15+" from there on. */
  static Stream<Arguments> attemptLabels() {
    return Stream.of(
        Arguments.of(Named.of("a first attempt", 1), "1"),
        Arguments.of(Named.of("a second attempt", 2), "2"),
        Arguments.of(Named.of("the last counted attempt", 14), "14"),
        Arguments.of(Named.of("the first capped attempt", 15), "15+"),
        Arguments.of(Named.of("far past the cap", 1000), "15+"));
  }

  @ParameterizedTest
  @MethodSource("attemptLabels")
  void a_bound_pod_records_its_end_to_end_latency_under_its_attempt_count(int attempts, String label) {
    metrics.scheduled(attempts, Duration.ofSeconds(90));

    var sli = registry.find(MicrometerMetrics.SLI_DURATION).timers();
    assertEquals(1, sli.size(), "one series");
    var timer = sli.iterator().next();
    assertEquals(label, timer.getId().getTag("attempts"));
    assertEquals(1, timer.getId().getTags().size(), "kube-scheduler labels the SLI by attempts only");
    assertEquals(90.0, timer.totalTime(TimeUnit.SECONDS));
    var summary = registry.find(MicrometerMetrics.POD_ATTEMPTS).summary();
    assertNotNull(summary);
    assertEquals(1, summary.count());
    assertEquals(attempts, summary.totalAmount());
  }

  @Test
  void a_bind_is_timed_as_kube_schedulers_bind_extension_point() {
    metrics.bound("my-scheduler", Duration.ofMillis(2), true);
    metrics.bound("my-scheduler", Duration.ofMillis(30), false);
    metrics.bound("my-scheduler", Duration.ofMillis(4), true);

    var ok =
        timer(
            MicrometerMetrics.EXTENSION_POINT_DURATION,
            "extension_point", "Bind", "status", "Success", "profile", "my-scheduler");
    assertEquals(2, ok.count());
    assertEquals(6.0, ok.totalTime(TimeUnit.MILLISECONDS));
    var failed =
        timer(
            MicrometerMetrics.EXTENSION_POINT_DURATION,
            "extension_point", "Bind", "status", "Error", "profile", "my-scheduler");
    assertEquals(1, failed.count());
    assertEquals(30.0, failed.totalTime(TimeUnit.MILLISECONDS));
  }

  @Test
  void the_queue_gauges_and_the_total_follow_their_supplier() {
    var pending = new AtomicReference<>(new PendingPods(3, 1, 0, 0));
    metrics.pendingPods(pending::get);

    assertEquals(3, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(1, gauge(MicrometerMetrics.PENDING_PODS, "queue", "backoff"));
    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "unschedulable"));
    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "gated"));
    assertEquals(4, gauge(MicrometerMetrics.ALL_PENDING_PODS));

    pending.set(new PendingPods(0, 2, 7, 9));

    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(2, gauge(MicrometerMetrics.PENDING_PODS, "queue", "backoff"));
    assertEquals(7, gauge(MicrometerMetrics.PENDING_PODS, "queue", "unschedulable"));
    assertEquals(9, gauge(MicrometerMetrics.PENDING_PODS, "queue", "gated"));
    assertEquals(18, gauge(MicrometerMetrics.ALL_PENDING_PODS));
    assertEquals(4, registry.find(MicrometerMetrics.PENDING_PODS).gauges().size(), "one series per queue");
    assertNull(
        registry.find(MicrometerMetrics.PENDING_PODS).tag("queue", "all").gauge(),
        "the total is a metric of its own, not a queue that would double every sum");
  }

  @Test
  void a_gauge_keeps_reading_a_supplier_nothing_else_holds() throws InterruptedException {
    var active = new AtomicInteger(5);
    metrics.pendingPods(() -> new PendingPods(active.get(), 1, 0, 0));

    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(10); // lets the collector clear weak references; not a timing assumption
    }

    assertEquals(5, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(6, gauge(MicrometerMetrics.ALL_PENDING_PODS));
  }

  @Test
  void a_second_controller_on_the_same_registry_cannot_take_over_the_gauges_until_the_first_closes() {
    metrics.pendingPods(() -> new PendingPods(1, 0, 0, 0));
    var second = MicrometerMetrics.of(registry);

    var refused =
        assertThrows(IllegalStateException.class, () -> second.pendingPods(() -> new PendingPods(2, 0, 0, 0)));
    assertTrue(refused.getMessage().contains(MicrometerMetrics.PENDING_PODS), refused.getMessage());
    assertThrows(IllegalStateException.class, () -> metrics.pendingPods(() -> new PendingPods(3, 0, 0, 0)));
    assertEquals(1, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"), "the first one still reads");

    metrics.close();
    second.pendingPods(() -> new PendingPods(2, 0, 0, 0));
    assertEquals(2, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(2, gauge(MicrometerMetrics.ALL_PENDING_PODS));
  }

  @Test
  void a_refused_registration_registers_no_gauge_at_all() {
    // Only the total is taken: the per-queue gauges must not be registered half-way either.
    registry.gauge(MicrometerMetrics.ALL_PENDING_PODS, 42);

    assertThrows(IllegalStateException.class, () -> metrics.pendingPods(() -> new PendingPods(1, 0, 0, 0)));
    assertEquals(List.of(), List.copyOf(registry.find(MicrometerMetrics.PENDING_PODS).gauges()));
  }

  @Test
  void closing_removes_the_gauges_and_keeps_the_cumulative_meters() {
    metrics.attempt("p", Result.SCHEDULED, Duration.ofNanos(1));
    metrics.pendingPods(() -> new PendingPods(1, 0, 0, 0));

    metrics.close();
    metrics.close();

    assertEquals(List.of(), List.copyOf(registry.find(MicrometerMetrics.PENDING_PODS).gauges()));
    assertNull(registry.find(MicrometerMetrics.ALL_PENDING_PODS).gauge());
    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", "scheduled", "profile", "p"));
  }

  // --- pod groups -------------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(Result.class)
  void a_group_attempt_counts_once_and_is_timed_apart_from_pod_attempts(Result outcome) {
    metrics.groupAttempt("my-scheduler", outcome, Duration.ofMillis(40));
    var result = outcome.label();

    assertEquals(1, counter(MicrometerMetrics.GROUP_ATTEMPTS, "result", result, "profile", "my-scheduler"));
    var timer = timer(MicrometerMetrics.GROUP_ATTEMPT_DURATION, "result", result, "profile", "my-scheduler");
    assertEquals(1, timer.count());
    assertEquals(40.0, timer.totalTime(TimeUnit.MILLISECONDS));
    assertEquals(0, registry.find(MicrometerMetrics.ATTEMPTS).counters().size(), "no pod attempt counted");
  }

  @Test
  void group_timeouts_count_per_profile() {
    metrics.groupTimedOut("a");
    metrics.groupTimedOut("a");
    metrics.groupTimedOut("b");

    assertEquals(2, counter(MicrometerMetrics.GROUP_TIMEOUTS, "profile", "a"));
    assertEquals(1, counter(MicrometerMetrics.GROUP_TIMEOUTS, "profile", "b"));
  }

  @Test
  void the_pending_group_gauges_follow_their_supplier_and_close_with_the_others() {
    var pending = new AtomicReference<>(new PendingGroups(2, 1));
    metrics.pendingGroups(pending::get);

    assertEquals(2, gauge(MicrometerMetrics.PENDING_GROUPS, "state", "waiting_for_members"));
    assertEquals(1, gauge(MicrometerMetrics.PENDING_GROUPS, "state", "waiting_to_fit"));
    pending.set(new PendingGroups(0, 5));
    assertEquals(0, gauge(MicrometerMetrics.PENDING_GROUPS, "state", "waiting_for_members"));
    assertEquals(5, gauge(MicrometerMetrics.PENDING_GROUPS, "state", "waiting_to_fit"));
    assertEquals(2, registry.find(MicrometerMetrics.PENDING_GROUPS).gauges().size(), "one series per state");

    assertThrows(IllegalStateException.class, () -> MicrometerMetrics.of(registry).pendingGroups(pending::get));
    metrics.close();
    assertEquals(List.of(), List.copyOf(registry.find(MicrometerMetrics.PENDING_GROUPS).gauges()));
  }

  @Test
  void a_bad_group_argument_is_refused_and_records_nothing() {
    assertThrows(IllegalArgumentException.class, () -> metrics.groupAttempt(" ", Result.SCHEDULED, Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class, () -> metrics.groupAttempt("p", Result.ERROR, Duration.ofNanos(-1)));
    assertThrows(IllegalArgumentException.class, () -> metrics.groupTimedOut(""));

    assertEquals(0, registry.find(MicrometerMetrics.GROUP_ATTEMPTS).counters().size());
    assertEquals(0, registry.find(MicrometerMetrics.GROUP_ATTEMPT_DURATION).timers().size());
    assertEquals(0, registry.find(MicrometerMetrics.GROUP_TIMEOUTS).counters().size());
  }

  /** Each timer with kube-scheduler's ExponentialBuckets(start seconds, 2, count). */
  static Stream<Arguments> timersAndKubeBuckets() {
    return Stream.of(
        Arguments.of(
            Named.of("attempt", MicrometerMetrics.ATTEMPT_DURATION),
            MicrometerMetrics.ATTEMPT_BUCKETS,
            0.001,
            15),
        Arguments.of(
            Named.of("algorithm", MicrometerMetrics.ALGORITHM_DURATION),
            MicrometerMetrics.ATTEMPT_BUCKETS,
            0.001,
            15),
        Arguments.of(
            Named.of("pod group attempt", MicrometerMetrics.GROUP_ATTEMPT_DURATION),
            MicrometerMetrics.ATTEMPT_BUCKETS,
            0.001,
            15),
        Arguments.of(
            Named.of("sli", MicrometerMetrics.SLI_DURATION), MicrometerMetrics.SLI_BUCKETS, 0.01, 20),
        Arguments.of(
            Named.of("bind", MicrometerMetrics.EXTENSION_POINT_DURATION),
            MicrometerMetrics.EXTENSION_POINT_BUCKETS,
            0.0001,
            12));
  }

  @ParameterizedTest
  @MethodSource("timersAndKubeBuckets")
  void every_timer_has_kube_schedulers_bucket_bounds(
      String name, List<Duration> kubeBuckets, double startSeconds, int count) {
    metrics.attempt("p", Result.SCHEDULED, Duration.ofNanos(1));
    metrics.algorithm(Duration.ofNanos(1));
    metrics.scheduled(1, Duration.ofNanos(1));
    metrics.bound("p", Duration.ofNanos(1), true);
    metrics.groupAttempt("p", Result.SCHEDULED, Duration.ofNanos(1));

    var bounds =
        Arrays.stream(timer(name).takeSnapshot().histogramCounts())
            .map(CountAtBucket::bucket)
            .toList();
    assertEquals(count, kubeBuckets.size());
    for (int i = 0; i < count; i++) {
      var seconds = startSeconds * Math.pow(2, i);
      assertEquals(seconds, kubeBuckets.get(i).toNanos() / 1e9, 1e-12, "bucket " + i);
    }
    // A simple registry shows only the fixed bounds; the percentile histogram's finer ones are the
    // Prometheus registry's (see MicrometerPrometheusTest).
    assertEquals(kubeBuckets.stream().map(b -> (double) b.toNanos()).toList(), bounds);
  }

  @Test
  void a_value_lands_in_the_first_kube_bucket_that_holds_it() {
    metrics.attempt("p", Result.SCHEDULED, Duration.ofMillis(3));

    var counts = timer(MicrometerMetrics.ATTEMPT_DURATION).takeSnapshot().histogramCounts();
    for (var bucket : counts) {
      double bound = bucket.bucket(TimeUnit.MILLISECONDS);
      if (bound == 2.0) {
        assertEquals(0, bucket.count(), "3 ms is not within 2 ms");
      } else if (bound == 4.0) {
        assertEquals(1, bucket.count(), "3 ms is within 4 ms");
      }
    }
  }

  interface Call {
    void on(MicrometerMetrics metrics);
  }

  static Stream<Arguments> badCalls() {
    return Stream.of(
        Arguments.of(
            Named.of("a blank profile", (Call) m -> m.attempt(" ", Result.SCHEDULED, Duration.ZERO)),
            "profile",
            "' '"),
        Arguments.of(
            Named.of("a negative attempt duration", (Call) m -> m.attempt("p", Result.ERROR, Duration.ofNanos(-1))),
            "attempt duration",
            "-"),
        Arguments.of(
            Named.of("a negative algorithm duration", (Call) m -> m.algorithm(Duration.ofMillis(-5))),
            "algorithm duration",
            "-0.005"),
        Arguments.of(Named.of("zero attempts", (Call) m -> m.scheduled(0, Duration.ZERO)), "attempts", "0"),
        Arguments.of(
            Named.of("a negative end-to-end time", (Call) m -> m.scheduled(1, Duration.ofSeconds(-2))),
            "since first queued",
            "-2"),
        Arguments.of(
            Named.of("a blank bind profile", (Call) m -> m.bound("", Duration.ZERO, true)), "profile", "''"),
        Arguments.of(
            Named.of("a negative bind duration", (Call) m -> m.bound("p", Duration.ofSeconds(-3), false)),
            "bind duration",
            "-3"));
  }

  @ParameterizedTest
  @MethodSource("badCalls")
  void a_bad_argument_is_refused_naming_it_and_records_nothing(Call call, String thing, String value) {
    var e = assertThrows(IllegalArgumentException.class, () -> call.on(metrics));
    assertTrue(e.getMessage().contains(thing), e.getMessage());
    assertTrue(e.getMessage().contains(value), e.getMessage());
    assertEquals(0, registry.find(MicrometerMetrics.ATTEMPTS).counters().size(), "nothing recorded on refusal");
    assertEquals(0, registry.find(MicrometerMetrics.SLI_DURATION).timers().size(), "nothing recorded on refusal");
    assertEquals(
        0, registry.find(MicrometerMetrics.EXTENSION_POINT_DURATION).timers().size(), "nothing recorded on refusal");
    assertEquals(0, timer(MicrometerMetrics.ALGORITHM_DURATION).count(), "nothing recorded on refusal");
    assertEquals(0, registry.find(MicrometerMetrics.POD_ATTEMPTS).summary().count(), "nothing recorded on refusal");
  }
}
