package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kubesched.api.ClusterData;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.informer.SchedulingLoop;
import io.kubesched.informer.TestSettings;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How a loop's start lists the cluster: every first list at once, as kube's informer factory starts them. */
class InformerSetStartTest {

  /** How long the mock server holds the node list's answer back. */
  private static final Duration NODE_LIST_DELAY = Duration.ofSeconds(4);

  /**
   * The first read of each path (a kind's list, or the discovery of pod group sources), with when the mock server
   * was asked for it.
   */
  private final Map<String, Long> listsAsked = new ConcurrentHashMap<>();

  /** The Status the mock server answers a refused list with. */
  private static final String REFUSAL =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
          + "\"code\":403,\"message\":\"refused by the test\"}";

  /** The path whose list the mock server refuses (403), if any. */
  private volatile String refused = "";

  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server =
        MockServers.crud(
            new KubernetesCrudDispatcher() {
              @Override
              public MockResponse dispatch(RecordedRequest request) {
                var path = URLDecoder.decode(request.getPath(), StandardCharsets.UTF_8);
                var response = super.dispatch(request);
                if (!"GET".equals(request.getMethod()) || path.contains("watch=true")) {
                  return response;
                }
                var kind = path.substring(0, path.indexOf('?') < 0 ? path.length() : path.indexOf('?'));
                listsAsked.putIfAbsent(kind, System.nanoTime());
                if (kind.equals(refused)) {
                  return new MockResponse().setResponseCode(403).setBody(REFUSAL);
                }
                return kind.equals("/api/v1/nodes") ? response.setBodyDelay(NODE_LIST_DELAY) : response;
              }
            });
    client = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    client.close();
    MockServers.destroy(server);
  }

  @Test
  void every_first_list_is_asked_for_before_the_node_list_is_answered() throws Exception {
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build()).create();
    try (var controller = loop()) {
      controller.start();

      assertEquals(1, controller.nodes().size(), "the start waits for the node list");
    }
    var lists = Set.of("/api/v1/nodes", "/api/v1/pods", "/api/v1/namespaces", "/api/v1/persistentvolumeclaims");
    assertTrue(listsAsked.keySet().containsAll(lists), "asked for " + listsAsked.keySet());
    long nodesAnswered = listsAsked.get("/api/v1/nodes") + NODE_LIST_DELAY.toNanos();
    listsAsked.forEach(
        (kind, asked) ->
            assertTrue(
                asked < nodesAnswered,
                kind + " was asked for " + Duration.ofNanos(asked - listsAsked.get("/api/v1/nodes")).toMillis()
                    + " ms after the node list, which is answered after " + NODE_LIST_DELAY.toMillis() + " ms"));
  }

  @Test
  void a_refused_list_fails_the_start_naming_what_the_loop_lists_and_the_answer() {
    refused = "/api/v1/namespaces";
    try (var controller = loop()) {
      var failure = assertThrows(SchedulerException.class, controller::start);

      assertTrue(
          failure.getMessage().startsWith("cannot list nodes and pods and what the policy reads"),
          failure.getMessage());
      assertTrue(failure.getMessage().contains("refused by the test"), failure.getMessage());
      assertFalse(controller.isRunning(), "a failed start closes the loop");
    }
  }

  private SchedulingLoop loop() {
    var policy =
        new FinderFunc() {
          @Override
          public Decision find(PodInfo pod, List<NodeInfo> nodes) {
            return Decision.unschedulable(Map.of());
          }

          @Override
          public Set<ClusterData> reads() {
            return Set.of(ClusterData.NAMESPACES, ClusterData.PERSISTENT_VOLUME_CLAIMS);
          }
        };
    return new SchedulingLoop(
        client, TestSettings.forFakeCluster("a"), Map.of("a", policy), SchedulingListener.NONE, SchedulerMetrics.NONE);
  }
}
