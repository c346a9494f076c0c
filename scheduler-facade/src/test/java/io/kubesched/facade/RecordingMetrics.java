package io.kubesched.facade;

import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** Counts attempts by result and reads the queue's counts, as a metrics backend would. Thread-safe. */
final class RecordingMetrics implements SchedulerMetrics {

  private final Map<Result, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private final AtomicReference<Supplier<PendingPods>> pending = new AtomicReference<>();

  @Override
  public void attempt(String profile, Result result, Duration took) {
    attempts.computeIfAbsent(result, r -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public void pendingPods(Supplier<PendingPods> pending) {
    this.pending.set(pending);
  }

  @Override
  public void close() {
    pending.set(null);
  }

  /** @return the attempts that ended with {@code result} so far */
  int attempts(Result result) {
    var count = attempts.get(result);
    return count == null ? 0 : count.get();
  }

  /** @return the pods waiting now, or null before a controller started or after it closed */
  PendingPods pending() {
    var supplier = pending.get();
    return supplier == null ? null : supplier.get();
  }
}
