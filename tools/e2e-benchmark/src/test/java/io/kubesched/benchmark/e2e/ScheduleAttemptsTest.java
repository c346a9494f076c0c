package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulerMetrics.Result;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Both schedulers' attempt counts, as the runner reads them. */
class ScheduleAttemptsTest {

  /** Lines as kube-scheduler 1.37 serves them, with a second profile and a metric whose name starts alike. */
  private static final String KUBE_SCHEDULER =
      """
      # HELP scheduler_schedule_attempts_total [STABLE] Number of attempts to schedule pods, by the result.
      # TYPE scheduler_schedule_attempts_total counter
      scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"} 1200
      scheduler_schedule_attempts_total{profile="default-scheduler",result="unschedulable"} 35
      scheduler_schedule_attempts_total{profile="other",result="unschedulable"} 2
      scheduler_schedule_attempts_total_other{profile="default-scheduler",result="error"} 99
      # HELP scheduler_scheduling_attempt_duration_seconds [STABLE] Scheduling attempt latency in seconds
      scheduler_scheduling_attempt_duration_seconds_count{profile="default-scheduler",result="scheduled"} 1200
      """;

  @Test
  void kube_schedulers_counter_is_summed_over_profiles_by_result_and_a_result_not_yet_seen_is_0() {
    assertEquals(new RunResult.Attempts(1_200, 37, 0), ScheduleAttempts.parse(KUBE_SCHEDULER));
    assertEquals(new RunResult.Attempts(0, 0, 0), ScheduleAttempts.parse("# no attempt yet\n"));
  }

  @Test
  void a_line_without_a_known_result_is_refused() {
    assertThrows(IllegalArgumentException.class,
        () -> ScheduleAttempts.parse("scheduler_schedule_attempts_total{profile=\"p\",result=\"lost\"} 1\n"));
  }

  @Test
  void attempts_since_an_earlier_reading_and_the_measured_pods_share() {
    var attempts = new RunResult.Attempts(210, 40, 5).since(new RunResult.Attempts(10, 30, 1));

    assertEquals(new RunResult.Attempts(200, 10, 4), attempts);
    assertEquals(214, attempts.total());
    assertEquals(204, attempts.measured());
  }

  @Test
  void the_counter_serves_what_the_loop_reported_as_kube_schedulers_lines_and_passes_the_calls_on()
      throws Exception {
    var passed = new ArrayList<String>();
    var counter =
        new ScheduleAttempts.Counter(
            new SchedulerMetrics() {
              @Override
              public void attempt(String profile, Result result, Duration took) {
                passed.add("attempt " + result.label());
              }

              @Override
              public void bound(String profile, Duration took, boolean success) {
                passed.add("bound");
              }

              @Override
              public void scheduled(int attempts, Duration sinceFirstQueued) {
                passed.add("scheduled " + attempts);
              }
            });
    counter.attempt("kubesched", Result.UNSCHEDULABLE, Duration.ofMillis(3));
    counter.bound("kubesched", Duration.ofMillis(2), true);
    counter.attempt("kubesched", Result.SCHEDULED, Duration.ofMillis(5));
    counter.scheduled(2, Duration.ofMillis(9));
    counter.attempt("kubesched", Result.ERROR, Duration.ofMillis(1));
    counter.attempt("kubesched", Result.SCHEDULED, Duration.ofMillis(5));

    assertEquals(
        List.of("attempt unschedulable", "bound", "attempt scheduled", "scheduled 2", "attempt error",
            "attempt scheduled"),
        passed);
    assertEquals(new RunResult.Attempts(2, 1, 1), ScheduleAttempts.parse(counter.exposition("kubesched")));
    var server = counter.serve(0, "kubesched");
    try {
      var uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
      assertEquals(new RunResult.Attempts(2, 1, 1), ScheduleAttempts.scrape(uri));
    } finally {
      server.stop(0);
    }
  }
}
