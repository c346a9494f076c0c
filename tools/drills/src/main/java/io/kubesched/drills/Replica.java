package io.kubesched.drills;

import io.kubesched.testcluster.InsecureHttps;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One replica of the scheduler as a process of its own: {@code java -jar kubesched-server.jar --config FILE
 * --kubeconfig FILE --secure-port N --bind-address 127.0.0.1 --no-policy-crd}, as tools/e2e's {@code
 * ServerIT} starts it, its standard output
 * and error in a log file (with the binder's one line per binding POST). Used by the runner's thread only.
 */
final class Replica implements AutoCloseable {

  /** The line {@code LeaderElection} logs when it starts campaigning, with the identity it writes into the Lease. */
  private static final Pattern CAMPAIGNING = Pattern.compile("Campaigning for the lease (\\S+) as (\\S+)");

  /** Trusts any certificate: a replica serves HTTPS with a self-signed one made at its start. */
  private static final HttpClient HTTP =
      InsecureHttps.client();

  private final String name;
  private final Process process;
  private final Path log;
  private final int port;

  private Replica(String name, Process process, Path log, int port) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts a replica; returns at once (see {@link #ready()}).
   *
   * @param name names the log file, {@code <name>.log} in {@code logs}
   * @param jar kubesched-server's shaded jar
   * @param config the KubeSchedulerConfiguration
   * @param kubeconfig the identity it runs as
   */
  static Replica start(String name, Path jar, Path config, Path kubeconfig, Path logs) throws IOException {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    var log = logs.resolve(name + ".log");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var process = new ProcessBuilder(
        java,
        // The Deployment's memory limit (1 GiB) times its MaxRAMPercentage (75).
        "-Xmx768m",
        "-jar", jar.toString(),
        "-v=4", // the binder's line per binding POST
        "--config", config.toString(),
        "--kubeconfig", kubeconfig.toString(),
        "--secure-port", String.valueOf(port),
        "--bind-address", "127.0.0.1",
        "--no-policy-crd")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    // A runner stopped before it closes its replicas (Ctrl-C) must not leave them running.
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "drills-stop-" + name));
    return new Replica(name, process, log, port);
  }

  /** @return whether the process runs */
  boolean alive() {
    return process.isAlive();
  }

  /** @return whether {@code /readyz} answers 200: its informers have listed the cluster */
  boolean ready() {
    var request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/readyz"))
        .timeout(Duration.ofSeconds(5)).build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** @return the identity it campaigns with (logged when it starts campaigning); empty before that */
  Optional<String> identity() throws IOException {
    return identity(log());
  }

  /**
   * @param log a replica's log
   * @return the identity in its first "Campaigning for the lease ... as IDENTITY" line; empty if it has none
   */
  static Optional<String> identity(String log) {
    var matcher = CAMPAIGNING.matcher(log);
    return matcher.find() ? Optional.of(matcher.group(2)) : Optional.empty();
  }

  /** @return everything it has written so far */
  String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /**
   * Sends SIGKILL ({@link Process#destroyForcibly()}: {@code kill(pid, SIGKILL)} on Linux) and waits until the
   * process is gone.
   *
   * @return its exit status: 137 (128 + 9) when SIGKILL ended it
   */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor();
  }

  /** SIGTERM if it still runs, then SIGKILL if it has not exited within 60 s. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  /** @return the last {@code count} lines of its log, for a failure message */
  String tail(int count) {
    try {
      List<String> lines = log().lines().toList();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  @Override
  public String toString() {
    return "replica " + name + " (pid " + process.pid() + ", port " + port + ", log " + log + ")";
  }
}
