package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One run: a fresh cluster, the workload's nodes and initial pods, one contestant started and warmed by a
 * probe pod, then the measured pods created by {@value #CREATORS} threads while it places them.
 */
final class BenchmarkRun {

  /** Threads creating objects; enough that creation outpaces every contestant on a small machine. */
  static final int CREATORS = 16;

  /**
   * What a run needs besides its workload.
   *
   * @param stall a run ends when no measured pod has been bound for this long (the rest count as pending)
   */
  record Settings(
      Path projectDir,
      Path kubeScheduler,
      Path jar,
      double qps,
      int burst,
      @Nullable Path jfrDir,
      Path workDir,
      Duration stall) {}

  private final Settings settings;
  private final Workload workload;
  private final Contestant contestant;
  private final int repetition;
  private final String name;
  private final PrintStream log;

  BenchmarkRun(Settings settings, Workload workload, Contestant contestant, int repetition, PrintStream log) {
    this.settings = settings;
    this.workload = workload;
    this.contestant = contestant;
    this.repetition = repetition;
    this.name = workload.name() + "-" + contestant.schedulerName() + "-" + repetition;
    this.log = log;
  }

  RunResult run() throws IOException, InterruptedException, ExecutionException {
    long start = System.nanoTime();
    try (var cluster = TestCluster.start(settings.projectDir(), settings.workDir().resolve(name));
        var creators = new Creators()) {
      var admin = cluster.admin();
      populate(admin, creators);
      progress("populated: %d nodes, %d bound pods", workload.nodes(), workload.initialPods());
      try (var scheduler = startScheduler(cluster);
          var ceiling = contestant == Contestant.CEILING ? new CeilingBinder(admin, workload.nodes()) : null) {
        awaitProbe(admin, scheduler, ceiling);
        double cpuAtProbe = scheduler == null ? Double.NaN : scheduler.cpuSeconds();
        var times = new PodTimes();
        try (var watch =
            admin
                .pods()
                .inNamespace(Workload.NAMESPACE)
                .withLabel(Workload.MEASURED_LABEL)
                .watch(times)) {
          long createStart = System.nanoTime();
          creators.run(
              workload.pods(),
              i -> create(admin, workload.pod(podName(i), contestant.schedulerName(), null, true)));
          double createdPerSecond = workload.pods() / ((System.nanoTime() - createStart) / 1e9);
          progress("created %d pods (%.0f/s)", workload.pods(), createdPerSecond);
          awaitBound(times, scheduler, ceiling);
          double cpu = scheduler == null ? Double.NaN : scheduler.cpuSeconds();
          double rss = scheduler == null ? Double.NaN : scheduler.peakRssBytes() / (1024.0 * 1024);
          var latencies = times.latenciesMillis();
          var spread = Spread.of(admin);
          var result =
              new RunResult(
                  workload,
                  contestant,
                  repetition,
                  times.boundCount(),
                  spread.pending(),
                  times.boundCount() / times.spanSeconds(),
                  createdPerSecond,
                  PodTimes.percentile(latencies, 50),
                  PodTimes.percentile(latencies, 90),
                  PodTimes.percentile(latencies, 99),
                  cpu - cpuAtProbe,
                  cpu,
                  rss,
                  spread.cpu(),
                  spread.memory());
          progress(
              "%d bound, %d pending, %.0f pods/s, p50 %.0f ms, p99 %.0f ms, CPU %.1f s, RSS %.0f MiB (run took %.0f s)",
              result.bound(), result.pending(), result.podsPerSecond(), result.p50Millis(), result.p99Millis(),
              result.cpuSeconds(), result.peakRssMiB(), (System.nanoTime() - start) / 1e9);
          return result;
        }
      }
    }
  }

  private void populate(KubernetesClient admin, Creators creators) throws InterruptedException, ExecutionException {
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(Workload.NAMESPACE).endMetadata().build())
        .create();
    creators.run(workload.nodes(), i -> admin.nodes().resource(workload.node(i)).create());
    creators.run(
        workload.initialPods(),
        i ->
            create(
                admin,
                workload.pod(
                    "initial-" + i, "default-scheduler", Workload.nodeName(i % workload.nodes()), false)));
  }

  private @Nullable SchedulerProcess startScheduler(TestCluster cluster) throws IOException {
    return switch (contestant) {
      case KUBE_SCHEDULER -> SchedulerProcess.kubeScheduler(
          settings.kubeScheduler(), cluster.adminKubeconfig(), settings.qps(), settings.burst(),
          settings.workDir(), name);
      case KUBESCHED -> SchedulerProcess.kubesched(
          settings.jar(), cluster.adminKubeconfig(), contestant.schedulerName(), settings.qps(),
          settings.burst(), settings.jfrDir(), settings.workDir(), name);
      case CEILING -> null;
    };
  }

  /** Waits until one unmeasured pod is bound: the scheduler has synced its caches and is placing pods. */
  private void awaitProbe(KubernetesClient admin, @Nullable SchedulerProcess scheduler, @Nullable CeilingBinder ceiling)
      throws InterruptedException, IOException {
    create(admin, workload.pod("probe", contestant.schedulerName(), null, false));
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      checkContestant(scheduler, ceiling);
      var probe = admin.pods().inNamespace(Workload.NAMESPACE).withName("probe").get();
      if (probe.getSpec().getNodeName() != null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            contestant.label() + " did not bind the probe pod within 3 minutes"
                + (scheduler == null ? "" : "; its log ends:\n" + scheduler.tail()));
      }
      Thread.sleep(100);
    }
  }

  private void awaitBound(PodTimes times, @Nullable SchedulerProcess scheduler, @Nullable CeilingBinder ceiling)
      throws InterruptedException, IOException {
    int lastCount = -1;
    long lastProgress = System.nanoTime();
    long lastReport = lastProgress;
    while (true) {
      checkContestant(scheduler, ceiling);
      int count = times.boundCount();
      long now = System.nanoTime();
      if (count >= workload.pods()) {
        return;
      }
      if (count != lastCount) {
        lastCount = count;
        lastProgress = now;
      } else if (now - lastProgress > settings.stall().toNanos()) {
        progress("no pod bound for %d s; %d of %d are still pending", settings.stall().toSeconds(),
            workload.pods() - count, workload.pods());
        return;
      }
      if (now - lastReport > Duration.ofSeconds(10).toNanos()) {
        lastReport = now;
        progress("%d of %d bound", count, workload.pods());
      }
      Thread.sleep(50);
    }
  }

  private static void checkContestant(@Nullable SchedulerProcess scheduler, @Nullable CeilingBinder ceiling)
      throws IOException {
    if (scheduler != null) {
      scheduler.checkAlive();
    }
    if (ceiling != null) {
      ceiling.check();
    }
  }

  private static void create(KubernetesClient admin, Pod pod) {
    admin.pods().inNamespace(Workload.NAMESPACE).resource(pod).create();
  }

  static String podName(int i) {
    return String.format("pod-%05d", i);
  }

  private void progress(String format, Object... args) {
    log.printf("[%s #%d %s] %s%n", workload.name(), repetition, contestant.label(), String.format(format, args));
  }

  /**
   * The placement left behind: the spread of per-node utilisation over all nodes (initial, probe and measured
   * pods counted) and the measured pods left pending.
   */
  record Spread(double cpu, double memory, int pending) {

    static Spread of(KubernetesClient admin) {
      var allocatable = new HashMap<String, long[]>();
      for (Node node : admin.nodes().list().getItems()) {
        var a = node.getStatus().getAllocatable();
        allocatable.put(node.getMetadata().getName(), new long[] {milli(a.get("cpu")), units(a.get("memory"))});
      }
      var requested = new HashMap<String, long[]>();
      int pending = 0;
      for (Pod pod : admin.pods().inNamespace(Workload.NAMESPACE).list().getItems()) {
        var node = pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
          pending += pod.getMetadata().getLabels().containsKey(Workload.MEASURED_LABEL) ? 1 : 0;
          continue;
        }
        var sum = requested.computeIfAbsent(node, n -> new long[2]);
        for (var container : pod.getSpec().getContainers()) {
          var r = container.getResources().getRequests();
          sum[0] += milli(r.get("cpu"));
          sum[1] += units(r.get("memory"));
        }
      }
      var cpu = new ArrayList<Double>();
      var memory = new ArrayList<Double>();
      for (Map.Entry<String, long[]> e : allocatable.entrySet()) {
        var used = requested.getOrDefault(e.getKey(), new long[2]);
        cpu.add(100.0 * used[0] / e.getValue()[0]);
        memory.add(100.0 * used[1] / e.getValue()[1]);
      }
      return new Spread(stddev(cpu), stddev(memory), pending);
    }

    private static long milli(Quantity q) {
      return q.getNumericalAmount().multiply(BigDecimal.valueOf(1000)).longValue();
    }

    private static long units(Quantity q) {
      return q.getNumericalAmount().longValue();
    }

    static double stddev(List<Double> values) {
      double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
      return values.isEmpty() ? 0 : Math.sqrt(squares / values.size());
    }
  }

  /** A pool of {@value #CREATORS} threads running one action per index. */
  private static final class Creators implements AutoCloseable {

    private final ExecutorService pool = Executors.newFixedThreadPool(CREATORS);

    void run(int count, IntConsumer action) throws InterruptedException, ExecutionException {
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < CREATORS; t++) {
        int first = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = first; i < count; i += CREATORS) {
                    action.accept(i);
                  }
                }));
      }
      for (var future : futures) {
        future.get();
      }
    }

    @Override
    public void close() {
      pool.shutdownNow();
    }
  }
}
