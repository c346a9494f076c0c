package io.kubesched.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
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
  private static final List<Result> RESULTS = List.of(Result.values());

  record Attempt(String profile, Result result, long nanos) {}

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
    var metrics = MicrometerMetrics.of(registry);
    calls.forEach(c -> metrics.attempt(c.profile(), c.result(), Duration.ofNanos(c.nanos())));

    int absent = 0;
    for (var profile : PROFILES) {
      for (var result : RESULTS) {
        var mine =
            calls.stream()
                .filter(c -> c.profile().equals(profile) && c.result().equals(result))
                .toList();
        var tags = new String[] {"profile", profile, "result", result.label()};
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
    MicrometerMetrics.of(registry).attempt("p", Result.SCHEDULED, Duration.ofNanos(nanos));

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
    var metrics = MicrometerMetrics.of(registry);
    attempts.forEach(a -> metrics.scheduled(a, Duration.ofNanos(1)));

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
  Arbitrary<PendingPods> pending() {
    var count = Arbitraries.integers().between(0, 5);
    return Combinators.combine(count, count, count, count).as(PendingPods::new);
  }

  @Property(tries = 200)
  void the_pending_gauges_read_what_the_supplier_says_now(
      @ForAll("pending") PendingPods before, @ForAll("pending") PendingPods after) {
    var registry = new SimpleMeterRegistry();
    var current = new AtomicReference<>(before);
    MicrometerMetrics.of(registry).pendingPods(current::get);
    current.set(after);

    assertEquals(after.active(), gauge(registry, "active"));
    assertEquals(after.backoff(), gauge(registry, "backoff"));
    assertEquals(after.unschedulable(), gauge(registry, "unschedulable"));
    assertEquals(after.gated(), gauge(registry, "gated"));
    assertEquals(after.total(), registry.find(MicrometerMetrics.ALL_PENDING_PODS).gauge().value());
    var queuesInUse =
        (after.active() > 0 ? 1 : 0)
            + (after.backoff() > 0 ? 1 : 0)
            + (after.unschedulable() > 0 ? 1 : 0)
            + (after.gated() > 0 ? 1 : 0);
    Statistics.label("queues in use")
        .collect(queuesInUse == 0 ? "none" : queuesInUse == 4 ? "all" : "some");
    Statistics.label("queues in use")
        .coverage(c -> {
          c.check("none").count(n -> n > 0);
          c.check("some").count(n -> n > 0);
          c.check("all").count(n -> n > 0);
        });
  }

  private static double gauge(SimpleMeterRegistry registry, String queue) {
    return registry.find(MicrometerMetrics.PENDING_PODS).tag("queue", queue).gauge().value();
  }

  record Request(String method, String code, long nanos) {}

  @Provide
  Arbitrary<List<Request>> requests() {
    return Combinators.combine(
            Arbitraries.of("GET", "POST", "PATCH"),
            Arbitraries.of("200", "201", "404", "<error>"),
            Arbitraries.longs().between(0, Duration.ofSeconds(70).toNanos()))
        .as(Request::new)
        .list()
        .ofMaxSize(20);
  }

  @Property(tries = 300)
  void rest_requests_count_by_code_and_method_and_time_by_verb_in_client_gos_buckets(
      @ForAll("requests") List<Request> calls) {
    var registry = new SimpleMeterRegistry();
    var metrics = MicrometerMetrics.of(registry);
    calls.forEach(c -> metrics.request(c.method(), "h:443", c.code(), Duration.ofNanos(c.nanos())));

    for (var call : calls) {
      long same =
          calls.stream().filter(c -> c.method().equals(call.method()) && c.code().equals(call.code())).count();
      var counter =
          registry.find(MicrometerMetrics.REST_CLIENT_REQUESTS)
              .tags("code", call.code(), "method", call.method(), "host", "h:443")
              .counter();
      assertEquals(same, counter.count());
      var verb = calls.stream().filter(c -> c.method().equals(call.method())).toList();
      var timer =
          registry.find(MicrometerMetrics.REST_CLIENT_REQUEST_DURATION).tags("verb", call.method(), "host", "h:443").timer();
      assertEquals(verb.size(), timer.count());
      for (CountAtBucket bucket : timer.takeSnapshot().histogramCounts()) {
        long bound = (long) bucket.bucket(TimeUnit.NANOSECONDS);
        assertEquals(verb.stream().filter(c -> c.nanos() <= bound).count(), (long) bucket.count(), "le " + bound);
      }
      assertEquals(
          MicrometerMetrics.REQUEST_BUCKETS.size(), timer.takeSnapshot().histogramCounts().length, "client-go's bounds");
    }
    Statistics.label("beyond the last bucket").collect(calls.stream().anyMatch(c -> c.nanos() > 60_000_000_000L));
    Statistics.label("beyond the last bucket").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Property(tries = 200)
  void queue_incoming_counts_each_queue_and_event_apart(
      @ForAll("incoming") List<List<String>> calls) {
    var registry = new SimpleMeterRegistry();
    var metrics = MicrometerMetrics.of(registry);
    calls.forEach(c -> metrics.queueIncoming(c.get(0), c.get(1)));

    for (var call : calls) {
      var counter =
          registry.find(MicrometerMetrics.QUEUE_INCOMING_PODS).tags("queue", call.get(0), "event", call.get(1)).counter();
      assertEquals(calls.stream().filter(call::equals).count(), (long) counter.count());
    }
  }

  @Provide
  Arbitrary<List<List<String>>> incoming() {
    return Combinators.combine(
            Arbitraries.of("active", "backoff", "unschedulable"),
            Arbitraries.of("UnscheduledPodAdd", "NodeAdd", "ScheduleAttemptFailure", "BackoffComplete"))
        .as(List::of)
        .list()
        .ofMaxSize(20);
  }
}
