package io.kubesched.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.BuildInfo;
import io.kubesched.api.SchedulerMetrics.PendingGroups;
import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a Prometheus scrape shows: kube-scheduler's metric names, labels and bucket bounds. */
class MicrometerPrometheusTest {

  private record Sample(String name, Map<String, String> labels, double value) {}

  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private List<Sample> samples = List.of();

  @BeforeEach
  void recordOneOfEach() {
    var metrics = MicrometerMetrics.of(registry);
    metrics.attempt("my-scheduler", Result.SCHEDULED, Duration.ofMillis(3));
    metrics.attempt("my-scheduler", Result.UNSCHEDULABLE, Duration.ofMillis(1));
    metrics.algorithm(Duration.ofMillis(2));
    metrics.scheduled(2, Duration.ofSeconds(1));
    metrics.bound("my-scheduler", Duration.ofMillis(1), true);
    metrics.pendingPods(() -> new PendingPods(3, 2, 1, 4));
    metrics.groupAttempt("my-scheduler", Result.UNSCHEDULABLE, Duration.ofMillis(12));
    metrics.groupTimedOut("my-scheduler");
    metrics.pendingGroups(() -> new PendingGroups(2, 1));
    metrics.preemptionAttempt(3);
    metrics.preemptionAttempt(0);
    metrics.queueIncoming("active", "UnscheduledPodAdd");
    metrics.queueIncoming("active", "UnscheduledPodAdd");
    metrics.queueIncoming("backoff", "NodeAdd");
    metrics.leaderElection("my-scheduler", false);
    metrics.leaderElection("my-scheduler", true);
    metrics.request("GET", "10.0.0.1:6443", "200", Duration.ofMillis(20));
    metrics.request("POST", "10.0.0.1:6443", "<error>", Duration.ofMillis(3));
    samples = parse(registry.scrape());
  }

  private static List<Sample> parse(String text) {
    return text.lines()
        .filter(line -> !line.startsWith("#") && !line.isBlank())
        .map(
            line -> {
              var m = SAMPLE.matcher(line);
              assertTrue(m.matches(), () -> "not a sample line: " + line);
              var labels = new LinkedHashMap<String, String>();
              if (m.group(2) != null) {
                var l = LABEL.matcher(m.group(2));
                while (l.find()) {
                  labels.put(l.group(1), l.group(2));
                }
              }
              return new Sample(m.group(1), Map.copyOf(labels), Double.parseDouble(m.group(3)));
            })
        .toList();
  }

  private double value(String name, Map<String, String> labels) {
    var found = samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
    assertEquals(1, found.size(), () -> name + labels + " among " + names());
    return found.get(0).value();
  }

  private List<String> names() {
    return samples.stream().map(Sample::name).distinct().sorted().toList();
  }

  @Test
  void counters_and_gauges_carry_kube_schedulers_names_and_labels() {
    assertEquals(
        1,
        value(
            "scheduler_schedule_attempts_total", Map.of("result", "scheduled", "profile", "my-scheduler")));
    assertEquals(
        1,
        value(
            "scheduler_schedule_attempts_total",
            Map.of("result", "unschedulable", "profile", "my-scheduler")));
    assertEquals(3, value("scheduler_pending_pods", Map.of("queue", "active")));
    assertEquals(2, value("scheduler_pending_pods", Map.of("queue", "backoff")));
    assertEquals(1, value("scheduler_pending_pods", Map.of("queue", "unschedulable")));
    assertEquals(4, value("scheduler_pending_pods", Map.of("queue", "gated")));
    assertEquals(10, value("kubesched_pending_pods", Map.of()));
    assertEquals(1, value("scheduler_pod_scheduling_attempts_count", Map.of()));
    assertEquals(2, value("scheduler_pod_scheduling_attempts_sum", Map.of()));
  }

  @Test
  void build_info_is_1_labelled_with_the_version_the_revision_and_java_as_kubernetes_build_info_is() {
    var build =
        Map.of(
            "version", System.getProperty("kubesched.test.projectVersion"),
            "revision", BuildInfo.current().revision(),
            "java_version", System.getProperty("java.version"));

    assertEquals(1, value("kubesched_build_info", build));
    assertTrue(registry.scrape().contains("# TYPE kubesched_build_info gauge\n"), registry::scrape);
  }

  @Test
  void build_info_stays_when_the_controllers_metrics_close_and_a_second_one_registers() {
    var second = MicrometerMetrics.of(registry);
    second.close();
    samples = parse(registry.scrape());

    assertEquals(1, samples.stream().filter(s -> s.name().equals("kubesched_build_info")).count(), names()::toString);
  }

  @Test
  void pod_group_meters_carry_kube_schedulers_names_where_it_has_them_and_kubesched_ones_elsewhere() {
    var attempt = Map.of("result", "unschedulable", "profile", "my-scheduler");
    assertEquals(1, value("scheduler_podgroup_schedule_attempts_total", attempt));
    assertEquals(1, value("scheduler_podgroup_scheduling_attempt_duration_seconds_count", attempt));
    assertEquals(0.012, value("scheduler_podgroup_scheduling_attempt_duration_seconds_sum", attempt), 1e-12);
    assertEquals(1, value("kubesched_podgroup_timeouts_total", Map.of("profile", "my-scheduler")));
    assertEquals(2, value("kubesched_pending_podgroups", Map.of("state", "waiting_for_members")));
    assertEquals(1, value("kubesched_pending_podgroups", Map.of("state", "waiting_to_fit")));
  }

