package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The endpoints on a free port, with readiness and health set by the test and a registry with samples. */
class EndpointsTest {

  private final AtomicReference<Optional<String>> unhealthy = new AtomicReference<>(Optional.empty());
  private final AtomicReference<Optional<String>> notReady =
      new AtomicReference<>(Optional.of("informers not synced yet: listing the cluster"));
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Endpoints endpoints;

  @BeforeEach
  void start() throws IOException {
    var probes =
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
    endpoints = Endpoints.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), probes, registry);
  }

  @AfterEach
  void stop() {
    endpoints.close();
  }

  private HttpResponse<String> request(String method, String path) throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return request("GET", path);
  }

  @Test
  void readyz_is_503_with_the_reason_until_ready_then_200() throws Exception {
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
  void healthz_is_200_while_healthy_and_503_with_the_reason_once_failed() throws Exception {
    assertEquals(200, get("/healthz").statusCode(), "healthy while not ready yet");
    unhealthy.set(Optional.of("the scheduling loop stopped"));
    var failed = get("/healthz");
    assertEquals(503, failed.statusCode());
    assertEquals("the scheduling loop stopped\n", failed.body());
  }

  @Test
  void metrics_shows_kube_schedulers_names_in_prometheus_text_format() throws Exception {
    var metrics = MicrometerMetrics.of(registry);
    metrics.attempt("my-scheduler", Result.SCHEDULED, Duration.ofMillis(3));
    metrics.bound("my-scheduler", Duration.ofMillis(1), true);
    metrics.pendingPods(() -> new PendingPods(3, 2, 1, 0));
    var response = get("/metrics");
    assertEquals(200, response.statusCode());
    assertEquals(
        Endpoints.METRICS_CONTENT_TYPE, response.headers().firstValue("Content-Type").orElseThrow());
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
  void other_paths_are_404_and_other_methods_405() throws Exception {
    assertEquals(404, get("/").statusCode());
    assertEquals(404, get("/healthzz").statusCode(), "a context matches its prefix, the handler does not");
    assertEquals(404, get("/metrics/x").statusCode());
    var post = request("POST", "/readyz");
    assertEquals(405, post.statusCode());
    assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
    var head = request("HEAD", "/healthz");
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
  }

  @Test
  void closed_endpoints_refuse_connections() {
    endpoints.close();
    var e = assertThrows(IOException.class, () -> get("/healthz"));
    assertTrue(e instanceof ConnectException || e.getCause() instanceof ConnectException, e::toString);
  }
}
