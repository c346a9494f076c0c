package io.kubesched.informer.watch;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.PodResourceClaim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.HostPort;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Owner;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodRuntime;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.Volume;
import io.kubesched.binder.PodConditionUpdate;
import io.kubesched.fabric8.Fabric8Compat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the informers' stores keep of real pods and nodes, and what they drop. */
class InformerStoresTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String DEPLOYMENT_POD = "deployment-pod.yaml";
  private static final String SCHEDULING_POD = "scheduling-pod.yaml";
  private static final String RESIZING_POD = "resizing-pod.yaml";

  static <T> T fixture(String name, Class<T> type) {
    try (var in = InformerStoresTest.class.getResourceAsStream("/informer-stores/" + name)) {
      return SERIALIZATION.unmarshal(Objects.requireNonNull(in, name), type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The pod as the store hands it out after the informer put {@code pod} into it. */
  static Pod stored(Pod pod) {
    var store = InformerStores.pods();
    var key = store.getKey(pod);
    store.put(key, pod);
    return store.get(key);
  }

  static Node stored(Node node) {
    var store = InformerStores.nodes();
    var key = store.getKey(node);
    store.put(key, node);
    return store.get(key);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {DEPLOYMENT_POD, SCHEDULING_POD, RESIZING_POD})
  void a_stored_pod_gives_the_same_PodInfo_as_the_pod_the_server_sent(String fixture) {
    var pod = fixture(fixture, Pod.class);
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(stored(pod)));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {DEPLOYMENT_POD, SCHEDULING_POD, RESIZING_POD})
  void the_informer_handlers_sort_a_stored_pod_as_the_pod_the_server_sent(String fixture) {
    var pod = fixture(fixture, Pod.class);
    var kept = stored(pod);
    assertEquals(PodFilters.isTerminal(pod), PodFilters.isTerminal(kept));
    assertEquals(PodFilters.nodeName(pod), PodFilters.nodeName(kept));
    assertEquals(PodFilters.isDeleting(pod), PodFilters.isDeleting(kept));
    assertEquals(PodFilters.occupiesNode(pod), PodFilters.occupiesNode(kept));
    for (var scheduler : List.of("my-scheduler", "default-scheduler")) {
      assertEquals(PodFilters.needsScheduling(pod, scheduler), PodFilters.needsScheduling(kept, scheduler));
    }
    assertEquals(NodeListing.uid(pod), NodeListing.uid(kept));
    assertEquals(PodAdapter.describe(pod), PodAdapter.describe(kept));
    assertEquals(pod.getMetadata().getResourceVersion(), kept.getMetadata().getResourceVersion());
  }

  @Test
  void the_scheduling_fixture_exercises_every_field_the_store_keeps() {
    // Otherwise the equality above could hold only because both sides leave a field unread.
    var info = PodAdapter.toPodInfo(fixture(SCHEDULING_POD, Pod.class));
    assertEquals("my-scheduler", info.schedulerName());
    assertEquals(1000, info.priority());
    assertEquals(Map.of("app", "trainer", "tier", "batch"), info.labels());
    assertEquals(new Owner("StatefulSet", "trainer", "66666666-7777-8888-9999-000000000000"), info.owner());
    assertEquals(2, info.nodeSelector().size());
    assertEquals(2, info.affinity().required().size());
    assertEquals(2, info.affinity().preferred().size());
    assertEquals(3, info.tolerations().size());
    assertEquals(
        List.of(
            new HostPort("UDP", "10.0.0.5", 6006),
            new HostPort("TCP", HostPort.ALL_ADDRESSES, 9100),
            new HostPort("TCP", HostPort.ALL_ADDRESSES, 15001)),
        info.hostPorts());
    assertEquals(
        List.of(
            new Volume.GcePersistentDisk("trainer-disk", true),
            new Volume.AwsElasticBlockStore("vol-0abc", false),
            new Volume.Rbd(List.of("10.1.0.1:6789", "10.1.0.2:6789"), "rbd", "trainer-img", false),
            new Volume.Iscsi("10.2.0.1:3260", "iqn.2001-04.com.example:storage", 3, false),
            new Volume.Csi("secrets-store.csi.k8s.io", "secrets", true)),
        info.volumes());
    assertEquals(4, info.images().size());
    assertEquals(1, info.podAffinity().required().size());
    assertEquals(Set.of("ml-cache"), info.podAffinity().required().get(0).namespaces());
    assertEquals(LabelSelector.of(Map.of("team", "ml")), info.podAffinity().required().get(0).namespaceSelector());
    assertEquals(List.of("pod-template-hash"), info.podAffinity().preferred().get(0).term().matchLabelKeys());
    assertEquals(2, info.podAntiAffinity().required().get(0).labelSelector().matchExpressions().size());
    assertEquals(
        List.of("example.com/tenant"), info.podAntiAffinity().preferred().get(0).term().mismatchLabelKeys());
    assertEquals(
        new TopologySpreadConstraint(
            2,
            "topology.kubernetes.io/zone",
            TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE,
            LabelSelector.of(Map.of("app", "trainer")),
            3,
            TopologySpreadConstraint.InclusionPolicy.IGNORE,
            TopologySpreadConstraint.InclusionPolicy.HONOR,
            List.of("controller-revision-hash")),
        info.topologySpreadConstraints().get(0));
    assertEquals(2, info.topologySpreadConstraints().size());
    assertEquals(List.of("example.com/quota", "example.com/dataset-ready"), info.schedulingGates());
    assertEquals(Optional.of(new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ml", "trainer-gang")), info.podGroup());
    assertEquals(List.of("trainer-data", "trainer-0-scratch"), info.persistentVolumeClaims());
    assertEquals(
        List.of(new PodResourceClaim("gpu", null, "trainer-gpu", "trainer-0-gpu-x7k2p"),
            PodResourceClaim.ofClaim("nic", "shared-rdma")),
        info.resourceClaims());
    assertEquals(PreemptionPolicy.NEVER, info.preemptionPolicy());
    assertEquals("gpu-node-7", info.nominatedNodeName());
    // Pod level 9 CPU over the containers' 12 (init) + overhead 100m; GPU and hugepages from the limits.
    assertEquals(9_100, info.requests().milliCpu());
    assertEquals(2L, info.requests().extended().get("nvidia.com/gpu"));
    assertEquals(1L << 30, info.requests().extended().get("hugepages-2Mi"));
  }

  /** {@code pod} without its status: what it would count if only its spec were kept. */
  private static Pod withoutStatus(Pod pod) {
    return new PodBuilder(pod).withStatus(null).build();
  }

  @Test
  void the_resizing_fixture_counts_its_status_so_the_equality_above_reads_the_kept_status() {
    var pod = fixture(RESIZING_POD, Pod.class);
    // Infeasible: the spec's 48 CPU do not count; the api container's 2 actuated and the proxy's 500m do.
    assertEquals(2_500, PodAdapter.toPodInfo(pod).requests().milliCpu());
    assertEquals(4L * 1024 + 256, PodAdapter.toPodInfo(pod).requests().memory() >> 20);
    assertEquals(48_250, PodAdapter.toPodInfo(withoutStatus(pod)).requests().milliCpu());
    var kept = stored(pod);
    assertEquals(
        List.of("Ready", "PodResizePending", "PodScheduled"),
        kept.getStatus().getConditions().stream().map(c -> c.getType()).toList());
    assertNull(kept.getStatus().getConditions().get(0).getStatus(), "of Ready only its type, in its place");
    var status = kept.getStatus().getContainerStatuses().get(0);
    assertEquals("api", status.getName());
    assertNull(status.getImage());
    assertNull(status.getState());
    assertNull(status.getContainerID());
    assertTrue(status.getResources().getLimits().isEmpty(), "the scheduler counts requests only");
    assertEquals(new Quantity("2"), status.getResources().getRequests().get("cpu"));
    assertEquals(new Quantity("250m"), kept.getStatus().getInitContainerStatuses().get(0).getAllocatedResources().get("cpu"));
  }

  @Test
  void a_resize_that_is_no_longer_infeasible_counts_the_larger_spec_in_the_stored_pod_too() {
    var pod = fixture(RESIZING_POD, Pod.class);
    pod.getStatus().getConditions().removeIf(c -> "PodResizePending".equals(c.getType()));
    pod.getStatus().getConditions().add(new PodConditionBuilder().withType("PodResizeInProgress").withStatus("True").build());

    assertEquals(48_250, PodAdapter.toPodInfo(pod).requests().milliCpu());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(stored(pod)));
    assertEquals(
        List.of("Ready", "PodScheduled", "PodResizeInProgress"),
        stored(pod).getStatus().getConditions().stream().map(c -> c.getType()).toList());
  }

  @Test
  void the_pod_level_status_of_a_resized_pod_is_kept() {
    var pod =
        new PodBuilder(fixture(RESIZING_POD, Pod.class))
            .editSpec()
            .withNewResources()
            .addToRequests("cpu", new Quantity("50"))
            .endResources()
            .endSpec()
            .build();
    pod = LineFields.with(pod, "status", Map.of(
        "allocatedResources", Map.of("cpu", "3"),
        "resources", Map.of("requests", Map.of("cpu", "6"), "limits", Map.of("cpu", "8"))));

    // Infeasible: the pod-level 50 do not count; the pod-level status's 6 actuated do.
    assertEquals(6_000, PodAdapter.toPodInfo(pod).requests().milliCpu());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(stored(pod)));
    var status = stored(pod).getStatus();
    assertEquals(new Quantity("3"), Fabric8Compat.get().allocatedResources(status).get("cpu"));
    var resources = Fabric8Compat.get().resources(status);
    assertTrue(resources.getLimits() == null || resources.getLimits().isEmpty(), "requests only");
    assertEquals(new Quantity("6"), resources.getRequests().get("cpu"));
  }

  @Test
  void an_empty_pod_level_status_resources_is_kept_as_present_which_an_infeasible_resize_reads() {
    var pod =
        new PodBuilder(fixture(RESIZING_POD, Pod.class))
            .editSpec()
            .withNewResources()
            .addToRequests("cpu", new Quantity("50"))
            .endResources()
            .endSpec()
            .build();
    pod = LineFields.with(pod, "status", Map.of("resources", Map.of()));

    // Present but empty: the pod-level request no longer counts, the containers' status does.
    assertEquals(2_500, PodAdapter.toPodInfo(pod).requests().milliCpu());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(stored(pod)));
  }

  @Test
  void of_a_deployment_pod_the_store_drops_what_the_scheduler_does_not_read() {
    var pod = fixture(DEPLOYMENT_POD, Pod.class);
    var kept = stored(pod);
    // The fixture has each of these, so an assertion below fails if the store keeps it.
    assertFalse(pod.getMetadata().getManagedFields().isEmpty());
    assertFalse(pod.getStatus().getContainerStatuses().isEmpty());

    var meta = kept.getMetadata();
    assertEquals(4L, stored(new PodBuilder(pod).editMetadata().withGeneration(4L).endMetadata().build())
        .getMetadata().getGeneration(), "kept: the reporter writes it as its condition's observedGeneration");
    assertTrue(meta.getManagedFields().isEmpty());
    assertTrue(meta.getAnnotations().isEmpty());
    assertNull(meta.getCreationTimestamp());
    assertNull(meta.getGenerateName());
    var spec = kept.getSpec();
    assertNotNull(spec.getAffinity().getPodAntiAffinity());
    assertNotNull(spec.getAffinity().getNodeAffinity());
    assertEquals(1, spec.getTopologySpreadConstraints().size());
    assertTrue(spec.getVolumes().isEmpty(), "configMap, emptyDir and projected volumes cannot conflict");
    assertNull(spec.getSecurityContext());
    assertNull(spec.getServiceAccountName());
    for (var container : spec.getContainers()) {
      assertTrue(container.getEnv().isEmpty());
      assertTrue(container.getEnvFrom().isEmpty());
      assertTrue(container.getArgs().isEmpty());
      assertTrue(container.getVolumeMounts().isEmpty());
      assertNull(container.getLivenessProbe());
      assertNull(container.getReadinessProbe());
      assertNull(container.getSecurityContext());
      assertNull(container.getImagePullPolicy());
      assertNotNull(container.getImage());
      assertNotNull(container.getResources());
    }
    var status = kept.getStatus();
    assertEquals("Running", status.getPhase());
    assertTrue(pod.getStatus().getConditions().size() > 1, "the fixture has other conditions than PodScheduled");
    assertEquals(
        pod.getStatus().getConditions().stream().map(c -> c.getType()).toList(),
        status.getConditions().stream().map(c -> c.getType()).toList(),
        "every condition in its place: the reporter's status patch addresses one by its index");
    for (var condition : status.getConditions()) {
      if (condition.getType().equals("PodScheduled")) {
        assertEquals("True", condition.getStatus(), "PodScheduled whole (the reporter compares it)");
      } else {
        assertEquals(new PodConditionBuilder().withType(condition.getType()).build(), condition,
            "of the others only the type");
      }
    }
    assertEquals(2, status.getContainerStatuses().size());
    for (var containerStatus : status.getContainerStatuses()) {
      assertNotNull(containerStatus.getName());
      assertFalse(containerStatus.getAllocatedResources().isEmpty());
      assertFalse(containerStatus.getResources().getRequests().isEmpty());
      assertTrue(containerStatus.getResources().getLimits().isEmpty());
      assertTrue(containerStatus.getVolumeMounts().isEmpty());
      assertNull(containerStatus.getImage());
      assertNull(containerStatus.getImageID());
      assertNull(containerStatus.getContainerID());
      assertNull(containerStatus.getState());
      assertNull(containerStatus.getLastState());
      assertNull(containerStatus.getReady());
      assertNull(containerStatus.getRestartCount());
    }
    assertTrue(status.getPodIPs().isEmpty());
    assertNull(status.getPodIP());
    assertEquals("2026-03-02T09:14:31Z", status.getStartTime(), "preemption spares the pods that started first");
    assertNull(status.getQosClass());
  }

  /**
   * The reporter writes a pending pod's PodScheduled condition from the kept form with a JSON Patch that names the
   * condition by its index, or adds the list when the pod shows none: conditions the store does not keep (another
   * controller's) must keep their places, or the patch would overwrite or replace them.
   */
  @Test
  void a_status_patch_made_from_the_kept_pod_leaves_conditions_the_store_does_not_keep_in_place() {
    var custom = new PodConditionBuilder().withType("example.com/Admitted").withStatus("True")
        .withLastTransitionTime("2026-03-02T09:00:00Z").build();
    var unschedulable = new PodConditionBuilder().withType("PodScheduled").withStatus("False")
        .withReason("Unschedulable").withMessage("0/3 nodes are available").build();
    var wanted = new PodConditionBuilder().withType("PodScheduled").withStatus("False")
        .withReason("SchedulerError").withMessage("binding failed").build();
    var pending = new PodBuilder(fixture(DEPLOYMENT_POD, Pod.class))
        .editSpec().withNodeName(null).endSpec()
        .editStatus().withPhase("Pending").withConditions(custom).endStatus()
        .build();

    var first = PodConditionUpdate.of(stored(pending).getStatus(), wanted, "2026-03-02T10:00:00Z").orElseThrow();
    assertEquals(
        Map.of("op", "add", "path", "/status/conditions/-", "value", first.condition()),
        first.jsonPatch(null, stored(pending).getStatus()).get(0),
        "appended after the other controller's condition, not a new list in place of it");

    var retried = new PodBuilder(pending).editStatus().withConditions(custom, unschedulable).endStatus().build();
    var second = PodConditionUpdate.of(stored(retried).getStatus(), wanted, "2026-03-02T10:00:00Z").orElseThrow();
    assertEquals("/status/conditions/1", second.jsonPatch(null, stored(retried).getStatus()).get(0).get("path"));
  }

  @Test
  void a_preemption_victim_being_deleted_is_stored_with_its_start_time_and_disruption_target_mark() {
    var pod =
        new PodBuilder(fixture(DEPLOYMENT_POD, Pod.class))
            .editMetadata()
            .withDeletionTimestamp("2026-03-02T10:00:30Z")
            .endMetadata()
            .editStatus()
            .addNewCondition()
            .withType("DisruptionTarget")
            .withStatus("True")
            .withReason("PreemptionByScheduler")
            .withMessage("my-scheduler: preempting to accommodate a higher priority pod")
            .withLastTransitionTime("2026-03-02T10:00:29Z")
            .endCondition()
            .endStatus()
            .build();

    var info = PodAdapter.toPodInfo(pod);
    assertTrue(info.terminatingByPreemption());
    assertEquals(Instant.parse("2026-03-02T09:14:31Z"), info.startTime());
    assertEquals(info, PodAdapter.toPodInfo(stored(pod)));
    assertEquals(
        List.of("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled",
            "DisruptionTarget"),
        stored(pod).getStatus().getConditions().stream().map(c -> c.getType()).toList());
    assertEquals("True", stored(pod).getStatus().getConditions().get(5).getStatus(), "DisruptionTarget whole");
  }

  @Test
  void a_disruption_target_condition_of_another_cause_is_kept_as_written_and_reads_as_not_preempted() {
    var pod =
        new PodBuilder(fixture(DEPLOYMENT_POD, Pod.class))
            .editMetadata()
            .withDeletionTimestamp("2026-03-02T10:00:30Z")
            .endMetadata()
            .editStatus()
            .addNewCondition()
            .withType("DisruptionTarget")
            .withStatus("True")
            .withReason("EvictionByEvictionAPI")
            .endCondition()
            .endStatus()
            .build();

    assertFalse(PodAdapter.toPodInfo(pod).preemptedByScheduler());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(stored(pod)));
  }

  @Test
  void a_pending_pod_s_nomination_and_preemption_policy_are_kept() {
    var kept = stored(fixture(SCHEDULING_POD, Pod.class));

    assertEquals("gpu-node-7", kept.getStatus().getNominatedNodeName());
    assertEquals("Never", kept.getSpec().getPreemptionPolicy());
  }

  @Test
  void of_the_volumes_only_those_whose_conflicts_are_checked_inline_csi_or_that_use_a_claim_are_kept() {
    var kept = stored(fixture(SCHEDULING_POD, Pod.class));
    assertEquals(
        List.of("gce", "ebs", "ceph", "iscsi", "data", "scratch", "secrets"),
        kept.getSpec().getVolumes().stream().map(io.fabric8.kubernetes.api.model.Volume::getName).toList());
    assertTrue(kept.getMetadata().getFinalizers().isEmpty());
  }

  @Test
  void the_placement_constraints_are_kept_as_the_server_sent_them() {
    var pod = fixture(SCHEDULING_POD, Pod.class);
    var kept = stored(pod);
    assertEquals(pod.getSpec().getAffinity().getPodAffinity(), kept.getSpec().getAffinity().getPodAffinity());
    assertEquals(
        pod.getSpec().getAffinity().getPodAntiAffinity(), kept.getSpec().getAffinity().getPodAntiAffinity());
    assertEquals(pod.getSpec().getTopologySpreadConstraints(), kept.getSpec().getTopologySpreadConstraints());
    assertEquals(pod.getSpec().getSchedulingGates(), kept.getSpec().getSchedulingGates());
    assertEquals(pod.getSpec().getResourceClaims(), kept.getSpec().getResourceClaims());
  }

  @Test
  void pod_affinity_alone_keeps_an_affinity_without_node_affinity() {
    var pod = fixture(SCHEDULING_POD, Pod.class);
    pod.getSpec().getAffinity().setNodeAffinity(null);
    var kept = stored(pod);
    assertNull(kept.getSpec().getAffinity().getNodeAffinity());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(kept));
  }

  /** The pod of kube-scheduler's TestNewInformerFactoryTrim: one managed field entry, nothing else. */
  static Pod podWithManagedFields() {
    return new PodBuilder()
        .withNewMetadata()
        .withName("test")
        .withNamespace("default")
        .addNewManagedField()
        .withManager("update")
        .withOperation("Apply")
        .withApiVersion("apps/v1")
        .endManagedField()
        .endMetadata()
        .build();
  }

  /** kube-scheduler's TestNewInformerFactoryTrim: its pod informer drops managedFields, and so does ours. */
  @Test
  void a_coscheduling_member_is_stored_with_its_pod_group_label() {
    var pod =
        new PodBuilder(fixture(DEPLOYMENT_POD, Pod.class))
            .editMetadata()
            .addToLabels(SchedulingConstants.POD_GROUP_LABEL, "web-gang")
            .endMetadata()
            .build();

    var group = PodAdapter.toPodInfo(stored(pod)).podGroup();

    assertEquals(Optional.of(new PodGroupRef(PodGroupRef.Source.COSCHEDULING, pod.getMetadata().getNamespace(), "web-gang")), group);
  }

  @Test
  void a_scheduling_group_left_among_the_spec_s_unknown_properties_is_kept_and_nothing_else_there() {
    var pod = fixture(DEPLOYMENT_POD, Pod.class);
    pod.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "web-gang"));
    pod.getSpec().setAdditionalProperty("someFutureField", Map.of("a", "b"));

    var kept = stored(pod);

    assertEquals(Map.of("schedulingGroup", Map.of("podGroupName", "web-gang")), kept.getSpec().getAdditionalProperties());
    assertEquals(
        Optional.of(new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, pod.getMetadata().getNamespace(), "web-gang")),
        PodAdapter.toPodInfo(kept).podGroup());
  }

  @Test
  void managed_fields_are_dropped_as_kube_scheduler_drops_them() {
    var pod = podWithManagedFields();
    assertTrue(stored(pod).getMetadata().getManagedFields().isEmpty());
  }

  @Test
  void a_stored_node_gives_the_same_NodeInfo_as_the_node_the_server_sent() {
    var node = fixture("node.yaml", Node.class);
    var pods = List.of(PodAdapter.toPodInfo(fixture(DEPLOYMENT_POD, Pod.class)));
    var info = NodeAdapter.toNodeInfo(node, pods);
    assertEquals(info, NodeAdapter.toNodeInfo(stored(node), pods));
    // The fixture's node has what NodeInfo carries, so the equality compares something.
    assertEquals(1, info.taints().size());
    assertEquals(4, info.images().size());
    assertEquals(31_850, info.allocatable().milliCpu());
    assertEquals(12, info.labels().size());
    assertEquals(
        List.of("RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport"), info.declaredFeatures());
  }

  @Test
  void the_scheduling_fixture_asks_its_node_for_features_and_the_stored_pod_keeps_what_says_so() {
    var pod = fixture(SCHEDULING_POD, Pod.class);
    var expected = new PodRuntime(true, false, Set.of("RestartAllContainers"), true);

    assertEquals(expected, PodAdapter.toPodInfo(pod).runtime());
    assertEquals(expected, PodAdapter.toPodInfo(stored(pod)).runtime());
    var trainer = stored(pod).getSpec().getContainers().get(0);
    assertEquals(1, trainer.getVolumeMounts().size(), "only the mount with bind options, trimmed");
    assertEquals("scratch", trainer.getVolumeMounts().get(0).getName());
    assertEquals(null, trainer.getVolumeMounts().get(0).getMountPath());
  }

  @Test
  void a_change_of_declared_features_against_the_stored_node_wakes_pods() {
    var node = fixture("node.yaml", Node.class);
    var kept = stored(node);
    var same = LineFields.with(node, "status", Map.of("declaredFeatures",
        List.of("RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport")));
    var more = LineFields.with(node, "status", Map.of("declaredFeatures",
        List.of("RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport", "VolumeBindMountOptions")));

    assertEquals(Set.of(), NodeChanges.changes(kept, same));
    assertEquals(Set.of(ClusterChange.NODE_DECLARED_FEATURES), NodeChanges.changes(kept, more));
  }

  @Test
  void a_heartbeat_against_the_stored_node_wakes_no_pod_but_a_new_label_does() {
    var node = fixture("node.yaml", Node.class);
    var kept = stored(node);
    var heartbeat =
        new NodeBuilder(node)
            .editMetadata()
            .withResourceVersion("48214999")
            .endMetadata()
            .editStatus()
            .editFirstCondition()
            .withLastHeartbeatTime("2026-03-02T09:59:40Z")
            .endCondition()
            .endStatus()
            .build();
    assertEquals(Set.of(), NodeChanges.changes(kept, heartbeat));
    var relabelled =
        new NodeBuilder(node).editMetadata().addToLabels("example.com/gpu", "a100").endMetadata().build();
    assertEquals(Set.of(ClusterChange.NODE_LABELS), NodeChanges.changes(kept, relabelled));
    var bigger =
        new NodeBuilder(node).editStatus().addToAllocatable("cpu", new Quantity("32")).endStatus().build();
    assertEquals(Set.of(ClusterChange.NODE_ALLOCATABLE), NodeChanges.changes(kept, bigger));
  }

  @Test
  void of_a_node_the_store_drops_what_the_scheduler_does_not_read() {
    var node = fixture("node.yaml", Node.class);
    var kept = stored(node);
    assertFalse(node.getStatus().getConditions().isEmpty());
    assertTrue(kept.getMetadata().getManagedFields().isEmpty());
    assertTrue(kept.getMetadata().getAnnotations().isEmpty());
    assertNull(kept.getMetadata().getCreationTimestamp());
    assertTrue(kept.getSpec().getPodCIDRs().isEmpty());
    assertNull(kept.getSpec().getPodCIDR());
    assertNull(kept.getSpec().getProviderID());
    var status = kept.getStatus();
    assertTrue(status.getConditions().isEmpty());
    assertTrue(status.getAddresses().isEmpty());
    assertTrue(status.getCapacity().isEmpty());
    assertTrue(status.getRuntimeHandlers().isEmpty());
    assertNull(status.getNodeInfo());
    assertNull(status.getDaemonEndpoints());
    assertEquals(node.getMetadata().getUid(), kept.getMetadata().getUid());
    assertEquals(node.getMetadata().getResourceVersion(), kept.getMetadata().getResourceVersion());
  }

  @Test
  void the_pods_of_one_deployment_share_their_kept_parts_in_a_store() {
    var store = InformerStores.pods();
    var first = fixture(DEPLOYMENT_POD, Pod.class);
    var second = fixture(DEPLOYMENT_POD, Pod.class);
    second.getMetadata().setName("checkout-7d9f8b6c5d-k8w4n");
    second.getMetadata().setUid("0c2f6a1e-3b4d-4e5f-8a9b-7c6d5e4f3a2b");
    store.put(store.getKey(first), first);
    store.put(store.getKey(second), second);
    var a = store.get(store.getKey(first));
    var b = store.get(store.getKey(second));
    assertNotSame(first.getMetadata().getLabels(), second.getMetadata().getLabels());
    assertSame(a.getMetadata().getLabels(), b.getMetadata().getLabels());
    assertSame(a.getMetadata().getOwnerReferences(), b.getMetadata().getOwnerReferences());
    assertSame(a.getSpec().getContainers(), b.getSpec().getContainers());
    assertSame(a.getSpec().getTolerations(), b.getSpec().getTolerations());
    assertSame(a.getSpec().getAffinity(), b.getSpec().getAffinity());
    assertSame(a.getStatus(), b.getStatus());
    assertNotSame(a.getMetadata(), b.getMetadata());
    assertEquals(PodAdapter.toPodInfo(second), PodAdapter.toPodInfo(b));
  }

  @Test
  void nodes_in_a_store_share_the_images_they_both_hold() {
    var store = InformerStores.nodes();
    var first = fixture("node.yaml", Node.class);
    var second = fixture("node.yaml", Node.class);
    second.getMetadata().setName("node-00043");
    second.getStatus().getImages().remove(0);
    store.put(store.getKey(first), first);
    store.put(store.getKey(second), second);
    var a = store.get("node-00042").getStatus().getImages();
    var b = store.get("node-00043").getStatus().getImages();
    assertNotSame(a, b);
    assertSame(a.get(1), b.get(0));
    var kept = store.get("node-00043");
    assertEquals(NodeAdapter.toNodeInfo(second, List.of()), NodeAdapter.toNodeInfo(kept, List.of()));
  }

  @Test
  void a_container_with_a_malformed_quantity_is_stored_and_refused_as_the_server_sent_it() {
    var store = InformerStores.pods();
    var pods = new ArrayList<Pod>();
    for (var name : List.of("first", "second")) {
      var pod = fixture(DEPLOYMENT_POD, Pod.class);
      pod.getMetadata().setName(name);
      pod.getSpec().getContainers().get(0).getResources().getRequests().put("cpu", new Quantity("lots"));
      store.put(store.getKey(pod), pod);
      pods.add(pod);
    }
    for (var pod : pods) {
      var kept = store.get(store.getKey(pod));
      var expected = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));
      var actual = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(kept));
      assertEquals(expected.getMessage(), actual.getMessage());
    }
  }

  @Test
  void the_store_keys_pods_by_namespace_and_name_and_nodes_by_name() {
    var pods = InformerStores.pods();
    var pod = fixture(DEPLOYMENT_POD, Pod.class);
    assertEquals("shop/checkout-7d9f8b6c5d-x2lqp", pods.getKey(pod));
    var nodes = InformerStores.nodes();
    assertEquals("node-00042", nodes.getKey(fixture("node.yaml", Node.class)));
  }

  @Test
  void put_returns_the_kept_form_of_the_object_it_replaces_which_fabric8_passes_to_onUpdate_as_old() {
    var store = InformerStores.pods();
    var first = fixture(DEPLOYMENT_POD, Pod.class);
    var key = store.getKey(first);
    assertNull(store.put(key, first));
    var second = new PodBuilder(first).editMetadata().withResourceVersion("48213999").endMetadata().build();
    var old = store.put(key, second);
    assertEquals("48213977", old.getMetadata().getResourceVersion());
    assertTrue(old.getMetadata().getManagedFields().isEmpty());
    assertEquals("48213999", store.get(key).getMetadata().getResourceVersion());
  }

  @Test
  void reads_hand_out_the_stored_instance_without_copying() {
    var store = InformerStores.pods();
    var pod = fixture(DEPLOYMENT_POD, Pod.class);
    var key = store.getKey(pod);
    store.put(key, pod);
    assertSame(store.get(key), store.get(key));
    assertSame(store.get(key), store.values().findFirst().orElseThrow());
    assertNotSame(pod, store.get(key));
  }

  @Test
  void remove_size_and_keys_behave_as_a_map_of_the_kept_forms() {
    var store = InformerStores.pods();
    var a = fixture(DEPLOYMENT_POD, Pod.class);
    var b = fixture(SCHEDULING_POD, Pod.class);
    store.put(store.getKey(a), a);
    store.put(store.getKey(b), b);
    assertEquals(2, store.size());
    assertEquals(
        List.of("ml/trainer-0", "shop/checkout-7d9f8b6c5d-x2lqp"), store.keySet().sorted().toList());
    var removed = store.remove("ml/trainer-0");
    assertEquals("trainer-0", removed.getMetadata().getName());
    assertTrue(removed.getMetadata().getAnnotations().isEmpty());
    assertNull(store.remove("ml/trainer-0"));
    assertEquals(1, store.size());
    assertNull(store.get("ml/trainer-0"));
  }

  @Test
  void each_call_gives_a_new_store_so_a_relisting_informer_starts_empty() {
    var first = InformerStores.pods();
    var pod = fixture(DEPLOYMENT_POD, Pod.class);
    first.put(first.getKey(pod), pod);
    assertEquals(0, InformerStores.pods().size());
    assertEquals(0, InformerStores.nodes().size());
  }

  @Test
  void the_stores_say_they_do_not_hold_full_objects_so_fabric8_hands_full_ones_to_onAdd() {
    assertFalse(InformerStores.pods().isFullState());
    assertFalse(InformerStores.nodes().isFullState());
  }

  @Test
  void a_pod_without_spec_or_status_is_stored_without_them() {
    var pod = new PodBuilder().withNewMetadata().withNamespace("ns").withName("bare").endMetadata().build();
    pod.setSpec(null);
    pod.setStatus(null);
    var kept = stored(pod);
    assertNull(kept.getSpec());
    assertNull(kept.getStatus());
    assertEquals(PodAdapter.toPodInfo(pod), PodAdapter.toPodInfo(kept));
  }
}
