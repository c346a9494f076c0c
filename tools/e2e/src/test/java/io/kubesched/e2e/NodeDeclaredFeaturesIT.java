package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerRestartRuleBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubesched.policy.DefaultPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kube 1.37's NodeDeclaredFeatures on the real API server: a pod whose container restart rule restarts all containers
 * (the beta {@code RestartAllContainersOnContainerExits}, on by default in 1.37) needs a node that declares that
 * feature in {@code status.declaredFeatures}. No kubelet runs here, so the test writes the nodes' status as admin, as
 * a kubelet would.
 */
class NodeDeclaredFeaturesIT extends RealClusterTest {

  private static final String FEATURE = "RestartAllContainersOnContainerExits";
  private static final String KUBE_MESSAGE =
      "0/1 nodes are available: 1 node(s) didn't match Pod's required features. preemption: 0/1 nodes are available:"
          + " 1 Preemption is not helpful for scheduling.";

  /** Writes {@code status.declaredFeatures} as the node's kubelet would: a merge patch of the status subresource. */
  private void declare(String node, String featuresJson) {
    admin.nodes().withName(node).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\": {\"declaredFeatures\": " + featuresJson + "}}");
  }

  @SuppressWarnings("unchecked")
  private List<String> declaredOnServer(String node) {
    Map<String, Object> json = admin.getKubernetesSerialization().convertValue(admin.nodes().withName(node).get(), Map.class);
    var status = (Map<String, Object>) json.get("status");
    return (List<String>) status.getOrDefault("declaredFeatures", List.of());
  }

  /** A pod for this test's scheduler whose container restarts all of the pod's containers on exit code 42. */
  private Pod restartingAll(String name) {
    var rule = new ContainerRestartRuleBuilder()
        .withAction("RestartAllContainers")
        .withNewExitCodes().withOperator("In").withValues(42).endExitCodes()
        .build();
    return new PodBuilder(pod(namespace, name, SCHEDULER, "100m", "64Mi"))
        .editSpec().editFirstContainer().withRestartPolicy("Never").withRestartPolicyRules(rule).endContainer().endSpec()
        .build();
  }

  @Test
  void the_api_server_keeps_a_nodes_declared_features_and_refuses_a_list_that_is_not_sorted() {
    createReady(node("probe", "1", "1Gi", "10"));

    declare("probe", "[\"" + FEATURE + "\", \"VolumeBindMountOptions\"]");

    assertEquals(List.of(FEATURE, "VolumeBindMountOptions"), declaredOnServer("probe"));
    var refused =
        assertThrows(KubernetesClientException.class, () -> declare("probe", "[\"VolumeBindMountOptions\", \"" + FEATURE + "\"]"));
    assertTrue(refused.getMessage().contains("list must be sorted alphabetically"), refused.getMessage());
  }

  @Test
  void a_pod_that_needs_a_feature_goes_only_to_the_node_that_declares_it() {
    for (var name : List.of("plain-0", "plain-1", "plain-2", "declaring")) {
      createReady(node(name, "4", "8Gi", "110"));
    }
    declare("declaring", "[\"" + FEATURE + "\"]");
    try (var controller = client.newPodController(DefaultPolicy.builder().seed(7).build(), recorder)) {
      controller.start();
      eventually(WAIT, "the scheduler sees the declared feature", () -> controller.nodes().stream()
          .anyMatch(n -> n.name().equals("declaring") && n.declaredFeatures().contains(FEATURE)));
      for (int i = 0; i < 3; i++) {
        create(admin, restartingAll("needs-" + i));
      }
      create(admin, pod(namespace, "plain", SCHEDULER, "100m", "64Mi"));

      eventually(WAIT, "every pod is bound", () -> recorder.bound.size() == 4);
    }
    for (int i = 0; i < 3; i++) {
      assertEquals("declaring", nodeOf("needs-" + i), "needs-" + i);
    }
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  @Test
  void a_node_that_does_not_declare_it_is_refused_with_kubes_message_until_its_kubelet_declares_it() {
    createReady(node("plain", "4", "8Gi", "110"));
    try (var controller = client.newPodController(DefaultPolicy.builder().seed(7).build(), recorder)) {
      controller.start();
      create(admin, restartingAll("needs"));

      eventually(WAIT, "the pod is PodScheduled=False", () -> podScheduled("needs")
          .map(c -> "False".equals(c.getStatus())).orElse(false));
      var condition = podScheduled("needs").orElseThrow();
      assertEquals("Unschedulable", condition.getReason());
      assertEquals(KUBE_MESSAGE, condition.getMessage());
      eventually(WAIT, "a FailedScheduling event with kube's message", () -> eventsAbout("needs").stream()
          .anyMatch(e -> "FailedScheduling".equals(e.getReason()) && KUBE_MESSAGE.equals(e.getNote())));
      assertEquals("", nodeOf("needs"));

      declare("plain", "[\"" + FEATURE + "\"]");

      eventually(WAIT, "the node's update brings the pod to it", () -> "plain".equals(nodeOf("needs")));
    }
  }
}
