package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;

/**
 * The end-to-end benchmark runner: for each workload and repetition, each contestant (kube-scheduler, this
 * library, the bind ceiling) in turn on a fresh real API server, the order rotating from one repetition to
 * the next; then a Markdown table of medians and ratios. Run it through {@code scripts/e2e-benchmark.sh},
 * which builds what it needs; {@code --help} lists the options.
 */
public final class E2eBenchmark {

  private static final String USAGE =
      """
      usage: E2eBenchmark --project DIR --kube-scheduler BINARY --kube-version VERSION --out FILE
                          [--workloads NAME,...] [--reps N] [--contestants NAME,...] [--qps Q] [--burst B]
                          [--jfr DIR] [--work DIR] [--stall SECONDS] [--warmup PODS] [--stream-rate N]
        --workloads    500-nodes, 5000-nodes, 5000-nodes-affinity, 5000-nodes-anti-affinity,
                       5000-nodes-spreading, 5000-nodes-preemption, 5000-nodes-gangs (default: all
                       seven), or smoke, smoke-preemption, smoke-gangs
        --reps         repetitions of each workload (default 3)
        --contestants  kube-scheduler, kubesched, ceiling (default: all three)
        --qps/--burst  client write limits of both schedulers (default 5000/5000, as scheduler_perf)
        --jfr DIR      record a JFR profile of each kubesched run into DIR
        --stall        end a run when no pod was bound for this long (default 60)
        --warmup       pods each contestant places before the measured ones (default 500; with anti-affinity,
                       warm-up, stream and backlog must fit one pod per free node: at most 1000)
        --stream-rate  pods created per second in the stream phase, for latency (default 50)
      """;

  private E2eBenchmark() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.err));
  }

  static int run(String[] args, PrintStream log)
      throws IOException, InterruptedException, ExecutionException, URISyntaxException {
    Path project = null;
    Path kubeScheduler = null;
    String kubeVersion = null;
    Path out = null;
    Path jfr = null;
    Path work = null;
    List<Workload> workloads = Workload.ALL;
    List<Contestant> contestants = List.of(Contestant.values());
    int reps = 3;
    double qps = 5000;
    int burst = 5000;
    int stall = 60;
    int warmup = 500;
    double streamRate = 50;
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
      switch (flag) {
        case "--project" -> project = Path.of(value);
        case "--kube-scheduler" -> kubeScheduler = Path.of(value);
        case "--kube-version" -> kubeVersion = value;
        case "--out" -> out = Path.of(value);
        case "--jfr" -> jfr = Path.of(value);
        case "--work" -> work = Path.of(value);
        case "--workloads" -> workloads = Arrays.stream(value.split(",")).map(Workload::named).toList();
        case "--contestants" -> contestants = Arrays.stream(value.split(",")).map(Contestant::parse).toList();
        case "--reps" -> reps = Integer.parseInt(value);
        case "--qps" -> qps = Double.parseDouble(value);
        case "--burst" -> burst = Integer.parseInt(value);
        case "--stall" -> stall = Integer.parseInt(value);
        case "--warmup" -> warmup = Integer.parseInt(value);
        case "--stream-rate" -> streamRate = Double.parseDouble(value);
        default -> {
          log.print("unknown option " + flag + "\n" + USAGE);
          return 2;
        }
      }
    }
    if (project == null || kubeScheduler == null || kubeVersion == null || out == null) {
      log.print("--project, --kube-scheduler, --kube-version and --out are required\n" + USAGE);
      return 2;
    }
    for (var workload : workloads) {
      long measured = (long) warmup + workload.streamPods() + workload.pods();
      if (measured > workload.measuredPodLimit()) {
        log.printf(
            "%s: a warm-up of %d, a stream of %d and a backlog of %d pods do not fit beside its %d initial pods"
                + " (at most %d measured pods); choose --warmup %d or less%n",
            workload.name(), warmup, workload.streamPods(), workload.pods(), workload.initialPods(),
            workload.measuredPodLimit(), workload.measuredPodLimit() - workload.streamPods() - workload.pods());
        return 2;
      }
    }
    if (work == null) {
      work = Files.createTempDirectory("kubesched-e2e-benchmark-");
    }
    if (jfr != null) {
      Files.createDirectories(jfr);
    }
    var jar = Path.of(E2eBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    var settings =
        new BenchmarkRun.Settings(
            project.toAbsolutePath(), kubeScheduler, jar, qps, burst, jfr, work, Duration.ofSeconds(stall), warmup, streamRate);
    log.printf("logs and cluster state in %s%n", work);

    var results = new ArrayList<RunResult>();
    for (var workload : workloads) {
      for (int rep = 1; rep <= reps; rep++) {
        for (int k = 0; k < contestants.size(); k++) {
          // Rotate the order each repetition, so that no contestant always runs first or last.
          var contestant = contestants.get((k + rep - 1) % contestants.size());
          results.add(new BenchmarkRun(settings, workload, contestant, rep, log).run());
          // Written after every run, so that an interrupted run of an hour keeps what it measured.
          Files.writeString(out, Report.markdown(machine(kubeVersion, qps, burst), command(args), results, workloads));
        }
      }
    }
    log.printf("wrote %s%n", out);
    return 0;
  }

  private static String command(String[] args) {
    var shown = new ArrayList<String>();
    for (int i = 0; i < args.length; i++) {
      // Paths differ from machine to machine; what was measured is the rest.
      if (List.of("--project", "--kube-scheduler", "--kube-version", "--out", "--work", "--jfr").contains(args[i])) {
        i++;
      } else {
        shown.add(args[i]);
      }
    }
    return ("scripts/e2e-benchmark.sh " + String.join(" ", shown)).strip();
  }

  /** The machine and versions, as the table's header states them. */
  static String machine(String kubeVersion, double qps, int burst) throws IOException {
    var cpu = "unknown CPU";
    for (var line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
      if (line.startsWith("model name")) {
        cpu = line.substring(line.indexOf(':') + 1).strip();
        break;
      }
    }
    long memKiB = 0;
    for (var line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith("MemTotal:")) {
        memKiB = Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return String.format(
        Locale.ROOT,
        "Machine: %d CPUs (%s), %.0f GiB memory, Linux %s; kube-apiserver, etcd and kube-scheduler %s built by"
            + " test-cluster/cluster.sh; Java %s (%s) for this library's scheduler and the runner; both schedulers"
            + " with client QPS %.0f, burst %d. The API server, etcd, the scheduler and the runner (creating pods,"
            + " watching) share the machine.%n",
        Runtime.getRuntime().availableProcessors(),
        cpu,
        memKiB / 1024.0 / 1024,
        System.getProperty("os.version"),
        kubeVersion,
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vm.name"),
        qps,
        burst);
  }
}
