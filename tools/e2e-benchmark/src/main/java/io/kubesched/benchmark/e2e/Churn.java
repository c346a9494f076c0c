package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

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
 * scheduler is paused, running again with the backlog, paused for good once the backlog is placed; ticks and
 * refusals as {@link PacedPods}. At {@link #close()} the objects of a recreate tick still there are left: the
 * cluster goes with the run.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class Churn extends PacedPods {

  private final KubernetesClient admin;
  private final Workload workload;
  private final String schedulerName;
  private final AtomicInteger podsCreated = new AtomicInteger();
  /** The objects a recreate tick created, to be deleted on the next; the ticker's thread's alone. */
  private final List<HasMetadata> live = new ArrayList<>();
  /** Recreate ticks that created objects so far; the ticker's thread's alone. */
  private int recreations;

  /**
   * @param schedulerName the {@code spec.schedulerName} of the pods that fit no node: the contestant's
   * @throws IllegalArgumentException if the workload's shape has no churn
   */
  Churn(KubernetesClient admin, Workload workload, String schedulerName) {
    super(
        workload.shape().churnInterval()
            .orElseThrow(() -> new IllegalArgumentException(workload.name() + " has no churn")),
        "benchmark-churn",
        times -> admin.pods().inNamespace(PodShape.CHURN).withLabel(Workload.ROLE_LABEL, PodShape.NEVER_FITS)
            .watch(times));
    this.admin = admin;
    this.workload = workload;
    this.schedulerName = schedulerName;
  }

  @Override
  void act() {
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

  /** How many pods that fit no node it has tried to create (the API server may have refused some). */
  int podsAttempted() {
    return podsCreated.get();
  }
}
