package io.kubesched.e2e;

import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * kube-scheduler of the test cluster's Kubernetes version, as a process beside the end-to-end tests: built (or
 * reused from the cache) by {@code tools/test-cluster/cluster.sh build-scheduler}, started with its default profile,
 * leader election off, no serving port, the given kubeconfig and any further flags, as the end-to-end benchmark
 * runs it. It schedules the pods whose {@code spec.schedulerName} is {@value #NAME}. Its output goes to a log file whose
 * end {@link #tail()} returns. Threads: one test thread at a time.
 */
final class KubeSchedulerProcess implements AutoCloseable {

  /** The scheduler name of kube-scheduler's default profile. */
  static final String NAME = "default-scheduler";

  private final Process process;
  private final Path log;

  private KubeSchedulerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * {@link #start(Path, Path, Path, String...)} for a test class: the reactor's root as the failsafe configuration
   * names it, the cluster's admin identity, and {@code target/<logDirName>} for its configuration and log.
   */
  static KubeSchedulerProcess startFor(TestCluster cluster, String logDirName, String... flags)
      throws IOException, InterruptedException {
    return start(RealClusterExtension.projectDir(), cluster.adminKubeconfig(), Path.of("target", logDirName), flags);
  }

  /**
   * Builds kube-scheduler if the cache has none (minutes, once), then starts it.
   *
   * @param projectDir the reactor's root, where {@code tools/test-cluster/cluster.sh} is
   * @param kubeconfig the identity it runs as
   * @param logDir where its configuration and log are written (created if missing)
   * @param flags added to its command line, such as {@code --feature-gates=GenericWorkload=true} (its
   *     {@code GangScheduling} plugin and pod group queueing are on only with that gate)
   * @throws IllegalStateException if the build fails, with the script's output
   */
  static KubeSchedulerProcess start(Path projectDir, Path kubeconfig, Path logDir, String... flags)
      throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    var binary = binary(projectDir, logDir);
    var config = logDir.resolve("kube-scheduler.yaml");
    Files.writeString(
        config,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: %s
        leaderElection:
          leaderElect: false
        """
            .formatted(kubeconfig.toAbsolutePath()));
    var log = logDir.resolve("kube-scheduler.log");
    // --secure-port=0: no serving endpoint (nothing scrapes it, and it would need authentication delegation).
    var command = new ArrayList<>(List.of(binary.toString(), "--config=" + config, "--secure-port=0", "--v=2"));
    command.addAll(List.of(flags));
    var process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new KubeSchedulerProcess(process, log);
  }

  /**
   * Builds kube-scheduler if the cache has none (minutes, once) and returns its path: runs {@code cluster.sh
   * build-scheduler}, which prints the binary's path as its last line of output.
   *
   * @param logDir where the build's output goes (it must exist)
   * @throws IllegalStateException if the build fails, with the script's output
   */
  static Path binary(Path projectDir, Path logDir) throws IOException, InterruptedException {
    var output = logDir.resolve("build-scheduler.log");
    var path = logDir.resolve("build-scheduler.path");
    var exit =
        new ProcessBuilder(projectDir.resolve("tools/test-cluster/cluster.sh").toString(), "build-scheduler")
            .redirectOutput(path.toFile())
            .redirectError(output.toFile())
            .start()
            .waitFor();
    if (exit != 0) {
      throw new IllegalStateException(
          "tools/test-cluster/cluster.sh build-scheduler failed with " + exit + ":\n"
              + Files.readString(output, StandardCharsets.UTF_8));
    }
    var lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    return Path.of(lines.get(lines.size() - 1).strip());
  }

  /** Whether the process is still running. */
  boolean alive() {
    return process.isAlive();
  }

  /** The last 30 lines of its log, for a failure's message. */
  String tail() {
    try {
      var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return (process.isAlive() ? "" : "kube-scheduler exited with " + process.exitValue() + "; ")
          + "the end of " + log + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "cannot read " + log + ": " + e;
    }
  }

  /** SIGTERM, then SIGKILL after 30 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  @Override
  public String toString() {
    return "kube-scheduler (pid " + process.pid() + ", log " + log + ")";
  }
}
