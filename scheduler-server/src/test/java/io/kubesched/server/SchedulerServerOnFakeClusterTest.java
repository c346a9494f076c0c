package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static io.kubesched.server.ServerFixtures.createPod;
import static io.kubesched.server.ServerFixtures.eventually;
import static io.kubesched.server.ServerFixtures.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kubesched.crd.SchedulingPolicy;
import io.kubesched.crd.SchedulingPolicySpec;
import io.kubesched.crd.SchedulingPolicyStatus;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.kubesched.policy.config.PluginRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The server as {@link Main} composes it from a KubeSchedulerConfiguration of two profiles, on the fake
 * cluster: ready once listed, each profile's pods placed by its policy, metrics under kube's names, and a
 * close that stops everything.
 */
class SchedulerServerOnFakeClusterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static final String READER_TOKEN = "reader-token";

  private final HttpClient http = TestTls.client(TestTls.trustingAll());

  private HttpResponse<String> get(int port, String path, String token) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path));
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return get(port, path, "");
  }

  /** The endpoints on a free loopback port, reviews by {@code reviews}. */
  private static ServingOptions serving(Path reviewKubeconfig) {
    return new ServingOptions(
        ServingOptions.DEFAULT_SECURE_PORT,
        InetAddress.getLoopbackAddress(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(reviewKubeconfig),
        Optional.of(reviewKubeconfig),
        ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS);
  }

  private String metrics(int port) {
    try {
      return get(port, "/metrics", READER_TOKEN).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  @Test
  void two_profiles_are_served_from_one_file_and_close_stops_everything(@TempDir Path dir) throws Exception {
    var config =
        ServerFixtures.config(
            """
            leaderElection:
              leaderElect: false
            profiles:
              - schedulerName: spread
              - schedulerName: pack
                pluginConfig:
                  - name: NodeResourcesFit
                    args:
                      scoringStrategy:
                        type: MostAllocated
            """);
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var options =
        ServerOptions.options(
            SchedulerSetup.of(config, "config test.yaml"), new Options.Connection.Fake(), MicrometerMetrics.of(registry));
    var reviews =
        new ReviewServer(Map.of(READER_TOKEN, "prometheus"), Set.of("prometheus /metrics"));
    var server =
        new SchedulerServer(
            options,
            SchedulerSetup.of(config, "config test.yaml").profiles(),
            false,
            serving(reviews.kubeconfig(dir)),
            Map.of(),
            Map.of(),
            registry,
            PluginRegistry.empty(),
            true);
    assertEquals(Optional.of("informers not synced yet: listing the cluster"), server.notReady());
    assertEquals(Optional.empty(), server.unhealthy());
    try {
      server.start();
      int port = server.port();
      assertEquals(200, get(port, "/readyz").statusCode());
      assertEquals(200, get(port, "/healthz").statusCode());
      assertEquals(200, get(port, "/livez").statusCode());
      assertEquals(401, get(port, "/metrics").statusCode(), "no token");
      assertEquals(401, get(port, "/metrics", "garbage").statusCode());
      assertEquals(200, get(port, "/metrics", READER_TOKEN).statusCode());
      assertEquals(
          403, get(port, "/configz", READER_TOKEN).statusCode(), "the reader may get /metrics only");

      var kube = server.client().kubernetesClient();
      createNode(kube, "small", "2", "4Gi");
      createNode(kube, "large", "8", "16Gi");
      eventually(PATIENCE, "the scheduler sees both nodes", () -> server.controller().nodes().size() == 2);
      createPod(kube, "spread-1", "spread", "1", "1Gi");
      createPod(kube, "pack-1", "pack", "1", "1Gi");
      eventually(PATIENCE, "both pods are bound", () -> !nodeOf(kube, "spread-1").isEmpty() && !nodeOf(kube, "pack-1").isEmpty());
      assertEquals("large", nodeOf(kube, "spread-1"), "least allocated: the emptier node");
      assertEquals("small", nodeOf(kube, "pack-1"), "most allocated: the fuller node");

      for (var profile : new String[] {"spread", "pack"}) {
        var sample = "scheduler_schedule_attempts_total{profile=\"" + profile + "\",result=\"scheduled\"} 1.0";
        eventually(PATIENCE, "/metrics shows " + sample, () -> metrics(port).contains(sample));
      }
    } finally {
      server.close();
      reviews.close();
    }
    assertEquals(Optional.of("shutting down"), server.notReady());
    assertTimeoutPreemptively(Duration.ofSeconds(5), server::awaitTermination, "close has stopped everything");
    int port = server.port();
    assertThrows(IOException.class, () -> get(port, "/healthz"), "the endpoints are closed");
    server.close(); // idempotent
  }

  @Test
  void a_scheduling_policy_applied_while_running_changes_where_the_next_pod_goes() throws Exception {
    var config = ServerFixtures.config("leaderElection: {leaderElect: false}\nprofiles: [{schedulerName: web}]\n");
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var options =
        ServerOptions.options(SchedulerSetup.of(config, "test.yaml"), new Options.Connection.Fake(), MicrometerMetrics.of(registry));
    var server =
        new SchedulerServer(
            options,
            SchedulerSetup.of(config, "test.yaml").profiles(),
            true,
            new ServingOptions(
                0, InetAddress.getLoopbackAddress(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS),
            Map.of(),
            Map.of(),
            registry,
            PluginRegistry.empty(),
            true);
    try {
      server.start();
      var kube = server.client().kubernetesClient();
      createNode(kube, "small", "2", "4Gi");
      createNode(kube, "large", "8", "16Gi");
      eventually(PATIENCE, "the scheduler sees both nodes", () -> server.controller().nodes().size() == 2);
      createPod(kube, "before", "web", "1", "1Gi");
      eventually(PATIENCE, "before is bound", () -> !nodeOf(kube, "before").isEmpty());
      assertEquals("large", nodeOf(kube, "before"), "the file's profile: least allocated");

      var mostAllocated =
          new SchedulingPolicySpec(
              "web",
              null,
              null,
              List.of(
                  new SchedulingPolicySpec.PluginConfig(
                      "NodeResourcesFit", Map.of("scoringStrategy", Map.of("type", "MostAllocated")))));
      var policies = kube.resources(SchedulingPolicy.class);
      policies.resource(SchedulingPolicy.of("web-packs", mostAllocated)).create();
      eventually(
          PATIENCE,
          "the policy is accepted",
          () ->
              Optional.ofNullable(policies.withName("web-packs").get().getStatus())
                  .flatMap(SchedulingPolicyStatus::accepted)
                  .map(c -> c.getStatus().equals("True"))
                  .orElse(false));
      createPod(kube, "after", "web", "1", "1Gi");
      eventually(PATIENCE, "after is bound", () -> !nodeOf(kube, "after").isEmpty());
      assertEquals("small", nodeOf(kube, "after"), "the SchedulingPolicy's profile: most allocated");
    } finally {
      server.close();
    }
  }
}
