package io.kubesched.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's HTTPS endpoints, on one port, answering GET (and HEAD):
 *
 * <ul>
 *   <li>{@code /healthz} and {@code /livez}: 200 {@code ok} while {@link Probes#unhealthy()} is empty, else 503
 *       with the reason;
 *   <li>{@code /readyz}: 200 {@code ok} while {@link Probes#notReady()} is empty, else 503 with the reason;
 *   <li>{@code /metrics}: the registry in Prometheus' text format (version 0.0.4);
 *   <li>each {@link Route} the caller adds, at its path.
 * </ul>
 *
 * Every request first passes {@link DelegatedAuth} (401, 403 or 500 with kube's Status body if not); then any
 * other path is 404, any other method 405.
 *
 * <p>Served by Jetty's core server (no servlet API): the JDK's HTTP server has no header timeout and no
 * connection limit, and two half-sent requests held its two threads, and so the probes, for as long as the
 * clients kept them open. The limits ({@link Limits}) keep slow or half-open clients from starving the probes: a
 * half-open connection costs no thread (Jetty parses without blocking), it is closed after the header timeout,
 * the connections and threads are bounded, and {@code /metrics} and the routes (which may wait up to twice
 * {@link ReviewClients#REVIEW_TIMEOUT_MILLIS} on reviews) share a part of the threads only, so that the probes
 * always find one.
 */
final class Endpoints implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Endpoints.class);

  /** What {@code /healthz} and {@code /readyz} tell. Called on the HTTP threads: must not block. */
  interface Probes {

    /** @return why the process should be restarted; empty while it is healthy */
    Optional<String> unhealthy();

    /** @return why the process should get no traffic (yet); empty once it is ready */
    Optional<String> notReady();
  }

  /**
   * How much the endpoints take from slow or many clients. Immutable.
   *
   * @param headerTimeout how long a new connection has to complete its TLS handshake and send its first
   *     request's headers before it is closed: a client that never finishes a request holds no connection
   *     longer (kube's {@code ReadHeaderTimeout}, 32 s)
   * @param idleTimeout how long a connection may send nothing (between requests, or in the middle of one) before
   *     it is closed (kube's {@code IdleTimeout}, 90 s, the keep-alive of Go's clients)
   * @param maxConnections connections open at once; more wait in the listen backlog until one closes. Far above
   *     what the kubelet's probes and a few scrapers open, bounded so that a flood of connections cannot
   *     exhaust memory or file descriptors
   * @param maxThreads threads serving requests at once (Jetty's acceptor and selector included): requests of a
   *     scheduler's endpoints are short, and a bound keeps a flood of requests from taking the scheduler's CPU
   *     and memory
   * @param maxHeavy requests of {@code /metrics} and the routes served at once (each may wait on reviews at the
   *     API server); more are answered 429 at once, so that the probes, which take none of these, always
   *     find a thread
   * @param maxHeaderBytes the most bytes of a request's headers (a bearer token is 1 to 2 KiB)
   */
  record Limits(
      Duration headerTimeout,
      Duration idleTimeout,
      int maxConnections,
      int maxThreads,
      int maxHeavy,
      int maxHeaderBytes) {

    /** The limits the server runs with. */
    static final Limits DEFAULT = new Limits(Duration.ofSeconds(32), Duration.ofSeconds(90), 256, 16, 8, 16 * 1024);

    Limits {
      Objects.requireNonNull(headerTimeout, "headerTimeout");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      if (maxHeavy < 1 || maxThreads < maxHeavy + 4 || maxConnections < 1) {
        throw new IllegalArgumentException(
            "need maxHeavy >= 1, maxThreads >= maxHeavy + 4 and maxConnections >= 1: " + maxHeavy + ", "
                + maxThreads + ", " + maxConnections);
      }
    }
  }

  static final String METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String JSON = "application/json";
  private static final Set<String> BUILT_IN = Set.of("/healthz", "/livez", "/readyz", "/metrics");

  private final Server server;
  private final ServerConnector connector;
  private final int port;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Endpoints(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
    this.port = connector.getLocalPort();
  }

  /**
   * Serves the endpoints over HTTPS on {@code address} until closed.
   *
   * @param address where to listen; port 0 picks a free one
   * @param certificate the serving certificate
   * @param auth who may read what
   * @param routes the further paths served to authorized requests, by path
   * @throws IOException if the address cannot be bound (the port is taken, for one)
   * @throws IllegalArgumentException if a route's path is a built-in one's or does not start with {@code /}
   */
  static Endpoints start(
      InetSocketAddress address,
      ServingCertificate certificate,
      DelegatedAuth auth,
      Probes probes,
      PrometheusMeterRegistry registry,
      Map<String, Route> routes,
      Limits limits)
      throws IOException {
    for (var path : routes.keySet()) {
      if (BUILT_IN.contains(path) || !path.startsWith("/")) {
        throw new IllegalArgumentException("a route cannot be served at " + path);
      }
    }
    var threads = new QueuedThreadPool(limits.maxThreads(), 2);
    threads.setName("kubesched-https");
    threads.setDaemon(true);
    threads.setReservedThreads(0);
    var server = new Server(threads);
    var http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(limits.maxHeaderBytes());
    // Clients reach the scheduler by pod IP, service name or port-forward: the certificate cannot name them all.
    http.addCustomizer(new SecureRequestCustomizer(false));
    var tls = new SslContextFactory.Server();
    var password = new char[32];
    var random = new SecureRandom();
    for (int i = 0; i < password.length; i++) {
      password[i] = (char) ('a' + random.nextInt(26));
    }
    tls.setKeyStore(certificate.keyStore(password));
    tls.setKeyStorePassword(new String(password));
    tls.setKeyManagerPassword(new String(password));
    tls.setSniRequired(false);
    var connector =
        new ServerConnector(
            server, 1, 1, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(http));
    connector.setHost(address.getAddress().getHostAddress());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    connector.addEventListener(new HeaderTimeout(connector, limits.headerTimeout()));
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connector));
    server.setHandler(new Serve(auth, probes, registry, Map.copyOf(routes), new Semaphore(limits.maxHeavy())));
    server.setStopTimeout(0);
    try {
      server.start();
    } catch (IOException e) {
      stopQuietly(server);
      throw e;
    } catch (Exception e) {
      stopQuietly(server);
      throw new IOException("cannot serve on " + address + ": " + e, e);
    }
    return new Endpoints(server, connector);
  }

  /** @return the port served, the one chosen where 0 was asked for */
  int port() {
    return port;
  }

  /** @return the connections open now, for tests */
  int connections() {
    return connector.getConnectedEndPoints().size();
  }

  /** Stops answering at once; idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      stopQuietly(server);
    }
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      // stopping: nothing more to do with the server
    }
  }

  /**
   * Closes a connection that has not sent a whole request's headers (its TLS handshake included) within the
   * timeout. Jetty's idle timeout alone would keep one that sends a byte now and then.
   */
  private static final class HeaderTimeout implements Connection.Listener {

    private final ServerConnector connector;
    private final Duration timeout;

    HeaderTimeout(ServerConnector connector, Duration timeout) {
      this.connector = connector;
      this.timeout = timeout;
    }

    @Override
    public void onOpened(Connection connection) {
      if (connection instanceof SslConnection tls) {
        connector
            .getScheduler()
            .schedule(
                () -> {
                  var http = tls.getSslEndPoint().getConnection();
                  if (tls.getEndPoint().isOpen() && (http == null || http.getMessagesIn() == 0)) {
                    tls.getEndPoint().close();
                  }
                },
                timeout.toMillis(),
                TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The handler: authentication and authorization, then the endpoint. */
  private static final class Serve extends Handler.Abstract {

    private final DelegatedAuth auth;
    private final Probes probes;
    private final PrometheusMeterRegistry registry;
    private final Map<String, Route> routes;
    private final Semaphore heavy;

    Serve(
        DelegatedAuth auth,
        Probes probes,
        PrometheusMeterRegistry registry,
        Map<String, Route> routes,
        Semaphore heavy) {
      super(InvocationType.BLOCKING);
      this.auth = auth;
      this.probes = probes;
      this.registry = registry;
      this.routes = routes;
      this.heavy = heavy;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      respond(request, response, callback, reply(request));
      return true;
    }

    /**
     * The answer to {@code request}, worked out while it holds a heavy permit where it needs one. The permit is
     * back before the answer is written, so that a client that has read its answer finds the permit free.
     */
    private Reply reply(Request request) {
      var path = Optional.ofNullable(request.getHttpURI().getDecodedPath()).orElse("/");
      var method = request.getMethod();
      if (auth.alwaysAllowed(path)) {
        return serve(request, path, method);
      }
      if (!heavy.tryAcquire()) {
        return new Reply(429, TEXT, "Too many requests, please try again later.\n", HttpHeader.RETRY_AFTER, "1");
      }
      try {
        var outcome = auth.check(request.getHeaders().get(HttpHeader.AUTHORIZATION), method, path);
        if (outcome instanceof DelegatedAuth.Outcome.Allowed) {
          return serve(request, path, method);
        } else if (outcome instanceof DelegatedAuth.Outcome.Unauthorized) {
          return new Reply(401, JSON, status(401, "Unauthorized", "Unauthorized", false));
        } else if (outcome instanceof DelegatedAuth.Outcome.Forbidden forbidden) {
          return new Reply(403, JSON, status(403, "Forbidden", forbidden.message(), true));
        } else {
          var failed = (DelegatedAuth.Outcome.Failed) outcome;
          return new Reply(500, TEXT, "Internal Server Error: " + failed.message() + "\n");
        }
      } finally {
        heavy.release();
      }
    }

    private Reply serve(Request request, String path, String method) {
      var route = routes.get(path);
      if (!BUILT_IN.contains(path) && route == null) {
        return new Reply(404, TEXT, "404 page not found\n");
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        return new Reply(405, TEXT, "405 method not allowed\n", HttpHeader.ALLOW, "GET, HEAD");
      }
      switch (path) {
        case "/healthz", "/livez" -> {
          return probe(probes::unhealthy);
        }
        case "/readyz" -> {
          return probe(probes::notReady);
        }
        case "/metrics" -> {
          return new Reply(200, METRICS_CONTENT_TYPE, registry.scrape());
        }
        default -> {
          Route.Response answer;
          try {
            answer = Objects.requireNonNull(route).get(routeRequest(request, path));
          } catch (RuntimeException e) {
            LOG.warn("{} failed: {}", path, e.toString());
            LOG.debug("{} failed", path, e);
            answer = new Route.Response(500, TEXT, "Internal Server Error: " + path + " failed\n");
          }
          return new Reply(answer.status(), answer.contentType(), answer.body());
        }
      }
    }

    private static Route.Request routeRequest(Request request, String path) {
      Fields fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
      Map<String, List<String>> query = new LinkedHashMap<>();
      for (var field : fields) {
        query.computeIfAbsent(field.getName(), name -> new ArrayList<>()).addAll(field.getValues());
      }
      return new Route.Request(
          path, query, Optional.ofNullable(request.getHeaders().get(HttpHeader.ACCEPT)));
    }

    private static Reply probe(Supplier<Optional<String>> problem) {
      var reason = problem.get();
      return new Reply(reason.isEmpty() ? 200 : 503, TEXT, reason.orElse("ok") + "\n");
    }

    /** kube's {@code metav1.Status} of a refused request, as its API server writes it. */
    private static String status(int code, String reason, String message, boolean details) {
      return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
          + json(message)
          + ",\"reason\":\""
          + reason
          + "\","
          + (details ? "\"details\":{}," : "")
          + "\"code\":"
          + code
          + "}\n";
    }

    private static void respond(Request request, Response response, Callback callback, Reply reply) {
      var bytes = reply.body().getBytes(StandardCharsets.UTF_8);
      response.setStatus(reply.status());
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
      response.getHeaders().put("X-Content-Type-Options", "nosniff");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
      if (reply.header() != null) {
        response.getHeaders().put(reply.header(), Objects.requireNonNull(reply.headerValue()));
      }
      if (request.getMethod().equals("HEAD")) {
        response.write(true, null, callback);
      } else {
        response.write(true, ByteBuffer.wrap(bytes), callback);
      }
    }
  }

  /** One answer: status, body and at most one header beyond the usual ones. */
  private record Reply(
      int status, String contentType, String body, @Nullable HttpHeader header, @Nullable String headerValue) {
    Reply(int status, String contentType, String body) {
      this(status, contentType, body, null, null);
    }
  }

  /** {@code s} as a JSON string. */
  static String json(@Nullable String s) {
    return Json.write(s);
  }
}
