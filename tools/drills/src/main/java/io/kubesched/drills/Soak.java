package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.testcluster.TestCluster;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The soak: this library's scheduler (in this process, as the restricted identity of docs/operations.md's RBAC, default options,
 * {@link DefaultPolicy}) on a fresh real cluster of many nodes for a long time, under churn: pods created at a
 * steady rate and each deleted a fixed time after its creation, bound or not. Every interval it samples the
 * heap after a full GC, the thread count, how many pods were bound in the interval and their creation-to-bound
 * latency (p50, p99; both ends seen by one watch of the runner, one clock), how many pods that fit are
 * waiting longer than they should, and the scheduler's view against the API server's. At the end: whether
 * heap, threads or p99 have an upward trend (a {@link Trend} over the samples after the warm-up), the classes
 * whose live bytes grew most from the end of the warm-up to the end ({@link ClassHistogram}), and whether
 * anything is left in the scheduler's view once every pod is deleted.
 *
 * <p>The pods, in a cycle of ten: eight that fit anywhere (100m CPU, 64 MiB), one with required anti-affinity
 * on {@code kubernetes.io/hostname} to its group of twenty, one selecting a node label no node has (it waits,
 * unschedulable, until deleted). Runs on the caller's thread; the churn on two threads of its own.
 */
final class Soak {

  static final String NAMESPACE = "soak";
  static final String SCHEDULER = "kubesched-soak";
  private static final String KIND = "soak.kubesched.io/kind";
  private static final String GROUP = "soak.kubesched.io/group";
  private static final String UNSCHEDULABLE = "unschedulable";
  /** A pod that fits and waits longer than this at a sample counts as late. */
  private static final Duration LATE = Duration.ofSeconds(10);

  /**
   * @param project the checkout, for {@code tools/test-cluster/cluster.sh} and the RBAC of docs/operations.md
   * @param length how long the churn runs
   * @param interval the time between two samples
   * @param warmup samples taken before this are shown but left out of the trends
   * @param nodes how many nodes (4 CPU, 8 GiB, 110 pods each)
   * @param rate pods created per second
   * @param lifetime how long after its creation each pod is deleted
   */
  record Settings(Path project, Duration length, Duration interval, Duration warmup, int nodes, double rate,
      Duration lifetime) {}

  /**
   * One interval's sample.
   *
   * @param minute the end of the interval, in minutes from the start of the churn
   * @param created pods created in the interval
   * @param bound pods seen bound in the interval
   * @param p50Millis the median creation-to-bound latency of those, -1 when none
   * @param p99Millis their 99th percentile (nearest rank), -1 when none
   * @param late pods that fit, unbound, created more than {@link #LATE} before the sample
   * @param heapMiB heap used after a full GC
   * @param threads the process's live threads
   * @param cachePods pods in the scheduler's view of the nodes (bound and assumed)
   * @param boundPods pods the runner's watch has bound at the same moment
   */
  record Sample(double minute, int created, int bound, long p50Millis, long p99Millis, int late, long heapMiB,
      int threads, int cachePods, int boundPods) {}

  /**
   * What a soak found.
   *
   * @param samples one per interval
   * @param warmupSamples how many of the first samples the trends leave out
   * @param grown the classes whose live bytes grew most from the end of the warm-up to the end
   * @param leftInView pods still in the scheduler's view after every pod was deleted and the settle passed
   * @param createFailures creates or deletes the API server refused
   */
  record Outcome(List<Sample> samples, int warmupSamples, List<ClassHistogram.Change> grown, int leftInView,
      int createFailures) {

    List<Sample> measured() {
      return samples.subList(Math.min(warmupSamples, samples.size()), samples.size());
    }
  }

  private final Settings settings;
  private final PrintStream log;
  private final Map<String, Long> waiting = new ConcurrentHashMap<>(); // uid → nanoTime first seen unbound, pods that fit
  private final List<Long> latencies = new ArrayList<>(); // guarded by itself
  private final AtomicInteger created = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger sequence = new AtomicInteger();

  Soak(Settings settings, PrintStream log) {
    this.settings = settings;
    this.log = log;
  }

