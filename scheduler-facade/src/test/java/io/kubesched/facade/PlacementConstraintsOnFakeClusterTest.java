package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.NAMESPACE;
import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.WorkloadSelector.Kind;
import io.kubesched.api.WorkloadSelector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scheduling gates, the features the library refuses, and the cluster snapshot's data and events, through
 * the facade against the embedded fake cluster.
 */
class PlacementConstraintsOnFakeClusterTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private final RecordingMetrics metrics = new RecordingMetrics();
  private final FakeClusterFixture.Recorder recorder = new FakeClusterFixture.Recorder();
  /** Every pod the policy was asked about, by name. */
  private final Set<String> asked = ConcurrentHashMap.newKeySet();
  private Client client;
  private KubernetesClient kube;

  @BeforeEach
  void connect() {
    client =
        Client.create(
            Options.builder()
                .fake()
                .schedulerName(SCHEDULER)
                .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
                .metrics(metrics)
                .build());
    kube = client.kubernetesClient();
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  /** firstFit, recording which pods it is asked about. */
  private FinderFunc recordingFirstFit() {
    var policy = firstFit();
    return (pod, nodes) -> {
      asked.add(pod.name());
      return policy.find(pod, nodes);
    };
  }

  /** Creates a pod and waits until it is bound: every event sent before it has been handled by then. */
  private void barrier(String name) {
    create(kube, pod(name, SCHEDULER, "10m", "16Mi"));
    eventually(WAIT, name + " is bound", () -> recorder.bound.containsKey(name));
  }

  private void setGates(String name, String... gates) {
    kube.pods()
        .inNamespace(NAMESPACE)
        .withName(name)
        .edit(pod -> new PodBuilder(pod)
            .editSpec()
            .withSchedulingGates(List.of(gates).stream().map(PodSchedulingGate::new).toList())
            .endSpec()
            .build());
  }

  // --- Scheduling gates ---

  @Test
  void a_gated_pod_is_neither_tried_nor_reported_and_is_bound_once_its_last_gate_is_removed() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    try (var controller = client.newPodController(recordingFirstFit(), recorder)) {
      controller.start();
      create(
          kube,
          new PodBuilder(pod("gated", SCHEDULER, "100m", "64Mi"))
              .editSpec()
              .addNewSchedulingGate("example.com/quota")
              .addNewSchedulingGate("example.com/approval")
              .endSpec()
              .build());
      barrier("first");
      eventually(WAIT, "the gated pod is counted in the gated queue", () -> metrics.pending().gated() == 1);

      setGates("gated", "example.com/approval");
      barrier("second");

      assertEquals(1, metrics.pending().gated(), "one gate left: still gated");
      assertEquals("", nodeOf(kube, "gated"));
      assertFalse(asked.contains("gated"), "a gated pod is never given to the policy");
      assertFalse(recorder.events.stream().anyMatch(e -> e.endsWith(" gated") || e.endsWith("/gated")), "nor reported: " + recorder.events);

      setGates("gated");

      eventually(WAIT, "the pod is bound once its last gate is gone", () -> nodeOf(kube, "gated").equals("node-0"));
      eventually(WAIT, "the gated queue is empty", () -> metrics.pending().gated() == 0);
    }
  }

  // --- What the library refuses ---

  @Test
  void a_pod_with_a_persistent_volume_claim_is_refused_by_a_policy_without_volume_binding_and_parked() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    try (var controller = client.newPodController(recordingFirstFit(), recorder)) {
      controller.start();
      create(
          kube,
          new PodBuilder(pod("db-0", SCHEDULER, "100m", "64Mi"))
              .editSpec()
              .addNewVolume()
              .withName("data")
              .withNewPersistentVolumeClaim()
              .withClaimName("data")
              .endPersistentVolumeClaim()
              .endVolume()
              .endSpec()
              .build());
      var message =
          "pod default/db-0 uses PersistentVolumeClaim \"data\": the scheduling policy has no volume binding rule"
              + " (it does not read PersistentVolumeClaims)";
      eventually(WAIT, "the pod is reported unschedulable", () -> recorder.unschedulable.containsKey("db-0"));
      assertEquals(message, recorder.unschedulable.get("db-0"));
      eventually(WAIT, "the pod's PodScheduled condition says why", () -> message.equals(podScheduledMessage("db-0")));
      eventually(WAIT, "a FailedScheduling event says why", () -> failedSchedulingNotes().contains(message));

      // Cluster changes that would retry any other unschedulable pod leave it parked: it does not spin.
      create(kube, node("node-1", "4", "8Gi", "110"));
      barrier("after-node");

      assertFalse(asked.contains("db-0"), "never given to the policy");
      assertEquals("", nodeOf(kube, "db-0"));
      assertEquals(1, metrics.attempts(Result.UNSCHEDULABLE), "tried once");
      assertEquals(1, metrics.pending().unschedulable());
    }
  }

  @Test
  void a_pod_with_a_resource_claim_is_refused_by_a_policy_without_dynamic_resource_allocation() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    try (var controller = client.newPodController(recordingFirstFit(), recorder)) {
      controller.start();
      create(
          kube,
          new PodBuilder(pod("train", SCHEDULER, "100m", "64Mi"))
              .editSpec()
              .addNewResourceClaim()
              .withName("gpu")
              .withResourceClaimName("gpu-claim")
              .endResourceClaim()
              .endSpec()
              .build());
      eventually(WAIT, "the pod is reported unschedulable", () -> recorder.unschedulable.containsKey("train"));
    }
    assertEquals(
        "pod default/train uses ResourceClaim \"gpu\": the scheduling policy has no dynamic resource allocation rule"
            + " (it does not read ResourceClaims)",
        recorder.unschedulable.get("train"));
    assertFalse(asked.contains("train"));
  }

  private String podScheduledMessage(String name) {
    var pod = kube.pods().inNamespace(NAMESPACE).withName(name).get();
    if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return "";
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .map(c -> c.getMessage())
        .findFirst()
        .orElse("");
  }

  private Set<String> failedSchedulingNotes() {
    return kube.events().v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .map(e -> e.getNote())
        .collect(Collectors.toSet());
  }

  // --- The cluster snapshot ---

  /** firstFit over a snapshot, recording the last snapshot it saw; reads what it is given. */
  private static FinderFunc snapshotReader(Set<ClusterData> reads, AtomicReference<ClusterSnapshot> seen) {
    var policy = firstFit();
    return new FinderFunc() {
      @Override
      public Decision find(PodInfo pod, List<NodeInfo> nodes) {
        return policy.find(pod, nodes);
      }

      @Override
      public Decision find(PodInfo pod, ClusterSnapshot cluster) {
        seen.set(cluster);
        return policy.find(pod, cluster.nodes());
      }

      @Override
      public Set<ClusterData> reads() {
        return reads;
      }
    };
  }

  @Test
  void a_policy_that_reads_namespaces_and_workloads_gets_their_labels_and_selectors_in_every_snapshot() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
        .addToLabels("team", "a").endMetadata().build()).create();
    kube.services().inNamespace("shop").resource(new ServiceBuilder().withNewMetadata().withName("web")
        .endMetadata().withNewSpec().addToSelector("app", "web").endSpec().build()).create();
    kube.replicationControllers().inNamespace("shop").resource(new ReplicationControllerBuilder()
        .withNewMetadata().withName("legacy").endMetadata()
        .withNewSpec().addToSelector("app", "legacy").endSpec().build()).create();
    kube.apps().replicaSets().inNamespace("shop").resource(new ReplicaSetBuilder()
        .withNewMetadata().withName("web-1").endMetadata()
        .withNewSpec().withSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build()).endSpec()
        .build()).create();
    kube.apps().statefulSets().inNamespace("shop").resource(new StatefulSetBuilder()
        .withNewMetadata().withName("db").endMetadata()
        .withNewSpec().withSelector(new LabelSelectorBuilder().addToMatchLabels("app", "db").build()).endSpec()
        .build()).create();
    var seen = new AtomicReference<ClusterSnapshot>();
    try (var controller =
        client.newPodController(snapshotReader(Set.of(ClusterData.values()), seen), recorder)) {
      controller.start();
      barrier("reader");
    }
    var snapshot = seen.get();
    assertEquals(Map.of("team", "a"), snapshot.namespaceLabels("shop"));
    assertEquals(
        Set.of(
            new WorkloadSelector(Kind.SERVICE, "shop", "web", LabelSelector.of(Map.of("app", "web"))),
            new WorkloadSelector(Kind.REPLICATION_CONTROLLER, "shop", "legacy", LabelSelector.of(Map.of("app", "legacy"))),
            new WorkloadSelector(Kind.REPLICA_SET, "shop", "web-1", LabelSelector.of(Map.of("app", "web"))),
            new WorkloadSelector(Kind.STATEFUL_SET, "shop", "db", LabelSelector.of(Map.of("app", "db")))),
        Set.copyOf(snapshot.workloadsIn("shop")));
  }

  @Test
  void a_policy_that_reads_nothing_gets_nodes_only() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
        .addToLabels("team", "a").endMetadata().build()).create();
    var seen = new AtomicReference<ClusterSnapshot>();
    try (var controller = client.newPodController(snapshotReader(Set.of(), seen), recorder)) {
      controller.start();
      barrier("reader");
    }
    assertEquals(Map.of(), seen.get().namespaces());
    assertEquals(List.of(), seen.get().workloads());
  }

  @Test
  void a_namespace_relabelled_moves_a_pod_waiting_for_it_where_namespaces_are_read() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .endMetadata().build()).create();
    var policy = firstFit();
    FinderFunc opensWithLabel =
        new FinderFunc() {
          @Override
          public Decision find(PodInfo pod, List<NodeInfo> nodes) {
            throw new AssertionError("the controller calls find(pod, cluster)");
          }

          @Override
          public Decision find(PodInfo pod, ClusterSnapshot cluster) {
            if (!"yes".equals(cluster.namespaceLabels(pod.namespace()).get("open"))) {
              return Decision.unschedulable(Map.of("node-0", List.of("namespace is not open")));
            }
            return policy.find(pod, cluster.nodes());
          }

          @Override
          public Set<ClusterData> reads() {
            return Set.of(ClusterData.NAMESPACES);
          }
        };
    try (var controller = client.newPodController(opensWithLabel, recorder)) {
      controller.start();
      create(kube, pod("waiting", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the pod waits", () -> recorder.unschedulable.containsKey("waiting"));
      eventually(WAIT, "as unschedulable", () -> metrics.pending().unschedulable() == 1);

      kube.namespaces().withName(NAMESPACE).edit(ns -> new NamespaceBuilder(ns).editMetadata()
          .addToLabels("open", "yes").endMetadata().build());

      eventually(WAIT, "the relabelled namespace moves the pod, which is bound", () -> nodeOf(kube, "waiting").equals("node-0"));
    }
  }

  @Test
  void a_pod_bound_by_someone_else_moves_the_pod_whose_required_affinity_it_completes() {
    create(kube, node("node-0", "4", "8Gi", "110"));
    var policy = firstFit();
    // Required pod affinity, simply: a node qualifies if it holds a pod that matches every required term.
    FinderFunc affinity =
        (pod, nodes) -> {
          var terms = pod.podAffinity().required();
          var fitting = nodes.stream()
              .filter(node -> terms.isEmpty() || node.pods().stream().anyMatch(other -> terms.stream()
                  .allMatch(term -> term.labelSelector() != null && term.labelSelector().matches(other.labels()))))
              .toList();
          return fitting.isEmpty()
              ? Decision.unschedulable(Map.of("node-0", List.of("node(s) didn't match pod affinity rules")))
              : policy.find(pod, fitting);
        };
    try (var controller = client.newPodController(affinity, recorder)) {
      controller.start();
      create(kube, follower());
      eventually(WAIT, "the follower waits", () -> recorder.unschedulable.containsKey("follower"));
      eventually(WAIT, "as unschedulable", () -> metrics.pending().unschedulable() == 1);

      // Bound by another scheduler: no node changes and no pod goes away, only a bound pod arrives.
      create(kube, new PodBuilder(pod("leader", "someone-else", "100m", "64Mi"))
          .editMetadata().addToLabels("app", "leader").endMetadata()
          .editSpec().withNodeName("node-0").endSpec()
          .build());

      eventually(WAIT, "the follower is bound next to the leader", () -> nodeOf(kube, "follower").equals("node-0"));
    }
    assertTrue(recorder.bound.containsKey("follower"));
  }

  private static Pod follower() {
    return new PodBuilder(pod("follower", SCHEDULER, "100m", "64Mi"))
        .editSpec()
        .withNewAffinity()
        .withNewPodAffinity()
        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels("app", "leader").build())
        .withTopologyKey("kubernetes.io/hostname")
        .endRequiredDuringSchedulingIgnoredDuringExecution()
        .endPodAffinity()
        .endAffinity()
        .endSpec()
        .build();
  }
}
