package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Laws of the recorded meters, checked against counts and sums taken from the calls themselves: the
 * meters add up to what was recorded, a duration falls into exactly the kube-scheduler buckets that hold
 * it, and the gauges read what their supplier says.
 */
class MicrometerMetricsProperties {

  private static final List<String> PROFILES = List.of("a", "b");
  private static final List<String> RESULTS =
      List.of(SchedulerMetrics.SCHEDULED, SchedulerMetrics.UNSCHEDULABLE, SchedulerMetrics.ERROR);

  record Attempt(String profile, String result, long nanos) {}

  @Provide
  Arbitrary<List<Attempt>> attempts() {
    return Combinators.combine(
            Arbitraries.of(PROFILES),
            Arbitraries.of(RESULTS),
            Arbitraries.longs().between(0, Duration.ofMillis(20).toNanos()))
        .as(Attempt::new)
        .list()
        .ofMaxSize(12);
  }

  @Property(tries = 300)
  void each_series_counts_and_sums_exactly_its_own_attempts(@ForAll("attempts") List<Attempt> calls) {
    var registry = new SimpleMeterRegistry();
    var metrics = SchedulerMetrics.of(registry);
    calls.forEach(c -> metrics.attempt(c.profile(), c.result(), c.nanos()));

    int absent = 0;
    for (var profile : PROFILES) {
      for (var result : RESULTS) {
        var mine =
            calls.stream()
                .filter(c -> c.profile().equals(profile) && c.result().equals(result))
                .toList();
        var tags = new String[] {"profile", profile, "result", result};
        var counter = registry.find(MicrometerMetrics.ATTEMPTS).tags(tags).counter();
        var timer = registry.find(MicrometerMetrics.ATTEMPT_DURATION).tags(tags).timer();
        if (mine.isEmpty()) {
          absent++;
          assertTrue(counter == null && timer == null, "no series without an attempt");
          continue;
        }
        assertEquals(mine.size(), counter.count());
        assertEquals(mine.size(), timer.count());
        assertEquals(
            mine.stream().mapToLong(Attempt::nanos).sum(), (long) timer.totalTime(TimeUnit.NANOSECONDS));
      }
    }
    Statistics.label("series").collect(absent == 6 ? "none" : absent == 0 ? "all six" : "some");
    Statistics.label("series")
        .coverage(c -> {
          c.check("none").count(n -> n > 0);
          c.check("some").count(n -> n > 0);
          c.check("all six").count(n -> n > 0);
        });
  }

  /** Durations right on, just below and just above kube-scheduler's bounds, and anywhere up to 30 s. */
  @Provide
  Arbitrary<Long> durations() {
    var onBounds =
        Combinators.combine(
                Arbitraries.of(MicrometerMetrics.ATTEMPT_BUCKETS), Arbitraries.longs().between(-1, 1))
            .as((bound, offset) -> bound.toNanos() + offset);
    var anywhere = Arbitraries.longs().between(0, Duration.ofSeconds(30).toNanos());
    return Arbitraries.oneOf(onBounds, anywhere);
  }

  @Property(tries = 500)
  void a_duration_is_counted_in_every_kube_bucket_that_holds_it_and_in_no_other(
      @ForAll("durations") long nanos) {
    var registry = new SimpleMeterRegistry();
    SchedulerMetrics.of(registry).attempt("p", SchedulerMetrics.SCHEDULED, nanos);

    var counts =
        registry.find(MicrometerMetrics.ATTEMPT_DURATION).timer().takeSnapshot().histogramCounts();
    assertEquals(MicrometerMetrics.ATTEMPT_BUCKETS.size(), counts.length);
    int holding = 0;
    for (CountAtBucket bucket : counts) {
      boolean holds = nanos <= bucket.bucket(TimeUnit.NANOSECONDS);
      assertEquals(holds ? 1 : 0, bucket.count(), () -> nanos + " ns against le " + bucket);
      holding += holds ? 1 : 0;
    }
    var onBound = MicrometerMetrics.ATTEMPT_BUCKETS.stream().anyMatch(b -> b.toNanos() == nanos);
    var where =
        holding == 0
            ? "above all"
            : onBound ? "on a bound" : holding == counts.length ? "below all" : "between";
    Statistics.label("where").collect(where);
    Statistics.label("where")
        .coverage(c -> {
          c.check("above all").count(n -> n > 0);
          c.check("on a bound").count(n -> n > 0);
          c.check("below all").count(n -> n > 0);
          c.check("between").count(n -> n > 0);
        });
  }

  @Provide
  Arbitrary<List<Integer>> attemptCounts() {
    return Arbitraries.integers().between(1, 40).list().ofMaxSize(20);
  }

  @Property(tries = 300)
  void the_end_to_end_series_together_count_every_bound_pod_in_at_most_fifteen_series(
      @ForAll("attemptCounts") List<Integer> attempts) {
    var registry = new SimpleMeterRegistry();
    var metrics = SchedulerMetrics.of(registry);
    attempts.forEach(a -> metrics.scheduled(a, 1));

    var sli = registry.find(MicrometerMetrics.SLI_DURATION).timers();
    assertEquals(attempts.size(), sli.stream().mapToLong(t -> t.count()).sum());
    assertTrue(sli.size() <= MicrometerMetrics.ATTEMPTS_LABEL_CAP, () -> sli.size() + " series");
    var distinctBelowCap =
        attempts.stream().filter(a -> a < MicrometerMetrics.ATTEMPTS_LABEL_CAP).distinct().count();
    var anyCapped = attempts.stream().anyMatch(a -> a >= MicrometerMetrics.ATTEMPTS_LABEL_CAP);
    assertEquals(distinctBelowCap + (anyCapped ? 1 : 0), sli.size(), "one series per count below the cap");
    var summary = registry.find(MicrometerMetrics.POD_ATTEMPTS).summary();
    assertEquals(
        attempts.stream().mapToInt(Integer::intValue).sum(),
        summary == null ? 0 : summary.totalAmount());
    Statistics.label("capped").collect(anyCapped);
    Statistics.label("capped")
        .coverage(
            c -> {
              c.check(true).count(n -> n > 0);
              c.check(false).count(n -> n > 0);
            });
  }

  @Provide
  Arbitrary<Map<String, Integer>> depths() {
    return Arbitraries.maps(
            Arbitraries.of("active", "backoff", "unschedulable", "gated", "nominated"),
            Arbitraries.integers().between(0, 5))
        .ofMaxSize(5);
  }

  @Property(tries = 200)
  void the_queue_gauges_read_what_the_supplier_says_now(
      @ForAll("depths") Map<String, Integer> before, @ForAll("depths") Map<String, Integer> after) {
    var registry = new SimpleMeterRegistry();
    var current = new HashMap<>(before);
    SchedulerMetrics.of(registry).queueDepths(() -> Map.copyOf(current));
    current.clear();
    current.putAll(after);

    for (var queue : List.of("active", "backoff", "unschedulable", "gated")) {
      assertEquals(
          (double) after.getOrDefault(queue, 0),
          registry.find(MicrometerMetrics.PENDING_PODS).tag("queue", queue).gauge().value());
    }
    var keys =
        after.size() == 5
            ? "all and an extra queue"
            : after.containsKey("nominated") ? "extra, some missing" : "some missing";
    Statistics.label("keys").collect(keys);
    Statistics.label("keys")
        .coverage(c -> {
          c.check("all and an extra queue").count(n -> n > 0);
          c.check("extra, some missing").count(n -> n > 0);
          c.check("some missing").count(n -> n > 0);
        });
  }
}
