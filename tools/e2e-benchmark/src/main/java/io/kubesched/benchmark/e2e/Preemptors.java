package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * scheduler_perf's {@code churn} op of {@code PreemptionAsync} ({@code mode: create}, {@code
 * pod-high-priority.yaml}, {@code intervalMilliseconds: 200}): one {@linkplain Workload#preemptor preemptor}
 * created every {@link PodShape#PREEMPTOR_INTERVAL} while it is {@linkplain #resume() running}, up to the
 * workload's {@link Workload#preemptors()}, and a watch that sees when each is bound.
 *
 * <p>It starts paused. The run resumes it with the stream, pauses it while the scheduler is paused for the
 * backlog (so that preemptors keep their rate relative to the scheduler's running time, as in scheduler_perf
 * where the scheduler never stops, rather than piling up while it cannot act) and pauses it for good once the
 * backlog is placed. A tick that comes while a creation is still in flight is dropped, as a Go ticker drops
 * ticks its reader misses; a creation the API server refuses is counted ({@link #failed()}) and not retried,
 * as the churn op ignores its errors.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class Preemptors implements AutoCloseable {

  private final KubernetesClient admin;
  private final Workload workload;
  private final String schedulerName;
  private final PodTimes times = new PodTimes();
  private final Watch watch;
  private final ScheduledExecutorService ticker;
  private final AtomicInteger created = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicReference<@Nullable RuntimeException> lastFailure = new AtomicReference<>();
  private volatile boolean running;
  /** When the ticker last ran; read and written by the ticker's thread only. */
  private long lastTick = System.nanoTime();

  /**
   * @param schedulerName the {@code spec.schedulerName} of the preemptors: the contestant's
   * @throws IllegalArgumentException if the workload's shape does not preempt
   */
  Preemptors(KubernetesClient admin, Workload workload, String schedulerName) {
    if (!workload.shape().preempts()) {
      throw new IllegalArgumentException(workload.name() + " has no preemptors");
    }
    this.admin = admin;
    this.workload = workload;
    this.schedulerName = schedulerName;
    this.watch =
        admin
            .pods()
            .inNamespace(PodShape.PREEMPTION_HIGH)
            .withLabel(Workload.ROLE_LABEL, PodShape.PREEMPTOR)
            .watch(times);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var thread = new Thread(r, "benchmark-preemptors");
              thread.setDaemon(true);
              return thread;
            });
    long interval = PodShape.PREEMPTOR_INTERVAL.toNanos();
    ticker.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.NANOSECONDS);
  }

  private void tick() {
    long now = System.nanoTime();
    // A fixed-rate executor runs missed ticks back to back after a slow creation; a Go ticker drops them.
    boolean late = now - lastTick < PodShape.PREEMPTOR_INTERVAL.toNanos() / 2;
    lastTick = now;
    if (!running || late || created.get() >= workload.preemptors()) {
      return;
    }
    var pod = workload.preemptor(created.getAndIncrement(), schedulerName);
    try {
      admin.pods().inNamespace(PodShape.PREEMPTION_HIGH).resource(pod).create();
    } catch (RuntimeException e) {
      failed.incrementAndGet();
      lastFailure.set(e);
    }
  }

  /** Creates preemptors from the next tick on. */
  void resume() {
    running = true;
  }

  /** Creates no more preemptors until {@link #resume}. */
  void pause() {
    running = false;
  }

  /** How many the ticker has tried to create (created ones and {@link #failed()} ones). */
  int attempted() {
    return created.get();
  }

  /** How many the API server refused. */
  int failed() {
    return failed.get();
  }

  /** The last refusal, if any, for the log. */
  @Nullable RuntimeException lastFailure() {
    return lastFailure.get();
  }

  /** When each preemptor was seen created and seen bound. */
  PodTimes times() {
    return times;
  }

  @Override
  public void close() {
    running = false;
    ticker.shutdownNow();
    watch.close();
  }
}
