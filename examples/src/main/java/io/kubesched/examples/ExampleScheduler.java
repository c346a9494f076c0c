package io.kubesched.examples;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.config.PolicyFile;
import io.kubesched.policy.framework.Filter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The example scheduler.
 *
 * <ul>
 *   <li>No arguments: starts the embedded fake cluster, creates 20 nodes of mixed sizes (one of them tainted
 *       for GPU work) and 300 pods with mixed requests (a few impossible to place, one with a malformed
 *       quantity), schedules them with kube-scheduler's default policy ({@link DefaultPolicy}), and prints a
 *       per-node table, the pods left pending and the explanation of one more pod's placement.
 *   <li>{@code --kubeconfig PATH --scheduler-name NAME}: schedules the pods of a real cluster that ask for
 *       {@code NAME}, until interrupted.
 *   <li>{@code --policy FILE} with either: the policy is read from a Policy file (JSON or YAML) instead.
 *   <li>{@code --leader-elect} with a real cluster: only the replica holding the lease schedules.
 * </ul>
 */
public final class ExampleScheduler {

  static final String SCHEDULER_NAME = "example-scheduler";
  static final int NODES = 20;
  static final int PODS = 300;
  private static final String USAGE =
      "usage: ExampleScheduler [--policy FILE]      (demo on an embedded fake cluster)\n"
          + "       ExampleScheduler [--policy FILE] [--leader-elect] --kubeconfig PATH --scheduler-name NAME"
          + "   (a real cluster)\n"
          + "  --leader-elect  only the replica holding the lease NAME schedules (in the pod's namespace,\n"
          + "                  else in kube-system)\n"
          + "  --policy FILE   a Policy file (JSON or YAML); default: kube-scheduler's default policy";

