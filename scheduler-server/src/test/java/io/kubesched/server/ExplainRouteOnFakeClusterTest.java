package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static io.kubesched.server.ServerFixtures.createPod;
import static io.kubesched.server.ServerFixtures.eventually;
import static io.kubesched.server.ServerFixtures.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link ExplainRoute} wired as the server wires it ({@code ExplainRoute.of(server::controller)}), on the fake
 * cluster with kube-scheduler's default plugins: a pending pod's table, real output, which the test also writes
 * to {@code target/explain-example.txt} for docs/server.md.
 */
class ExplainRouteOnFakeClusterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void a_pending_pod_is_explained_with_the_default_plugins_on_the_running_server() throws Exception {
    var config = ServerFixtures.config("leaderElection: {leaderElect: false}\nprofiles: [{schedulerName: kubesched}]\n");
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var setup = SchedulerSetup.of(config, "test.yaml");
    var server =
        new SchedulerServer(
            ServerOptions.options(setup, new Options.Connection.Fake(), MicrometerMetrics.of(registry)),
            setup.profiles(),
            false,
            ServerFixtures.notServed(),
            Map.of(),
            Map.of(),
            registry);
    var route = ExplainRoute.of(server::controller);
    var early = route.get(new Route.Request(ExplainRoute.PATH, Map.of("pod", List.of("shop/web-1")), Optional.empty()));
    assertEquals(503, early.status(), "before the server starts");
    try {
      server.start();
      var kube = server.client().kubernetesClient();
      createNode(kube, "node-a", "2", "4Gi");
      createNode(kube, "node-b", "4", "8Gi");
      createNode(kube, "node-c", "8", "16Gi");
      kube.nodes().withName("node-c").edit(n -> new NodeBuilder(n).editOrNewSpec().withUnschedulable(true).endSpec().build());
      createPod(kube, "batch-1", "kubesched", "3", "1Gi");
      eventually(PATIENCE, "batch-1 is bound", () -> nodeOf(kube, "batch-1").equals("node-b"));
      createPod(kube, "web-1", "kubesched", "2500m", "1Gi");
      var request = new Route.Request(
          ExplainRoute.PATH, Map.of("pod", List.of(ServerFixtures.NAMESPACE + "/web-1")), Optional.empty());
      eventually(PATIENCE, "web-1 is explained as pending",
          () -> route.get(request).body().contains("0/3 nodes are available"));

      var answer = route.get(request);

      assertEquals(200, answer.status());
      var text = answer.body();
      Files.writeString(Path.of("target", "explain-example.txt"), text);
      assertTrue(text.startsWith("pod default/web-1 (profile kubesched)\npod default/web-1: 0/3 nodes are available: "),
          text);
      assertTrue(text.contains("node-a  NodeResourcesFit: Insufficient cpu"), text);
      assertTrue(text.contains("node-b  NodeResourcesFit: Insufficient cpu"), text);
      assertTrue(text.contains("node-c  NodeUnschedulable: node(s) were unschedulable"), text);
      var bound = route.get(new Route.Request(
          ExplainRoute.PATH, Map.of("pod", List.of(ServerFixtures.NAMESPACE + "/batch-1")), Optional.empty()));
      assertEquals("pod default/batch-1 (profile kubesched)\nnot explained: it is bound to node node-b; only a pod"
          + " waiting for a node is explained\n", bound.body());
    } finally {
      server.close();
    }
  }
}
