package io.kubesched.e2e;

import static io.kubesched.e2e.StorageObjects.ZONE;
import static io.kubesched.e2e.StorageObjects.csiVolume;
import static io.kubesched.e2e.StorageObjects.hostPathVolume;
import static io.kubesched.e2e.StorageObjects.labelled;
import static io.kubesched.e2e.StorageObjects.localVolume;
import static io.kubesched.e2e.StorageObjects.withClaims;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerRestartRuleBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.testcluster.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The same volume scenarios, scenarios of pods pinned to nodes by name, and of pods that need a feature their node
 * must declare, scheduled by kube-scheduler of the test cluster's Kubernetes version and by this
 * library's {@link DefaultPolicy}, on the same real cluster, with the same outcome: the node where placement
 * is determined, else the {@code PodScheduled=False} condition's reason and message and the note of the
 * pod's {@code FailedScheduling} event.
 *
 * <p>One kube-scheduler process serves the whole class ({@link KubeSchedulerProcess}, built by {@code
 * tools/test-cluster/cluster.sh build-scheduler} on first use), as admin, for pods whose scheduler name is {@value
 * KubeSchedulerProcess#NAME}. This library's scheduler runs as the restricted identity of the RBAC of docs/operations.md,
 * as in every end-to-end test. Each scenario is built twice in the test's namespace on the same nodes: first
 * for kube-scheduler (names end in {@code -kube}), whose pods are deleted once its outcome is read, then for
 * this library (names end in {@code -ours}); storage classes, volumes and claims are never shared between the
 * two runs. Names in messages are compared with the run's suffix taken out.
 *
 * <p>kube-scheduler runs its PostFilter plugins after a failed scheduling attempt and appends their message
 * to the pod's. When Filter rejected the nodes, DefaultPreemption adds {@code " preemption: ..."}, as this
 * library does, and the whole messages are compared. When a PreFilter plugin (here VolumeBinding) rejected the
 * pod, 1.37's first PostFilter plugin, DynamicResources, finds no state of its own in the cycle (its PreFilter
 * never ran), fails with {@code "not found"}, and the framework stops there and appends {@code " not found"}:
 * preemption never runs. This library does not copy that accident: it runs preemption, which finds every node
 * "not helpful" ({@code " preemption: 0/2 nodes are available: 2 Preemption is not helpful for
 * scheduling."}). For those scenarios ({@link #sameBeforePostFilter}) each side's PostFilter part is cut and
 * the rest compared.
 */
class KubeSchedulerParityIT extends RealClusterTest {

  private static final String DRIVER = "csi.kubesched.io";
  private static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
  private static final Duration BOUND = Duration.ofSeconds(60);
  /** What kube-scheduler appends after a PreFilter rejection (see the class comment). */
  private static final String DRA_POST_FILTER_ERROR = "not found";
  private static final Logger LOG = LoggerFactory.getLogger(KubeSchedulerParityIT.class);

  private static @Nullable KubeSchedulerProcess kubeScheduler;

  private StorageObjects storage;
  /** Whether the running scenario compares its messages without their PostFilter part. */
  private boolean cutPostFilter;

  /** Each run's PodScheduled messages as written, for failure messages and the test log. */
  private final List<String> asWritten = new ArrayList<>();

  /** Who schedules a scenario's pods, and the suffix of the names of the scenario's objects. */
  private enum Side {
    KUBE(KubeSchedulerProcess.NAME),
    OURS(SCHEDULER);

    final String schedulerName;

    Side(String schedulerName) {
      this.schedulerName = schedulerName;
    }

    String name(String base) {
      return base + "-" + suffix();
    }

    String suffix() {
      return name().toLowerCase();
    }
  }

  /**
   * Where a pod ended up: bound to {@code node}, or not bound ({@code node} empty) with the PodScheduled
   * condition's reason and message and the latest FailedScheduling event's note, each cut before {@code "
   * preemption:"} and with the run's suffix taken out of names.
   */
  private record Outcome(String node, @Nullable String reason, @Nullable String message, @Nullable String event) {}

  @BeforeAll
  static void startKubeScheduler(TestCluster cluster) throws Exception {
    kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-parity");
  }

  @AfterAll
  static void stopKubeScheduler() throws InterruptedException {
    if (kubeScheduler != null) {
      kubeScheduler.close();
      kubeScheduler = null;
    }
  }

  @BeforeEach
  void storage() {
    storage = new StorageObjects(admin, namespace);
  }

  @AfterEach
  void removeClusterScopedObjects() {
    storage.close();
  }

  @Test
  void a_pod_whose_claim_does_not_exist() {
    twoNodes();
    var outcome = sameBeforePostFilter(side -> {
      create(admin, withClaims(pod(side, "orphan"), side.name("missing")));
      return outcomeOf(side, side.name("orphan"));
    });
    assertEquals("0/2 nodes are available: persistentvolumeclaim \"missing\" not found.", outcome.message());
  }

  @Test
  void an_unbound_claim_of_an_immediate_class_with_no_volume() {
    twoNodes();
    var outcome = sameBeforePostFilter(side -> {
      var immediate = storage.storageClass(side.name("immediate"), NO_PROVISIONER, "Immediate");
      storage.createClaim(storage.claim(side.name("early"), immediate.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
      create(admin, withClaims(pod(side, "eager"), side.name("early")));
      return outcomeOf(side, side.name("eager"));
    });
    assertEquals("0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims.", outcome.message());
  }

  @Test
  void two_claims_and_one_static_local_volume_the_second_pod_finds_none() {
    twoNodes();
    var outcome = same(side -> {
      var local = storage.storageClass(side.name("local"), NO_PROVISIONER, "WaitForFirstConsumer");
      storage.createVolume(localVolume(namespace + "-" + side.name("only"), local, "1Gi", "node-0"));
      storage.createClaim(storage.claim(side.name("first"), local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
      storage.createClaim(storage.claim(side.name("second"), local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
      create(admin, withClaims(pod(side, "one"), side.name("first")));
      var first = outcomeOf(side, side.name("one"));
      assertEquals("node-0", first.node(), side + ": the first pod goes where the volume is; " + first);
      eventually(BOUND, "the first claim bound", () -> storage.bound(side.name("first")));
      create(admin, withClaims(pod(side, "two"), side.name("second")));
      return outcomeOf(side, side.name("two"));
    });
    assertEquals("0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind."
        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", outcome.message());
  }

  @Test
  void a_bound_claim_whose_volume_is_pinned_to_node_1() {
    List.of("node-0", "node-1", "node-2").forEach(n -> createReady(labelled(n, "a")));
    var outcome = same(side -> {
      var local = storage.storageClass(side.name("pinned"), NO_PROVISIONER, "WaitForFirstConsumer");
      var volume = namespace + "-" + side.name("pinned");
      storage.createBound(localVolume(volume, local, "1Gi", "node-1"), side.name("data"));
      eventually(BOUND, "the claim bound to its volume", () -> storage.bound(side.name("data")));
      create(admin, withClaims(pod(side, "user"), side.name("data")));
      return outcomeOf(side, side.name("user"));
    });
    assertEquals("node-1", outcome.node());
  }

  @Test
  void a_csi_attach_limit_of_one_reached_on_both_nodes() {
    twoNodes();
    List.of("node-0", "node-1").forEach(n -> storage.createCsiNode(n, DRIVER, 1));
    var outcome = same(side -> {
      var claims = List.of(side.name("c-0"), side.name("c-1"), side.name("c-2"));
      for (var claim : claims) {
        storage.createBound(csiVolume(namespace + "-" + claim, DRIVER), claim);
      }
      eventually(BOUND, "the claims bound", () -> claims.stream().allMatch(c -> storage.bound(c)));
      for (int i = 0; i < 2; i++) { // each node has its one volume attached: pods placed there by hand
        create(admin, new PodBuilder(withClaims(pod(side, "attached-" + i), claims.get(i)))
            .editSpec().withNodeName("node-" + i).endSpec().build());
      }
      create(admin, withClaims(pod(side, "third"), claims.get(2)));
      return outcomeOf(side, side.name("third"));
    });
    assertEquals("0/2 nodes are available: 2 node(s) exceed max volume count."
        + " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.", outcome.message());
  }

  @Test
  void a_zonal_volume_in_zone_b_and_nodes_only_in_zone_a() {
    twoNodes();
    var outcome = same(side -> {
      var volume = namespace + "-" + side.name("zonal");
      storage.createBound(hostPathVolume(volume, "1Gi", "ReadWriteOnce", Map.of(ZONE, "b")), side.name("zonal"));
      eventually(BOUND, "the claim bound to its volume", () -> storage.bound(side.name("zonal")));
      create(admin, withClaims(pod(side, "far"), side.name("zonal")));
      return outcomeOf(side, side.name("far"));
    });
    assertEquals("0/2 nodes are available: 2 node(s) had no available volume zone."
        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", outcome.message());
  }

  @Test
  void a_read_write_once_pod_claim_in_use_by_a_bound_pod() {
    twoNodes();
    var outcome = same(side -> {
      var volume = namespace + "-" + side.name("single");
      storage.createBound(hostPathVolume(volume, "1Gi", "ReadWriteOncePod", Map.of()), side.name("single"));
      eventually(BOUND, "the claim bound to its volume", () -> storage.bound(side.name("single")));
      create(admin, new PodBuilder(withClaims(pod(side, "holder"), side.name("single")))
          .editSpec().withNodeName("node-0").endSpec().build());
      create(admin, withClaims(pod(side, "contender"), side.name("single")));
      return outcomeOf(side, side.name("contender"));
    });
    assertEquals("0/2 nodes are available: 2 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod"
        + " access mode already in-use by another pod."
        + " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.", outcome.message());
  }

  // ---------------------------------------------------------------- nodes named by metadata.name

  /**
   * A DaemonSet's kind of pod (required node affinity on {@code metadata.name}) pinned to a node without room:
   * kube-scheduler's NodeAffinity PreFilter narrows the search to that node, so the other node is "didn't
   * satisfy plugin(s) [NodeAffinity]", not "didn't match Pod's node affinity/selector", and never worth preempting.
   */
  @Test
  void a_pod_pinned_by_name_to_a_node_without_room() {
    twoNodes();
    var outcome = same(side -> {
      create(admin, pinned(side, "pinned", "8", "node-1"));
      return outcomeOf(side, side.name("pinned"));
    });
    // 8 CPUs on a 4-CPU node: no eviction could make room there either.
    assertEquals("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]."
        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", outcome.message());
  }

  /** Two {@code metadata.name In} requirements of one term naming different nodes: turned away before any node. */
  @Test
  void a_pod_whose_node_name_requirements_conflict() {
    twoNodes();
    var outcome = sameBeforePostFilter(side -> {
      create(admin, pinned(side, "torn", "100m", "node-0", "node-1"));
      return outcomeOf(side, side.name("torn"));
    });
    assertEquals("0/2 nodes are available: pod affinity terms conflict.", outcome.message());
  }

  /** A pod pinned by name to a node with room is bound there. */
  @Test
  void a_pod_pinned_by_name_to_a_node_with_room() {
    twoNodes();
    var outcome = same(side -> {
      create(admin, pinned(side, "daemon", "100m", "node-1"));
      return outcomeOf(side, side.name("daemon"));
    });
    assertEquals("node-1", outcome.node());
  }

  // ---------------------------------------------------------------- features a node declares (NodeDeclaredFeatures)

  private static final String RESTART_ALL = "RestartAllContainersOnContainerExits";

  /** A pod whose container restarts all of the pod's containers on exit code 42: it needs {@value #RESTART_ALL}. */
  private Pod restartingAll(Side side, String base) {
    var rule = new ContainerRestartRuleBuilder()
        .withAction("RestartAllContainers")
        .withNewExitCodes().withOperator("In").withValues(42).endExitCodes()
        .build();
    return new PodBuilder(pod(side, base))
        .editSpec().editFirstContainer().withRestartPolicy("Never").withRestartPolicyRules(rule).endContainer().endSpec()
        .build();
  }

  @Test
  void a_pod_that_needs_a_feature_no_node_declares() {
    twoNodes();
    var outcome = same(side -> {
      create(admin, restartingAll(side, "needs"));
      return outcomeOf(side, side.name("needs"));
    });
    assertEquals("0/2 nodes are available: 2 node(s) didn't match Pod's required features."
        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", outcome.message());
  }

  @Test
  void a_pod_that_needs_a_feature_only_node_1_declares() {
    createReady(labelled("node-0", "a"));
    // Declared from the node's creation on, as a kubelet registers it, so neither scheduler sees it without.
    createReady(new NodeBuilder(labelled("node-1", "a")).editStatus().withDeclaredFeatures(RESTART_ALL).endStatus()
        .build());
    var outcome = same(side -> {
      create(admin, restartingAll(side, "needs"));
      return outcomeOf(side, side.name("needs"));
    });
    assertEquals("node-1", outcome.node());
  }

  // ---------------------------------------------------------------- the two runs

  /**
   * Runs the scenario for kube-scheduler, deletes that run's pods, runs it again with this library's scheduler
   * running, and asserts both outcomes are equal.
   *
   * @return the outcome both had
   */
  private Outcome same(Function<Side, Outcome> scenario) {
    return same(scenario, false);
  }

  /**
   * As {@link #same(Function)}, with the PostFilter part of both messages cut off: kube-scheduler's {@code "
   * not found"} after a PreFilter rejection, this library's {@code " preemption: ..."} (see the class comment).
   */
  private Outcome sameBeforePostFilter(Function<Side, Outcome> scenario) {
    return same(scenario, true);
  }

  private Outcome same(Function<Side, Outcome> scenario, boolean beforePostFilter) {
    cutPostFilter = beforePostFilter;
    var kube = scenario.apply(Side.KUBE);
    admin.pods().inNamespace(namespace).withGracePeriod(0).delete();
    eventually(WAIT, "kube-scheduler's pods deleted", () -> admin.pods().inNamespace(namespace).list().getItems().isEmpty());
    Outcome ours;
    try (var controller = client.newPodController(DefaultPolicy.builder().seed(13).build(), recorder)) {
      controller.start();
      ours = scenario.apply(Side.OURS);
    }
    assertEquals(kube, ours, "kube-scheduler's outcome, then this library's; the messages as written: " + asWritten);
    LOG.info("{}: {}; as written: {}", namespace, ours, asWritten);
    return ours;
  }

  /** Waits until the pod is bound, or is reported unschedulable with a FailedScheduling event. */
  private Outcome outcomeOf(Side side, String pod) {
    var who = side == Side.KUBE ? String.valueOf(kubeScheduler) : "this library's scheduler";
    if (side == Side.KUBE) {
      var process = Objects.requireNonNull(kubeScheduler);
      assertTrue(process.alive(), process::tail);
    }
    eventually(BOUND, pod + " bound or reported unschedulable by " + who,
        () -> !nodeOf(pod).isEmpty() || podScheduled(pod).filter(c -> "False".equals(c.getStatus())).isPresent());
    if (!nodeOf(pod).isEmpty()) {
      return new Outcome(nodeOf(pod), null, null, null);
    }
    eventually(BOUND, "a FailedScheduling event about " + pod, () -> failedScheduling(pod) != null);
    var condition = podScheduled(pod).orElseThrow();
    var event = failedScheduling(pod);
    asWritten.add(side + ": " + condition.getMessage());
    assertNotNull(event);
    return new Outcome("", condition.getReason(), normalized(side, condition.getMessage()), normalized(side, event.getNote()));
  }

  /**
   * The message with the side's name suffix taken out, and in a {@link #sameBeforePostFilter} scenario its
   * PostFilter part cut off (see the class comment).
   */
  private String normalized(Side side, String message) {
    var kept = message;
    if (cutPostFilter) {
      var preemption = message.indexOf(" preemption:");
      if (preemption >= 0) {
        kept = message.substring(0, preemption);
      } else if (side == Side.KUBE && message.endsWith(". " + DRA_POST_FILTER_ERROR)) {
        kept = message.substring(0, message.length() - DRA_POST_FILTER_ERROR.length() - 1);
      }
    }
    return kept.replace("-" + side.suffix(), "");
  }

  private @Nullable Event failedScheduling(String pod) {
    return eventsAbout(pod).stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .max(Comparator.comparing(e -> e.getMetadata().getCreationTimestamp()))
        .orElse(null);
  }

  // ---------------------------------------------------------------- fixtures

  private void twoNodes() {
    List.of("node-0", "node-1").forEach(n -> createReady(labelled(n, "a")));
  }

  /** A pod whose one required term has a {@code metadata.name In} requirement for each of {@code nodes}. */
  private Pod pinned(Side side, String base, String cpu, String... nodes) {
    var fields = new ArrayList<NodeSelectorRequirement>();
    for (var node : nodes) {
      fields.add(new NodeSelectorRequirement("metadata.name", "In", List.of(node)));
    }
    return new PodBuilder(FakeClusterFixture.pod(namespace, side.name(base), side.schedulerName, cpu, "64Mi"))
        .editSpec().withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
        .addNewNodeSelectorTerm().withMatchFields(fields).endNodeSelectorTerm()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec()
        .build();
  }

  private Pod pod(Side side, String base) {
    return FakeClusterFixture.pod(namespace, side.name(base), side.schedulerName, "100m", "64Mi");
  }
}
