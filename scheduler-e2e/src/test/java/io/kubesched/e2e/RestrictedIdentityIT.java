package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduler in every end-to-end test runs as the service account kube-system/kubesched with exactly
 * the README's RBAC (applied from the README's text); these checks show that identity can do no more.
 */
class RestrictedIdentityIT extends RealClusterTest {

  @Test
  void the_scheduler_identity_may_read_bind_and_preempt_but_not_change_anything_else() {
    create(admin, node("node-0", "1", "1Gi", "110"));
    create(admin, pod(namespace, "p", SCHEDULER, "100m", "64Mi"));
    var scheduler = client.kubernetesClient();

    assertEquals(1, scheduler.nodes().list().getItems().size());
    assertEquals(1, scheduler.pods().inNamespace(namespace).list().getItems().size());
    // It may delete pods (preemption's victims), but not change what a pod asks for.
    assertForbidden(() -> scheduler.pods().inNamespace(namespace).withName("p").edit(p -> {
      p.getMetadata().setLabels(Map.of("x", "y"));
      return p;
    }));
    assertForbidden(() -> scheduler.policy().v1().podDisruptionBudget().inNamespace(namespace)
        .resource(new PodDisruptionBudgetBuilder()
            .withNewMetadata().withName("b").endMetadata()
            .withNewSpec().withMinAvailable(new IntOrString(1)).endSpec()
            .build())
        .create());
    assertForbidden(() -> scheduler.resource(pod(namespace, "mine", SCHEDULER, "1m", "1Mi")).create());
    assertForbidden(() -> scheduler.nodes().withName("node-0").edit(n -> {
      n.getMetadata().getLabels().put("x", "y");
      return n;
    }));
    assertForbidden(() -> scheduler.secrets().inNamespace(namespace).list());
  }

  private static void assertForbidden(Runnable call) {
    var error = assertThrows(KubernetesClientException.class, call::run);
    assertEquals(403, error.getCode(), error.getMessage());
  }
}
