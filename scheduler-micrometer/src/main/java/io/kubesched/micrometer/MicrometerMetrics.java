package io.kubesched.micrometer;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.BuildInfo;
import io.kubesched.api.SchedulerMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * {@link SchedulerMetrics} recorded into a Micrometer {@link MeterRegistry} under kube-scheduler's metric
 * names (pkg/scheduler/metrics/metrics.go), labels and bucket bounds, so that dashboards and alerts made for
 * kube-scheduler read this scheduler too. Hand it to the controller's options:
 *
 * <pre>{@code
 * Options.builder().metrics(MicrometerMetrics.of(registry)).build()
 * }</pre>
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
 *       than look like one (and a {@code queue="all"} series would double every sum over the queues);
 *   <li>{@value #GROUP_ATTEMPTS} counter {result, profile}: {@code scheduler_podgroup_schedule_attempts_total},
 *       one per pod group attempt (kube-scheduler's with its {@code GenericWorkload} gate on);
 *   <li>{@value #GROUP_ATTEMPT_DURATION} timer {result, profile}: {@code
 *       scheduler_podgroup_scheduling_attempt_duration_seconds}, kube-scheduler's buckets for attempts;
 *   <li>{@value #GROUP_TIMEOUTS} counter {profile}: {@code kubesched_podgroup_timeouts_total}, pod groups
 *       that waited longer than their timeout (kube-scheduler has no group timeout, hence not {@code
 *       scheduler_});
 *   <li>{@value #PENDING_GROUPS} gauge {state = waiting_for_members | waiting_to_fit}: {@code
 *       kubesched_pending_podgroups}, the pod groups waiting (kube-scheduler counts their pods in {@code
 *       scheduler_pending_pods} under queues of its own instead);
 *   <li>{@value #BUILD_INFO} gauge {version, revision, java_version}, always 1: {@code
 *       kubesched_build_info}, which build of the library runs ({@link BuildInfo}) on which Java, as kube's
 *       components expose {@code kubernetes_build_info}. Its {@code git_version} and {@code git_commit} are
 *       {@code version} and {@code revision} here, as Prometheus names them in its own {@code
 *       prometheus_build_info}; {@code java_version} follows kube's {@code go_version}. Registered at once
 *       and kept by {@link #close()}. Not {@code kubernetes_build_info}: kubernetes-mixin's {@code
 *       KubeVersionMismatch} alert counts the distinct {@code git_version}s of that family across the cluster,
 *       so a kubesched version there would fire it;
 *   <li>{@value #PREEMPTION_ATTEMPTS} counter: {@code scheduler_preemption_attempts_total}, each attempt whose
 *       policy ran preemption (kube's PostFilter), whatever it found;
 *   <li>{@value #PREEMPTION_VICTIMS} summary: {@code scheduler_preemption_victims}, the victims of each
 *       preemption that chose a node;
 *   <li>{@value #QUEUE_INCOMING_PODS} counter {queue = active | backoff | unschedulable, event}: {@code
 *       scheduler_queue_incoming_pods_total}, under kube's event labels. A move the queue remembered while the
 *       pod was held for its preemption is done when the hold ends and not counted (kube has no such hold);
 *   <li>{@value #LEADER_ELECTION_STATUS} gauge {name}: client-go's {@code leader_election_master_status}, 1
 *       while leading the named lease, 0 while a candidate; kept by {@link #close()};
 *   <li>{@value #REST_CLIENT_REQUESTS} counter {code, method, host} and {@value #REST_CLIENT_REQUEST_DURATION}
 *       timer {verb, host}: client-go's {@code rest_client_requests_total} and {@code
 *       rest_client_request_duration_seconds}, every request of the clients the library builds (the
 *       connection's user client included; an application's own client handed in with {@code
 *       Connection.shared} is not measured).
 * </ul>
 *
 * <p>Timers and summaries publish exactly kube's bucket bounds (as service-level objectives, no percentile
 * histogram); Micrometer adds a {@code _max} gauge beside each, which kube has not.
 *
 * <p>kube-scheduler's STABLE and BETA families not produced, and why:
 *
 * <ul>
 *   <li>{@code scheduler_plugin_execution_duration_seconds}, {@code scheduler_plugin_evaluation_total},
 *       {@code scheduler_unschedulable_pods} (BETA): a policy is a {@code FinderFunc}, which need not be made of
 *       plugins; the built-in policy does not time or count its filters and scorers one by one (it runs them
 *       per node in parallel chunks, where a clock read per plugin and node would cost more than the filter);
 *   <li>{@code scheduler_permit_wait_duration_seconds} (BETA): there is no Permit extension point;
 *   <li>{@code scheduler_goroutines} (BETA): the loop's threads are fixed pools named per job (see
 *       docs/architecture.md), not goroutines started per operation;
 *   <li>{@code kube_pod_resource_request}, {@code kube_pod_resource_limit} (STABLE): kube-scheduler serves them
 *       on {@code /metrics/resources}, an endpoint of its own, one series per pod and resource;
 *   <li>{@code kubernetes_healthcheck}, {@code kubernetes_healthchecks_total} (STABLE): kube serves them on
 *       {@code /metrics/slis}, from its health checks, which are the server's, not this library's;
 *   <li>{@code kubernetes_build_info} (BETA): see {@value #BUILD_INFO} above;
 *   <li>{@code kubernetes_feature_enabled}, {@code registered_metrics_total}, {@code disabled_metrics_total},
 *       {@code hidden_metrics_total} (BETA): they describe kube's feature gates and its metrics framework's
 *       stability classes, neither of which this library has.
 * </ul>
 *
 * <p>One instance serves one controller at a time: the gauges of a second controller on the same registry
 * are refused until the first one's are {@linkplain #close() closed}, because Micrometer would silently
 * keep reading the first one's queue. Counters and timers are shared and carry on. Thread-safe.
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class MicrometerMetrics implements SchedulerMetrics {

  /** {@code scheduler_schedule_attempts_total}. */
  public static final String ATTEMPTS = "scheduler.schedule.attempts";
  /** {@code scheduler_scheduling_attempt_duration_seconds}. */
  public static final String ATTEMPT_DURATION = "scheduler.scheduling.attempt.duration";
  /** {@code scheduler_scheduling_algorithm_duration_seconds}. */
  public static final String ALGORITHM_DURATION = "scheduler.scheduling.algorithm.duration";
  /** {@code scheduler_pod_scheduling_sli_duration_seconds}. */
  public static final String SLI_DURATION = "scheduler.pod.scheduling.sli.duration";
  /** {@code scheduler_pod_scheduling_attempts}. */
  public static final String POD_ATTEMPTS = "scheduler.pod.scheduling.attempts";
  /** {@code scheduler_framework_extension_point_duration_seconds}. */
  public static final String EXTENSION_POINT_DURATION = "scheduler.framework.extension.point.duration";
  /** {@code scheduler_pending_pods}. */
  public static final String PENDING_PODS = "scheduler.pending.pods";
  /** {@code kubesched_pending_pods}. */
  public static final String ALL_PENDING_PODS = "kubesched.pending.pods";

  /** {@code scheduler_podgroup_schedule_attempts_total}. */
  public static final String GROUP_ATTEMPTS = "scheduler.podgroup.schedule.attempts";
  /** {@code scheduler_podgroup_scheduling_attempt_duration_seconds}. */
  public static final String GROUP_ATTEMPT_DURATION = "scheduler.podgroup.scheduling.attempt.duration";
  /** {@code kubesched_podgroup_timeouts_total}. */
  public static final String GROUP_TIMEOUTS = "kubesched.podgroup.timeouts";
  /** {@code kubesched_pending_podgroups}. */
  public static final String PENDING_GROUPS = "kubesched.pending.podgroups";

  /** {@code kubesched_build_info}. */
  public static final String BUILD_INFO = "kubesched.build.info";

  /** {@code scheduler_preemption_attempts_total}. */
  public static final String PREEMPTION_ATTEMPTS = "scheduler.preemption.attempts";
  /** {@code scheduler_preemption_victims}. */
  public static final String PREEMPTION_VICTIMS = "scheduler.preemption.victims";
  /** {@code scheduler_queue_incoming_pods_total}. */
  public static final String QUEUE_INCOMING_PODS = "scheduler.queue.incoming.pods";
  /** {@code leader_election_master_status}. */
  public static final String LEADER_ELECTION_STATUS = "leader.election.master.status";
  /** {@code rest_client_requests_total}. */
  public static final String REST_CLIENT_REQUESTS = "rest.client.requests";
  /** {@code rest_client_request_duration_seconds}. */
  public static final String REST_CLIENT_REQUEST_DURATION = "rest.client.request.duration";

  /** kube-scheduler's buckets for attempts and the algorithm (pod and pod group): 1 ms doubling 15 times. */
  static final List<Duration> ATTEMPT_BUCKETS = doubling(Duration.ofMillis(1), 15);

  /** kube-scheduler's buckets for the end-to-end latency: 10 ms doubling 20 times. */
  static final List<Duration> SLI_BUCKETS = doubling(Duration.ofMillis(10), 20);

  /** kube-scheduler's buckets for an extension point: 0.1 ms doubling 12 times. */
  static final List<Duration> EXTENSION_POINT_BUCKETS = doubling(Duration.ofNanos(100_000), 12);

  /** kube-scheduler's buckets for the number of attempts a pod took: 1 doubling 5 times. */
  private static final double[] POD_ATTEMPTS_BUCKETS = {1, 2, 4, 8, 16};

  /** kube-scheduler's buckets for the victims of one preemption: 1 doubling 7 times. */
  private static final double[] PREEMPTION_VICTIMS_BUCKETS = {1, 2, 4, 8, 16, 32, 64};

  /** client-go's buckets for a request's latency. */
  static final List<Duration> REQUEST_BUCKETS =
      Stream.of(5, 25, 100, 250, 500, 1000, 2000, 4000, 8000, 15_000, 30_000, 60_000).map(Duration::ofMillis).toList();

  /** From this many attempts on, the SLI label is "15+", as kube-scheduler bounds its cardinality. */
  static final int ATTEMPTS_LABEL_CAP = 15;

  /** kube-scheduler's {@code queue} label values, each with how to read its count. */
  private static final Map<String, ToIntFunction<PendingPods>> QUEUES = queues();

  /** The {@code state} label values of {@value #PENDING_GROUPS}, each with how to read its count. */
  private static final Map<String, ToIntFunction<PendingGroups>> GROUP_STATES =
      Map.of(
          "waiting_for_members", PendingGroups::waitingForMembers,
          "waiting_to_fit", PendingGroups::waitingToFit);

  private record Outcome(String profile, Result result) {}

  private record Bind(String profile, boolean success) {}

  private record Incoming(String queue, String event) {}

  private record Request(String code, String method, String host) {}

  private record Verb(String verb, String host) {}

  private record Meters(Counter count, Timer duration) {}

  private final MeterRegistry registry;
  private final Timer algorithm;
  private final DistributionSummary podAttempts;
  private final ConcurrentMap<Outcome, Meters> attempts = new ConcurrentHashMap<>();
  private final ConcurrentMap<Outcome, Meters> groupAttempts = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Counter> groupTimeouts = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Timer> sli = new ConcurrentHashMap<>();
  private final ConcurrentMap<Bind, Timer> binds = new ConcurrentHashMap<>();
  private final Counter preemptionAttempts;
  private final DistributionSummary preemptionVictims;
  private final ConcurrentMap<Incoming, Counter> incoming = new ConcurrentHashMap<>();
  private final ConcurrentMap<Request, Counter> requests = new ConcurrentHashMap<>();
  private final ConcurrentMap<Verb, Timer> requestDurations = new ConcurrentHashMap<>();
  /** Per lease: 1 while leading, 0 else; the gauges read them. */
  private final ConcurrentMap<String, AtomicInteger> leaseStatus = new ConcurrentHashMap<>();
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
    this.preemptionAttempts =
        Counter.builder(PREEMPTION_ATTEMPTS)
            .description("Preemption attempts: each time the policy ran preemption for a pod that fits nowhere")
            .register(registry);
    this.preemptionVictims =
        DistributionSummary.builder(PREEMPTION_VICTIMS)
            .description("How many pods one preemption chose to evict")
            .serviceLevelObjectives(PREEMPTION_VICTIMS_BUCKETS)
            .register(registry);
    registerBuildInfo();
  }

  /**
   * Metrics recorded into {@code registry}. Registers the algorithm timer, the attempts summary and
   * {@value #BUILD_INFO} at once; the other meters when first recorded, the pending gauges when a controller
   * starts.
   *
   * @param registry where to record; any Micrometer registry (a Prometheus one exposes kube-scheduler's
   *     names exactly)
   * @return metrics for one controller at a time
   */
  public static MicrometerMetrics of(MeterRegistry registry) {
    return new MicrometerMetrics(Objects.requireNonNull(registry, "registry"));
  }

  /** The SLI's {@code attempts} label: the count up to 14, then "15+". */
  static String attemptsLabel(int attempts) {
    return attempts >= ATTEMPTS_LABEL_CAP ? ATTEMPTS_LABEL_CAP + "+" : Integer.toString(attempts);
  }

  /** @throws IllegalArgumentException if {@code took} is negative */
  @Override
  public void algorithm(Duration took) {
    algorithm.record(nonNegative("algorithm duration", took));
  }

  /** @throws IllegalArgumentException if {@code profile} is blank or {@code took} negative */
  @Override
  public void attempt(String profile, Result result, Duration took) {
    var key = new Outcome(profile(profile), Objects.requireNonNull(result, "result"));
    nonNegative("attempt duration", took);
    var meters = attempts.computeIfAbsent(key, this::attemptMeters);
    meters.count().increment();
    meters.duration().record(took);
  }

  private Meters attemptMeters(Outcome key) {
    var count =
        Counter.builder(ATTEMPTS)
            .description(
                "Attempts to schedule pods by result: unschedulable is the pod's doing, error the"
                    + " scheduler's")
            .tag("result", key.result().label())
            .tag("profile", key.profile())
            .register(registry);
    var duration =
        histogram(Timer.builder(ATTEMPT_DURATION), ATTEMPT_BUCKETS)
            .description("How long one scheduling attempt took, policy and bind included")
            .tag("result", key.result().label())
            .tag("profile", key.profile())
            .register(registry);
    return new Meters(count, duration);
  }

  /** @throws IllegalArgumentException if {@code profile} is blank or {@code took} negative */
  @Override
  public void groupAttempt(String profile, Result result, Duration took) {
    var key = new Outcome(profile(profile), Objects.requireNonNull(result, "result"));
    nonNegative("pod group attempt duration", took);
    var meters = groupAttempts.computeIfAbsent(key, this::groupAttemptMeters);
    meters.count().increment();
    meters.duration().record(took);
  }

  private Meters groupAttemptMeters(Outcome key) {
    var count =
        Counter.builder(GROUP_ATTEMPTS)
            .description(
                "Attempts to schedule pod groups by result: unschedulable means the members did not fit"
                    + " together, error a scheduler problem")
            .tag("result", key.result().label())
            .tag("profile", key.profile())
            .register(registry);
    var duration =
        histogram(Timer.builder(GROUP_ATTEMPT_DURATION), ATTEMPT_BUCKETS)
            .description("How long one pod group scheduling attempt took, all its members' placement included")
            .tag("result", key.result().label())
            .tag("profile", key.profile())
            .register(registry);
    return new Meters(count, duration);
  }

  /** @throws IllegalArgumentException if {@code profile} is blank */
  @Override
  public void groupTimedOut(String profile) {
    groupTimeouts
        .computeIfAbsent(
            profile(profile),
            p ->
                Counter.builder(GROUP_TIMEOUTS)
                    .description("Pod groups that waited longer than their timeout to be placed")
                    .tag("profile", p)
                    .register(registry))
        .increment();
  }

  /** @throws IllegalArgumentException if {@code attempts} is below 1 or the duration negative */
  @Override
  public void scheduled(int attempts, Duration sinceFirstQueued) {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
    }
    nonNegative("time since first queued", sinceFirstQueued);
    sli.computeIfAbsent(
            attemptsLabel(attempts),
            l ->
                histogram(Timer.builder(SLI_DURATION), SLI_BUCKETS)
                    .description(
                        "From a pod's first entry into the queue until it was bound, over all its"
                            + " attempts")
                    .tag("attempts", l)
                    .register(registry))
        .record(sinceFirstQueued);
    podAttempts.record(attempts);
  }

  /** @throws IllegalArgumentException if {@code profile} is blank or {@code took} negative */
  @Override
  public void bound(String profile, Duration took, boolean success) {
    var key = new Bind(profile(profile), success);
    nonNegative("bind duration", took);
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
        .record(took);
  }

  /** @throws IllegalArgumentException if {@code victims} is negative */
  @Override
  public void preemptionAttempt(int victims) {
    if (victims < 0) {
      throw new IllegalArgumentException("victims must not be negative: " + victims);
    }
    preemptionAttempts.increment();
    if (victims > 0) {
      preemptionVictims.record(victims);
    }
  }

  @Override
  public void queueIncoming(String queue, String event) {
    incoming
        .computeIfAbsent(
            new Incoming(queue, event),
            k ->
                Counter.builder(QUEUE_INCOMING_PODS)
                    .description("Pods added to the scheduling queues, by event and queue")
                    .tag("queue", k.queue())
                    .tag("event", k.event())
                    .register(registry))
        .increment();
  }

  /**
   * Registers {@value #LEADER_ELECTION_STATUS} for {@code lease} when first told of it, and sets it to 1 or 0.
   * The gauge stays after {@link #close()}, at its last value, as client-go's does.
   */
  @Override
  public void leaderElection(String lease, boolean leading) {
    leaseStatus
        .computeIfAbsent(
            lease,
            name -> {
              var status = new AtomicInteger();
              gauge(
                  Gauge.builder(LEADER_ELECTION_STATUS, status, AtomicInteger::get)
                      .description("1 while this process leads the lease, 0 while it is a candidate, by lease name")
                      .tag("name", name));
              return status;
            })
        .set(leading ? 1 : 0);
  }

  /** @throws IllegalArgumentException if {@code took} is negative */
  @Override
  public void request(String method, String host, String code, Duration took) {
    nonNegative("request duration", took);
    requests
        .computeIfAbsent(
            new Request(code, method, host),
            k ->
                Counter.builder(REST_CLIENT_REQUESTS)
                    .description("HTTP requests to the API server, by status code, method and host")
                    .tag("code", k.code())
                    .tag("method", k.method())
                    .tag("host", k.host())
                    .register(registry))
        .increment();
    requestDurations
        .computeIfAbsent(
            new Verb(method, host),
            k ->
                kubeBuckets(Timer.builder(REST_CLIENT_REQUEST_DURATION), REQUEST_BUCKETS)
                    .description("Request latency to the API server, by verb and host")
                    .tag("verb", k.verb())
                    .tag("host", k.host())
                    .register(registry))
        .record(took);
  }

  /**
   * Registers {@value #PENDING_PODS} per queue ({@code active}, {@code backoff}, {@code unschedulable},
   * {@code gated}) and {@value #ALL_PENDING_PODS}, each reading {@code pending} whenever the registry is
   * read, on the reader's thread.
   *
   * @throws IllegalStateException if these gauges are registered already, by this or another controller's
   *     metrics on the same registry that was not closed; nothing is registered then
   */
  @Override
  public synchronized void pendingPods(Supplier<PendingPods> pending) {
    Objects.requireNonNull(pending, "pending");
    for (var queue : QUEUES.keySet()) {
      requireUnregistered(PENDING_PODS, "queue", queue);
    }
    requireUnregistered(ALL_PENDING_PODS);
    QUEUES.forEach(
        (queue, count) ->
            gauges.add(
                gauge(
                    Gauge.builder(PENDING_PODS, pending, p -> count.applyAsInt(p.get()))
                        .description("Pods waiting to be scheduled, by queue")
                        .tag("queue", queue))));
    gauges.add(
        gauge(
            Gauge.builder(ALL_PENDING_PODS, pending, p -> p.get().total())
                .description("All pods this scheduler still has to place, wherever they wait")));
  }

  /**
   * Registers {@value #PENDING_GROUPS} per state ({@code waiting_for_members}, {@code waiting_to_fit}), each
   * reading {@code pending} whenever the registry is read, on the reader's thread.
   *
   * @throws IllegalStateException if these gauges are registered already, by this or another controller's
   *     metrics on the same registry that was not closed; nothing is registered then
   */
  @Override
  public synchronized void pendingGroups(Supplier<PendingGroups> pending) {
    Objects.requireNonNull(pending, "pending");
    for (var state : GROUP_STATES.keySet()) {
      requireUnregistered(PENDING_GROUPS, "state", state);
    }
    GROUP_STATES.forEach(
        (state, count) ->
            gauges.add(
                gauge(
                    Gauge.builder(PENDING_GROUPS, pending, p -> count.applyAsInt(p.get()))
                        .description("Pod groups waiting: for members (or their group object), or to fit")
                        .tag("state", state))));
  }

  /**
   * Unregisters the pending gauges; counters and timers stay (they are cumulative), and so does {@value
   * #BUILD_INFO}. Idempotent.
   */
  @Override
  public synchronized void close() {
    gauges.forEach(registry::remove);
    gauges.clear();
  }

  @Override
  public String toString() {
    return "MicrometerMetrics[" + registry.getClass().getSimpleName() + "]";
  }

  /**
   * Once per registry: a second metrics on it would get the same constant series back, with a warning from
   * Micrometer about the gauge registered twice.
   */
  private void registerBuildInfo() {
    if (registry.find(BUILD_INFO).gauge() != null) {
      return;
    }
    var build = BuildInfo.current();
    gauge(
        Gauge.builder(BUILD_INFO, () -> 1)
            .description("Always 1, labelled with the kubesched version and git revision running and the Java version")
            .tag("version", build.version())
            .tag("revision", build.revision())
            .tag("java_version", System.getProperty("java.version")));
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

  private static String profile(String profile) {
    if (profile.isBlank()) {
      throw new IllegalArgumentException("profile must not be blank: '" + profile + "'");
    }
    return profile;
  }

  private static Duration nonNegative(String what, Duration took) {
    if (took.isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative: " + took);
    }
    return took;
  }

  private static Map<String, ToIntFunction<PendingPods>> queues() {
    var queues = new LinkedHashMap<String, ToIntFunction<PendingPods>>();
    queues.put("active", PendingPods::active);
    queues.put("backoff", PendingPods::backoff);
    queues.put("unschedulable", PendingPods::unschedulable);
    queues.put("gated", PendingPods::gated);
    return Collections.unmodifiableMap(queues);
  }

  private static Timer.Builder histogram(Timer.Builder timer, List<Duration> kubeBuckets) {
    return kubeBuckets(timer, kubeBuckets);
  }

  /**
   * Exactly kube's buckets: service-level objectives without a percentile histogram, so that a Prometheus
   * registry publishes these bounds and {@code +Inf}, no others.
   */
  private static Timer.Builder kubeBuckets(Timer.Builder timer, List<Duration> kubeBuckets) {
    return timer.serviceLevelObjectives(kubeBuckets.toArray(Duration[]::new));
  }

  private static List<Duration> doubling(Duration first, int count) {
    var bounds = new ArrayList<Duration>(count);
    for (int i = 0; i < count; i++) {
      bounds.add(first.multipliedBy(1L << i));
    }
    return List.copyOf(bounds);
  }
}
