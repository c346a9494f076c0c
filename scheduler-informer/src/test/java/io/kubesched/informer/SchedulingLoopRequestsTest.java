package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.api.Decision;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.informer.watch.MockServers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the controller asks the API server for. */
class SchedulingLoopRequestsTest {

  private KubernetesMockServer server;

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
  }

  @AfterEach
  void stopServer() {
    MockServers.destroy(server);
  }

  @Test
  void pods_are_listed_and_watched_with_kube_schedulers_non_terminal_field_selector() throws Exception {
    var settings = TestSettings.forFakeCluster("my-scheduler");
    try (var client = server.createClient(new JdkHttpClientFactory());
        var controller =
            new SchedulingLoop(
                client, settings, Map.of("my-scheduler", (pod, nodes) -> Decision.unschedulable(Map.of())),
                SchedulingListener.NONE, SchedulerMetrics.NONE)) {
      controller.start();
    }
    var podRequests = new ArrayList<String>();
    for (var request = server.takeRequest(1, TimeUnit.SECONDS);
        request != null;
        request = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
      var path = URLDecoder.decode(request.getPath(), StandardCharsets.UTF_8);
      if (path.startsWith("/api/v1/pods")) {
        podRequests.add(path);
      }
    }
    assertTrue(!podRequests.isEmpty(), "no pod list or watch was sent");
    for (var path : podRequests) {
      assertTrue(
          path.contains("fieldSelector=status.phase!=Succeeded,status.phase!=Failed"),
          "pod request without the non-terminal field selector: " + path);
    }
  }
}
