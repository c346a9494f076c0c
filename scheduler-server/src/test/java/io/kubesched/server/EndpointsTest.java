package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoints over HTTPS on a free port, with readiness and health set by the test, a registry with samples,
 * and token and access reviews answered by the test: {@value #ADMIN} may read anything, {@value #VIEWER} is
 * authenticated but allowed nothing, {@value #BROKEN} makes the review fail.
 */
class EndpointsTest {

  static final String ADMIN = "admin-token";
  static final String VIEWER = "viewer-token";
  static final String BROKEN = "broken-token";

  private static final ServingCertificate CERTIFICATE = ServingCertificate.selfSigned("localhost", Instant.now());
  private static final Endpoints.Limits LIMITS =
      new Endpoints.Limits(Duration.ofSeconds(10), Duration.ofSeconds(30), 256, 12, 2, 16 * 1024);

  private final AtomicReference<Optional<String>> unhealthy = new AtomicReference<>(Optional.empty());
  private final AtomicReference<Optional<String>> notReady =
      new AtomicReference<>(Optional.of("informers not synced yet: listing the cluster"));
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = TestTls.client(TestTls.trusting(CERTIFICATE));
  private final AtomicInteger tokenReviews = new AtomicInteger();
  private Endpoints endpoints;

  private final Endpoints.Probes probes =
      new Endpoints.Probes() {
        @Override
        public Optional<String> unhealthy() {
          return unhealthy.get();
        }

        @Override
        public Optional<String> notReady() {
          return notReady.get();
        }
      };

  private DelegatedAuth auth() {
    DelegatedAuth.TokenReviewer tokens =
        token -> {
          tokenReviews.incrementAndGet();
          return switch (token) {
            case ADMIN -> Optional.of(new DelegatedAuth.User("admin", "1", List.of(), Map.of()));
            case VIEWER -> Optional.of(new DelegatedAuth.User("system:serviceaccount:x:viewer", "2", List.of(), Map.of()));
            case BROKEN -> throw new IllegalStateException("HTTP 503: the API server is away");
            default -> Optional.empty();
          };
        };
    DelegatedAuth.AccessReviewer access =
        (user, verb, path) -> new DelegatedAuth.Access(user.name().equals("admin") && verb.equals("get"), "");
    return new DelegatedAuth(
        Optional.of(tokens), Optional.of(access), ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS, System::nanoTime);
  }

  private void start(Map<String, Route> routes, Endpoints.Limits limits) throws IOException {
    endpoints =
        Endpoints.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            CERTIFICATE,
            auth(),
            probes,
            registry,
            routes,
            limits);
  }

  private void start() throws IOException {
    start(Map.of(), LIMITS);
  }

  @AfterEach
  void stop() {
    if (endpoints != null) {
      endpoints.close();
    }
  }

  private HttpResponse<String> request(String method, String path, String token) throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + endpoints.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10));
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return request("GET", path, "");
  }

  @Test
  void readyz_is_503_with_the_reason_until_ready_then_200() throws Exception {
    start();
    var before = get("/readyz");
    assertEquals(503, before.statusCode());
    assertEquals("informers not synced yet: listing the cluster\n", before.body());
    notReady.set(Optional.empty());
    var after = get("/readyz");
    assertEquals(200, after.statusCode());
    assertEquals("ok\n", after.body());
    notReady.set(Optional.of("shutting down"));
    assertEquals(503, get("/readyz").statusCode());
  }

  @Test
  void healthz_and_livez_are_200_while_healthy_and_503_with_the_reason_once_failed() throws Exception {
    start();
    assertEquals(200, get("/healthz").statusCode(), "healthy while not ready yet");
    assertEquals("ok\n", get("/livez").body());
    unhealthy.set(Optional.of("the scheduling loop stopped"));
    for (var path : List.of("/healthz", "/livez")) {
      var failed = get(path);
      assertEquals(503, failed.statusCode());
      assertEquals("the scheduling loop stopped\n", failed.body());
    }
    assertEquals(0, tokenReviews.get(), "the probes need no token");
  }

  @Test
  void metrics_shows_kube_schedulers_names_in_prometheus_text_format_to_an_allowed_token() throws Exception {
    start();
    var metrics = MicrometerMetrics.of(registry);
    metrics.attempt("my-scheduler", Result.SCHEDULED, Duration.ofMillis(3));
    metrics.bound("my-scheduler", Duration.ofMillis(1), true);
    metrics.pendingPods(() -> new PendingPods(3, 2, 1, 0));
    var response = request("GET", "/metrics", ADMIN);
    assertEquals(200, response.statusCode());
    assertEquals(
        Endpoints.METRICS_CONTENT_TYPE, response.headers().firstValue("Content-Type").orElseThrow());
    assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
    var body = response.body();
    for (var sample :
        new String[] {
          "scheduler_schedule_attempts_total{profile=\"my-scheduler\",result=\"scheduled\"} 1.0",
          "scheduler_pending_pods{queue=\"active\"} 3.0",
          "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"Bind\","
              + "profile=\"my-scheduler\",status=\"Success\"} 1",
          "# TYPE scheduler_scheduling_attempt_duration_seconds histogram",
        }) {
      assertTrue(body.contains(sample), () -> "no '" + sample + "' in\n" + body);
    }
  }

  @Test
  void without_a_token_or_with_one_the_api_server_rejects_metrics_is_401_with_kubes_status() throws Exception {
    start();
    var unauthorized =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}\n";
    for (var token : List.of("", "garbage")) {
      var response = request("GET", "/metrics", token);
      assertEquals(401, response.statusCode(), token);
      assertEquals(unauthorized, response.body());
      assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
    }
    var basic =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + endpoints.port() + "/metrics"))
                .header("Authorization", "Basic YWRtaW46YWRtaW4=")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(401, basic.statusCode(), "only a bearer token authenticates");
  }

  @Test
  void a_token_without_the_right_is_403_with_kubes_message() throws Exception {
    start();
    var response = request("GET", "/metrics", VIEWER);
    assertEquals(403, response.statusCode());
    assertEquals(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
            + "\"forbidden: User \\\"system:serviceaccount:x:viewer\\\" cannot get path \\\"/metrics\\\"\","
            + "\"reason\":\"Forbidden\",\"details\":{},\"code\":403}\n",
        response.body());
  }

  @Test
  void a_failed_review_is_500_with_a_short_message_and_the_next_request_is_reviewed_again() throws Exception {
    start();
    var response = request("GET", "/metrics", BROKEN);
    assertEquals(500, response.statusCode());
    assertEquals("Internal Server Error: TokenReview failed\n", response.body());
    assertEquals(500, request("GET", "/metrics", BROKEN).statusCode());
    assertEquals(2, tokenReviews.get(), "a failure is not cached");
  }

  @Test
  void other_paths_are_404_and_other_methods_405_once_authorized() throws Exception {
    start();
    assertEquals(401, get("/").statusCode(), "authentication comes first, as in kube");
    assertEquals(404, request("GET", "/", ADMIN).statusCode());
    assertEquals(404, request("GET", "/healthzz", ADMIN).statusCode());
    assertEquals(404, request("GET", "/metrics/x", ADMIN).statusCode());
    var post = request("POST", "/readyz", "");
    assertEquals(405, post.statusCode());
    assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
    var head = request("HEAD", "/healthz", "");
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    assertEquals(403, request("HEAD", "/metrics", ADMIN).statusCode(), "HEAD is the verb 'head', as kube maps it");
  }

  @Test
  void a_route_is_served_to_an_authorized_request_with_its_query_and_accept_header() throws Exception {
    var seen = new AtomicReference<Route.Request>();
    Route explain =
        request -> {
          seen.set(request);
          return new Route.Response(200, "application/json", "{\"pod\":\"" + request.parameter("pod").orElse("") + "\"}");
        };
    start(Map.of("/debug/explain", explain), LIMITS);
    assertEquals(401, get("/debug/explain?pod=ns/p").statusCode());
    assertEquals(null, seen.get(), "an unauthenticated request does not reach the route");
    var response =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + endpoints.port() + "/debug/explain?pod=ns%2Fp&x=1&x=2"))
                .header("Authorization", "Bearer " + ADMIN)
                .header("Accept", "application/json")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    assertEquals("{\"pod\":\"ns/p\"}", response.body());
    assertEquals("/debug/explain", seen.get().path());
    assertEquals(List.of("1", "2"), seen.get().query().get("x"));
    assertEquals(Optional.of("application/json"), seen.get().accept());
  }

  @Test
  void a_route_that_throws_is_500_naming_the_path() throws Exception {
    Route broken = request -> {
      throw new IllegalStateException("no informer");
    };
    start(Map.of("/configz", broken), LIMITS);
    var response = request("GET", "/configz", ADMIN);
    assertEquals(500, response.statusCode());
    assertEquals("Internal Server Error: /configz failed\n", response.body());
    assertEquals(200, request("GET", "/metrics", ADMIN).statusCode(), "the server goes on");
  }

  @Test
  void a_route_cannot_take_a_built_in_path() {
    Route route = request -> new Route.Response(200, "text/plain", "");
    var e = assertThrows(IllegalArgumentException.class, () -> start(Map.of("/metrics", route), LIMITS));
    assertTrue(e.getMessage().contains("/metrics"), e.getMessage());
  }

  @Test
  void heavy_requests_beyond_the_limit_are_429_while_the_probes_still_answer() throws Exception {
    var entered = new CountDownLatch(2);
    var release = new CountDownLatch(1);
    Route slow =
        request -> {
          entered.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return new Route.Response(200, "text/plain", "done\n");
        };
    start(Map.of("/slow", slow), LIMITS); // 2 heavy at once
    var slowRequest =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + endpoints.port() + "/slow"))
            .header("Authorization", "Bearer " + ADMIN)
            .build();
    var first = http.sendAsync(slowRequest, HttpResponse.BodyHandlers.ofString());
    var second = http.sendAsync(slowRequest, HttpResponse.BodyHandlers.ofString());
    try {
      assertTrue(entered.await(30, TimeUnit.SECONDS), "both slow requests are being served");
      var refused = request("GET", "/metrics", ADMIN);
      assertEquals(429, refused.statusCode());
      assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
      notReady.set(Optional.empty());
      assertEquals(200, get("/healthz").statusCode());
      assertEquals(200, get("/readyz").statusCode());
    } finally {
      release.countDown();
    }
    assertEquals("done\n", first.get(30, TimeUnit.SECONDS).body());
    assertEquals("done\n", second.get(30, TimeUnit.SECONDS).body());
    assertEquals(200, request("GET", "/metrics", ADMIN).statusCode(), "the permits are back");
  }

  @Test
  void fifty_half_sent_requests_do_not_stop_the_probes_and_are_closed_after_the_header_timeout()
      throws Exception {
    // A header timeout long enough to open the 50 on a busy machine, and short enough to wait for.
    var headerTimeout = Duration.ofSeconds(20);
    start(Map.of(), new Endpoints.Limits(headerTimeout, Duration.ofMinutes(5), 256, 12, 2, 16 * 1024));
    notReady.set(Optional.empty());
    var factory = TestTls.trusting(CERTIFICATE).getSocketFactory();
    List<SSLSocket> halfOpen = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      long started = System.nanoTime();
      var openers = java.util.concurrent.Executors.newFixedThreadPool(5);
      for (int i = 0; i < 50; i++) {
        openers.submit(
            () -> {
              var socket = (SSLSocket) factory.createSocket("127.0.0.1", endpoints.port());
              halfOpen.add(socket);
              socket.startHandshake();
              socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
              socket.getOutputStream().flush();
              return null;
            });
      }
      openers.shutdown();
      assertTrue(openers.awaitTermination(60, TimeUnit.SECONDS), "50 connections opened");
      var opening = Duration.ofNanos(System.nanoTime() - started);
      assertTrue(
          endpoints.connections() >= 50 || opening.compareTo(headerTimeout) > 0,
          () -> "the half-sent ones are open: " + endpoints.connections() + " after " + opening);
      for (int i = 0; i < 5; i++) {
        assertEquals("ok\n", get("/healthz").body());
        assertEquals("ok\n", get("/readyz").body());
      }
      for (var socket : halfOpen) {
        socket.setSoTimeout(60_000); // the header timeout is 10 s: far more than enough
        assertFalse(answers(socket.getInputStream()), "the server closed it without an answer");
      }
    } finally {
      for (var socket : halfOpen) {
        socket.close();
      }
    }
  }

  /** @return whether the server sent anything before closing; fails if it neither sends nor closes */
  private static boolean answers(InputStream in) throws IOException {
    try {
      return in.read() >= 0;
    } catch (SocketTimeoutException e) {
      throw new AssertionError("still open after a minute", e);
    } catch (IOException e) {
      return false; // reset or TLS alert: closed
    }
  }

  @Test
  void closed_endpoints_refuse_connections() throws Exception {
    start();
    endpoints.close();
    var e = assertThrows(IOException.class, () -> get("/healthz"));
    assertTrue(e instanceof ConnectException || e.getCause() instanceof ConnectException, e::toString);
  }
}
