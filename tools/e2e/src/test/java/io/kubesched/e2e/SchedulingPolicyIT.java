package io.kubesched.e2e;

import static io.kubesched.e2e.SchedulingPolicyFixture.awaitAccepted;
import static io.kubesched.e2e.SchedulingPolicyFixture.generation;
import static io.kubesched.e2e.SchedulingPolicyFixture.grantPolicyRules;
import static io.kubesched.e2e.SchedulingPolicyFixture.installCrd;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable;
import io.kubesched.crd.SchedulingPolicy;
import io.kubesched.crd.SchedulingPolicyController;
import io.kubesched.crd.SchedulingPolicySpec.Plugin;
import io.kubesched.crd.SchedulingPolicySpec.PluginConfig;
import io.kubesched.crd.SchedulingPolicySpec.PluginSet;
import io.kubesched.crd.SchedulingPolicySpec.Plugins;
import io.kubesched.crd.SchedulingPolicySpec;
import io.kubesched.crd.SchedulingPolicyStatus;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The SchedulingPolicy custom resource on a real API server: the CRD generated from the types
 * ({@value SchedulingPolicyFixture#CRD}) rejects malformed specs there, and a running controller takes each valid policy for its next pods
 * without a restart, keeps the last good one when a policy is invalid (saying why in the status and an event), and
 * falls back to its configured profile when the policy is deleted. The policy controller runs as the scheduler's
 * restricted identity with the rules {@link SchedulingPolicyController} documents added.
 */
class SchedulingPolicyIT extends RealClusterTest {

  private static final String POLICY = "e2e-policy";
  private static final String MALFORMED = "e2e-malformed";
  private static final String CONFIG = """
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: KubeSchedulerConfiguration
      profiles:
        - schedulerName: %s
      """.formatted(SCHEDULER);

  @AfterEach
  void deletePolicies() {
    admin.resources(SchedulingPolicy.class).withName(POLICY).delete();
    admin.resources(SchedulingPolicy.class).withName(MALFORMED).delete();
  }

  @Test
  void the_api_server_rejects_malformed_specs_by_the_generated_schema() throws IOException {
    installCrd(admin);
    var policies = admin.resources(SchedulingPolicy.class);

    for (var spec : List.of(
        new SchedulingPolicySpec(SCHEDULER, 101, null, null),
        new SchedulingPolicySpec(SCHEDULER, -1, null, null),
        new SchedulingPolicySpec("Not A DNS Name", null, null, null),
        new SchedulingPolicySpec(SCHEDULER, null,
            Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("NodeResourcesFit", -3)), null)), null))) {
      var e = assertThrows(KubernetesClientException.class,
          () -> policies.resource(SchedulingPolicy.of(MALFORMED, spec)).create(), spec.toString());
      assertEquals(422, e.getCode(), spec + ": " + e.getMessage());
    }
    // Wrong types and a missing schedulerName cannot be written with the typed records: sent as plain maps.
    for (var spec : List.<Map<String, Object>>of(
        Map.of("percentageOfNodesToScore", 50),
        Map.of("schedulerName", 7),
        Map.of("schedulerName", SCHEDULER, "plugins", Map.of("score", Map.of("enabled", "NodeResourcesFit"))),
        Map.of("schedulerName", SCHEDULER, "pluginConfig", List.of(Map.of("args", Map.of()))))) {
      var e = assertThrows(KubernetesClientException.class, () -> createGeneric(spec, null), spec.toString());
      assertEquals(422, e.getCode(), spec + ": " + e.getMessage());
    }
    var noSpec = assertThrows(KubernetesClientException.class, () -> createGeneric(null, null));
    assertEquals(422, noSpec.getCode(), noSpec.getMessage());

    // An unknown field: refused under strict field validation (kubectl's default), else pruned by the
    // structural schema; the free-form plugin arguments keep theirs.
    var unknown = Map.<String, Object>of("schedulerName", SCHEDULER, "colour", "blue",
        "pluginConfig", List.of(Map.of("name", "NodeResourcesFit", "args", Map.of("anything", "kept"))));
    var strict = assertThrows(KubernetesClientException.class,
        () -> createGeneric(unknown, FieldValidateable.Validation.STRICT));
    assertTrue(strict.getCode() == 400 || strict.getCode() == 422, strict.getCode() + ": " + strict.getMessage());
    assertTrue(strict.getMessage().contains("colour"), strict.getMessage());
    createGeneric(unknown, null);
    var stored = admin.genericKubernetesResources(apiVersion(), SchedulingPolicy.KIND).withName(MALFORMED).get();
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) stored.getAdditionalProperties().get("spec");
    assertFalse(spec.containsKey("colour"), "pruned: " + spec);
    assertEquals(List.of(Map.of("name", "NodeResourcesFit", "args", Map.of("anything", "kept"))),
        spec.get("pluginConfig"));
  }

  @Test
  void a_policy_changes_placements_at_once_an_invalid_one_changes_nothing_and_deleting_it_falls_back()
      throws IOException {
    installCrd(admin);
    grantPolicyRules(admin);
    createNodesOfDifferentFill();

    var configured = SchedulerConfiguration.parse(CONFIG, "SchedulingPolicyIT").profiles().get(0).policy();
    try (var controller = client.newPodController(Map.of(SCHEDULER, configured), recorder);
        var policies = new SchedulingPolicyController(client.kubernetesClient(), controller,
            Map.of(SCHEDULER, configured))) {
      controller.start();
      policies.start();
      assertEquals("node-b", place("least-0", SCHEDULER));

      // Passes the schema, but no such plugin: rejected by the controller, the configured policy stays.
      admin.resources(SchedulingPolicy.class).resource(SchedulingPolicy.of(POLICY, new SchedulingPolicySpec(
          SCHEDULER, null,
          Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("NoSuchPlugin", 1)), null)), null))).create();
      var rejected = awaitAccepted(admin, POLICY, "False", WAIT);
      assertEquals(SchedulingPolicyStatus.REASON_INVALID, rejected.getReason());
      assertTrue(rejected.getMessage().contains("spec.plugins.score"), rejected.getMessage());
      assertTrue(rejected.getMessage().contains("NoSuchPlugin"), rejected.getMessage());
      assertEquals(generation(admin, POLICY), rejected.getObservedGeneration());
      eventually(WAIT, "a PolicyRejected event", () -> policyEvents("PolicyRejected") == 1);
      assertEquals("node-b", place("least-1", SCHEDULER));

      // Fixed to most allocated: the next pod goes to the fuller node, without a restart.
      admin.resources(SchedulingPolicy.class).withName(POLICY).edit(p -> {
        p.setSpec(new SchedulingPolicySpec(SCHEDULER, null, null, List.of(new PluginConfig("NodeResourcesFit",
            Map.of("scoringStrategy", Map.of("type", "MostAllocated",
                "resources", List.of(Map.of("name", "cpu", "weight", 1), Map.of("name", "memory", "weight", 1))))))));
        return p;
      });
      var accepted = awaitAccepted(admin, POLICY, "True", WAIT);
      assertEquals(generation(admin, POLICY), accepted.getObservedGeneration());
      assertEquals(generation(admin, POLICY), admin.resources(SchedulingPolicy.class).withName(POLICY).get().getStatus()
          .observedGeneration());
      eventually(WAIT, "a PolicyAccepted event", () -> policyEvents("PolicyAccepted") == 1);
      assertEquals("node-a", place("most-0", SCHEDULER));
      assertEquals("node-a", place("most-1", SCHEDULER));

      // Deleted: back to the configured profile.
      admin.resources(SchedulingPolicy.class).withName(POLICY).delete();
      eventually(WAIT, "the policy is gone",
          () -> admin.resources(SchedulingPolicy.class).withName(POLICY).get() == null);
      // The controller hears of the deletion asynchronously: a pod or two may still be placed by the policy.
      boolean fellBack = false;
      for (int i = 0; i < 20 && !fellBack; i++) {
        fellBack = "node-b".equals(place("after-" + i, SCHEDULER));
      }
      assertTrue(fellBack, "no pod went back to the emptier node after the policy was deleted");
    }
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  private long policyEvents(String reason) {
    return admin.events().v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> e.getRegarding() != null && SchedulingPolicy.KIND.equals(e.getRegarding().getKind())
            && POLICY.equals(e.getRegarding().getName()) && reason.equals(e.getReason()))
        .count();
  }

  private static String apiVersion() {
    return SchedulingPolicy.GROUP + "/" + SchedulingPolicy.VERSION;
  }

  private void createGeneric(@Nullable Map<String, Object> spec, FieldValidateable.@Nullable Validation validation) {
    var object = new GenericKubernetesResource();
    object.setApiVersion(apiVersion());
    object.setKind(SchedulingPolicy.KIND);
    object.setMetadata(new ObjectMetaBuilder().withName(MALFORMED).build());
    if (spec != null) {
      object.setAdditionalProperty("spec", spec);
    }
    var resource = admin.genericKubernetesResources(apiVersion(), SchedulingPolicy.KIND).resource(object);
    if (validation != null) {
      resource.fieldValidation(validation).create();
    } else {
      resource.create();
    }
  }
}
