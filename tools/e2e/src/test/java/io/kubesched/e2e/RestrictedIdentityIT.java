package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubesched.api.PodGroupRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduler in every end-to-end test runs as the service account kube-system/kubesched with exactly
 * the RBAC of docs/operations.md (applied from its text); these checks show that identity can do no more.
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

  /**
   * PodGroups of both sources (the Workload API's, served by the test cluster, and the coscheduling CRD the
   * suite applies): the scheduler reads and watches them and writes their status (the
   * PodGroupInitiallyScheduled condition; phase and counts for coscheduling), and nothing else of them.
   */
  @Test
  void the_scheduler_identity_may_read_pod_groups_and_write_their_status_but_not_change_them() {
    var scheduler = client.kubernetesClient();
    for (var source : PodGroupRef.Source.values()) {
      admin.genericKubernetesResources(context(source)).inNamespace(namespace).resource(group(source, "g")).create();
      var groups = scheduler.genericKubernetesResources(context(source)).inNamespace(namespace);

      assertEquals(1, groups.list().getItems().size(), source.toString());
      assertNotNull(groups.withName("g").get(), source.toString());
      watchOnce(scheduler, source);
      var status = groups.withName("g").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), """
          {"status": {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "False",
           "reason": "Unschedulable", "message": "test", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}""");
      assertEquals(Map.of("conditions", List.of(Map.of("type", "PodGroupInitiallyScheduled",
              "status", "False", "reason", "Unschedulable", "message", "test",
              "lastTransitionTime", "2026-01-01T00:00:00Z"))),
          status.getAdditionalProperties().get("status"), source.toString());

      assertForbidden(() -> groups.resource(group(source, "mine")).create());
      assertForbidden(() -> groups.withName("g").patch(PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\": {\"labels\": {\"x\": \"y\"}}}"));
      assertForbidden(() -> groups.withName("g").delete());
    }
  }

  private void watchOnce(KubernetesClient scheduler, PodGroupRef.Source source) {
    // fabric8 returns from watch() once the API server has accepted it, and throws if it refuses.
    scheduler.genericKubernetesResources(context(source)).inNamespace(namespace).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource resource) {}

      @Override
      public void onClose(WatcherException cause) {}
    }).close();
  }

  private GenericKubernetesResource group(PodGroupRef.Source source, String name) {
    var spec = source == PodGroupRef.Source.WORKLOAD_API
        ? Map.<String, Object>of("schedulingPolicy", Map.of("gang", Map.of("minCount", 2)))
        : Map.<String, Object>of("minMember", 2);
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(source.apiVersion())
        .withKind("PodGroup")
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .addToAdditionalProperties("spec", spec)
        .build();
  }

  private static ResourceDefinitionContext context(PodGroupRef.Source source) {
    var apiVersion = source.apiVersion();
    return new ResourceDefinitionContext.Builder()
        .withGroup(apiVersion.substring(0, apiVersion.indexOf('/')))
        .withVersion(apiVersion.substring(apiVersion.indexOf('/') + 1))
        .withKind("PodGroup")
        .withPlural("podgroups")
        .withNamespaced(true)
        .build();
  }

  private static void assertForbidden(Runnable call) {
    var error = assertThrows(KubernetesClientException.class, call::run);
    assertEquals(403, error.getCode(), error.getMessage());
  }
}
