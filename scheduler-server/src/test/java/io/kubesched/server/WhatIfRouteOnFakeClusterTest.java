package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static io.kubesched.server.ServerFixtures.createPod;
import static io.kubesched.server.ServerFixtures.eventually;
import static io.kubesched.server.ServerFixtures.nodeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@code /debug/whatif/*} routes wired as the server wires them, on the fake cluster with two profiles: each
 * question answered over the live view, the errors, and nothing changed in the cluster by asking.
 */
class WhatIfRouteOnFakeClusterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void the_three_questions_are_answered_over_the_live_view_and_change_nothing() throws Exception {
    var config = ServerFixtures.config("leaderElection: {leaderElect: false}\nprofiles:\n"
        + "- schedulerName: kubesched\n"
        + "- schedulerName: kubesched-unfit\n  plugins: {filter: {disabled: [{name: NodeResourcesFit}]}}\n");
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var setup = SchedulerSetup.of(config, "test.yaml");
    var server = new SchedulerServer(
        ServerOptions.options(setup, new Options.Connection.Fake(), MicrometerMetrics.of(registry)),
        setup.profiles(), false, ServerFixtures.notServed(), Map.of(), Map.of(), registry);
    var routes = server.routes();
    assertEquals(503, get(routes, WhatIfRoute.PODS, "profile", "kubesched").status(), "before the server starts");
    try {
      server.start();
      var kube = server.client().kubernetesClient();
      createNode(kube, "node-a", "2", "4Gi");
      createNode(kube, "node-b", "4", "8Gi");
      createPod(kube, "web-1", "kubesched", "1", "1Gi");
      eventually(PATIENCE, "web-1 is bound", () -> !nodeOf(kube, "web-1").isEmpty());
      var node = nodeOf(kube, "web-1");
      createPod(kube, "huge", "kubesched", "8", "1Gi");
      eventually(PATIENCE, "huge is pending", () -> get(routes, WhatIfRoute.PODS, "profile", "kubesched").body()
          .contains("default/huge  pending"));

      var capacity = get(routes, WhatIfRoute.CAPACITY, "profile", "kubesched", "pod", "default/web-1");
      assertEquals(200, capacity.status(), capacity.body());
      assertTrue(capacity.body().startsWith("5 copies of default/web-1 (cpu 1, memory 1Gi each) fit, placed by profile"
          + " kubesched.\n"), capacity.body());
      var drain = get(routes, WhatIfRoute.DRAIN, "profile", "kubesched", "node", node);
      assertEquals(200, drain.status(), drain.body());
      assertTrue(drain.body().startsWith("Node(s) " + node + " cannot be drained: 1 of 1 pod cannot move"), drain.body());
      var pods = get(routes, WhatIfRoute.PODS, "profile", "kubesched");
      assertTrue(pods.body().contains("default/huge  pending  -     0/2 nodes are available: 2 Insufficient cpu."),
          pods.body());
      var compared = json(routes, WhatIfRoute.PODS, "profile", "kubesched", "candidate", "kubesched-unfit");
      assertEquals(200, compared.status(), compared.body());
      assertTrue(compared.body().contains("\"differences\":[{\"pod\":\"default/huge\",\"current\":{\"pod\":"
          + "\"default/huge\",\"outcome\":\"pending\""), compared.body());

      assertEquals(400, get(routes, WhatIfRoute.PODS).status(), "two profiles: one must be named");
      assertTrue(get(routes, WhatIfRoute.PODS).body().contains("[kubesched, kubesched-unfit]"));
      assertEquals(404, get(routes, WhatIfRoute.CAPACITY, "profile", "kubesched", "pod", "default/none").status());
      assertEquals(400, get(routes, WhatIfRoute.CAPACITY, "profile", "kubesched").status());
      assertEquals(400, get(routes, WhatIfRoute.CAPACITY, "profile", "kubesched", "pod", "default/web-1",
          "limit", "0").status());
      assertEquals(404, get(routes, WhatIfRoute.DRAIN, "profile", "kubesched", "node", "node-x").status());
      assertEquals(400, get(routes, WhatIfRoute.DRAIN, "profile", "kubesched").status());
      assertEquals(400, get(routes, WhatIfRoute.PODS, "profile", "nobody").status());
      var error = json(routes, WhatIfRoute.PODS, "profile", "nobody");
      assertTrue(error.body().startsWith("{\"error\":\"query parameter profile=nobody is not a profile"), error.body());

      assertEquals("", nodeOf(kube, "huge"), "asking places nothing");
      assertEquals(node, nodeOf(kube, "web-1"), "asking moves nothing");
    } finally {
      server.close();
    }
  }

  private static Route.Response get(Map<String, Route> routes, String path, String... parameters) {
    return routes.get(path).get(new Route.Request(path, query(parameters), Optional.empty()));
  }

  private static Route.Response json(Map<String, Route> routes, String path, String... parameters) {
    return routes.get(path).get(new Route.Request(path, query(parameters), Optional.of("application/json")));
  }

  private static Map<String, List<String>> query(String... parameters) {
    var query = new java.util.LinkedHashMap<String, List<String>>();
    for (int i = 0; i < parameters.length; i += 2) {
      query.computeIfAbsent(parameters[i], k -> new java.util.ArrayList<>()).add(parameters[i + 1]);
    }
    return query;
  }
}