  Outcome run() throws Exception {
    try (var cluster = TestCluster.builder(settings.project()).start()) {
      var admin = cluster.admin();
      cluster.applyDocumentedRbac();
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
      createNodes(admin);
      var informer = admin.pods().inNamespace(NAMESPACE).inform(new Watcher(), 0);
      try (var client = Client.create(Options.builder().kubeconfig(cluster.schedulerKubeconfig())
              .schedulerName(SCHEDULER).build());
          var controller = client.newPodController(DefaultPolicy.create())) {
        controller.start();
        var churn = new ScheduledThreadPoolExecutor(2, r -> {
          var thread = new Thread(r, "soak-churn");
          thread.setDaemon(true);
          return thread;
        });
        var samples = new ArrayList<Sample>();
        ClassHistogram afterWarmup = null;
        int warmupSamples = (int) (settings.warmup().toNanos() / settings.interval().toNanos());
        long start = System.nanoTime();
        churn.scheduleAtFixedRate(() -> createOne(admin, churn), 0, (long) (1_000_000 / settings.rate()),
            TimeUnit.MICROSECONDS);
        int createdBefore = 0;
        while (System.nanoTime() - start < settings.length().toNanos()) {
          long next = start + (samples.size() + 1) * settings.interval().toNanos();
          Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
          int createdNow = created.get();
          var sample = sample((System.nanoTime() - start) / 60e9, createdNow - createdBefore, controller,
              informer.getStore().list());
          createdBefore = createdNow;
          samples.add(sample);
          log.println("soak " + sample);
          if (samples.size() == warmupSamples) {
            afterWarmup = ClassHistogram.ofThisProcess();
          }
        }
        // Let a create or delete in progress finish (interrupted, it would count as refused); drop the deletes
        // still waiting: the namespace is emptied below.
        churn.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        churn.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        churn.shutdown();
        churn.awaitTermination(30, TimeUnit.SECONDS);
        var grown = afterWarmup == null ? List.<ClassHistogram.Change>of()
            : ClassHistogram.ofThisProcess().grownSince(afterWarmup, 15);
        admin.pods().inNamespace(NAMESPACE).withGracePeriod(0).delete();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline && (cachePods(controller) > 0
            || !admin.pods().inNamespace(NAMESPACE).list().getItems().isEmpty())) {
          Thread.sleep(500);
        }
        return new Outcome(samples, warmupSamples, grown, cachePods(controller), failures.get());
      } finally {
        informer.close();
      }
    }
  }

  private static final String USAGE =
      """
      usage: Drills --soak MINUTES --project DIR --out FILE [--data FILE] [--nodes N] [--rate PODS/S] [--lifetime SECONDS]
                    [--interval SECONDS] [--warmup MINUTES]
        --soak      how long the churn runs, in minutes (the spec's soak: 60)
        --data      the samples as data (default: --out's name with .json)
        --nodes     nodes of 4 CPU, 8 GiB, 110 pods (default 500)
        --rate      pods created per second (default 10)
        --lifetime  each pod is deleted this long after its creation (default 60)
        --interval  seconds between samples (default 60)
        --warmup    minutes of samples left out of the trends (default 10)
      """;

  /** The soak's command line ({@code --soak} selects it in {@link Drills}): 0 no growth, 1 growth, 2 usage. */
  static int command(String[] args, PrintStream log) throws Exception {
    Path project = null;
    Path out = null;
    Path data = null;
    String revision = "unknown";
    double minutes = 0;
    int nodes = 500;
    double rate = 10;
    int lifetime = 60;
    int interval = 60;
    double warmup = 10;
    for (int i = 0; i < args.length; i++) {
      var flag = args[i];
      if (flag.equals("--help")) {
        log.print(USAGE);
        return 0;
      }
      if (i + 1 >= args.length) {
        log.print("missing value after " + flag + "\n" + USAGE);
        return 2;
      }
      var value = args[++i];
      try {
        switch (flag) {
          case "--soak" -> minutes = Double.parseDouble(value);
          case "--project" -> project = Path.of(value);
          case "--out" -> out = Path.of(value);
          case "--data" -> data = Path.of(value);
          case "--revision" -> revision = value;
          case "--nodes" -> nodes = Integer.parseInt(value);
          case "--rate" -> rate = Double.parseDouble(value);
          case "--lifetime" -> lifetime = Integer.parseInt(value);
          case "--interval" -> interval = Integer.parseInt(value);
          case "--warmup" -> warmup = Double.parseDouble(value);
          default -> {
            log.print("unknown option " + flag + " for --soak\n" + USAGE);
            return 2;
          }
        }
      } catch (NumberFormatException e) {
        log.print("not a number after " + flag + ": " + value + "\n" + USAGE);
        return 2;
      }
    }
    if (project == null || out == null || minutes <= 0 || nodes < 1 || rate <= 0 || lifetime < 1 || interval < 1) {
      log.print("--project and --out are required; --soak > 0, --nodes ≥ 1, --rate > 0, --lifetime ≥ 1, --interval ≥ 1\n"
          + USAGE);
      return 2;
    }
    var settings = new Settings(project, Duration.ofMillis((long) (minutes * 60_000)), Duration.ofSeconds(interval),
        Duration.ofMillis((long) (warmup * 60_000)), nodes, rate, Duration.ofSeconds(lifetime));
    if (data == null) {
      data = io.kubesched.testcluster.RunRecord.beside(out);
    }
    var started = java.time.Instant.now();
    var outcome = new Soak(settings, log).run();
    var command = Drills.command(args);
    var report = markdown(command, settings, outcome);
    java.nio.file.Files.writeString(out, report);
    io.kubesched.testcluster.RunRecord.write(data, RunData.soakRecord(revision, "scripts/drills.sh " + command,
        settings, started, java.time.Instant.now(), outcome, verdicts(outcome)));
    log.print(report);
    return verdicts(outcome).isEmpty() ? 0 : 1;
  }

  /**
   * @return what the soak found wrong: a heap that grows by more than a tenth of its median or 16 MiB over the
   *     measured samples, threads by more than 5, p99 latency by more than half its median or 100 ms; pods
   *     left in the scheduler's view at the end. Empty when none.
   */
  static List<String> verdicts(Outcome outcome) {
    var measured = outcome.measured();
    var problems = new ArrayList<String>();
    var heap = measured.stream().map(Sample::heapMiB).toList();
    if (Trend.grows(heap, Math.max(16, median(heap) / 10.0))) {
      problems.add(String.format("heap after GC grows %.2f MiB a sample", Trend.slope(heap)));
    }
    var threads = measured.stream().map(Sample::threads).toList();
    if (Trend.grows(threads, 5)) {
      problems.add(String.format("threads grow %.2f a sample", Trend.slope(threads)));
    }
    var p99 = measured.stream().map(Sample::p99Millis).filter(v -> v >= 0).toList();
    if (Trend.grows(p99, Math.max(100, median(p99) / 2.0))) {
      problems.add(String.format("p99 latency grows %.1f ms a sample", Trend.slope(p99)));
    }
    if (outcome.leftInView() > 0) {
      problems.add(outcome.leftInView() + " pods left in the scheduler's view after every pod was deleted");
    }
    return problems;
  }

  private static double median(List<? extends Number> values) {
    var sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
  }

  /** @return the soak's Markdown report: settings, verdict, trends, every sample, the classes that grew */
  static String markdown(String command, Settings settings, Outcome outcome) {
    var text = new StringBuilder();
    var measured = outcome.measured();
    var problems = verdicts(outcome);
    text.append(String.format("Command: `scripts/drills.sh %s`: %d nodes, %s pods/s, each deleted %d s after its "
            + "creation, a sample every %d s, the first %d samples left out of the trends.%n%n", command,
        settings.nodes(), settings.rate(), settings.lifetime().toSeconds(), settings.interval().toSeconds(),
        outcome.warmupSamples()));
    text.append(problems.isEmpty() ? "Verdict: no growth." : "Verdict: " + String.join("; ", problems) + ".")
        .append(String.format(" Trends over the %d measured samples (Theil–Sen slope per sample): heap after GC "
                + "%+.3f MiB, threads %+.3f, p99 %+.2f ms. Pods left in the scheduler's view at the end: %d. "
                + "Creates or deletes refused: %d.%n%n", measured.size(),
            Trend.slope(measured.stream().map(Sample::heapMiB).toList()),
            Trend.slope(measured.stream().map(Sample::threads).toList()),
            Trend.slope(measured.stream().map(Sample::p99Millis).filter(v -> v >= 0).toList()),
            outcome.leftInView(), outcome.createFailures()));
    text.append("| minute | created | bound | p50 ms | p99 ms | late | heap after GC MiB | threads | "
        + "scheduler's view / bound |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (var s : outcome.samples()) {
      text.append(String.format("| %.1f | %d | %d | %d | %d | %d | %d | %d | %d / %d |%n", s.minute(), s.created(),
          s.bound(), s.p50Millis(), s.p99Millis(), s.late(), s.heapMiB(), s.threads(), s.cachePods(), s.boundPods()));
    }
    if (!outcome.grown().isEmpty()) {
      text.append("\nLive objects that grew most from the end of the warm-up to the end (class histogram):\n\n"
          + "| class | bytes | instances |\n|---|---:|---:|\n");
      outcome.grown().forEach(c -> text.append(String.format("| `%s` | %+d | %+d |%n", c.className(), c.bytes(),
          c.instances())));
    }
    return text.toString();
  }

  private void createNodes(KubernetesClient admin) throws InterruptedException {
    var pool = Executors.newFixedThreadPool(8);
    IntStream.range(0, settings.nodes()).forEach(i -> pool.execute(() -> DrillRun.createReadyNode(admin, "node-" + i)));
    pool.shutdown();
    if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException("creating " + settings.nodes() + " nodes took more than 5 minutes");
    }
  }

  private void createOne(KubernetesClient admin, ScheduledExecutorService churn) {
    int n = sequence.getAndIncrement();
    var name = "p-" + n;
    var metadata = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE);
    var spec = new PodSpecBuilder()
        .withSchedulerName(SCHEDULER)
        .addNewContainer().withName("c").withImage("pause")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("64Mi"))).endResources()
        .endContainer();
    switch (n % 10) {
      case 8 -> {
        var group = "g" + n / 200;
        metadata.addToLabels(GROUP, group);
        spec.withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
            .withTopologyKey(PodStream.HOSTNAME)
            .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels(GROUP, group).build())
            .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity();
      }
      case 9 -> {
        metadata.addToLabels(KIND, UNSCHEDULABLE);
        spec.addToNodeSelector("soak.kubesched.io/no-such-label", "true");
      }
      default -> { }
    }
    Pod pod = metadata.endMetadata().withSpec(spec.build()).build();
    try {
      admin.pods().inNamespace(NAMESPACE).resource(pod).create();
      created.incrementAndGet();
    } catch (KubernetesClientException e) {
      refused("creating " + name, e);
    }
    churn.schedule(() -> {
      try {
        admin.pods().inNamespace(NAMESPACE).withName(name).withGracePeriod(0).delete();
      } catch (KubernetesClientException e) {
        refused("deleting " + name, e);
      }
    }, settings.lifetime().toMillis(), TimeUnit.MILLISECONDS);
  }

  private void refused(String what, KubernetesClientException e) {
    if (failures.incrementAndGet() <= 10) {
      log.println("soak: " + what + " failed (" + e.getCode() + "): " + e.getMessage());
    }
  }

  private Sample sample(double minute, int createdInInterval, Controller controller, List<Pod> pods) {
    List<Long> interval;
    synchronized (latencies) {
      interval = new ArrayList<>(latencies);
      latencies.clear();
    }
    interval.sort(null);
    long now = System.nanoTime();
    int late = (int) waiting.values().stream().filter(seen -> now - seen > LATE.toNanos()).count();
    int bound = (int) pods.stream().filter(Soak::bound).count();
    int inView = cachePods(controller);
    System.gc();
    var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    return new Sample(Math.round(minute * 10) / 10.0, createdInInterval, interval.size(),
        percentile(interval, 50), percentile(interval, 99), late, heap,
        ManagementFactory.getThreadMXBean().getThreadCount(), inView, bound);
  }

  /** @return the nearest-rank percentile of sorted milliseconds-in-nanos values, in ms; -1 for none */
  static long percentile(List<Long> sortedNanos, int percent) {
    if (sortedNanos.isEmpty()) {
      return -1;
    }
    int rank = (int) Math.ceil(percent / 100.0 * sortedNanos.size());
    return sortedNanos.get(Math.max(0, rank - 1)) / 1_000_000;
  }

  private static int cachePods(Controller controller) {
    return controller.nodes().stream().mapToInt(n -> n.pods().size()).sum();
  }

  private static boolean bound(Pod pod) {
    var node = pod.getSpec().getNodeName();
    return node != null && !node.isEmpty();
  }

  /** Times each pod that fits from first seen unbound to first seen bound. On the informer's thread. */
  private final class Watcher implements ResourceEventHandler<Pod> {

    @Override
    public void onAdd(Pod pod) {
      var labels = pod.getMetadata().getLabels();
      if (!bound(pod) && (labels == null || !UNSCHEDULABLE.equals(labels.get(KIND)))) {
        waiting.putIfAbsent(pod.getMetadata().getUid(), System.nanoTime());
      }
    }

    @Override
    public void onUpdate(Pod old, Pod pod) {
      if (bound(pod)) {
        var seen = waiting.remove(pod.getMetadata().getUid());
        if (seen != null) {
          long latency = System.nanoTime() - seen;
          synchronized (latencies) {
            latencies.add(latency);
          }
        }
      }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      waiting.remove(pod.getMetadata().getUid());
    }
  }
}
