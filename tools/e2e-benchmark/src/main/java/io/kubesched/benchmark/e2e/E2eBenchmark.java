package io.kubesched.benchmark.e2e;

import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.testcluster.RunRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

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
                          [--data FILE] [--revision TEXT] [--workloads NAME,...] [--reps N] [--contestants NAME,...] [--qps Q] [--burst B]
                          [--jfr DIR] [--work DIR] [--stall SECONDS] [--warmup PODS] [--stream-rate N]
                          [--ceiling-threads N,...] [--kubesched-jvm-flags "FLAG ..."]
        --out          the Markdown report (medians, ratios, every run)
        --data         the same figures as data, with the machine, revision and command (default: --out's
                       name with .json); scripts/render-results.py renders docs/performance.md from them
        --revision     the code measured, as the data file states it (the script gives git's)
        --workloads    default: the published table's, %s;
                       the scale shapes, run only when named: %s;
                       scheduler_perf's DRA shapes, run only when named (a table of their own): %s;
                       pods that fit no node, run only when named (a table of their own): %s;
                       quick checks: %s
        --reps         repetitions of each workload (default 3)
        --contestants  kube-scheduler (its default profile), kube-scheduler-same-plugins (a generated
                       profile with DefaultPolicy's plugins and weights), kubesched, ceiling (default: all)
        --ceiling-threads  the bind ceiling's binding threads to search, one run each, 16 per client
                       (default 16,32,64,128); the table shows the best
        --kubesched-jvm-flags  this library's scheduler's JVM flags, space-separated (default: the image's,
                       with -XX:MaxRAM=1g for its memory limit, and a class-data-sharing archive of the
                       classes it loaded in a training run of the smoke workload, as the image has one of
                       its server's)
        --qps/--burst  client write limits of both schedulers (default 5000/5000, as scheduler_perf)
        --jfr DIR      record a JFR profile of each kubesched run into DIR
        --stall        end a run when no pod was bound for this long (default 60)
        --warmup       pods each contestant places before the measured ones (default 500; with anti-affinity,
                       warm-up, stream and backlog must fit one pod per free node: at most 1000)
        --stream-rate  pods created per second in the stream phase, for latency (default 50)
      """;

  /** The runner's own JVM flag: C1 only, so that the instrument leaves the CPU to what it measures. */
  static final String RUNNER_JIT = "-XX:TieredStopAtLevel=1";

  private E2eBenchmark() {}

  private static String usage() {
    return USAGE.formatted(
        Workload.ALL.stream().map(Workload::name).collect(Collectors.joining(", ")),
        Workload.SCALE.stream().map(Workload::name).collect(Collectors.joining(", ")),
        Workload.DRA.stream().map(Workload::name).collect(Collectors.joining(", ")),
        Workload.NEVER_FITTING.stream().map(Workload::name).collect(Collectors.joining(", ")),
        Workload.SMOKES.stream().map(Workload::name).collect(Collectors.joining(", ")));
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.err));
  }

  static int run(String[] args, PrintStream log)
      throws IOException, InterruptedException, ExecutionException, URISyntaxException {
    Path project = null;
    Path kubeScheduler = null;
    String kubeVersion = null;
    Path out = null;
    Path data = null;
    String revision = "unknown";
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
    List<Integer> ceilingThreads = CeilingBinder.DEFAULT_THREADS;
    List<String> jvmFlags = SchedulerProcess.KUBESCHED_JVM_FLAGS;
    boolean imageFlags = true;
    for (int i = 0; i < args.length; i++) {
      var flag = args[i];
      if (flag.equals("--help")) {
        log.print(usage());
        return 0;
      }
      if (i + 1 >= args.length) {
        log.print("missing value after " + flag + "\n" + usage());
        return 2;
      }
      var value = args[++i];
      switch (flag) {
        case "--project" -> project = Path.of(value);
        case "--kube-scheduler" -> kubeScheduler = Path.of(value);
        case "--kube-version" -> kubeVersion = value;
        case "--out" -> out = Path.of(value);
        case "--data" -> data = Path.of(value);
        case "--revision" -> revision = value;
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
        case "--ceiling-threads" -> ceilingThreads = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
        case "--kubesched-jvm-flags" -> {
          jvmFlags = value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
          imageFlags = false;
        }
        default -> {
          log.print("unknown option " + flag + "\n" + usage());
          return 2;
        }
      }
    }
    if (project == null || kubeScheduler == null || kubeVersion == null || out == null) {
      log.print("--project, --kube-scheduler, --kube-version and --out are required\n" + usage());
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
    if (ceilingThreads.isEmpty() || ceilingThreads.stream().anyMatch(t -> t < 1)) {
      log.print("--ceiling-threads: " + ceilingThreads + "; give one or more positive counts\n" + usage());
      return 2;
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
            project.toAbsolutePath(), kubeScheduler, jar, qps, burst, jfr, work, Duration.ofSeconds(stall), warmup,
            streamRate, jvmFlags);
    if (imageFlags && contestants.contains(Contestant.KUBESCHED)) {
      // The image starts with an archive of the classes its server loads: the scheduler here with one of its own.
      var archive = ClassDataSharing.trainAndArchive(settings, log);
      if (archive != null) {
        settings = settings.withKubeschedJvmFlag(archive);
      }
    }
    log.printf("logs and cluster state in %s%n", work);
    if (!ManagementFactory.getRuntimeMXBean().getInputArguments().contains(RUNNER_JIT)) {
      log.printf(
          "warning: the runner was started without %s (scripts/e2e-benchmark.sh gives it): its own C2"
              + " compilations will take CPU from the API server during the first runs%n",
          RUNNER_JIT);
    }
    if (contestants.contains(Contestant.KUBE_SCHEDULER_SAME_PLUGINS)
        && !samePluginsResolved(workloads, settings, log)) {
      return 2;
    }

    if (data == null) {
      data = RunRecord.beside(out);
    }
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    var started = Instant.now();
    var results = new ArrayList<RunResult>();
    for (var workload : workloads) {
      for (int rep = 1; rep <= reps; rep++) {
        for (int k = 0; k < contestants.size(); k++) {
          // Rotate the order each repetition, so that no contestant always runs first or last.
          var contestant = contestants.get((k + rep - 1) % contestants.size());
          for (int threads : contestant == Contestant.CEILING ? ceilingThreads : List.of(0)) {
            results.add(new BenchmarkRun(settings, workload, contestant, rep, threads, log).run());
            // Written after every run, so that an interrupted run of an hour keeps what it measured.
            Files.writeString(
                out,
                Report.markdown(
                    machine(kubeVersion, qps, burst, settings.kubeschedJvmFlags()), command(args), results, workloads));
            RunRecord.write(
                data,
                RunData.record(revision, command(args), kubeVersion, settings, started, Instant.now(), results, workloads));
          }
        }
      }
    }
    log.printf("wrote %s and %s%n", out, data);
    return 0;
  }

  /**
   * Checks, before any run, that kube-scheduler resolves the generated same-plugins profile to the plugins and
   * weights this library's configuration reader does ({@code SchedulerConfiguration}), once per set of
   * kube-scheduler flags the workloads use; logs them.
   *
   * @return false, with both lists logged, if they differ
   */
  private static boolean samePluginsResolved(List<Workload> workloads, BenchmarkRun.Settings settings, PrintStream log)
      throws IOException, InterruptedException {
    var checked = new HashSet<List<String>>();
    for (var workload : workloads) {
      var flags = workload.shape().kubeSchedulerFlags();
      if (!checked.add(flags)) {
        continue;
      }
      var dir = settings.workDir().resolve("same-plugins-check" + (flags.isEmpty() ? "" : "-" + workload.name()));
      var config =
          BenchmarkRun.kubeSchedulerConfig(
              Contestant.KUBE_SCHEDULER_SAME_PLUGINS, workload, dir.resolve("nowhere.kubeconfig"), settings);
      var kube = KubeSchedulerConfig.resolvedBy(settings.kubeScheduler(), config, flags, dir);
      var ours = SchedulerConfiguration.parse(config, dir + "/kube-scheduler.yaml").profiles().get(0).enabledPlugins();
      if (!kube.equals(ours)) {
        log.printf(
            "kube-scheduler %s resolves the same-plugins profile to%n  %s%nwhere this library's reader has%n  %s%n",
            flags, kube, ours);
        return false;
      }
      log.printf("kube-scheduler (same plugins)%s runs: %s%n", flags.isEmpty() ? "" : " with " + flags, kube);
    }
    return true;
  }

  private static String command(String[] args) {
    var shown = new ArrayList<String>();
    for (int i = 0; i < args.length; i++) {
      // Paths differ from machine to machine; what was measured is the rest.
      if (List.of("--project", "--kube-scheduler", "--kube-version", "--out", "--data", "--revision", "--work", "--jfr").contains(args[i])) {
        i++;
      } else {
        shown.add(args[i]);
      }
    }
    return ("scripts/e2e-benchmark.sh " + String.join(" ", shown)).strip();
  }

  /** The machine and versions, as the table's header states them. */
  static String machine(String kubeVersion, double qps, int burst, List<String> jvmFlags) {
    var machine = RunRecord.machine();
    return String.format(
        Locale.ROOT,
        "Machine: %d CPUs (%s), %s GiB memory, Linux %s; kube-apiserver, etcd and kube-scheduler %s built by"
            + " tools/test-cluster/cluster.sh; Java %s (%s) for this library's scheduler and the runner; both schedulers"
            + " with client QPS %.0f, burst %d; this library's scheduler with JVM flags %s; the runner with JVM flags"
            + " %s. The API server, etcd, the scheduler and the runner (creating pods, watching) share the machine.%n",
        Runtime.getRuntime().availableProcessors(),
        machine.get("cpu"),
        machine.get("memoryGiB"),
        System.getProperty("os.version"),
        kubeVersion,
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vm.name"),
        qps,
        burst,
        flags(jvmFlags),
        flags(ManagementFactory.getRuntimeMXBean().getInputArguments()));
  }

  private static String flags(List<String> jvmFlags) {
    return jvmFlags.isEmpty() ? "none (the JVM's defaults)" : "`" + String.join(" ", jvmFlags) + "`";
  }
}
