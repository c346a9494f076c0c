package io.kubesched.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CRD the build generates from the classes: the committed copy is the same (so CI fails when the types change
 * and the copy was not refreshed), and its schema says what the API server is to reject. That the API server
 * really rejects it is {@code SchedulingPolicyIT}'s part (module tools/e2e). Line 8 only: the committed CRD is
 * fabric8 8's generator's, and the fabric8 7 build does not generate one (7.5.2's differs in formats and in how it
 * writes free-form plugin arguments).
 */
@Tag("fabric8-8")
class GeneratedCrdTest {

  /** Where crd-generator-maven-plugin writes it (phase process-classes, before the tests). */
  static final Path GENERATED = Path.of("target/classes/META-INF/fabric8/schedulingpolicies.kubesched.io-v1.yml");

  /** The copy under version control, which users and the e2e tests apply. */
  static final Path COMMITTED = Path.of("../crds/schedulingpolicies.kubesched.io-v1.yml");

  private static final String REFRESH =
      "refresh it: ./mvnw -q -o process-classes -pl scheduler-crd -am && cp " + "scheduler-crd/" + GENERATED + " crds/";

  @Test
  void the_committed_crd_is_the_one_the_build_generates() throws IOException {
    assertTrue(Files.isRegularFile(GENERATED), GENERATED + " is missing: the CRD generator did not run");
    assertTrue(Files.isRegularFile(COMMITTED), "crds/schedulingpolicies.kubesched.io-v1.yml is missing; " + REFRESH);
    assertEquals(
        Files.readString(GENERATED),
        Files.readString(COMMITTED),
        "crds/schedulingpolicies.kubesched.io-v1.yml is not what the CRD generator makes of the classes; " + REFRESH);
  }

  @Test
  void it_is_cluster_scoped_with_a_status_subresource_and_the_accepted_column() throws IOException {
    var crd = crd();
    assertEquals("schedulingpolicies.kubesched.io", crd.getMetadata().getName());
    assertEquals("kubesched.io", crd.getSpec().getGroup());
    assertEquals("Cluster", crd.getSpec().getScope());
    assertEquals("SchedulingPolicy", crd.getSpec().getNames().getKind());
    var version = crd.getSpec().getVersions().get(0);
    assertEquals("v1alpha1", version.getName());
    assertNotNull(version.getSubresources().getStatus(), "the status subresource");
    var columns = version.getAdditionalPrinterColumns().stream().map(c -> c.getName() + "=" + c.getJsonPath()).toList();
    assertTrue(columns.contains("Scheduler=.spec.schedulerName"), columns.toString());
    assertTrue(columns.contains("Accepted=.status.conditions[?(@.type==\"Accepted\")].status"), columns.toString());
  }

  @Test
  void its_schema_requires_a_scheduler_name_and_bounds_weights_and_the_percentage() throws IOException {
    var root = crd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    assertTrue(root.getRequired().contains("spec"), "spec is required: " + root.getRequired());
    var spec = root.getProperties().get("spec");
    assertEquals(List.of("schedulerName"), spec.getRequired());
    assertEquals(SchedulingPolicySpec.DNS_SUBDOMAIN, spec.getProperties().get("schedulerName").getPattern());
    var percentage = spec.getProperties().get("percentageOfNodesToScore");
    assertEquals("integer", percentage.getType());
    assertEquals(0.0, percentage.getMinimum());
    assertEquals(100.0, percentage.getMaximum());

    var plugins = spec.getProperties().get("plugins").getProperties();
    assertEquals(
        List.of("bind", "filter", "multiPoint", "permit", "placementGenerate", "placementScore", "podGroupPostFilter",
            "postBind", "postFilter", "preBind", "preEnqueue", "preFilter", "preScore", "queueSort", "reserve",
            "score"),
        plugins.keySet().stream().sorted().toList());
    for (var point : plugins.entrySet()) {
      for (var list : List.of("enabled", "disabled")) {
        var plugin = point.getValue().getProperties().get(list).getItems().getSchema();
        assertEquals(List.of("name"), plugin.getRequired(), point.getKey() + "." + list);
        var weight = plugin.getProperties().get("weight");
        assertEquals(0.0, weight.getMinimum(), point.getKey() + "." + list + " weight");
        assertEquals((double) Integer.MAX_VALUE, weight.getMaximum(), point.getKey() + "." + list + " weight");
      }
    }
  }

  @Test
  void plugin_arguments_are_free_form_and_everything_else_is_structural() throws IOException {
    var spec = crd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    var config = spec.getProperties().get("pluginConfig").getItems().getSchema();
    assertEquals(List.of("name"), config.getRequired());
    var args = config.getProperties().get("args");
    assertEquals("object", args.getType());
    assertEquals(Boolean.TRUE, args.getXKubernetesPreserveUnknownFields());
    // Unknown fields anywhere else are pruned by the API server (or refused with fieldValidation=Strict).
    assertEquals(null, spec.getXKubernetesPreserveUnknownFields());
    assertTrue(everyNodeHasAType(spec), "a structural schema has a type at every node");
  }

  private static boolean everyNodeHasAType(JSONSchemaProps schema) {
    if (schema.getType() == null || schema.getType().isEmpty()) {
      return false;
    }
    if (schema.getProperties() != null
        && !schema.getProperties().values().stream().allMatch(GeneratedCrdTest::everyNodeHasAType)) {
      return false;
    }
    return schema.getItems() == null || everyNodeHasAType(schema.getItems().getSchema());
  }

  static CustomResourceDefinition crd() throws IOException {
    try (var in = Files.newInputStream(GENERATED)) {
      return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    }
  }
}
