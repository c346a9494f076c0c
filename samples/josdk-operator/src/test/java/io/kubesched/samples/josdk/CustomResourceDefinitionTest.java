package io.kubesched.samples.josdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubesched.samples.josdk.BatchJobStatus.Phase;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The hand-written CRD says what the Java classes say: names, scope, version, status, fields, phases. */
class CustomResourceDefinitionTest {

  static final String CRD = "/batchjobs.samples.kubesched.io.yaml";

  @Test
  void the_crd_matches_the_batch_job_classes() throws IOException {
    CustomResourceDefinition crd;
    try (var yaml = CustomResourceDefinitionTest.class.getResourceAsStream(CRD)) {
      assertNotNull(yaml, CRD);
      crd = Serialization.unmarshal(yaml, CustomResourceDefinition.class);
    }
    assertEquals(HasMetadata.getFullResourceName(BatchJob.class), crd.getMetadata().getName());
    assertEquals(BatchJob.GROUP, crd.getSpec().getGroup());
    assertEquals("Namespaced", crd.getSpec().getScope());
    assertEquals(HasMetadata.getKind(BatchJob.class), crd.getSpec().getNames().getKind());
    assertEquals(HasMetadata.getPlural(BatchJob.class), crd.getSpec().getNames().getPlural());
    var version = crd.getSpec().getVersions().get(0);
    assertEquals(List.of(BatchJob.VERSION, true, true),
        List.of(version.getName(), version.getServed(), version.getStorage()));
    assertNotNull(version.getSubresources().getStatus(), "the status subresource");
    var properties = version.getSchema().getOpenAPIV3Schema().getProperties();
    assertEquals(components(BatchJobSpec.class), properties.get("spec").getProperties().keySet());
    var status = properties.get("status").getProperties();
    assertEquals(components(BatchJobStatus.class), status.keySet());
    assertEquals(List.of("Pending", "Placed", "Invalid"),
        status.get("phase").getEnum().stream().map(node -> node.toString().replace("\"", "")).toList());
    assertEquals(Phase.values().length, status.get("phase").getEnum().size());
  }

  private static Set<String> components(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents()).map(c -> c.getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
