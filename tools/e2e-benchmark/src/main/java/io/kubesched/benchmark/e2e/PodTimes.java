package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * When each measured pod was first seen and first seen bound, by one watch and one clock: latency is "bound"
 * minus "created" as the watch observed them, the same way for every contestant.
 */
final class PodTimes implements Watcher<Pod> {

  private final Map<String, Long> created = new ConcurrentHashMap<>();
  private final Map<String, Long> bound = new ConcurrentHashMap<>();
  private volatile @Nullable WatcherException closedWith;
  private volatile long createdNanos;

  @Override
  public void eventReceived(Action action, Pod pod) {
    long now = System.nanoTime();
    var name = pod.getMetadata().getName();
    created.putIfAbsent(name, now);
    var nodeName = pod.getSpec().getNodeName();
    if (nodeName != null && !nodeName.isEmpty()) {
      bound.putIfAbsent(name, now);
    }
  }

  @Override
  public void onClose(WatcherException cause) {
    closedWith = cause;
  }

  /** Notes that the runner has created every pod of the phase. */
  void markCreated() {
    createdNanos = System.nanoTime();
  }

  /** When {@link #markCreated} was called. */
  long createdNanos() {
    return createdNanos;
  }

  /** How many pods it has seen, bound or not. */
  int seenCount() {
    return created.size();
  }

  int boundCount() {
    if (closedWith != null) {
      throw new IllegalStateException("the benchmark's pod watch closed", closedWith);
    }
    return bound.size();
  }

  /** Seconds from the first pod seen to the last pod seen bound. */
  double spanSeconds() {
    long first = created.values().stream().mapToLong(Long::longValue).min().orElse(0);
    return (lastBoundNanos(first) - first) / 1e9;
  }

  /** When the last pod was seen bound ({@link System#nanoTime()}), or {@code otherwise} if none was. */
  long lastBoundNanos(long otherwise) {
    return bound.values().stream().mapToLong(Long::longValue).max().orElse(otherwise);
  }

  /** Creation-to-bound latencies of the bound pods, in milliseconds, sorted. */
  double[] latenciesMillis() {
    return latenciesMillis(name -> true);
  }

  /** Creation-to-bound latencies of the bound pods whose names {@code which} accepts, in milliseconds, sorted. */
  double[] latenciesMillis(Predicate<String> which) {
    return bound.entrySet().stream()
        .filter(e -> which.test(e.getKey()))
        .mapToDouble(e -> (e.getValue() - created.get(e.getKey())) / 1e6)
        .sorted()
        .toArray();
  }

  /**
   * When each bound pod was first seen and first seen bound ({@link System#nanoTime()}), in order of the
   * first.
   */
  long[][] createdAndBound() {
    return bound.entrySet().stream()
        .map(e -> new long[] {created.get(e.getKey()), e.getValue()})
        .sorted(Comparator.comparingLong(pair -> pair[0]))
        .toArray(long[][]::new);
  }

  /**
   * When pod {@code name} was first seen bound ({@link System#nanoTime()}).
   *
   * @throws IllegalStateException if it was not
   */
  long boundNanos(String name) {
    var at = bound.get(name);
    if (at == null) {
      throw new IllegalStateException("pod " + name + " was not seen bound");
    }
    return at;
  }

  /** The nearest-rank percentile of sorted values; NaN when there are none. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
