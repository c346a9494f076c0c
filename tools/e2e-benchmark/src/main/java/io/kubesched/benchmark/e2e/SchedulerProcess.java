package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A scheduler running as a process of its own, whose CPU time and peak resident set are read from {@code
 * /proc} while it is alive: the same reading for kube-scheduler and for this library's JVM.
 */
final class SchedulerProcess implements Placer {

  /** {@code sysconf(_SC_CLK_TCK)}: 100 on every Linux this runs on (x86-64 and arm64). */
  private static final double CLOCK_TICKS_PER_SECOND = 100;

  private final Process process;
  private final Path log;
  private final @Nullable URI metrics;

  private SchedulerProcess(Process process, Path log, @Nullable URI metrics) {
    this.process = process;
    this.log = log;
    this.metrics = metrics;
  }

  /**
   * kube-scheduler's command-line flags besides {@code --config} and a workload's feature gates: {@code
   * --secure-port=0}, no serving endpoint (nothing scrapes it, unless a workload counts attempts: {@link
   * #kubeScheduler}); {@code --v=1}.
   */
  static final List<String> KUBE_SCHEDULER_FLAGS = List.of("--secure-port=0", "--v=1");

  /** {@link #KUBE_SCHEDULER_FLAGS} without the secure port, for a kube-scheduler that serves its metrics. */
  private static final List<String> SERVING_KUBE_SCHEDULER_FLAGS = List.of("--v=1");

  /**
   * The JVM flags of this library's scheduler process, {@code --kubesched-jvm-flags}'s default: the flags the
   * runnable scheduler's image ships with ({@code scheduler-server}'s pom, {@code server.jvm.*}: heap 75 % of the
   * memory limit, the serial collector with a young generation of a quarter of the heap, the quick (C1) compiler
   * only, exit on OutOfMemoryError, a common pool of two threads, ChaCha20-Poly1305 offered first to the API
   * server), with {@code -XX:MaxRAM=1g} standing for the 1 GiB memory limit of {@code deploy/}'s Deployment,
   * since these processes run in no container. The one place to change them.
   */
  static final List<String> KUBESCHED_JVM_FLAGS =
      List.of(
          "-XX:MaxRAM=1g",
          "-XX:MaxRAMPercentage=75",
          "-XX:+UseSerialGC",
          "-XX:NewRatio=3",
          "-XX:TieredStopAtLevel=1",
          "-XX:+ExitOnOutOfMemoryError",
          "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2",
          "-Djdk.tls.client.cipherSuites=TLS_CHACHA20_POLY1305_SHA256,TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,"
              + "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,"
              + "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,"
              + "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");

  /**
   * Starts kube-scheduler with one profile ({@link KubeSchedulerConfig#file}), leader election off, the given
   * client limits, {@link #KUBE_SCHEDULER_FLAGS}.
   *
   * @param config the configuration file's text
   * @param flags more command-line flags (a workload's feature gates), possibly none
   * @param countAttempts whether to serve its metrics for {@link #attempts}: then its secure port is a free one of
   *     the loopback instead of none, with a self-signed certificate and {@code /metrics} open to anyone (no
   *     authentication delegation: the runner scrapes it without credentials)
   */
  static SchedulerProcess kubeScheduler(
      Path binary, String config, List<String> flags, boolean countAttempts, Path logDir, String run)
      throws IOException {
    var file = logDir.resolve(run + "-kube-scheduler.yaml");
    Files.writeString(file, config);
    var command = new ArrayList<>(List.of(binary.toString(), "--config=" + file));
    URI metrics = null;
    if (countAttempts) {
      int port = ScheduleAttempts.freePort();
      command.addAll(
          List.of(
              "--secure-port=" + port,
              "--bind-address=127.0.0.1",
              "--cert-dir=" + logDir.resolve(run + "-certs"),
              "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics"));
      command.addAll(SERVING_KUBE_SCHEDULER_FLAGS);
      metrics = URI.create("https://127.0.0.1:" + port + "/metrics");
    } else {
      command.addAll(KUBE_SCHEDULER_FLAGS);
    }
    command.addAll(flags);
    return start(command, logDir, run, metrics);
  }

