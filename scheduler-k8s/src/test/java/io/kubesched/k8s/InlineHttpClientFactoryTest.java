package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The scheduler's HTTP client, which runs the JDK client's tasks inline, still answers every exchange. */
class InlineHttpClientFactoryTest {

  // That a task runs where it is submitted: scheduler-fabric8's InlineHttpClientFactoryTest.

  @Test
  @DisplayName("on the fake cluster: concurrent writes, a list of several socket buffers, a watch and an"
      + " asynchronous request all complete")
  void exchangesComplete() throws Exception {
    var connection = KubeConnections.fake();
    try (connection) {
      var client = connection.client();
      var pods = client.pods().inNamespace("default");
      var seen = new ArrayBlockingQueue<Pod>(1_000);
      try (var watch =
              pods.watch(
                  new Watcher<Pod>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                      if (action == Action.ADDED) {
                        seen.add(pod);
                      }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  })) {
        var threads = Executors.newFixedThreadPool(8);
        // Large enough labels that the list answer is several socket buffers long.
        var padding = "x".repeat(60);
        var writes = new ArrayList<Callable<Pod>>();
        for (int i = 0; i < 400; i++) {
          var name = "p-" + i;
          writes.add(
              () ->
                  pods.resource(
                          new PodBuilder()
                              .withNewMetadata()
                              .withName(name)
                              .addToLabels("a", padding)
                              .addToLabels("b", padding)
                              .endMetadata()
                              .build())
                      .create());
        }
        try {
          for (var written : threads.invokeAll(writes, 60, TimeUnit.SECONDS)) {
            assertNotNull(written.get().getMetadata().getUid());
          }
        } finally {
          threads.shutdownNow();
        }

        assertEquals(400, pods.list().getItems().size());
        for (int i = 0; i < 400; i++) {
          assertNotNull(seen.poll(10, TimeUnit.SECONDS), "watch events seen: " + i);
        }

        var answer =
            client
                .getHttpClient()
                .sendAsync(
                    client
                        .getHttpClient()
                        .newHttpRequestBuilder()
                        .uri(client.getMasterUrl() + "api/v1/namespaces/default/pods/p-0")
                        .build(),
                    String.class)
                .get(10, TimeUnit.SECONDS);
        assertEquals(200, answer.code());
        assertTrue(answer.body().contains("\"name\":\"p-0\""), answer.body());
      }
    }
  }
}
