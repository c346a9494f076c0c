package io.kubesched.drills;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.drills.Snapshot.EventView;
import io.kubesched.drills.Snapshot.NodeView;
import io.kubesched.drills.Snapshot.PodView;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * One drill: a fresh real cluster, this library's scheduler in this process (the facade's {@link Controller}
 * with {@link DefaultPolicy}, as the restricted service account of docs/operations.md's RBAC, every connection through a {@link
 * TcpProxy}), then for each trial a {@link PodStream}, one fault, the wait for the system to settle and the
 * {@link Invariants} over a {@link Snapshot}. Runs on the caller's thread.
 */
final class DrillRun {

  static final String NAMESPACE = "drills";
  static final String SCHEDULER = "kubesched-drills";

  /**
   * @param project the checkout, for {@code tools/test-cluster/cluster.sh} and the RBAC of docs/operations.md
   * @param faults the faults, taken in turn: trial 1 of each, then trial 2 of each, ...
   * @param trials trials per fault
   * @param nodes how many nodes (4 CPU, 8 GiB, 110 pods each)
   * @param rate pods the stream creates per second
   * @param before how long the stream runs before the fault
   * @param after how long the stream runs on after the fault has healed
   * @param settle how long to wait for the system to settle before checking anyway
   * @param clientQps the scheduler's client limit, bindings and reports alike ({@code
   *     Options.Builder.rateLimit}); 0 for the default options
   * @param clientBurst the burst of that limit; ignored when {@code clientQps} is 0
   */
  record Settings(Path project, List<Fault> faults, int trials, int nodes, double rate, Duration before,
      Duration after, Duration settle, double clientQps, int clientBurst) {

    /** Settings with the scheduler's default options. */
    Settings(Path project, List<Fault> faults, int trials, int nodes, double rate, Duration before, Duration after,
        Duration settle) {
      this(project, faults, trials, nodes, rate, before, after, settle, 0, 0);
    }
  }

  /** What a drill found: each trial, and the growth across them. */
  record Outcome(List<TrialResult> trials, List<Violation> growth, List<Integer> threads, List<Long> heap,
      List<Integer> connections) {}

  private final Settings settings;
  private final PrintStream log;

  DrillRun(Settings settings, PrintStream log) {
    this.settings = settings;
    this.log = log;
  }

