package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * scheduler_perf's {@code churn} op for the shapes with pods that fit no node, while it is {@linkplain #resume()
 * running}, every {@link PodShape#churnInterval}:
 *
 * <ul>
 *   <li>{@link PodShape#UNSCHEDULABLE} ({@code mode: create}, no bound): one {@linkplain Workload#neverFittingPod
 *       pod that fits no node} created, and left;
 *   <li>{@link PodShape#MIXED_CHURN} ({@code mode: recreate}, {@code number: 1}): on one tick a {@linkplain
 *       Workload#churnNode node}, a pod that fits no node and a {@linkplain Workload#churnService Service} created,
 *       on the next the three deleted, and so on, each new object under a new name (kube's {@code generateName}).
 * </ul>
 *
 * <p>A watch of the pods that fit no node sees each created and whether any is bound ({@link #times()}). It starts
 * paused, and the run drives it as it drives {@link Preemptors}: running with the stream, paused while the
 * scheduler is paused, running again with the backlog, paused for good once the backlog is placed. A tick that
 * comes while the last one's requests are still in flight is dropped, as a Go ticker drops the ticks its reader
 * misses; a request the API server refuses is counted ({@link #failed()}) and not retried, as the churn op only
 * logs its errors. At {@link #close()} the objects of a recreate tick still there are left: the cluster goes with
 * the run.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class Churn implements AutoCloseable {

  private final KubernetesClient admin;
  private final Workload workload;
  private final String schedulerName;
  private final long intervalNanos;
  private final PodTimes times = new PodTimes();
  private final Watch watch;
  private final ScheduledExecutorService ticker;
  private final AtomicInteger podsCreated = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicReference<@Nullable RuntimeException> lastFailure = new AtomicReference<>();
  /** The objects a recreate tick created, to be deleted on the next; the ticker's thread's alone. */
  private final List<HasMetadata> live = new ArrayList<>();
  private volatile boolean running;
  /** Recreate ticks that created objects so far; the ticker's thread's alone. */
  private int recreations;
  /** When the ticker last ran; the ticker's thread's alone. */
  private long lastTick = System.nanoTime();

  /**
   * @param schedulerName the {@code spec.schedulerName} of the pods that fit no node: the contestant's
   * @throws IllegalArgumentException if the workload's shape has no churn
   */
  Churn(KubernetesClient admin, Workload workload, String schedulerName) {
    var interval =
        workload.shape().churnInterval()
            .orElseThrow(() -> new IllegalArgumentException(workload.name() + " has no churn"));
    this.admin = admin;
    this.workload = workload;
    this.schedulerName = schedulerName;
    this.intervalNanos = interval.toNanos();
    this.watch =
        admin.pods().inNamespace(PodShape.CHURN).withLabel(Workload.ROLE_LABEL, PodShape.NEVER_FITS).watch(times);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var thread = new Thread(r, "benchmark-churn");
              thread.setDaemon(true);
              return thread;
            });
    ticker.scheduleAtFixedRate(this::tick, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
  }

  private void tick() {
    long now = System.nanoTime();
    // A fixed-rate executor runs missed ticks back to back after a slow request; a Go ticker drops them.
    boolean late = now - lastTick < intervalNanos / 2;
    lastTick = now;
    if (!running || late) {
      return;
    }
    if (workload.shape() == PodShape.UNSCHEDULABLE) {
      var pod = nextPod();
      request(() -> admin.pods().resource(pod).create());
    } else if (live.isEmpty()) {
      int i = recreations++;
      var pod = nextPod();
      request(() -> live.add(admin.nodes().resource(Workload.churnNode(i)).create()));
      request(() -> live.add(admin.pods().resource(pod).create()));
      request(() -> live.add(admin.services().resource(Workload.churnService(i)).create()));
    } else {
      for (var object : live) {
        request(() -> admin.resource(object).delete());
      }
      live.clear();
    }
  }

  private Pod nextPod() {
    return workload.neverFittingPod(podsCreated.getAndIncrement(), schedulerName);
  }

  private void request(Runnable request) {
    try {
      request.run();
    } catch (RuntimeException e) {
      failed.incrementAndGet();
      lastFailure.set(e);
    }
  }

  /** Acts from the next tick on. */
  void resume() {
    running = true;
  }

  /** Acts no more until {@link #resume}. */
  void pause() {
    running = false;
  }

  /** How many pods that fit no node it has tried to create (the API server may have refused some). */
  int podsAttempted() {
    return podsCreated.get();
  }

  /** How many of its requests, of any kind, the API server refused. */
  int failed() {
    return failed.get();
  }

  /** The last refusal, if any, for the log. */
  @Nullable RuntimeException lastFailure() {
    return lastFailure.get();
  }

  /** When each pod that fits no node was seen created and, were one bound, seen bound. */
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
