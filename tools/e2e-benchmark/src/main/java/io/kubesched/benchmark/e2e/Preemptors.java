package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * scheduler_perf's {@code churn} op of {@code PreemptionAsync} ({@code mode: create}, {@code
 * pod-high-priority.yaml}, {@code intervalMilliseconds: 200}): one {@linkplain Workload#preemptor preemptor}
 * created every {@link PodShape#PREEMPTOR_INTERVAL} while it is {@linkplain #resume() running}, up to the
 * workload's {@link Workload#preemptors()}, and a watch that sees when each is bound.
 *
 * <p>The run resumes it with the stream, pauses it while the scheduler is paused for the backlog (so that
 * preemptors keep their rate relative to the scheduler's running time, as in scheduler_perf where the scheduler
 * never stops, rather than piling up while it cannot act) and pauses it for good once the backlog is placed; ticks
 * and refusals as {@link PacedPods}.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class Preemptors extends PacedPods {

  private final KubernetesClient admin;
  private final Workload workload;
  private final String schedulerName;
  private final AtomicInteger created = new AtomicInteger();

  /**
   * @param schedulerName the {@code spec.schedulerName} of the preemptors: the contestant's
   * @throws IllegalArgumentException if the workload's shape does not preempt
   */
  Preemptors(KubernetesClient admin, Workload workload, String schedulerName) {
    super(interval(workload), "benchmark-preemptors", times -> admin
        .pods()
        .inNamespace(PodShape.PREEMPTION_HIGH)
        .withLabel(Workload.ROLE_LABEL, PodShape.PREEMPTOR)
        .watch(times));
    this.admin = admin;
    this.workload = workload;
    this.schedulerName = schedulerName;
  }

  private static Duration interval(Workload workload) {
    if (!workload.shape().preempts()) {
      throw new IllegalArgumentException(workload.name() + " has no preemptors");
    }
    return PodShape.PREEMPTOR_INTERVAL;
  }

  @Override
  void act() {
    if (created.get() >= workload.preemptors()) {
      return;
    }
    var pod = workload.preemptor(created.getAndIncrement(), schedulerName);
    request(() -> admin.pods().inNamespace(PodShape.PREEMPTION_HIGH).resource(pod).create());
  }

  /** How many the ticker has tried to create (created ones and {@link #failed()} ones). */
  int attempted() {
    return created.get();
  }
}
