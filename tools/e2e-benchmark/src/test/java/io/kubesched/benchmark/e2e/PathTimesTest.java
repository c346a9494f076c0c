package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulerMetrics.Result;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathTimesTest {

  @Test
  void a_bound_pod_is_split_into_queue_wait_decision_and_bind(@TempDir Path dir) throws Exception {
    var times = new PathTimes();
    long before = System.nanoTime() - Duration.ofMillis(25).toNanos();
    times.bound("p", Duration.ofMillis(3), true);
    times.attempt("p", Result.SCHEDULED, Duration.ofMillis(10));
    times.scheduled(1, Duration.ofMillis(25));
    long after = System.nanoTime();
    var file = dir.resolve("path.txt");
    times.write(file);

    var pods = PathTimes.read(file, before, after);
    assertEquals(1, pods.size());
    var pod = pods.get(0);
    assertEquals(Duration.ofMillis(15).toNanos(), pod.queueWait());
    assertEquals(Duration.ofMillis(7).toNanos(), pod.decision());
    assertEquals(Duration.ofMillis(3).toNanos(), pod.bind());
  }

  @Test
  void pods_tried_more_than_once_and_pods_queued_outside_the_window_are_left_out(@TempDir Path dir)
      throws Exception {
    var times = new PathTimes();
    times.bound("p", Duration.ofMillis(1), true);
    times.attempt("p", Result.SCHEDULED, Duration.ofMillis(2));
    times.scheduled(2, Duration.ofSeconds(3)); // its wait holds a backoff
    long from = System.nanoTime();
    times.bound("p", Duration.ZERO, true);
    times.attempt("p", Result.SCHEDULED, Duration.ZERO);
    times.scheduled(1, Duration.ZERO); // queued now: within
    long to = System.nanoTime();
    times.bound("p", Duration.ZERO, true);
    times.attempt("p", Result.SCHEDULED, Duration.ZERO);
    times.scheduled(1, Duration.ZERO); // queued after the window
    var file = dir.resolve("path.txt");
    times.write(file);

    assertEquals(1, PathTimes.read(file, from, to).size());
    assertEquals(2, PathTimes.read(file, 0, Long.MAX_VALUE).size());
  }

  @Test
  void the_calls_of_each_binding_thread_are_joined_apart(@TempDir Path dir) throws Exception {
    var times = new PathTimes();
    times.bound("p", Duration.ofMillis(1), true);
    times.attempt("p", Result.SCHEDULED, Duration.ofMillis(5));
    var other =
        new Thread(
            () -> {
              times.bound("p", Duration.ofMillis(40), true);
              times.attempt("p", Result.SCHEDULED, Duration.ofMillis(50));
              times.scheduled(1, Duration.ofMillis(60));
            });
    other.start();
    other.join();
    times.scheduled(1, Duration.ofMillis(6));
    var file = dir.resolve("path.txt");
    times.write(file);

    var binds = PathTimes.read(file, 0, Long.MAX_VALUE).stream().map(PathTimes.Pod::bind).sorted().toList();
    assertEquals(List.of(Duration.ofMillis(1).toNanos(), Duration.ofMillis(40).toNanos()), binds);
  }

  @Test
  void the_summary_names_each_part_with_its_median_and_99th_percentile() {
    var pods = List.of(new PathTimes.Pod(0, 2_000_000, 3_000_000, 7_000_000));
    var line = PathTimes.summary(pods, new double[] {9.0});
    assertTrue(line.contains("queue wait 2.0/2.0"), line);
    assertTrue(line.contains("decision and hand-over 1.0/1.0"), line);
    assertTrue(line.contains("bind 4.0/4.0"), line);
    assertTrue(line.contains("queue to bound 7.0/7.0 of the runner's created to bound 9.0/9.0"), line);
  }

  @Test
  void each_pod_is_matched_with_the_runners_pod_created_nearest_to_its_queue_entry() {
    long[][] runner = {{100, 900}, {1_000, 1_700}, {2_000, 2_950}};
    assertEquals(0, PathTimes.nearestCreated(runner, 0));
    assertEquals(0, PathTimes.nearestCreated(runner, 540));
    assertEquals(1, PathTimes.nearestCreated(runner, 560));
    assertEquals(1, PathTimes.nearestCreated(runner, 990)); // queued before the runner saw it created
    assertEquals(2, PathTimes.nearestCreated(runner, 5_000));
    assertEquals(0, PathTimes.nearestCreated(new long[][] {{7, 8}}, 1));
  }

  @Test
  void around_the_scheduler_are_the_watch_in_and_the_way_from_the_binding_sent_to_the_runner() {
    long ms = 1_000_000;
    var pods =
        List.of(
            new PathTimes.Pod(11 * ms, 11 * ms, 12 * ms, 14 * ms),
            new PathTimes.Pod(29 * ms, 30 * ms, 31 * ms, 33 * ms));
    long[][] runner = {{10 * ms, 15 * ms}, {30 * ms, 35 * ms}};

    var line = PathTimes.aroundTheScheduler(pods, runner);

    // in: 1 ms and -1 ms (the scheduler took the second in before the runner's watch saw it); out: 3 and 4 ms
    assertTrue(line.contains("created (runner) to queued -1.0/1.0"), line);
    assertTrue(line.contains("binding sent to seen bound (runner) 3.0/4.0"), line);
    assertEquals("no pod of the runner's to match", PathTimes.aroundTheScheduler(pods, new long[0][]));
  }

  @Test
  void a_line_that_is_not_four_instants_is_refused() {
    assertThrows(IllegalArgumentException.class, () -> PathTimes.Pod.parse("1 2 3"));
  }
}