  /**
   * Starts {@link BenchmarkScheduler} in a JVM like the one running this benchmark.
   *
   * @param workloadApi whether it watches only the Workload API's pod groups ({@code scheduling.k8s.io/v1beta1})
   *     rather than the library's default sources
   * @param jvmFlags the JVM's flags ({@link #KUBESCHED_JVM_FLAGS} unless {@code --kubesched-jvm-flags} says)
   * @param countAttempts whether it serves its attempts for {@link #attempts} ({@link ScheduleAttempts.Counter}),
   *     on a free port of the loopback
   */
  static SchedulerProcess kubesched(
      Path jar, Path kubeconfig, String schedulerName, double qps, int burst, boolean workloadApi,
      List<String> jvmFlags, boolean countAttempts, @Nullable Path jfrDir, Path logDir, String run)
      throws IOException {
    var java = ProcessHandle.current().info().command().orElse("java");
    var command = new ArrayList<>(List.of(java));
    command.addAll(jvmFlags);
    if (jfrDir != null) {
      command.add(
          "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
              + jfrDir.resolve(run + ".jfr"));
    }
    URI metrics = null;
    if (countAttempts) {
      int port = ScheduleAttempts.freePort();
      command.add("-D" + BenchmarkScheduler.METRICS_PORT + "=" + port);
      metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
    }
    command.addAll(
        List.of(
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
            "-D" + BenchmarkScheduler.PATH_TIMES + "=" + pathTimes(logDir, run),
            "-cp",
            jar.toString(),
            BenchmarkScheduler.class.getName(),
            kubeconfig.toString(),
            schedulerName,
            Double.toString(qps),
            Integer.toString(burst)));
    if (workloadApi) {
      command.add(BenchmarkScheduler.WORKLOAD_API);
    }
    return start(command, logDir, run, metrics);
  }

  /** Where {@link #kubesched}'s process writes its {@link PathTimes} once terminated. */
  static Path pathTimes(Path logDir, String run) {
    return logDir.resolve(run + "-path-times.txt");
  }

  private static SchedulerProcess start(List<String> command, Path logDir, String run, @Nullable URI metrics)
      throws IOException {
    var log = logDir.resolve(run + "-scheduler.log");
    var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new SchedulerProcess(process, log, metrics);
  }

  /** Read from its metrics while it runs (not while {@linkplain #pause paused}: it would not answer). */
  @Override
  public RunResult.Attempts attempts() throws IOException {
    return metrics == null ? RunResult.Attempts.NONE : ScheduleAttempts.scrape(metrics);
  }

  /** SIGSTOP: the process keeps its state and connections but runs no more until {@link #resume}. */
  @Override
  public void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  @Override
  public void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed with " + exit);
    }
  }

  /** User plus system CPU seconds the process has used so far (all its threads). */
  @Override
  public double cpuSeconds() throws IOException {
    var stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    // Fields after the command name, which is in parentheses and may contain spaces: state is field 3,
    // utime 14 and stime 15 (proc(5)).
    var fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS_PER_SECOND;
  }

  /** The peak resident set size so far ({@code VmHWM}). */
  @Override
  public double peakRssMiB() throws IOException {
    for (var line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
      }
    }
    throw new IllegalStateException("no VmHWM in /proc/" + process.pid() + "/status");
  }

  /** Throws, with the end of its log, if the process has exited. */
  @Override
  public void check() throws IOException {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "the scheduler exited with " + process.exitValue() + "; the end of " + log + ":\n" + tail());
    }
  }

  @Override
  public String tail() throws IOException {
    var lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /** Terminates it (SIGTERM, so a JVM writes its flight recording), forcibly after 60 s. */
  @Override
  public void close() throws InterruptedException {
    try {
      resume(); // a stopped process would not act on SIGTERM
    } catch (IOException | RuntimeException e) {
      // it may have exited already
    }
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
