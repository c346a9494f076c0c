package io.kubesched.benchmark.e2e;

import io.kubesched.api.SchedulerMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

  private static String pair(double[] sorted) {
    return String.format(
        Locale.ROOT, "%.1f/%.1f", PodTimes.percentile(sorted, 50), PodTimes.percentile(sorted, 99));
  }

  private static double[] sortedMillis(List<Pod> pods, ToLongFunction<Pod> part) {
    return pods.stream().mapToDouble(p -> part.applyAsLong(p) / 1e6).sorted().toArray();
  }
}
