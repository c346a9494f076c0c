package io.kubesched.informer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@link SchedulerMetrics} recorded into a Micrometer {@link MeterRegistry}, under kube-scheduler's metric
 * names (pkg/scheduler/metrics/metrics.go), labels and bucket bounds, so that dashboards and alerts made for
 * kube-scheduler read this scheduler too.
 *
 * <p>Names are given in Micrometer's dotted form without unit or {@code _total}: Micrometer's Prometheus
 * naming convention adds {@code _seconds} to timers (whose base unit is seconds there) and the registry adds
 * {@code _total} to counters, so a Prometheus registry exposes exactly kube-scheduler's names, while other
 * registries get their own idiomatic form. The meters:
 *
 * <ul>
 *   <li>{@value #ATTEMPTS} counter {result, profile}: {@code scheduler_schedule_attempts_total};
 *   <li>{@value #ATTEMPT_DURATION} timer {result, profile}: {@code
 *       scheduler_scheduling_attempt_duration_seconds};
 *   <li>{@value #ALGORITHM_DURATION} timer: {@code scheduler_scheduling_algorithm_duration_seconds};
 *   <li>{@value #SLI_DURATION} timer {attempts = 1..14 or 15+}: {@code
 *       scheduler_pod_scheduling_sli_duration_seconds};
 *   <li>{@value #POD_ATTEMPTS} summary: {@code scheduler_pod_scheduling_attempts};
 *   <li>{@value #EXTENSION_POINT_DURATION} timer {extension_point = Bind, status = Success | Error,
 *       profile}: {@code scheduler_framework_extension_point_duration_seconds}, the bind latency. The bind
 *       is this library's only extension point that is timed apart, and kube-scheduler's dashboards read
 *       bind latency from exactly this series;
 *   <li>{@value #PENDING_PODS} gauge {queue = active | backoff | unschedulable | gated}: {@code
 *       scheduler_pending_pods};
 *   <li>{@value #ALL_PENDING_PODS} gauge: {@code kubesched_pending_pods}, all pods still to place. No
 *       kube-scheduler metric counts these, so it is kept out of the {@code scheduler_} namespace rather
 *       than look like one (and a {@code queue="all"} series would double every sum over the queues).
 * </ul>
 *
 * <p>Timers publish a percentile histogram over kube-scheduler's bucket range plus kube-scheduler's own
 * bucket bounds as service-level objectives, so the exposed {@code le} values include every kube-scheduler
 * bound. Thread-safe.
 */
final class MicrometerMetrics implements SchedulerMetrics {

  static final String ATTEMPTS = "scheduler.schedule.attempts";
  static final String ATTEMPT_DURATION = "scheduler.scheduling.attempt.duration";
  static final String ALGORITHM_DURATION = "scheduler.scheduling.algorithm.duration";
  static final String SLI_DURATION = "scheduler.pod.scheduling.sli.duration";
  static final String POD_ATTEMPTS = "scheduler.pod.scheduling.attempts";
  static final String EXTENSION_POINT_DURATION = "scheduler.framework.extension.point.duration";
  static final String PENDING_PODS = "scheduler.pending.pods";
  static final String ALL_PENDING_PODS = "kubesched.pending.pods";

  /** kube-scheduler's buckets for attempts and the algorithm: 1 ms doubling 15 times. */
  static final List<Duration> ATTEMPT_BUCKETS = doubling(Duration.ofMillis(1), 15);

  /** kube-scheduler's buckets for the end-to-end latency: 10 ms doubling 20 times. */
  static final List<Duration> SLI_BUCKETS = doubling(Duration.ofMillis(10), 20);

  /** kube-scheduler's buckets for an extension point: 0.1 ms doubling 12 times. */
  static final List<Duration> EXTENSION_POINT_BUCKETS = doubling(Duration.ofNanos(100_000), 12);

  /** kube-scheduler's buckets for the number of attempts a pod took. */
  private static final double[] POD_ATTEMPTS_BUCKETS = {1, 2, 4, 8, 16};

  /** From this many attempts on, the SLI label is "15+", as kube-scheduler bounds its cardinality. */
  static final int ATTEMPTS_LABEL_CAP = 15;

  private record Outcome(String profile, String result) {}

  private record Bind(String profile, boolean success) {}

  private record Meters(Counter count, Timer duration) {}

  private final MeterRegistry registry;
  private final Timer algorithm;
  private final DistributionSummary podAttempts;
  private final ConcurrentMap<Outcome, Meters> attempts = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Timer> sli = new ConcurrentHashMap<>();
  private final ConcurrentMap<Bind, Timer> binds = new ConcurrentHashMap<>();
  /** Guarded by {@code this}. */
  private final List<Meter> gauges = new ArrayList<>();

  private MicrometerMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.algorithm =
        histogram(Timer.builder(ALGORITHM_DURATION), ATTEMPT_BUCKETS)
            .description("How long the policy took to choose a node, per attempt that reached it")
            .register(registry);
    this.podAttempts =
        DistributionSummary.builder(POD_ATTEMPTS)
            .description("How many attempts it took to schedule a pod")
            .serviceLevelObjectives(POD_ATTEMPTS_BUCKETS)
            .register(registry);
  }

  /**
   * Metrics recorded into {@code registry}.
   *
   * @throws IllegalArgumentException if {@code registry} is not a {@link MeterRegistry}
   */
  static SchedulerMetrics over(Object registry) {
    if (!(registry instanceof MeterRegistry meters)) {
      throw new IllegalArgumentException(
          "registry must be an io.micrometer.core.instrument.MeterRegistry: "
              + registry.getClass().getName());
    }
    return new MicrometerMetrics(meters);
  }

  /** The SLI's {@code attempts} label: the count up to 14, then "15+". */
  static String attemptsLabel(int attempts) {
    return attempts >= ATTEMPTS_LABEL_CAP ? ATTEMPTS_LABEL_CAP + "+" : Integer.toString(attempts);
  }

  @Override
  public void algorithm(long nanos) {
    algorithm.record(MetricsArguments.duration("algorithm duration", nanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public void attempt(String profile, String result, long attemptNanos) {
    var key = new Outcome(MetricsArguments.profile(profile), MetricsArguments.result(result));
    MetricsArguments.duration("attempt duration", attemptNanos);
    var meters = attempts.computeIfAbsent(key, this::attemptMeters);
    meters.count().increment();
    meters.duration().record(attemptNanos, TimeUnit.NANOSECONDS);
  }

  private Meters attemptMeters(Outcome key) {
    var count =
        Counter.builder(ATTEMPTS)
            .description(
                "Attempts to schedule pods by result: unschedulable is the pod's doing, error the"
                    + " scheduler's")
            .tag("result", key.result())
            .tag("profile", key.profile())
            .register(registry);
    var duration =
        histogram(Timer.builder(ATTEMPT_DURATION), ATTEMPT_BUCKETS)
            .description("How long one scheduling attempt took, policy and bind included")
            .tag("result", key.result())
            .tag("profile", key.profile())
            .register(registry);
    return new Meters(count, duration);
  }

  @Override
  public void scheduled(int attempts, long sinceFirstQueuedNanos) {
    var label = attemptsLabel(MetricsArguments.attempts(attempts));
    MetricsArguments.duration("time since first queued", sinceFirstQueuedNanos);
    sli.computeIfAbsent(
            label,
            l ->
                histogram(Timer.builder(SLI_DURATION), SLI_BUCKETS)
                    .description(
                        "From a pod's first entry into the queue until it was bound, over all its"
                            + " attempts")
                    .tag("attempts", l)
                    .register(registry))
        .record(sinceFirstQueuedNanos, TimeUnit.NANOSECONDS);
    podAttempts.record(attempts);
  }

  @Override
  public void bound(String profile, long bindNanos, boolean success) {
    var key = new Bind(MetricsArguments.profile(profile), success);
    MetricsArguments.duration("bind duration", bindNanos);
    binds
        .computeIfAbsent(
            key,
            k ->
                histogram(Timer.builder(EXTENSION_POINT_DURATION), EXTENSION_POINT_BUCKETS)
                    .description("How long an extension point took; here only Bind")
                    .tag("extension_point", "Bind")
                    .tag("status", k.success() ? "Success" : "Error")
                    .tag("profile", k.profile())
                    .register(registry))
        .record(bindNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public synchronized void queueDepths(Supplier<Map<String, Integer>> depths) {
    Objects.requireNonNull(depths, "depths");
    var queues = List.of(QUEUE_ACTIVE, QUEUE_BACKOFF, QUEUE_UNSCHEDULABLE, QUEUE_GATED);
    for (var queue : queues) {
      requireUnregistered(PENDING_PODS, "queue", queue);
    }
    for (var queue : queues) {
      gauges.add(
          gauge(
              Gauge.builder(
                      PENDING_PODS,
                      depths,
                      d -> d.get().getOrDefault(queue, 0))
                  .description("Pods waiting to be scheduled, by queue")
                  .tag("queue", queue)));
    }
  }

  @Override
  public synchronized void pendingPods(Supplier<Integer> pending) {
    Objects.requireNonNull(pending, "pending");
    requireUnregistered(ALL_PENDING_PODS);
    gauges.add(
        gauge(
            Gauge.builder(ALL_PENDING_PODS, pending, p -> p.get())
                .description("All pods this scheduler still has to place, wherever they wait")));
  }

  @Override
  public synchronized void close() {
    gauges.forEach(registry::remove);
    gauges.clear();
  }

  /**
   * Micrometer hands back the gauge already registered under an id and ignores the new supplier: a
   * second controller on the same registry would silently report the first one's queue.
   */
  private void requireUnregistered(String name, String... tags) {
    if (registry.find(name).tags(tags).gauge() != null) {
      throw new IllegalStateException(
          "gauge "
              + name
              + " "
              + List.of(tags)
              + " is registered already: close the metrics of the controller that registered it");
    }
  }

  /** Held strongly: Micrometer keeps only a weak reference by default, and a lambda has no other owner. */
  private Gauge gauge(Gauge.Builder<?> builder) {
    return builder.strongReference(true).register(registry);
  }

  private static Timer.Builder histogram(Timer.Builder timer, List<Duration> kubeBuckets) {
    return timer
        .publishPercentileHistogram()
        .serviceLevelObjectives(kubeBuckets.toArray(Duration[]::new))
        .minimumExpectedValue(kubeBuckets.get(0))
        .maximumExpectedValue(kubeBuckets.get(kubeBuckets.size() - 1));
  }

  private static List<Duration> doubling(Duration first, int count) {
    var bounds = new ArrayList<Duration>(count);
    for (int i = 0; i < count; i++) {
      bounds.add(first.multipliedBy(1L << i));
    }
    return List.copyOf(bounds);
  }
}
