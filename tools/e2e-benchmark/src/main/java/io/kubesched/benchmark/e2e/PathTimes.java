package io.kubesched.benchmark.e2e;

import io.kubesched.api.SchedulerMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Where this library's scheduler spends a pod's time, from inside its process: for each pod bound at its
 * first attempt, when it entered the queue, was taken off it, had its binding sent and had it answered, on
 * {@link System#nanoTime()}'s clock. On Linux that is {@code CLOCK_MONOTONIC}, one clock for every process of
 * the machine, so the runner can set these instants beside the ones its own watch saw: the pod created, the pod
 * bound. What lies outside them is the API server's watch delivering the pod to the scheduler and the binding
 * to the runner.
 *
 * <p>Recorded through {@link SchedulerMetrics}, which the loop calls on the binding thread in a fixed order for
 * a bound pod ({@link #bound}, {@link #attempt}, {@link #scheduled}), so thread-locals join the three calls.
 * Thread-safe; {@link #write} once the controller is closed.
 */
final class PathTimes implements SchedulerMetrics {

  /** One pod's way through the scheduler, each instant in nanoseconds of {@link System#nanoTime()}. */
  record Pod(long queued, long taken, long bindSent, long bound) {

    /** Queue wait: from entering the queue to being taken off it. */
    long queueWait() {
      return taken - queued;
    }

    /** The scheduling cycle and the hand-over to a binding thread: taken off the queue to binding sent. */
    long decision() {
      return bindSent - taken;
    }

    /** The binding request: sent to answered. */
    long bind() {
      return bound - bindSent;
    }

    /** The line {@link #write} writes for it. */
    String line() {
      return queued + " " + taken + " " + bindSent + " " + bound;
    }

    static Pod parse(String line) {
      var fields = line.trim().split(" ");
      if (fields.length != 4) {
        throw new IllegalArgumentException("not a pod's path: '" + line + "'");
      }
      return new Pod(
          Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]));
    }
  }

  private final ThreadLocal<long[]> bindAndAttempt = ThreadLocal.withInitial(() -> new long[2]);
  private final List<Pod> pods = new ArrayList<>();

  @Override
  public void bound(String profile, Duration took, boolean success) {
    bindAndAttempt.get()[0] = took.toNanos();
  }

  @Override
  public void attempt(String profile, Result result, Duration took) {
    bindAndAttempt.get()[1] = took.toNanos();
  }

  @Override
  public void scheduled(int attempts, Duration sinceFirstQueued) {
    long now = System.nanoTime();
    if (attempts != 1) {
      return; // its queue wait would hold backoffs
    }
    var durations = bindAndAttempt.get();
    var pod = new Pod(now - sinceFirstQueued.toNanos(), now - durations[1], now - durations[0], now);
    synchronized (pods) {
      pods.add(pod);
    }
  }

  /** Writes one line per pod, {@link Pod#line}. */
  void write(Path file) throws IOException {
    List<String> lines;
    synchronized (pods) {
      lines = pods.stream().map(Pod::line).collect(Collectors.toList());
    }
    Files.write(file, lines);
  }

  /**
   * The pods of a file {@link #write} wrote that entered the queue from {@code from} to {@code to}. By the queue
   * entry, not the binding's answer: the runner's watch may see a pod bound before the scheduler's own thread
   * has taken in the answer, so the answer can fall after a phase's last pod seen bound, and a phase's first
   * pod after the instant the runner saw it bound.
   */
  static List<Pod> read(Path file, long from, long to) throws IOException {
    var within = new ArrayList<Pod>();
    for (var line : Files.readAllLines(file)) {
      var pod = Pod.parse(line);
      if (pod.queued() >= from && pod.queued() <= to) {
        within.add(pod);
      }
    }
    return within;
  }

  /**
   * A line for the run's log: the median and 99th percentile of each part.
   *
   * @param watchMillis the runner's creation-to-bound latencies of the same phase, sorted
   */
  static String summary(List<Pod> pods, double[] watchMillis) {
    double[] sli = sortedMillis(pods, p -> p.bound() - p.queued());
    return String.format(
        Locale.ROOT,
        "scheduler's path of %d pods, p50/p99 ms: queue wait %s, decision and hand-over %s, bind %s; "
            + "queue to bound %s of the runner's created to bound %s (the rest: watches to the scheduler and back)",
        pods.size(),
        pair(sortedMillis(pods, Pod::queueWait)),
        pair(sortedMillis(pods, Pod::decision)),
        pair(sortedMillis(pods, Pod::bind)),
        pair(sli),
        pair(watchMillis));
  }

  /**
   * What lies outside the scheduler's path, pod by pod: from the runner's watch seeing the pod created to the
   * scheduler's queue taking it in (the API server's watch to the scheduler's informer, its handlers, less the
   * runner's own watch), and from the binding sent to the runner's watch seeing the pod bound (the request,
   * the API server's write, its watch back to the runner). The two watches see each event at about the same
   * time, so the first is what the scheduler's informer costs beyond a plain watch.
   *
   * <p>Each of the scheduler's pods is matched with the runner's pod seen created nearest to its queue entry:
   * right where pods come one at a time (the stream, one by one), not in a backlog.
   *
   * @param runner each bound pod's instants as the runner saw them, created then bound, in order of creation
   */
  static String aroundTheScheduler(List<Pod> pods, long[][] runner) {
    if (runner.length == 0) {
      return "no pod of the runner's to match";
    }
    var in = new double[pods.size()];
    var out = new double[pods.size()];
    for (int i = 0; i < pods.size(); i++) {
      var pod = pods.get(i);
      var nearest = runner[nearestCreated(runner, pod.queued())];
      in[i] = (pod.queued() - nearest[0]) / 1e6;
      out[i] = (nearest[1] - pod.bindSent()) / 1e6;
    }
    Arrays.sort(in);
    Arrays.sort(out);
    return "created (runner) to queued " + pair(in) + ", binding sent to seen bound (runner) " + pair(out);
  }

  /** @return the index of the runner's pod seen created nearest to {@code instant} */
  static int nearestCreated(long[][] runner, long instant) {
    int low = 0;
    int high = runner.length - 1;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (runner[middle][0] < instant) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    // low: the first created at or after the instant (or the last one); the one before may be nearer
    if (low > 0 && instant - runner[low - 1][0] < Math.abs(runner[low][0] - instant)) {
      return low - 1;
    }
    return low;
  }

  private static String pair(double[] sorted) {
    return String.format(
        Locale.ROOT, "%.1f/%.1f", PodTimes.percentile(sorted, 50), PodTimes.percentile(sorted, 99));
  }

  private static double[] sortedMillis(List<Pod> pods, ToLongFunction<Pod> part) {
    return pods.stream().mapToDouble(p -> part.applyAsLong(p) / 1e6).sorted().toArray();
  }
}
