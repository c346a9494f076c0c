package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef.Source;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link PodGroupAdapter}: both APIs' PodGroup objects, read from YAML as the API server sends them. */
class PodGroupAdapterTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static GenericKubernetesResource object(String yaml) {
    return YAML.unmarshal(yaml, GenericKubernetesResource.class);
  }

  private static String workload(String spec) {
    return """
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata:
          namespace: training
          name: job-a
          uid: 6c1f5a52-0d4e-4c35-9d1b-1f4c0b1d2e3f
          generation: 3
          creationTimestamp: "2026-05-04T10:11:12Z"
        """
        + spec;
  }

  private static String coscheduling(String spec) {
    return """
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata:
          namespace: training
          name: job-b
          uid: 0b7e2c1a-7a2f-4e0c-8a9e-2f1d3c4b5a69
          generation: 1
          creationTimestamp: "2026-05-04T10:11:12.5+02:00"
        """
        + spec;
  }

  @Test
  void a_workload_api_gang_reads_min_count_priority_and_metadata() {
    var group =
        PodGroupAdapter.toPodGroup(
            object(
                workload(
                    """
                    spec:
                      workloadRef: {workloadName: job, templateName: workers}
                      schedulingPolicy:
                        gang: {minCount: 6}
                      priorityClassName: high
                      priority: 1000
                      disruptionMode: {single: {}}
                    status:
                      conditions: []
                    """)));

    assertEquals(
        new PodGroup(
            new PodGroupRef(Source.WORKLOAD_API, "training", "job-a"),
            "6c1f5a52-0d4e-4c35-9d1b-1f4c0b1d2e3f",
            3,
            6,
            null,
            Resources.ZERO,
            1000,
            Instant.parse("2026-05-04T10:11:12Z")),
        group);
  }

  @Test
  void a_workload_api_basic_group_needs_one_member_and_may_lack_a_priority() {
    var group = PodGroupAdapter.toPodGroup(object(workload("spec:\n  schedulingPolicy: {basic: {}}\n")));

    assertEquals(1, group.minMember());
    assertNull(group.priority());
  }

  @Test
  void a_coscheduling_group_reads_min_member_timeout_and_min_resources() {
    var group =
        PodGroupAdapter.toPodGroup(
            object(
                coscheduling(
                    """
                    spec:
                      minMember: 4
                      scheduleTimeoutSeconds: 90
                      minResources:
                        cpu: 3500m
                        memory: 8Gi
                        nvidia.com/gpu: 4
                    status:
                      phase: Pending
                    """)));

    assertEquals(new PodGroupRef(Source.COSCHEDULING, "training", "job-b"), group.ref());
    assertEquals("0b7e2c1a-7a2f-4e0c-8a9e-2f1d3c4b5a69", group.uid());
    assertEquals(1, group.generation());
    assertEquals(4, group.minMember());
    assertEquals(Duration.ofSeconds(90), group.timeout());
    assertEquals(new Resources(3500, 8L << 30, 0, 0, Map.of("nvidia.com/gpu", 4L)), group.minResources());
    assertNull(group.priority());
    assertEquals(Instant.parse("2026-05-04T08:11:12.5Z"), group.created());
  }

  @Test
  void a_coscheduling_group_without_spec_fields_needs_one_member_and_takes_the_default_timeout() {
    var group = PodGroupAdapter.toPodGroup(object(coscheduling("spec:\n  minMember: 0\n  scheduleTimeoutSeconds: 0\n")));

    assertEquals(1, group.minMember());
    assertNull(group.timeout());
    assertEquals(Resources.ZERO, group.minResources());
  }

  @Test
  void a_coscheduling_group_counts_pods_only_where_min_resources_names_them() {
    var group = PodGroupAdapter.toPodGroup(object(coscheduling("spec:\n  minMember: 2\n  minResources: {pods: 2}\n")));

    assertEquals(new Resources(0, 0, 0, 2, Map.of()), group.minResources());
  }

  @Test
  void the_source_given_wins_over_a_missing_api_version() {
    var object = object(workload("spec:\n  schedulingPolicy: {gang: {minCount: 2}}\n"));
    object.setApiVersion(null);
    object.setKind(null);

    var group = PodGroupAdapter.toPodGroup(Source.WORKLOAD_API, object);

    assertEquals(new PodGroupRef(Source.WORKLOAD_API, "training", "job-a"), group.ref());
    assertEquals(2, group.minMember());
  }

  @Test
  void metadata_without_generation_or_creation_time_reads_as_zero_and_the_epoch() {
    var group =
        PodGroupAdapter.toPodGroup(
            object(
                """
                apiVersion: scheduling.x-k8s.io/v1alpha1
                kind: PodGroup
                metadata: {namespace: training, name: job-b}
                spec: {minMember: 2}
                """));

    assertEquals(0, group.generation());
    assertEquals(Instant.EPOCH, group.created());
    assertEquals("", group.uid());
  }

  static Stream<Arguments> malformed() {
    var workload = "scheduling.k8s.io/v1beta1 PodGroup training/job-a";
    var cosched = "scheduling.x-k8s.io/v1alpha1 PodGroup training/job-b";
    return Stream.of(
        Arguments.of(workload("status: {}\n"), workload, "spec", "", "is missing"),
        Arguments.of(workload("spec: {}\n"), workload, "spec.schedulingPolicy", "", "is missing"),
        Arguments.of(workload("spec: {schedulingPolicy: gang}\n"), workload, "spec.schedulingPolicy", "gang", "is not an object"),
        Arguments.of(workload("spec: {schedulingPolicy: {}}\n"), workload, "spec.schedulingPolicy", "{}", "sets neither basic nor gang"),
        Arguments.of(
            workload("spec: {schedulingPolicy: {basic: {}, gang: {minCount: 2}}}\n"),
            workload,
            "spec.schedulingPolicy",
            "{basic={}, gang={minCount=2}}",
            "sets both basic and gang"),
        Arguments.of(workload("spec: {schedulingPolicy: {gang: {}}}\n"), workload, "spec.schedulingPolicy.gang.minCount", "", "is missing"),
        Arguments.of(workload("spec: {schedulingPolicy: {gang: {minCount: 0}}}\n"), workload, "spec.schedulingPolicy.gang.minCount", "0", "is below 1"),
        Arguments.of(workload("spec: {schedulingPolicy: {gang: {minCount: \"6\"}}}\n"), workload, "spec.schedulingPolicy.gang.minCount", "6", "is not an integer"),
        Arguments.of(workload("spec: {schedulingPolicy: {gang: {minCount: 2.5}}}\n"), workload, "spec.schedulingPolicy.gang.minCount", "2.5", "is not an integer"),
        Arguments.of(
            workload("spec: {schedulingPolicy: {gang: {minCount: 3000000000}}}\n"),
            workload,
            "spec.schedulingPolicy.gang.minCount",
            "3000000000",
            "is out of the int32 range"),
        Arguments.of(workload("spec: {schedulingPolicy: {basic: true}}\n"), workload, "spec.schedulingPolicy.basic", "true", "is not an object"),
        Arguments.of(workload("spec: {schedulingPolicy: {basic: {}}, priority: high}\n"), workload, "spec.priority", "high", "is not an integer"),
        Arguments.of(coscheduling("spec: {minMember: -1}\n"), cosched, "spec.minMember", "-1", "is negative"),
        Arguments.of(coscheduling("spec: {minMember: many}\n"), cosched, "spec.minMember", "many", "is not an integer"),
        Arguments.of(coscheduling("spec: {scheduleTimeoutSeconds: -5}\n"), cosched, "spec.scheduleTimeoutSeconds", "-5", "is negative"),
        Arguments.of(coscheduling("spec: {minResources: [cpu]}\n"), cosched, "spec.minResources", "[cpu]", "is not an object"),
        Arguments.of(coscheduling("spec: {minResources: {cpu: 12x}}\n"), cosched, "spec.minResources[cpu]", "12x", "is not a valid quantity"),
        Arguments.of(coscheduling("spec: {minResources: {memory: -1Gi}}\n"), cosched, "spec.minResources[memory]", "-1Gi", "must not be negative"),
        Arguments.of(coscheduling("spec: {minResources: {cpu: {amount: 1}}}\n"), cosched, "spec.minResources[cpu]", "{amount=1}", "is not a quantity"),
        Arguments.of(
            coscheduling("spec: {minMember: 1}\n").replace("\"2026-05-04T10:11:12.5+02:00\"", "yesterday"),
            cosched,
            "metadata.creationTimestamp",
            "yesterday",
            "is not an RFC 3339 time"),
        Arguments.of(
            coscheduling("spec: {minMember: 1}\n").replace("kind: PodGroup", "kind: Workload"),
            cosched,
            "kind",
            "Workload",
            "is not PodGroup"),
        Arguments.of(
            coscheduling("spec: {minMember: 1}\n").replace("v1alpha1", "v1alpha2"),
            "PodGroup training/job-b",
            "apiVersion",
            "scheduling.x-k8s.io/v1alpha2",
            "is neither scheduling.k8s.io/v1beta1 nor scheduling.x-k8s.io/v1alpha1"));
  }

  @ParameterizedTest(name = "{2} ''{3}'' {4}")
  @MethodSource("malformed")
  void a_malformed_object_is_refused_naming_object_field_and_value(
      String yaml, String described, String field, String value, String problem) {
    var e = assertThrows(MalformedObjectException.class, () -> PodGroupAdapter.toPodGroup(object(yaml)));

    assertEquals(described, e.object());
    assertEquals(field, e.field());
    assertEquals(value, e.value());
    assertTrue(e.getMessage().startsWith(described + ": " + field + " '" + value + "' " + problem), e.getMessage());
  }

  @Test
  void an_object_without_namespace_is_refused() {
    var object = object(coscheduling("spec: {minMember: 1}\n"));
    object.getMetadata().setNamespace(null);

    var e = assertThrows(MalformedObjectException.class, () -> PodGroupAdapter.toPodGroup(object));

    assertEquals("scheduling.x-k8s.io/v1alpha1 PodGroup /job-b", e.object());
    assertEquals("metadata.namespace", e.field());
  }
}