  /** The mock server logs every request through java.util.logging; the demo needs none of it. Held in a
   * field because java.util.logging forgets the level of a logger nobody references. */
  private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  private ExampleScheduler() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
    Path kubeconfig = null;
    String schedulerName = null;
    Path policyFile = null;
    boolean leaderElect = false;
    for (int i = 0; i < args.length; i++) {
      var flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        out.println(USAGE);
        return 0;
      }
      if (flag.equals("--leader-elect")) {
        leaderElect = true;
        continue;
      }
      if (i + 1 >= args.length) {
        err.println("missing value after " + flag + "\n" + USAGE);
        return 2;
      }
      var value = args[++i];
      switch (flag) {
        case "--kubeconfig" -> kubeconfig = Path.of(value);
        case "--scheduler-name" -> schedulerName = value;
        case "--policy" -> policyFile = Path.of(value);
        default -> {
          err.println("unknown option " + flag + "\n" + USAGE);
          return 2;
        }
      }
    }
    Policy policy;
    try {
      policy = policyFile == null ? DefaultPolicy.builder().seed(42).build() : PolicyFile.read(policyFile);
    } catch (ConfigurationException e) {
      err.println(e.getMessage());
      return 2;
    }
    if (kubeconfig == null && schedulerName == null) {
      return demo(policy, policyFile == null ? "kube-scheduler's defaults" : policyFile.toString(), out);
    }
    if (schedulerName == null) {
      err.println("--scheduler-name is required with a real cluster\n" + USAGE);
      return 2;
    }
    var options = Options.builder().schedulerName(schedulerName);
    if (kubeconfig != null) {
      options.kubeconfig(kubeconfig);
    }
    if (leaderElect) {
      options.leaderElection();
    }
    return realCluster(options.build(), policy, out);
  }

  private static int realCluster(Options options, Policy policy, PrintStream out) throws InterruptedException {
    try (var client = Client.create(options);
        var controller =
            client.newPodController(
                policy,
                new SchedulingListener() {
                  @Override
                  public void bound(PodInfo pod, String nodeName) {
                    out.println("bound " + pod.key() + " -> " + nodeName);
                  }

                  @Override
                  public void unschedulable(PodInfo pod, String message) {
                    out.println("pending " + pod.key() + ": " + message);
                  }

                  @Override
                  public void failed(String podKey, Exception error) {
                    out.println("failed " + podKey + ": " + error.getMessage());
                  }
                })) {
      Runtime.getRuntime().addShutdownHook(new Thread(controller::close, "example-shutdown"));
      out.println("Scheduling pods with schedulerName " + options.schedulerName() + "; Ctrl-C stops.");
      controller.run();
    }
    return 0;
  }

  private static int demo(Policy policy, String policySource, PrintStream out) throws InterruptedException {
    MOCK_SERVER_LOG.setLevel(Level.WARNING);
    var options = Options.builder().fake().schedulerName(SCHEDULER_NAME).build();
    try (var client = Client.create(options)) {
      var kube = client.kubernetesClient();
      var random = new Random(42);
      createNodes(kube, random);
      out.printf("Fake cluster: %d nodes. Creating %d pods for scheduler '%s'.%n", NODES, PODS, SCHEDULER_NAME);
      out.println(
          "Policy: " + policySource + describe(policy));
      var progress = new Progress(PODS, out);
      try (var controller = client.newPodController(policy, progress)) {
        controller.start();
        createPods(kube, random);
        if (!progress.awaitSettled(Duration.ofSeconds(120))) {
          out.println("Timed out waiting for every pod to be bound or reported.");
        }
        out.println();
        printTable(controller, out);
        progress.printPending(out);
        out.println();
        out.println("Why one more pod (1 CPU, 2Gi) would go where it goes:");
        var extra = PodInfo.builder("default", "one-more").requests(1000, 2L << 30).build();
        out.print(policy.explain(extra, controller.nodes()).toTable());
      }
    }
    return 0;
  }

  private static String describe(Policy policy) {
    var filters = policy.filters().stream().map(Filter::name).toList();
    var scorers = policy.scorers().stream().map(ws -> ws.scorer().name() + ":" + ws.weight()).toList();
    return "\n  filters: " + String.join(", ", filters) + "\n  scorers: " + String.join(", ", scorers);
  }

  private static void createNodes(KubernetesClient kube, Random random) {
    String[][] sizes = {{"2", "4Gi", "20"}, {"4", "8Gi", "40"}, {"8", "32Gi", "110"}};
    for (int i = 0; i < NODES; i++) {
      var size = sizes[random.nextInt(sizes.length)];
      // The last node is kept for GPU work: pods that do not tolerate its taint stay off it.
      var taints =
          i == NODES - 1
              ? List.of(new TaintBuilder().withKey("dedicated").withValue("gpu").withEffect("NoSchedule").build())
              : List.<io.fabric8.kubernetes.api.model.Taint>of();
      kube.nodes()
          .resource(
              new NodeBuilder()
                  .withNewMetadata()
                  .withName(String.format("node-%02d", i))
                  .withLabels(Map.of("topology.kubernetes.io/zone", i % 2 == 0 ? "zone-a" : "zone-b"))
                  .endMetadata()
                  .withNewSpec()
                  .withTaints(taints)
                  .endSpec()
                  .withNewStatus()
                  .withAllocatable(
                      Map.of(
                          "cpu", new Quantity(size[0]),
                          "memory", new Quantity(size[1]),
                          "pods", new Quantity(size[2])))
                  .endStatus()
                  .build())
          .create();
    }
  }

  private static void createPods(KubernetesClient kube, Random random) {
    String[] cpus = {"50m", "100m", "250m", "500m"};
    String[] memories = {"128Mi", "256Mi", "512Mi", "1Gi"};
    for (int i = 0; i < PODS; i++) {
      String cpu = cpus[random.nextInt(cpus.length)];
      String memory = memories[random.nextInt(memories.length)];
      if (i % 97 == 50) {
        cpu = "64"; // more than any node has
      } else if (i == 123) {
        cpu = "12x"; // malformed: reported, the loop goes on
      }
      kube.pods()
          .inNamespace("default")
          .resource(
              new PodBuilder()
                  .withNewMetadata()
                  .withName(String.format("pod-%03d", i))
                  .withNamespace("default")
                  .endMetadata()
                  .withNewSpec()
                  .withSchedulerName(SCHEDULER_NAME)
                  .addNewContainer()
                  .withName("app")
                  .withImage("registry.invalid/app:1")
                  .withNewResources()
                  .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                  .endResources()
                  .endContainer()
                  .endSpec()
                  .build())
          .create();
    }
  }

  private static void printTable(Controller controller, PrintStream out) {
    out.printf("%-8s %5s  %-34s  %-34s%n", "NODE", "PODS", "CPU requested/allocatable", "MEMORY requested/allocatable");
    for (NodeInfo node : controller.nodes()) {
      var used = node.requested();
      var total = node.allocatable();
      out.printf(
          "%-8s %5d  %s %6s/%-6s  %s %7s/%-7s%n",
          node.name(),
          node.pods().size(),
          bar(used.milliCpu(), total.milliCpu()),
          used.milliCpu() + "m",
          total.milliCpu() + "m",
          bar(used.memory(), total.memory()),
          used.memory() / (1 << 20) + "Mi",
          total.memory() / (1 << 20) + "Mi");
    }
  }

  static String bar(long used, long total) {
    int width = 20;
    int filled = total == 0 ? 0 : (int) Math.min(width, Math.round((double) used * width / total));
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
  }

  /** Counts outcomes, prints a progress line every 50 pods, and knows when every pod is settled. */
  static final class Progress implements SchedulingListener {

    private final int total;
    private final PrintStream out;
    private final AtomicInteger bound = new AtomicInteger();
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    private final CountDownLatch settled;

    Progress(int total, PrintStream out) {
      this.total = total;
      this.out = out;
      this.settled = new CountDownLatch(1);
    }

    @Override
    public void bound(PodInfo pod, String nodeName) {
      pending.remove(pod.key());
      int n = bound.incrementAndGet();
      if (n % 50 == 0) {
        out.printf("  bound %d/%d pods%n", n, total);
      }
      check();
    }

    @Override
    public void unschedulable(PodInfo pod, String message) {
      pending.put(pod.key(), message);
      check();
    }

    @Override
    public void failed(String podKey, Exception error) {
      pending.put(podKey, error.getMessage());
      check();
    }

    private void check() {
      if (bound.get() + pending.size() >= total) {
        settled.countDown();
      }
    }

    boolean awaitSettled(Duration timeout) throws InterruptedException {
      return settled.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void printPending(PrintStream out) {
      out.printf("%nBound %d of %d pods; %d pending:%n", bound.get(), total, pending.size());
      var byReason = new TreeMap<String, List<String>>();
      pending.forEach((pod, reason) -> byReason.computeIfAbsent(reason, r -> new ArrayList<>()).add(pod));
      byReason.forEach(
          (reason, pods) -> {
            pods.sort(null);
            out.printf("  %d pod(s) %s: %s%n", pods.size(), String.join(", ", pods), reason);
          });
    }
  }
}
