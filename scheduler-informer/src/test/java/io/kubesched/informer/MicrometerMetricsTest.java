package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MicrometerMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SchedulerMetrics metrics = SchedulerMetrics.of(registry);

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
  @ValueSource(strings = {"scheduled", "unschedulable", "error"})
  void an_attempt_counts_once_and_is_timed_under_its_result_and_profile(String result) {
    metrics.attempt("my-scheduler", result, 3_000_000);

    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", result, "profile", "my-scheduler"));
    var timer = timer(MicrometerMetrics.ATTEMPT_DURATION, "result", result, "profile", "my-scheduler");
    assertEquals(1, timer.count());
    assertEquals(3.0, timer.totalTime(TimeUnit.MILLISECONDS));
  }

  @Test
  void attempts_of_other_profiles_and_results_are_series_of_their_own() {
    metrics.attempt("a", SchedulerMetrics.SCHEDULED, 1);
    metrics.attempt("a", SchedulerMetrics.SCHEDULED, 2);
    metrics.attempt("a", SchedulerMetrics.ERROR, 4);
    metrics.attempt("b", SchedulerMetrics.SCHEDULED, 8);

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
    metrics.algorithm(5_000_000);
    metrics.algorithm(7_000_000);

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
    metrics.scheduled(attempts, Duration.ofSeconds(90).toNanos());

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
    metrics.bound("my-scheduler", 2_000_000, true);
    metrics.bound("my-scheduler", 30_000_000, false);
    metrics.bound("my-scheduler", 4_000_000, true);

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
  void the_queue_gauges_follow_their_supplier() {
    var depths = new AtomicReference<Map<String, Integer>>(Map.of("active", 3, "backoff", 1));
    metrics.queueDepths(depths::get);

    assertEquals(3, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(1, gauge(MicrometerMetrics.PENDING_PODS, "queue", "backoff"));
    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "unschedulable"), "missing reads 0");

    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "gated"), "missing reads 0");

    depths.set(Map.of("active", 0, "backoff", 2, "unschedulable", 7, "gated", 9, "nominated", 4));

    assertEquals(0, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(2, gauge(MicrometerMetrics.PENDING_PODS, "queue", "backoff"));
    assertEquals(7, gauge(MicrometerMetrics.PENDING_PODS, "queue", "unschedulable"));
    assertEquals(9, gauge(MicrometerMetrics.PENDING_PODS, "queue", "gated"));
    assertEquals(4, registry.find(MicrometerMetrics.PENDING_PODS).gauges().size(), "nominated is ignored");
  }

  @Test
  void the_pending_pods_gauge_follows_its_supplier() {
    var pending = new AtomicInteger(4);
    metrics.pendingPods(pending::get);
    assertEquals(4, gauge(MicrometerMetrics.ALL_PENDING_PODS));

    pending.set(11);
    assertEquals(11, gauge(MicrometerMetrics.ALL_PENDING_PODS));
  }

  @Test
  void a_gauge_keeps_reading_a_supplier_nothing_else_holds() throws InterruptedException {
    var counts = new HashMap<String, Integer>(Map.of("active", 5));
    metrics.queueDepths(() -> Map.copyOf(counts));
    metrics.pendingPods(() -> counts.get("active") + 1);

    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(10); // lets the collector clear weak references; not a timing assumption
    }

    assertEquals(5, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(6, gauge(MicrometerMetrics.ALL_PENDING_PODS));
  }

  @Test
  void a_second_controller_on_the_same_registry_cannot_take_over_the_gauges_until_the_first_closes() {
    metrics.queueDepths(() -> Map.of("active", 1));
    metrics.pendingPods(() -> 1);
    var second = SchedulerMetrics.of(registry);

    var queues = assertThrows(IllegalStateException.class, () -> second.queueDepths(Map::of));
    assertTrue(queues.getMessage().contains(MicrometerMetrics.PENDING_PODS), queues.getMessage());
    assertThrows(IllegalStateException.class, () -> second.pendingPods(() -> 2));
    assertThrows(IllegalStateException.class, () -> metrics.pendingPods(() -> 3));

    metrics.close();
    second.queueDepths(() -> Map.of("active", 2));
    second.pendingPods(() -> 2);
    assertEquals(2, gauge(MicrometerMetrics.PENDING_PODS, "queue", "active"));
    assertEquals(2, gauge(MicrometerMetrics.ALL_PENDING_PODS));
  }

  @Test
  void closing_removes_the_gauges_and_keeps_the_cumulative_meters() {
    metrics.attempt("p", SchedulerMetrics.SCHEDULED, 1);
    metrics.queueDepths(() -> Map.of("active", 1));
    metrics.pendingPods(() -> 1);

    metrics.close();
    metrics.close();

    assertEquals(List.of(), List.copyOf(registry.find(MicrometerMetrics.PENDING_PODS).gauges()));
    assertNull(registry.find(MicrometerMetrics.ALL_PENDING_PODS).gauge());
    assertEquals(1, counter(MicrometerMetrics.ATTEMPTS, "result", "scheduled", "profile", "p"));
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
    metrics.attempt("p", SchedulerMetrics.SCHEDULED, 1);
    metrics.algorithm(1);
    metrics.scheduled(1, 1);
    metrics.bound("p", 1, true);

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
    metrics.attempt("p", SchedulerMetrics.SCHEDULED, Duration.ofMillis(3).toNanos());

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

  @Test
  void no_registry_means_no_metrics() {
    assertSame(SchedulerMetrics.NONE, SchedulerMetrics.of(null));
  }

  @Test
  void a_meter_registry_gives_micrometer_metrics() {
    assertInstanceOf(MicrometerMetrics.class, metrics);
  }

  @Test
  void anything_else_than_a_meter_registry_is_refused_by_name() {
    var e = assertThrows(IllegalArgumentException.class, () -> SchedulerMetrics.of("registry"));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    assertTrue(e.getMessage().contains("MeterRegistry"), e.getMessage());
  }

  interface Call {
    void on(SchedulerMetrics metrics);
  }

  static Stream<Arguments> badCalls() {
    return Stream.of(
        Arguments.of(
            Named.of("a blank profile", (Call) m -> m.attempt(" ", "scheduled", 1)), "profile", "' '"),
        Arguments.of(
            Named.of("an unknown result", (Call) m -> m.attempt("p", "sucess", 1)), "result", "sucess"),
        Arguments.of(
            Named.of("kube's preemption result", (Call) m -> m.attempt("p", "waiting_on_preemption", 1)),
            "result",
            "waiting_on_preemption"),
        Arguments.of(
            Named.of("a negative attempt duration", (Call) m -> m.attempt("p", "error", -1)),
            "attempt duration",
            "-1"),
        Arguments.of(
            Named.of("a negative algorithm duration", (Call) m -> m.algorithm(-5)),
            "algorithm duration",
            "-5"),
        Arguments.of(
            Named.of("zero attempts", (Call) m -> m.scheduled(0, 1)), "attempts", "0"),
        Arguments.of(
            Named.of("a negative end-to-end time", (Call) m -> m.scheduled(1, -2)),
            "since first queued",
            "-2"),
        Arguments.of(
            Named.of("a blank bind profile", (Call) m -> m.bound("", 1, true)), "profile", "''"),
        Arguments.of(
            Named.of("a negative bind duration", (Call) m -> m.bound("p", -3, false)),
            "bind duration",
            "-3"));
  }

  @ParameterizedTest
  @MethodSource("badCalls")
  void a_bad_argument_is_refused_naming_it_with_or_without_a_registry(
      Call call, String thing, String value) {
    for (var target : List.of(metrics, SchedulerMetrics.NONE)) {
      var e = assertThrows(IllegalArgumentException.class, () -> call.on(target), target::toString);
      assertTrue(e.getMessage().contains(thing), e.getMessage());
      assertTrue(e.getMessage().contains(value), e.getMessage());
    }
    assertEquals(
        0, registry.find(MicrometerMetrics.ATTEMPTS).counters().size(), "nothing recorded on refusal");
  }
}
