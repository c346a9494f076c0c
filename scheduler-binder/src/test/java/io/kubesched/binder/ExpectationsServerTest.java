package io.kubesched.binder;

import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A mock server in expectations mode and a client without retries, new for every test. */
abstract class ExpectationsServerTest {

  KubernetesMockServer server;
  NamespacedKubernetesClient client;

  @BeforeEach
  void startServer() {
    server = BinderFixtures.expectationsServer();
    client = BinderFixtures.clientWithoutRetries(server);
  }

  @AfterEach
  void stopServer() {
    client.close();
    server.destroy();
  }
}