  Outcome run() throws Exception {
    var work = Files.createTempDirectory("drills-");
    var policy = Files.writeString(work.resolve("audit-policy.yaml"), AuditLog.POLICY);
    var audit = new AuditLog(work.resolve("audit.log"));
    try (var cluster = TestCluster.builder(settings.project())
        .apiServerFlags(audit.apiServerFlags(policy).toArray(String[]::new)).start()) {
      var admin = cluster.admin();
      cluster.applyDocumentedRbac();
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
      for (int i = 0; i < settings.nodes(); i++) {
        createReadyNode(admin, "node-" + i);
      }
      int apiPort = new java.net.URL(admin.getMasterUrl().toString()).getPort();
      try (var proxy = new TcpProxy(apiPort);
          var history = new PodHistory(admin, NAMESPACE)) {
        var kubeconfig = Files.createTempFile("drills-scheduler-", ".kubeconfig");
        Files.writeString(kubeconfig, Files.readString(cluster.schedulerKubeconfig())
            .replace("https://127.0.0.1:" + apiPort, "https://127.0.0.1:" + proxy.port()));
        var options = Options.builder().kubeconfig(kubeconfig).schedulerName(SCHEDULER);
        if (settings.clientQps() > 0) {
          options.rateLimit(settings.clientQps(), settings.clientBurst());
        }
        try (var client = Client.create(options.build());
            var controller = client.newPodController(DefaultPolicy.create())) {
          controller.start();
          var target = new Target(cluster, proxy);
          var results = new ArrayList<TrialResult>();
          var threads = new ArrayList<Integer>();
          var heap = new ArrayList<Long>();
          var connections = new ArrayList<Integer>();
          for (int round = 1; round <= settings.trials(); round++) {
            for (var fault : settings.faults()) {
              var result = trial(admin, controller, history, target, audit, fault, "t" + results.size());
              results.add(result);
              log.printf("trial %d of %s: %d pods, recovery %s, violations %s%n", round, fault.name(), result.pods(),
                  result.recovery().map(d -> d.toMillis() + " ms").orElse("none"),
                  result.violations().stream().map(v -> v.kind() + " " + v.subject() + ": " + v.detail()).toList());
              clean(admin, controller);
              System.gc();
              threads.add(ManagementFactory.getThreadMXBean().getThreadCount());
              heap.add(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
              connections.add(proxy.connections());
            }
          }
          return new Outcome(results, Invariants.growth(threads, heap), threads, heap, connections);
        } finally {
          Files.deleteIfExists(kubeconfig);
        }
      }
    } finally {
      try (var files = Files.list(work)) {
        for (var file : files.toList()) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(work);
    }
  }

  private TrialResult trial(KubernetesClient admin, Controller controller, PodHistory history, Target target,
      AuditLog audit, Fault fault, String prefix) throws Exception {
    long start = audit.mark();
    var stream = new PodStream(admin, NAMESPACE, SCHEDULER, prefix, settings.rate(), settings.nodes());
    Optional<Duration> recovery;
    long mark;
    try {
      Thread.sleep(settings.before().toMillis());
      mark = audit.mark();
      long injected = System.nanoTime();
      fault.inject(target);
      fault.heal(target);
      long healed = System.nanoTime();
      // The stream stops --after the heal even while the wait for recovery goes on: a recovery longer than that
      // (a throttled burst's: minutes) must not pile up stream pods until the nodes are full.
      stream.stopAfter(settings.after());
      log.printf("%s injected and healed in %d ms%n", fault.name(), (healed - injected) / 1_000_000);
      var mustBind = new HashSet<>(mustBind(stream.createdPods()));
      mustBind.addAll(fault.mustBind());
      // Listing thousands of pods five times a second would load the API server the drill measures.
      recovery = recovery(admin, mustBind, settings.settle(), mustBind.size() > 500 ? 2000 : 200, healed);
      sleepUntil(healed, settings.after());
      stream.stop();
      stream.ungateAll();
    } finally {
      stream.close();
    }
    waitFor(settings.settle(), () -> Invariants.check(snapshot(admin, controller, history, audit, start, fault)).isEmpty());
    var snapshot = snapshot(admin, controller, history, audit, start, fault);
    var violations = new ArrayList<>(Invariants.check(snapshot));
    // What the check had to go on, so that a check that passes for want of data shows.
    log.printf("checked %d pods (%d bound, %d seen bound by the watch, %d accepted bindings in the audit log), "
            + "%d Scheduled and %d FailedScheduling events%n",
        snapshot.pods().size(), snapshot.pods().stream().filter(PodView::bound).count(), snapshot.nodeNamesSeen().size(),
        snapshot.bindings().orElse(Map.of()).values().stream().mapToInt(Integer::intValue).sum(),
        snapshot.events().stream().filter(e -> e.reason().equals("Scheduled")).count(),
        snapshot.events().stream().filter(e -> e.reason().equals("FailedScheduling")).count());
    if (!fault.deletedPods().isEmpty()) {
      var bindings = snapshot.bindings().orElse(Map.of());
      log.printf("the fault deleted %d pods, %d of them after the API server had accepted their binding%n",
          fault.deletedPods().size(), fault.deletedPods().stream().filter(p -> bindings.containsKey(p.name())).count());
    }
    int relists = audit.listsSince(mark);
    if (fault.forcesRelist() && relists == 0) {
      violations.add(new Violation(Violation.Kind.NO_RELIST, "scheduler", "no LIST request after the fault"));
    }
    return new TrialResult(fault.name(), stream.created() + fault.podsCreated(), violations, relists, recovery,
        fault.boundToDeletedNode());
  }

  /** @return the pods among {@code created} that must be bound once the system recovers: those that fit, ungated */
  static Set<String> mustBind(Map<String, Snapshot.Kind> created) {
    return created.entrySet().stream()
        .filter(e -> e.getValue() == Snapshot.Kind.PLACEABLE || e.getValue() == Snapshot.Kind.ANTI_AFFINITY
            || e.getValue() == Snapshot.Kind.SPREAD)
        .map(Map.Entry::getKey).collect(Collectors.toSet());
  }

  /**
   * Waits, polling every {@code everyMs}, until every pod of {@code mustBind} is bound or {@code settle} passes.
   *
   * @param healed when the fault healed ({@link System#nanoTime})
   * @return the time from {@code healed} to all bound; empty if they were not within {@code settle}
   */
  static Optional<Duration> recovery(KubernetesClient admin, Set<String> mustBind, Duration settle, long everyMs,
      long healed) throws InterruptedException {
    return waitFor(settle, everyMs, () -> allBound(admin, mustBind))
        ? Optional.of(Duration.ofNanos(System.nanoTime() - healed)) : Optional.empty();
  }

  /** Sleeps until {@code after} has passed since {@code healed} ({@link System#nanoTime}); at once if it has. */
  static void sleepUntil(long healed, Duration after) throws InterruptedException {
    long remaining = after.toNanos() - (System.nanoTime() - healed);
    if (remaining > 0) {
      Thread.sleep(remaining / 1_000_000);
    }
  }

  static boolean allBound(KubernetesClient admin, Set<String> names) {
    var bound = admin.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null)
        .map(p -> p.getMetadata().getName())
        .collect(Collectors.toSet());
    return bound.containsAll(names);
  }

  /**
   * The API server's state, the scheduler's view, the bindings the audit log has recorded since {@code mark}
   * and what {@code fault} deleted, as the checker reads them.
   */
  static Snapshot snapshot(KubernetesClient admin, Controller controller, PodHistory history, AuditLog audit,
      long mark, Fault fault) {
    var snapshot = snapshot(admin, controller, history);
    Map<String, Integer> bindings;
    try {
      bindings = audit.bindingsSince(mark, NAMESPACE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Snapshot(snapshot.pods(), snapshot.nodes(), snapshot.events(), snapshot.nodeNamesSeen(),
        snapshot.schedulerView(), Optional.of(bindings), fault.deletedPods(), fault.deletedNodes());
  }

  /** The API server's state and the scheduler's view, as the checker reads them (no audit log). */
  static Snapshot snapshot(KubernetesClient admin, Controller controller, PodHistory history) {
    var view = controller.nodes().stream().collect(Collectors.toMap(
        NodeInfo::name, n -> n.pods().stream().map(PodInfo::uid).collect(Collectors.toSet())));
    return snapshot(admin, Optional.of(view), history);
  }

  /** The API server's state and {@code view}, the scheduler's if the runner can see it (the leader-kill drill cannot). */
  static Snapshot snapshot(KubernetesClient admin, Optional<Map<String, Set<String>>> view, PodHistory history) {
    var pods = admin.pods().inNamespace(NAMESPACE).list().getItems().stream().map(DrillRun::podView).toList();
    var uids = pods.stream().map(PodView::uid).collect(Collectors.toSet());
    var nodes = admin.nodes().list().getItems().stream().map(DrillRun::nodeView).toList();
    var events = admin.events().v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(e -> e.getRegarding() != null && uids.contains(e.getRegarding().getUid()))
        .map(DrillRun::eventView).toList();
    return new Snapshot(pods, nodes, events, history.nodeNamesSeen(uids), view);
  }

  static PodView podView(Pod pod) {
    var labels = pod.getMetadata().getLabels() == null ? Map.<String, String>of() : pod.getMetadata().getLabels();
    var kind = Snapshot.Kind.valueOf(labels.getOrDefault(PodStream.KIND, Snapshot.Kind.PLACEABLE.name()));
    long cpu = 0;
    long memory = 0;
    for (var container : pod.getSpec().getContainers()) {
      var requests = container.getResources() == null || container.getResources().getRequests() == null
          ? Map.<String, Quantity>of() : container.getResources().getRequests();
      cpu += milli(requests.get("cpu"));
      memory += units(requests.get("memory"));
    }
    var gates = pod.getSpec().getSchedulingGates();
    boolean unschedulable = pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()));
    var node = pod.getSpec().getNodeName();
    return new PodView(pod.getMetadata().getUid(), pod.getMetadata().getName(), kind,
        node == null || node.isEmpty() ? null : node, gates != null && !gates.isEmpty(), cpu, memory,
        labels.get(PodStream.ANTI_GROUP), unschedulable, labels.get(PodStream.SPREAD_GROUP));
  }

  private static NodeView nodeView(Node node) {
    var allocatable = node.getStatus().getAllocatable();
    var labels = node.getMetadata().getLabels() == null ? Map.<String, String>of() : node.getMetadata().getLabels();
    return new NodeView(node.getMetadata().getName(), milli(allocatable.get("cpu")), units(allocatable.get("memory")),
        units(allocatable.get("pods")), labels.get(PodStream.ZONE));
  }

  private static EventView eventView(Event event) {
    int count = event.getSeries() != null && event.getSeries().getCount() != null ? event.getSeries().getCount() : 1;
    return new EventView(event.getRegarding().getUid(), event.getReason() == null ? "" : event.getReason(), count);
  }

  private static long milli(Quantity quantity) {
    return quantity == null ? 0 : Quantity.getAmountInBytes(quantity).multiply(BigDecimal.valueOf(1000)).longValue();
  }

  private static long units(Quantity quantity) {
    return quantity == null ? 0 : Quantity.getAmountInBytes(quantity).longValue();
  }

  /** Deletes the trial's pods and waits until neither the API server nor the scheduler has any left. */
  private void clean(KubernetesClient admin, Controller controller) throws InterruptedException {
    admin.pods().inNamespace(NAMESPACE).withGracePeriod(0).delete();
    if (!waitFor(settings.settle(), () -> admin.pods().inNamespace(NAMESPACE).list().getItems().isEmpty()
        && controller.nodes().stream().allMatch(n -> n.pods().isEmpty()))) {
      log.println("warning: pods left after the trial's cleanup");
    }
  }

  /**
   * @return the zone of a node named {@code node-N}: {@code zone-(N mod 3)}, so that 4 nodes make three zones,
   *     one of two nodes and two of one; {@code zone-0} for a name without a number at its end
   */
  static String zoneOf(String node) {
    var digits = node.replaceAll("^.*?(\\d*)$", "$1");
    return "zone-" + (digits.isEmpty() ? 0 : Integer.parseInt(digits) % 3);
  }

  /** Polls {@code condition} every 200 ms until it holds or {@code timeout} passes; an exception counts as false. */
  static boolean waitFor(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    return waitFor(timeout, 200, condition);
  }

  /** Polls {@code condition} every {@code everyMs} until it holds or {@code timeout} passes; an exception counts as false. */
  private static boolean waitFor(Duration timeout, long everyMs, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return true;
        }
      } catch (RuntimeException e) {
        // the API server may be down: ask again
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(everyMs);
    }
  }

  /**
   * Creates a node with {@code kubernetes.io/hostname} and its {@linkplain #zoneOf zone} and takes off the
   * not-ready taint the API server's admission puts on it (no node lifecycle controller runs here to do it).
   */
  static void createReadyNode(KubernetesClient admin, String name) {
    admin.nodes().resource(new NodeBuilder()
        .withNewMetadata().withName(name).addToLabels(PodStream.HOSTNAME, name).addToLabels(PodStream.ZONE, zoneOf(name))
        .endMetadata()
        .withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi"), "pods", new Quantity("110")))
        .withCapacity(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi"), "pods", new Quantity("110")))
        .endStatus().build()).create();
    admin.nodes().withName(name).edit(n -> new NodeBuilder(n).editSpec().withTaints().endSpec().build());
  }
}
