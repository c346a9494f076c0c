package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.client.Watch;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What scheduler_perf's {@code churn} ops share here ({@link Preemptors}, {@link Churn}): a ticker that acts every
 * interval while {@linkplain #resume() running}, and a watch that sees the pods it creates created and bound.
 *
 * <p>It starts paused. A tick that comes while the last one's requests are still in flight is dropped, as a Go
 * ticker drops the ticks its reader misses; a request the API server refuses is counted ({@link #failed()}) and not
 * retried, as the churn op only logs its errors.
 *
 * <p>Thread safety: every method may be called from any thread; {@link #act()} runs on the ticker's thread only.
 */
abstract class PacedPods implements AutoCloseable {

  private final long intervalNanos;
  private final PodTimes times = new PodTimes();
  private final Watch watch;
  private final ScheduledExecutorService ticker;
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicReference<@Nullable RuntimeException> lastFailure = new AtomicReference<>();
  private volatile boolean running;
  /** When the ticker last ran; the ticker's thread's alone. */
  private long lastTick = System.nanoTime();

  /**
   * @param interval how often it acts
   * @param thread the ticker thread's name
   * @param watch starts the watch of the pods it creates, reporting to the times given
   */
  PacedPods(Duration interval, String thread, Function<PodTimes, Watch> watch) {
    this.intervalNanos = interval.toNanos();
    this.watch = watch.apply(times);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var named = new Thread(r, thread);
              named.setDaemon(true);
              return named;
            });
    ticker.scheduleAtFixedRate(this::tick, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
  }

  private void tick() {
    long now = System.nanoTime();
    // A fixed-rate executor runs missed ticks back to back after a slow request; a Go ticker drops them.
    boolean late = now - lastTick < intervalNanos / 2;
    lastTick = now;
    if (running && !late) {
      act();
    }
  }

  /** One tick's work, while running; on the ticker's thread. */
  abstract void act();

  /** Sends one request, counting a refusal. */
  final void request(Runnable request) {
    try {
      request.run();
    } catch (RuntimeException e) {
      failed.incrementAndGet();
      lastFailure.set(e);
    }
  }

  /** Acts from the next tick on. */
  final void resume() {
    running = true;
  }

  /** Acts no more until {@link #resume}. */
  final void pause() {
    running = false;
  }

  /** How many of its requests the API server refused. */
  final int failed() {
    return failed.get();
  }

  /** The last refusal, if any, for the log. */
  final @Nullable RuntimeException lastFailure() {
    return lastFailure.get();
  }

  /** When each pod it created was seen created and, once bound, seen bound. */
  final PodTimes times() {
    return times;
  }

  @Override
  public void close() {
    running = false;
    ticker.shutdownNow();
    watch.close();
  }
}
