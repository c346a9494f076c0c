package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steady stream of pods a trial runs under, created by the admin client at a fixed rate in a cycle of six:
 * two that fit anywhere, one gated (its gate removed {@value #UNGATE_AFTER_MS} ms later), one with required
 * anti-affinity to its group on the hostname (groups one smaller than the node count, so each fits), one that
 * selects a node label no node has, and one of a topology spread group ({@value #SPREAD_GROUP_SIZE} pods,
 * {@code DoNotSchedule}, {@code maxSkew} {@value #MAX_SKEW} over the {@value #ZONE} label the runner puts on
 * every node). A create that fails (the API server is down) is skipped and counted; an
 * ungating that fails is retried every second until {@link #ungateAll}.
 *
 * <p>Threads: one scheduler thread creates and ungates; {@link #stop} and {@link #ungateAll} from the runner's.
 */
final class PodStream implements AutoCloseable {

  static final String KIND = "drills.kubesched.io/kind";
  static final String ANTI_GROUP = "drills.kubesched.io/anti-group";
  static final String GATE = "drills.kubesched.io/gate";
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String SPREAD_GROUP = "drills.kubesched.io/spread-group";
  static final int MAX_SKEW = 1;
  static final int SPREAD_GROUP_SIZE = 6;
  private static final long UNGATE_AFTER_MS = 2000;
  private static final Logger LOG = LoggerFactory.getLogger(PodStream.class);

  private final KubernetesClient admin;
  private final String namespace;
  private final String schedulerName;
  private final String prefix;
  private final int groupSize;
  private final ScheduledExecutorService executor;
  private final Set<String> gated = ConcurrentHashMap.newKeySet();
  private final Map<String, Snapshot.Kind> createdPods = new ConcurrentHashMap<>();
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicInteger created = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();

  /**
   * Starts creating pods named {@code prefix-N} at {@code perSecond}.
   *
   * @param nodes how many nodes there are: anti-affinity groups have {@code nodes - 1} pods
   */
  PodStream(KubernetesClient admin, String namespace, String schedulerName, String prefix, double perSecond, int nodes) {
    this.admin = admin;
    this.namespace = namespace;
    this.schedulerName = schedulerName;
    this.prefix = prefix;
    this.groupSize = Math.max(1, nodes - 1);
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      var thread = new Thread(r, "drills-stream");
      thread.setDaemon(true);
      return thread;
    });
    executor.scheduleAtFixedRate(this::createNext, 0, (long) (1_000_000 / perSecond), TimeUnit.MICROSECONDS);
    executor.scheduleWithFixedDelay(this::ungateDue, 1, 1, TimeUnit.SECONDS);
  }

  /** @return how many pods were created so far */
  int created() {
    return created.get();
  }

  /** @return the name and kind of every pod created so far */
  Map<String, Snapshot.Kind> createdPods() {
    return Map.copyOf(createdPods);
  }

  /** @return how many creates failed (the pod may or may not exist) */
  int failed() {
    return failed.get();
  }

  /**
   * Stops creating pods {@code delay} from now, without waiting for it; the gated ones stay gated until {@link
   * #ungateAll}. Once only, before {@link #stop}.
   */
  void stopAfter(Duration delay) {
    executor.schedule(executor::shutdown, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops creating pods; the gated ones stay gated until {@link #ungateAll}. */
  void stop() throws InterruptedException {
    executor.shutdown();
    executor.awaitTermination(30, TimeUnit.SECONDS);
  }

  /** Removes the gate of every pod still gated, retrying each until it succeeds or the pod is gone. */
  void ungateAll() throws InterruptedException {
    while (!gated.isEmpty()) {
      ungateDue();
      if (!gated.isEmpty()) {
        Thread.sleep(500);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    executor.shutdownNow();
    executor.awaitTermination(30, TimeUnit.SECONDS);
  }

  private void createNext() {
    int n = sequence.getAndIncrement();
    var name = prefix + "-" + n;
    var kind = switch (n % 6) {
      case 2 -> Snapshot.Kind.GATED;
      case 3 -> Snapshot.Kind.ANTI_AFFINITY;
      case 4 -> Snapshot.Kind.UNSCHEDULABLE;
      case 5 -> Snapshot.Kind.SPREAD;
      default -> Snapshot.Kind.PLACEABLE;
    };
    var group = switch (kind) {
      case ANTI_AFFINITY -> prefix + "-g" + (n / 6) / groupSize;
      case SPREAD -> prefix + "-s" + (n / 6) / SPREAD_GROUP_SIZE;
      default -> null;
    };
    var pod = pod(namespace, schedulerName, name, kind, group, "100m", "64Mi");
    try {
      admin.pods().inNamespace(namespace).resource(pod).create();
      created.incrementAndGet();
      createdPods.put(name, kind);
      if (kind == Snapshot.Kind.GATED) {
        gated.add(name);
      }
    } catch (KubernetesClientException e) {
      failed.incrementAndGet();
      LOG.debug("creating {} failed: {}", name, e.getMessage());
    }
  }

  /**
   * Builds one pod of the stream's.
   *
   * @param kind what it is to be; its label {@value #KIND} says so
   * @param group its anti-affinity group (kind {@code ANTI_AFFINITY}) or spread group (kind {@code SPREAD});
   *     null for the other kinds
   * @param cpu its CPU request, such as {@code 100m}
   * @param memory its memory request, such as {@code 64Mi}
   */
  static Pod pod(String namespace, String schedulerName, String name, Snapshot.Kind kind, @Nullable String group,
      String cpu, String memory) {
    var builder = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata();
    var spec = new PodSpecBuilder()
        .withSchedulerName(schedulerName)
        .addNewContainer().withName("c").withImage("pause")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory))).endResources()
        .endContainer();
    switch (kind) {
      case GATED -> spec.addNewSchedulingGate(GATE);
      case ANTI_AFFINITY -> {
        builder.editMetadata().addToLabels(ANTI_GROUP, Objects.requireNonNull(group, "group")).endMetadata();
        spec.withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
            .withTopologyKey(HOSTNAME)
            .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels(ANTI_GROUP, group).build())
            .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity();
      }
      case UNSCHEDULABLE -> spec.addToNodeSelector("drills.kubesched.io/no-such-label", "true");
      case SPREAD -> {
        builder.editMetadata().addToLabels(SPREAD_GROUP, Objects.requireNonNull(group, "group")).endMetadata();
        spec.addNewTopologySpreadConstraint().withMaxSkew(MAX_SKEW).withTopologyKey(ZONE)
            .withWhenUnsatisfiable("DoNotSchedule")
            .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels(SPREAD_GROUP, group).build())
            .endTopologySpreadConstraint();
      }
      case PLACEABLE -> {}
    }
    return builder.editMetadata().addToLabels(KIND, kind.name()).endMetadata().withSpec(spec.build()).build();
  }

  private void ungateDue() {
    for (var name : Set.copyOf(gated)) {
      try {
        var pod = admin.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
          gated.remove(name);
          continue;
        }
        if (System.currentTimeMillis() - creationMillis(pod) < UNGATE_AFTER_MS) {
          continue;
        }
        admin.pods().inNamespace(namespace).withName(name)
            .edit(p -> new PodBuilder(p).editSpec().withSchedulingGates().endSpec().build());
        gated.remove(name);
      } catch (KubernetesClientException e) {
        LOG.debug("ungating {} failed, retried: {}", name, e.getMessage());
      }
    }
  }

  private static long creationMillis(Pod pod) {
    return java.time.Instant.parse(pod.getMetadata().getCreationTimestamp()).toEpochMilli();
  }
}
