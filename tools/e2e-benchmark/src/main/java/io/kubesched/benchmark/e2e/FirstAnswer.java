package io.kubesched.benchmark.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The floor under this library's start-up: a JVM with the scheduler's flags, class path and archive that trusts the
 * kubeconfig's certificate authority, makes the JDK's HTTP client ready (HTTP/1.1, as the scheduler's clients) and
 * asks the API server for its version with the kubeconfig's token: the least a JVM does before the API server has
 * answered it once over TLS. It reads the kubeconfig line by line for {@code server}, {@code certificate-authority}
 * and {@code token} (what the test cluster writes), with no YAML parser and no fabric8 client, so that nothing of a
 * client library's own start is in it. The runner launches it before each kubesched run and takes the time from the
 * launch to the answer, on {@link System#nanoTime()}'s clock ({@code CLOCK_MONOTONIC}, one clock for every process of
 * the machine): the start-up table shows it beside kubesched's time to its first binding.
 *
 * <pre>FirstAnswer KUBECONFIG</pre>
 *
 * Prints {@value #ANSWERED} and the instant of the answer (any status), then exits.
 */
public final class FirstAnswer {

  /** What the process prints before the instant of the answer, in nanoseconds of {@link System#nanoTime()}. */
  static final String ANSWERED = "answered at ";

  /** How long the runner waits for the process: far more than it takes, so only a stuck one is stopped. */
  private static final long TIMEOUT_SECONDS = 60;

  private FirstAnswer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: FirstAnswer KUBECONFIG");
      System.exit(2);
    }
    var kubeconfig = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    var server = value(kubeconfig, "server").orElseThrow(() -> new IllegalArgumentException("no server in " + args[0]));
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
    var authority = value(kubeconfig, "certificate-authority");
    if (authority.isPresent()) {
      var trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      try (var in = Files.newInputStream(Path.of(authority.get()))) {
        trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      var tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      client.sslContext(tls);
    }
    var request = HttpRequest.newBuilder(URI.create(server.replaceAll("/+$", "") + "/version"));
    value(kubeconfig, "token").ifPresent(token -> request.header("Authorization", "Bearer " + token));
    client.build().send(request.build(), HttpResponse.BodyHandlers.ofString());
    System.out.println(ANSWERED + System.nanoTime());
  }

  /** The value of the first {@code key: value} line of {@code lines}, unquoted. */
  static Optional<String> value(List<String> lines, String key) {
    for (var line : lines) {
      var trimmed = line.trim();
      if (trimmed.startsWith(key + ":")) {
        var value = trimmed.substring(key.length() + 1).trim().replaceAll("^[\"']|[\"']$", "");
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
      }
    }
    return Optional.empty();
  }

  /**
   * Launches the process and waits for it.
   *
   * @param jvmFlags the scheduler's JVM flags; a {@code -XX:DumpLoadedClassList} among them (the class-data-sharing
   *     training) is left out, so that only the scheduler writes that list
   * @param log where its output goes
   * @return seconds from the launch to the answer, or NaN when it printed none (its output is in {@code log})
   */
  static double measure(Path jar, List<String> jvmFlags, Path kubeconfig, Path log)
      throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
    jvmFlags.stream().filter(flag -> !flag.startsWith("-XX:DumpLoadedClassList")).forEach(command::add);
    command.addAll(List.of("-cp", jar.toString(), FirstAnswer.class.getName(), kubeconfig.toString()));
    long launched = System.nanoTime();
    var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    var answered = answeredAt(Files.readAllLines(log, StandardCharsets.UTF_8));
    return answered.isPresent() ? (answered.getAsLong() - launched) / 1e9 : Double.NaN;
  }

  /** The instant the process printed with {@link #ANSWERED}, if one of {@code lines} has it. */
  static OptionalLong answeredAt(List<String> lines) {
    for (var line : lines) {
      if (line.startsWith(ANSWERED)) {
        try {
          return OptionalLong.of(Long.parseLong(line.substring(ANSWERED.length()).trim()));
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }
}
