package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.fabric8.Fabric8Compat;
import io.kubesched.fabric8.SiblingClients;
import io.kubesched.http.BlockingHttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every request of a metered client reaches {@link SchedulerMetrics#request}, as client-go counts them. */
class RequestMetricsTest {

  private record Request(String method, String host, String code, Duration took) {}

  private final List<Request> told = new CopyOnWriteArrayList<>();
  private final SchedulerMetrics metrics =
      new SchedulerMetrics() {
        @Override
        public void request(String method, String host, String code, Duration took) {
          told.add(new Request(method, host, code, took));
        }
      };

  @Test
  void the_connections_client_tells_each_request_with_its_method_host_and_code() {
    try (var connection = KubeConnections.fake(metrics)) {
      var host = connection.client().getMasterUrl().getAuthority();
      var pods = connection.client().pods().inNamespace("default");
      pods.resource(new PodBuilder().withNewMetadata().withName("p").endMetadata().build()).create();
      pods.withName("p").get();
      pods.withName("missing").get();

      assertTrue(told.contains(sameAs("POST", host, "201")), told::toString);
      assertTrue(told.contains(sameAs("GET", host, "200")), told::toString);
      assertTrue(told.contains(sameAs("GET", host, "404")), told::toString);
      assertTrue(told.stream().noneMatch(r -> r.took().isNegative()), told::toString);
    }
  }

  @Test
  void a_watch_opened_over_a_websocket_is_told_too() throws Exception {
    try (var connection = KubeConnections.fake(metrics)) {
      var opened = new CountDownLatch(1);
      try (var watch =
          connection.client().pods().inNamespace("default").watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod resource) {
              opened.countDown();
            }

            @Override
            public void onClose(WatcherException cause) {}
          })) {
        connection.client().pods().inNamespace("default")
            .resource(new PodBuilder().withNewMetadata().withName("w").endMetadata().build()).create();
        assertTrue(opened.await(10, TimeUnit.SECONDS), "the watch saw the pod");
      }
      // The only GET of this test is the watch's (the create is a POST).
      assertTrue(told.stream().anyMatch(r -> r.method().equals("GET")), told::toString);
    }
  }

  @Test
  void the_binders_blocking_client_is_metered_too() {
    try (var connection = KubeConnections.fake()) {
      var config = connection.client().getConfiguration();
      var http =
          RequestMetrics.meter(
                  new BlockingHttpClient.Factory(Fabric8Compat.get().inlineJdkHttpClientFactory()).newBuilder(config),
                  metrics)
              .build();
      try (var client = SiblingClients.over(http, config, SchedulingClients.serialization())) {
        client.pods().inNamespace("default").withName("none").get();
      }
      assertEquals(List.of("GET 404"), told.stream().map(r -> r.method() + " " + r.code()).toList());
    }
  }

  @Test
  void without_metrics_no_interceptor_is_added() {
    var factory = Fabric8Compat.get().inlineJdkHttpClientFactory();
    assertTrue(RequestMetrics.meter(factory, SchedulerMetrics.NONE) == factory);
  }

  private Request sameAs(String method, String host, String code) {
    return told.stream()
        .filter(r -> r.method().equals(method) && r.host().equals(host) && r.code().equals(code))
        .findFirst()
        .orElse(new Request(method, host, code + " (not told)", Duration.ZERO));
  }
}
