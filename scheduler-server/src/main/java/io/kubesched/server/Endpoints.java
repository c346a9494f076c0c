package io.kubesched.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The server's HTTP endpoints, plain HTTP on one port, answering GET (and HEAD):
 *
 * <ul>
 *   <li>{@code /healthz}: 200 {@code ok} while {@link Probes#unhealthy()} is empty, else 503 with the reason;
 *   <li>{@code /readyz}: 200 {@code ok} while {@link Probes#notReady()} is empty, else 503 with the reason;
 *   <li>{@code /metrics}: the registry in Prometheus' text format (version 0.0.4).
 * </ul>
 *
 * Any other path is 404, any other method 405. Requests are served by two threads of their own ({@code
 * kubesched-http-N}), so a slow scrape does not hold up a probe.
 */
final class Endpoints implements AutoCloseable {

  /** What {@code /healthz} and {@code /readyz} tell. Called on the HTTP threads: must not block. */
  interface Probes {

    /** @return why the process should be restarted; empty while it is healthy */
    Optional<String> unhealthy();

    /** @return why the process should get no traffic (yet); empty once it is ready */
    Optional<String> notReady();
  }

  static final String METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final String TEXT = "text/plain; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService threads;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Endpoints(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Serves the endpoints on {@code address} until closed.
   *
   * @throws IOException if the address cannot be bound (the port is taken, for one)
   */
  static Endpoints start(InetSocketAddress address, Probes probes, PrometheusMeterRegistry registry)
      throws IOException {
    var server = HttpServer.create(address, 0);
    server.createContext("/healthz", exchange -> probe(exchange, "/healthz", probes::unhealthy));
    server.createContext("/readyz", exchange -> probe(exchange, "/readyz", probes::notReady));
    server.createContext(
        "/metrics",
        exchange -> {
          if (accept(exchange, "/metrics")) {
            respond(exchange, 200, METRICS_CONTENT_TYPE, registry.scrape());
          }
        });
    server.createContext("/", exchange -> respond(exchange, 404, TEXT, "404 page not found\n"));
    var count = new AtomicInteger();
    ExecutorService threads =
        Executors.newFixedThreadPool(
            2,
            runnable -> {
              var thread = new Thread(runnable, "kubesched-http-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    server.start();
    return new Endpoints(server, threads);
  }

  /** @return the port served, the one chosen where 0 was asked for */
  int port() {
    return server.getAddress().getPort();
  }

  /** Stops answering at once; idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.stop(0);
    threads.shutdownNow();
  }

  private static void probe(HttpExchange exchange, String path, Supplier<Optional<String>> problem)
      throws IOException {
    if (accept(exchange, path)) {
      var reason = problem.get();
      respond(exchange, reason.isEmpty() ? 200 : 503, TEXT, reason.orElse("ok") + "\n");
    }
  }

  /**
   * @return whether the exchange is a GET or HEAD of exactly {@code path}; if not, it has been answered (a
   *     context matches every path it is a prefix of)
   */
  private static boolean accept(HttpExchange exchange, String path) throws IOException {
    if (!exchange.getRequestURI().getPath().equals(path)) {
      respond(exchange, 404, TEXT, "404 page not found\n");
      return false;
    }
    var method = exchange.getRequestMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      exchange.getResponseHeaders().set("Allow", "GET, HEAD");
      respond(exchange, 405, TEXT, "405 method not allowed\n");
      return false;
    }
    return true;
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    try (exchange) {
      var bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      if (exchange.getRequestMethod().equals("HEAD")) {
        exchange.sendResponseHeaders(status, -1);
      } else {
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
      }
    }
  }
}
