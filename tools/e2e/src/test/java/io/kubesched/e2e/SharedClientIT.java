package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubesched.facade.Client;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.policy.DefaultPolicy;
import org.junit.jupiter.api.Test;

/**
 * An operator hands in the fabric8 client it already has (here one made from the restricted identity's
 * kubeconfig, as an operator's own would be): the scheduler places pods through clients of its own made from
 * that client's configuration and credentials, gives the operator's client back from {@code
 * kubernetesClient()}, and leaves it open when closed.
 */
class SharedClientIT extends RealClusterTest {

  @Test
  void the_operators_own_client_is_used_for_its_configuration_and_left_open() {
    var config = Config.fromKubeconfig(cluster.schedulerKubeconfig().toFile());
    var operatorsClient = new KubernetesClientBuilder().withConfig(config).build();
    try {
      createReady(node("node-0", "2", "2Gi", "110"));
      try (var embedded = Client.create(schedulerOptions().kubernetesClient(operatorsClient).build());
          var controller = embedded.newPodController(DefaultPolicy.create())) {
        assertSame(operatorsClient, embedded.kubernetesClient());
        controller.start();
        create(admin, pod(namespace, "web", SCHEDULER, "100m", "64Mi"));
        FakeClusterFixture.eventually(WAIT, "the pod is bound", () -> !nodeOf("web").isEmpty());
        assertEquals("node-0", nodeOf("web"));
      }
      // Closed with the scheduler's Client, the operator's client still works.
      assertEquals(1, operatorsClient.pods().inNamespace(namespace).list().getItems().size());
    } finally {
      operatorsClient.close();
    }
  }
}
