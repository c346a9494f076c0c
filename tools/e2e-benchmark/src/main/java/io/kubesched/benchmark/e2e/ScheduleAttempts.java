package io.kubesched.benchmark.e2e;

import com.sun.net.httpserver.HttpServer;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.testcluster.InsecureHttps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * Both contestants' scheduling attempts as kube-scheduler counts them: its counter {@value #METRIC}, labelled by
 * {@code result} ({@code scheduled}, {@code unschedulable}, {@code error}) and {@code profile}, one increment per
 * attempt of a pod. kube-scheduler serves it on its secure port; this library's benchmark process counts the same
 * attempts through {@link SchedulerMetrics#attempt} (which the loop calls where kube-scheduler increments its
 * counter) and serves the same lines over plain HTTP ({@link Counter}). The runner reads either with {@link
 * #scrape}.
 */
final class ScheduleAttempts {

  /** kube-scheduler's counter of scheduling attempts. */
  static final String METRIC = "scheduler_schedule_attempts_total";

  /** How long a scrape may take: the scheduler serves it beside its work, on a busy machine. */
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private static final Pattern SAMPLE =
      Pattern.compile("^" + METRIC + "\\{([^}]*)\\}\\s+(\\S+)(\\s+\\d+)?$", Pattern.MULTILINE);
  private static final Pattern RESULT = Pattern.compile("result=\"([a-z]+)\"");

  private ScheduleAttempts() {}

  /**
   * The attempts in a Prometheus text exposition, summed over profiles by result; 0 for a result without a line
   * (kube-scheduler has none before its first attempt of that result).
   *
   * @throws IllegalArgumentException if a line of {@value #METRIC} has no known result or no number
   */
  static RunResult.Attempts parse(String exposition) {
    double scheduled = 0;
    double unschedulable = 0;
    double error = 0;
    var samples = SAMPLE.matcher(exposition);
    while (samples.find()) {
      var result = RESULT.matcher(samples.group(1));
      double value;
      try {
        value = Double.parseDouble(samples.group(2));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a number in '" + samples.group() + "'", e);
      }
      switch (result.find() ? result.group(1) : "") {
        case "scheduled" -> scheduled += value;
        case "unschedulable" -> unschedulable += value;
        case "error" -> error += value;
        default -> throw new IllegalArgumentException("no known result in '" + samples.group() + "'");
      }
    }
    return new RunResult.Attempts(scheduled, unschedulable, error);
  }

  /**
   * The attempts a scheduler process serves at {@code metrics}: over HTTPS (kube-scheduler's secure port, its
   * self-signed certificate trusted unseen: the runner talks to a process it started on the loopback) or HTTP.
   *
   * @throws IOException if it does not answer 200 within {@link #TIMEOUT}
   */
  static RunResult.Attempts scrape(URI metrics) throws IOException {
    var request = HttpRequest.newBuilder(metrics).timeout(TIMEOUT).GET().build();
    HttpResponse<String> response;
    try {
      response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + metrics, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(metrics + " answered " + response.statusCode());
    }
    return parse(response.body());
  }

  /** Trusts any certificate: the runner reads only processes it started itself, on the loopback. */
  private static final HttpClient CLIENT = InsecureHttps.client();

  /** A TCP port of the loopback free now, for a scheduler process to serve its metrics on. */
  static int freePort() throws IOException {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * This library's side: counts {@link SchedulerMetrics#attempt} calls by result and passes {@link #bound},
   * {@link #attempt} and {@link #scheduled} on to {@code next} (the benchmark process's {@link PathTimes}, which
   * records only those); {@link #serve} serves the counts as kube-scheduler's lines. Thread-safe.
   */
  static final class Counter implements SchedulerMetrics {

    private final SchedulerMetrics next;
    private final LongAdder[] byResult = new LongAdder[Result.values().length];

    Counter(SchedulerMetrics next) {
      this.next = next;
      for (int i = 0; i < byResult.length; i++) {
        byResult[i] = new LongAdder();
      }
    }

    @Override
    public void attempt(String profile, Result result, Duration took) {
      byResult[result.ordinal()].increment();
      next.attempt(profile, result, took);
    }

    @Override
    public void bound(String profile, Duration took, boolean success) {
      next.bound(profile, took, success);
    }

    @Override
    public void scheduled(int attempts, Duration sinceFirstQueued) {
      next.scheduled(attempts, sinceFirstQueued);
    }

    /** The counts as kube-scheduler's lines of {@value #METRIC}, one per result, under {@code profile}. */
    String exposition(String profile) {
      var text = new StringBuilder("# TYPE " + METRIC + " counter\n");
      for (var result : Result.values()) {
        text.append(
            String.format(
                Locale.ROOT, "%s{profile=\"%s\",result=\"%s\"} %d%n", METRIC, profile, result.label(),
                byResult[result.ordinal()].sum()));
      }
      return text.toString();
    }

    /**
     * Serves {@link #exposition} at {@code http://127.0.0.1:PORT/metrics} on a thread of its own until the
     * returned server is stopped.
     */
    HttpServer serve(int port, String profile) {
      try {
        var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext(
            "/metrics",
            exchange -> {
              var body = exposition(profile).getBytes(StandardCharsets.UTF_8);
              exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
              exchange.sendResponseHeaders(200, body.length);
              try (var out = exchange.getResponseBody()) {
                out.write(body);
              }
            });
        server.start();
        return server;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serve the attempts on port " + port, e);
      }
    }
  }
}
