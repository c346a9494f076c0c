package io.kubesched.adapter;

import static io.kubesched.adapter.PodAffinitiesTest.expression;
import static io.kubesched.adapter.PodAffinitiesTest.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.api.WorkloadSelector.Kind;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ClusterDataAdapter}: namespaces into labels, workloads into their selectors. */
class ClusterDataAdapterTest {

  private static io.fabric8.kubernetes.api.model.Service service(@Nullable Map<String, String> selector) {
    var service =
        new ServiceBuilder().withNewMetadata().withNamespace("ns").withName("svc").endMetadata().withNewSpec().endSpec().build();
    service.getSpec().setSelector(selector);
    return service;
  }

  private static io.fabric8.kubernetes.api.model.ReplicationController controller(
      @Nullable Map<String, String> selector) {
    var rc =
        new ReplicationControllerBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("rc")
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .build();
    rc.getSpec().setSelector(selector);
    return rc;
  }

  private static io.fabric8.kubernetes.api.model.apps.ReplicaSet replicaSet(
      io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("rs")
        .endMetadata()
        .withNewSpec()
        .withSelector(selector)
        .endSpec()
        .build();
  }

  private static io.fabric8.kubernetes.api.model.apps.StatefulSet statefulSet(
      io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector) {
    return new StatefulSetBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("ss")
        .endMetadata()
        .withNewSpec()
        .withSelector(selector)
        .endSpec()
        .build();
  }

  @Test
  void a_namespace_reads_as_its_labels() {
    var namespace =
        new NamespaceBuilder()
            .withNewMetadata()
            .withName("team-a")
            .addToLabels("team", "a")
            .addToLabels("kubernetes.io/metadata.name", "team-a")
            .endMetadata()
            .build();

    assertEquals(
        Map.of("team", "a", "kubernetes.io/metadata.name", "team-a"), ClusterDataAdapter.namespaceLabels(namespace));
  }

  @Test
  void a_namespace_without_labels_or_metadata_has_none() {
    assertEquals(Map.of(), ClusterDataAdapter.namespaceLabels(new NamespaceBuilder().withNewMetadata().withName("x").endMetadata().build()));
    assertEquals(Map.of(), ClusterDataAdapter.namespaceLabels(new io.fabric8.kubernetes.api.model.Namespace()));
  }

  @Test
  void a_service_selector_is_a_label_map() {
    assertEquals(
        Optional.of(new WorkloadSelector(Kind.SERVICE, "ns", "svc", LabelSelector.of(Map.of("app", "web", "tier", "a")))),
        ClusterDataAdapter.workloadSelector(service(Map.of("app", "web", "tier", "a"))));
  }

  @Test
  void a_service_without_selector_or_with_an_empty_one_has_none() {
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(service(null)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(service(Map.of())));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(new io.fabric8.kubernetes.api.model.Service()));
  }

  @Test
  void a_replication_controller_selector_is_a_label_map() {
    assertEquals(
        Optional.of(
            new WorkloadSelector(Kind.REPLICATION_CONTROLLER, "ns", "rc", LabelSelector.of(Map.of("app", "web")))),
        ClusterDataAdapter.workloadSelector(controller(Map.of("app", "web"))));
  }

  @Test
  void a_replication_controller_without_selector_or_with_an_empty_one_has_none() {
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(controller(null)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(controller(Map.of())));
    assertEquals(
        Optional.empty(), ClusterDataAdapter.workloadSelector(new io.fabric8.kubernetes.api.model.ReplicationController()));
  }

  @Test
  void a_replica_set_selector_keeps_labels_and_expressions() {
    var selector = selector(Map.of("app", "web"), expression("tier", "NotIn", "db"));

    assertEquals(
        Optional.of(
            new WorkloadSelector(
                Kind.REPLICA_SET,
                "ns",
                "rs",
                new LabelSelector(
                    Map.of("app", "web"),
                    java.util.List.of(LabelSelectorRequirement.of("tier", Operator.NOT_IN, "db"))))),
        ClusterDataAdapter.workloadSelector(replicaSet(selector)));
  }

  @Test
  void a_stateful_set_selector_keeps_labels_and_expressions() {
    var selector = selector(Map.of(), expression("app", "Exists"));

    assertEquals(
        Optional.of(
            new WorkloadSelector(
                Kind.STATEFUL_SET, "ns", "ss", LabelSelector.of(LabelSelectorRequirement.of("app", Operator.EXISTS)))),
        ClusterDataAdapter.workloadSelector(statefulSet(selector)));
  }

  @Test
  void replica_and_stateful_sets_without_selector_or_with_an_empty_one_have_none() {
    var empty = new io.fabric8.kubernetes.api.model.LabelSelector();

    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(replicaSet(null)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(replicaSet(empty)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(statefulSet(null)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(statefulSet(empty)));
    assertEquals(
        Optional.empty(), ClusterDataAdapter.workloadSelector(new io.fabric8.kubernetes.api.model.apps.ReplicaSet()));
    assertEquals(
        Optional.empty(), ClusterDataAdapter.workloadSelector(new io.fabric8.kubernetes.api.model.apps.StatefulSet()));
  }

  /** kube-scheduler's DefaultSelector skips a selector {@code LabelSelectorAsSelector} refuses. */
  @ParameterizedTest(name = "operator ''{0}''")
  @ValueSource(strings = {"Gt", "in", "", "In"})
  void replica_and_stateful_sets_with_a_selector_kubernetes_cannot_parse_have_none(String operator) {
    var selector = selector(Map.of("app", "web"), expression("tier", operator));

    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(replicaSet(selector)));
    assertEquals(Optional.empty(), ClusterDataAdapter.workloadSelector(statefulSet(selector)));
  }
}
