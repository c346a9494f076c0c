package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodGroupRef.Source;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulingConstants;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link PodAdapter#toPodInfo}: which pod group a pod joins, from its spec or its label. */
class PodGroupMembershipTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  /** {@code pod} with {@code spec.schedulingGroup} as decoded from JSON (fabric8 7: an additional property). */
  private static Pod schedulingGroup(Pod pod, Map<String, String> group) {
    return Fixtures.withFields(pod, "spec", Map.of("schedulingGroup", group));
  }

  private static Optional<PodGroupRef> group(Pod pod) {
    return PodAdapter.toPodInfo(pod).podGroup();
  }

  @Test
  void a_pod_read_from_yaml_joins_the_workload_api_group_its_scheduling_group_names() {
    var pod =
        YAML.unmarshal(
            """
            apiVersion: v1
            kind: Pod
            metadata: {namespace: training, name: worker-0}
            spec:
              schedulingGroup: {podGroupName: job-a}
              containers: [{name: app, image: trainer}]
            """,
            Pod.class);

    assertEquals(Optional.of(new PodGroupRef(Source.WORKLOAD_API, "training", "job-a")), group(pod));
  }

  @Test
  void a_scheduling_group_set_as_an_additional_property_is_read_too() {
    var pod = pod("training", "worker-0").build();
    pod.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "job-a"));

    assertEquals(Optional.of(new PodGroupRef(Source.WORKLOAD_API, "training", "job-a")), group(pod));
  }

  @Test
  void the_coscheduling_label_joins_the_coscheduling_group_of_the_pods_namespace() {
    var pod = pod("training", "worker-0").label(SchedulingConstants.POD_GROUP_LABEL, "job-b").build();

    assertEquals(Optional.of(new PodGroupRef(Source.COSCHEDULING, "training", "job-b")), group(pod));
  }

  @Test
  void a_pod_that_names_both_joins_the_workload_api_group() {
    var pod = schedulingGroup(pod("training", "worker-0").label(SchedulingConstants.POD_GROUP_LABEL, "job-b").build(),
        Map.of("podGroupName", "job-a"));

    assertEquals(Optional.of(new PodGroupRef(Source.WORKLOAD_API, "training", "job-a")), group(pod));
  }

  @Test
  void a_pod_without_either_joins_no_group() {
    assertEquals(Optional.empty(), group(pod("training", "worker-0").label("app", "trainer").build()));
  }

  @Test
  void empty_names_join_no_group() {
    var pod = schedulingGroup(pod("training", "worker-0").label(SchedulingConstants.POD_GROUP_LABEL, "").build(),
        Map.of("podGroupName", ""));

    assertEquals(Optional.empty(), group(pod));
  }

  @Test
  void an_empty_scheduling_group_falls_back_to_the_label() {
    var pod = schedulingGroup(pod("training", "worker-0").label(SchedulingConstants.POD_GROUP_LABEL, "job-b").build(),
        Map.of());

    assertEquals(Optional.of(new PodGroupRef(Source.COSCHEDULING, "training", "job-b")), group(pod));
  }

  @Test
  void a_scheduling_group_that_is_not_an_object_is_malformed() {
    var pod = pod("training", "worker-0").build();
    pod.getSpec().setAdditionalProperty("schedulingGroup", "job-a");

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertEquals("pod training/worker-0", e.object());
    assertEquals("spec.schedulingGroup", e.field());
    assertEquals("job-a", e.value());
  }

  @Test
  void a_pod_group_name_that_is_not_a_string_is_malformed() {
    var pod = pod("training", "worker-0").build();
    pod.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", 7));

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertEquals("spec.schedulingGroup.podGroupName", e.field());
    assertEquals("7", e.value());
  }

  @Test
  void a_group_named_by_a_pod_without_namespace_is_malformed() {
    var pod = pod("", "worker-0").label(SchedulingConstants.POD_GROUP_LABEL, "job-b").build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertEquals("metadata.labels[scheduling.x-k8s.io/pod-group]", e.field());
    assertEquals("job-b", e.value());
  }
}
