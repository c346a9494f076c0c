package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link InformerSet.Handled}: fabric8 completes an informer's start before its handlers have been given what
 * the list stored; the wait returns only once they have, and fails by its deadline when they are stuck.
 */
class InformerSetHandledTest {

  private static final int NODES = 8;

  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
    client = server.createClient(new JdkHttpClientFactory());
    for (int i = 0; i < NODES; i++) {
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n" + i).endMetadata().build()).create();
    }
  }

  @AfterEach
  void stopServer() {
    client.close();
    MockServers.destroy(server);
  }

  @Test
  void the_wait_returns_once_a_slow_handler_has_been_given_every_object_listed() throws Exception {
    var given = new AtomicInteger();
    var informer = informer(node -> {
      sleep(30);
      given.incrementAndGet();
    });
    try {
      var handled = InformerSet.Handled.track(informer);
      informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
      int atStart = given.get();

      handled.await(System.nanoTime() + Duration.ofSeconds(30).toNanos());

      assertEquals(NODES, given.get(), "every node listed went through the handler before the wait returned");
      assertTrue(atStart < NODES, "the start completed with " + atStart + " of " + NODES + " handled: no race to see");
    } finally {
      informer.stop();
    }
  }

  @Test
  void a_handler_that_does_not_finish_fails_the_wait_by_its_deadline() throws Exception {
    var release = new CountDownLatch(1);
    var informer = informer(node -> await(release));
    try {
      var handled = InformerSet.Handled.track(informer);
      informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);

      assertThrows(TimeoutException.class, () -> handled.await(System.nanoTime() + Duration.ofMillis(200).toNanos()));
    } finally {
      release.countDown();
      informer.stop();
    }
  }

  private interface NodeHandler {
    void added(Node node);
  }

  private SharedIndexInformer<Node> informer(NodeHandler onAdd) {
    var informer = client.nodes().runnableInformer(0);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Node node) {
            onAdd.added(node);
          }

          @Override
          public void onUpdate(Node oldNode, Node node) {}

          @Override
          public void onDelete(Node node, boolean deletedFinalStateUnknown) {}
        });
    return informer;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