  @Test
  void timers_are_histograms_in_seconds_under_kube_schedulers_names() {
    var attempt = Map.of("result", "scheduled", "profile", "my-scheduler");
    assertEquals(1, value("scheduler_scheduling_attempt_duration_seconds_count", attempt));
    assertEquals(0.003, value("scheduler_scheduling_attempt_duration_seconds_sum", attempt), 1e-12);
    assertEquals(0.002, value("scheduler_scheduling_algorithm_duration_seconds_sum", Map.of()), 1e-12);
    assertEquals(1.0, value("scheduler_pod_scheduling_sli_duration_seconds_sum", Map.of("attempts", "2")));
    var bind = Map.of("extension_point", "Bind", "status", "Success", "profile", "my-scheduler");
    assertEquals(0.001, value("scheduler_framework_extension_point_duration_seconds_sum", bind), 1e-12);
  }

  static Stream<Arguments> histograms() {
    return Stream.of(
        Arguments.of(
            Named.of("REST request", "rest_client_request_duration_seconds"), MicrometerMetrics.REQUEST_BUCKETS),
        Arguments.of(
            Named.of("attempt", "scheduler_scheduling_attempt_duration_seconds"),
            MicrometerMetrics.ATTEMPT_BUCKETS),
        Arguments.of(
            Named.of("algorithm", "scheduler_scheduling_algorithm_duration_seconds"),
            MicrometerMetrics.ATTEMPT_BUCKETS),
        Arguments.of(
            Named.of("pod group attempt", "scheduler_podgroup_scheduling_attempt_duration_seconds"),
            MicrometerMetrics.ATTEMPT_BUCKETS),
        Arguments.of(
            Named.of("sli", "scheduler_pod_scheduling_sli_duration_seconds"), MicrometerMetrics.SLI_BUCKETS),
        Arguments.of(
            Named.of("bind", "scheduler_framework_extension_point_duration_seconds"),
            MicrometerMetrics.EXTENSION_POINT_BUCKETS));
  }

  @ParameterizedTest
  @MethodSource("histograms")
  void every_histogram_has_exactly_kube_schedulers_bucket_bounds(
      String name, List<Duration> kubeBuckets) {
    var series = samples.stream().filter(s -> s.name().equals(name + "_bucket")).findFirst().orElseThrow();
    var seriesLabels = new LinkedHashMap<>(series.labels());
    seriesLabels.remove("le");
    var bounds =
        samples.stream()
            .filter(s -> s.name().equals(name + "_bucket"))
            .filter(s -> withoutLe(s.labels()).equals(seriesLabels))
            .map(s -> s.labels().get("le"))
            .filter(le -> !le.equals("+Inf"))
            .map(Double::parseDouble)
            .sorted()
            .toList();
    var kubeSeconds = kubeBuckets.stream().map(d -> d.toNanos() / 1e9).toList();

    assertEquals(kubeSeconds, bounds, "kube's bounds and no others");
  }

  private static Map<String, String> withoutLe(Map<String, String> labels) {
    var copy = new LinkedHashMap<>(labels);
    copy.remove("le");
    return copy;
  }

  @Test
  void preemption_counts_every_attempt_and_observes_the_victims_of_those_that_chose_a_node() {
    assertEquals(2, value("scheduler_preemption_attempts_total", Map.of()));
    assertEquals(1, value("scheduler_preemption_victims_count", Map.of()));
    assertEquals(3, value("scheduler_preemption_victims_sum", Map.of()));
    var bounds =
        samples.stream()
            .filter(s -> s.name().equals("scheduler_preemption_victims_bucket"))
            .map(s -> s.labels().get("le"))
            .toList();
    assertEquals(List.of("1.0", "2.0", "4.0", "8.0", "16.0", "32.0", "64.0", "+Inf"), bounds);
  }

  @Test
  void queue_leader_and_rest_client_families_carry_kubes_and_client_gos_labels() {
    assertEquals(
        2, value("scheduler_queue_incoming_pods_total", Map.of("queue", "active", "event", "UnscheduledPodAdd")));
    assertEquals(1, value("scheduler_queue_incoming_pods_total", Map.of("queue", "backoff", "event", "NodeAdd")));
    assertEquals(1, value("leader_election_master_status", Map.of("name", "my-scheduler")));
    assertEquals(
        1, value("rest_client_requests_total", Map.of("code", "200", "method", "GET", "host", "10.0.0.1:6443")));
    assertEquals(
        1,
        value("rest_client_requests_total", Map.of("code", "<error>", "method", "POST", "host", "10.0.0.1:6443")));
    assertEquals(
        1, value("rest_client_request_duration_seconds_count", Map.of("verb", "GET", "host", "10.0.0.1:6443")));
  }

  @Test
  void the_attempts_summary_has_exactly_kube_schedulers_buckets() {
    var bounds =
        samples.stream()
            .filter(s -> s.name().equals("scheduler_pod_scheduling_attempts_bucket"))
            .map(s -> s.labels().get("le"))
            .toList();
    assertEquals(List.of("1.0", "2.0", "4.0", "8.0", "16.0", "+Inf"), bounds);
  }
}
