package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.Test;

/**
 * An application's own fabric8 client or configuration as the connection (on the fake cluster: the scheduler's
 * clients are made from it, the application's client is handed back and never closed, its configuration never
 * changed). Placing pods through such a connection needs a real API server: {@code SharedClientIT}.
 */
class SharedConnectionTest {

  @Test
  void the_applications_client_is_handed_back_read_through_and_left_open() {
    try (var fake = Client.create(FakeClusterFixture.fakeOptions())) {
      var application = fake.kubernetesClient();
      create(application, node("node-0", "2", "2Gi", "110"));
      boolean http2Before = application.getConfiguration().isHttp2Disable();
      try (var shared = Client.create(Options.builder().kubernetesClient(application).build())) {
        assertSame(application, shared.kubernetesClient());
        assertEquals("node-0", shared.listNodeInfos().get(0).name(), "read through the scheduler's own client");
      }
      // Still open: the application creates and reads after the scheduler's Client closed.
      create(application, node("node-1", "2", "2Gi", "110"));
      assertEquals(2, application.nodes().list().getItems().size());
      assertEquals(http2Before, application.getConfiguration().isHttp2Disable(), "the application's configuration changed");
    }
  }

  @Test
  void a_configuration_is_copied_and_the_client_made_from_it_is_the_schedulers_own() {
    try (var fake = Client.create(FakeClusterFixture.fakeOptions())) {
      var config = new ConfigBuilder(fake.kubernetesClient().getConfiguration()).withHttp2Disable(false).build();
      var own = Client.create(Options.builder().config(config).build());
      var itsClient = own.kubernetesClient();
      assertNotSame(fake.kubernetesClient(), itsClient);
      assertEquals(0, own.listNodeInfos().size());
      own.close();
      assertFalse(config.isHttp2Disable(), "the caller's configuration changed");
      assertTrue(fake.kubernetesClient().nodes().list().getItems().isEmpty(), "the fake cluster still answers");
    }
  }
}
