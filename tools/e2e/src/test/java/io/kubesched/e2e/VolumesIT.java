package io.kubesched.e2e;

import static io.kubesched.e2e.StorageObjects.HOSTNAME;
import static io.kubesched.e2e.StorageObjects.ZONE;
import static io.kubesched.e2e.StorageObjects.csiVolume;
import static io.kubesched.e2e.StorageObjects.hostPathVolume;
import static io.kubesched.e2e.StorageObjects.labelled;
import static io.kubesched.e2e.StorageObjects.localVolume;
import static io.kubesched.e2e.StorageObjects.withClaims;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.FinderFunc;
import io.kubesched.policy.DefaultPolicy;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pods with PersistentVolumeClaims on the real API server, with kube-controller-manager's PersistentVolume
 * controller and the {@link TestProvisioner}: {@link DefaultPolicy}'s VolumeBinding, VolumeZone and
 * NodeVolumeLimits, and the loop's reserve and pre-bind steps. After every test, whatever it did, no bound pod
 * sits on a node its volume cannot reach and no volume belongs to two claims.
 */
class VolumesIT extends RealClusterTest {

  private static final String DRIVER = "csi.kubesched.io";
  private static final Duration BOUND = Duration.ofSeconds(60);

  private StorageObjects storage;

  private static FinderFunc defaultPolicy() {
    return DefaultPolicy.builder().seed(13).build();
  }

  @BeforeEach
  void storage() {
    storage = new StorageObjects(admin, namespace);
  }

  @AfterEach
  void noPodIsWhereItsVolumeCannotBeAndNoVolumeHasTwoClaims() {
    try {
      var claims = admin.persistentVolumeClaims().inNamespace(namespace).list().getItems();
      var volumeOwners = new HashMap<String, String>();
      for (var claim : claims) {
        var volume = claim.getSpec().getVolumeName();
        if (volume != null && !volume.isEmpty()) {
          var other = volumeOwners.put(volume, claim.getMetadata().getName());
          assertTrue(other == null, "volume " + volume + " has two claims: " + other + ", " + claim.getMetadata().getName());
        }
      }
      for (var pod : admin.pods().inNamespace(namespace).list().getItems()) {
        var nodeName = pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
          continue;
        }
        var nodeLabels = admin.nodes().withName(nodeName).get().getMetadata().getLabels();
        for (var volume : pod.getSpec().getVolumes()) {
          if (volume.getPersistentVolumeClaim() == null) {
            continue;
          }
          var claim = admin.persistentVolumeClaims().inNamespace(namespace)
              .withName(volume.getPersistentVolumeClaim().getClaimName()).get();
          if (claim == null || claim.getSpec().getVolumeName() == null) {
            continue;
          }
          var pv = admin.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
          assertTrue(reaches(pv, nodeLabels), "pod " + pod.getMetadata().getName() + " is on " + nodeName
              + ", which its volume " + pv.getMetadata().getName() + " cannot reach");
        }
      }
    } finally {
      storage.close();
    }
  }

  /** Whether the volume's required node affinity (In terms, as these tests write it) and zone label admit the node. */
  private static boolean reaches(PersistentVolume pv, Map<String, String> nodeLabels) {
    var zone = pv.getMetadata().getLabels() == null ? null : pv.getMetadata().getLabels().get(ZONE);
    if (zone != null && !zone.equals(nodeLabels.get(ZONE))) {
      return false;
    }
    var affinity = pv.getSpec().getNodeAffinity();
    if (affinity == null || affinity.getRequired() == null) {
      return true;
    }
    return affinity.getRequired().getNodeSelectorTerms().stream()
        .anyMatch(term -> term.getMatchExpressions().stream()
            .allMatch(r -> "In".equals(r.getOperator()) && r.getValues().contains(nodeLabels.get(r.getKey()))));
  }

  @Test
  void pods_of_a_stateful_set_with_local_volumes_land_each_on_its_volumes_node() {
    var nodes = List.of("node-0", "node-1", "node-2");
    nodes.forEach(n -> createReady(labelled(n, "a")));
    var local = storage.storageClass("local", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    for (int i = 0; i < 3; i++) {
      storage.createVolume(localVolume(namespace + "-local-" + i, local, "1Gi", nodes.get(i)));
      storage.createClaim(storage.claim("data-db-" + i, local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
    }
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 3; i++) {
        create(admin, withClaims(pod(namespace, "db-" + i, SCHEDULER, "100m", "64Mi"), "data-db-" + i));
      }
      eventually(BOUND, "every db pod bound", () -> List.of("db-0", "db-1", "db-2").stream().noneMatch(p -> nodeOf(p).isEmpty()));
      eventually(BOUND, "every claim bound by the PersistentVolume controller", () -> storage.bound("data-db-0", "data-db-1", "data-db-2"));
    }
    var used = new HashSet<String>();
    for (int i = 0; i < 3; i++) {
      var volume = claimOf("data-db-" + i).getSpec().getVolumeName();
      assertTrue(used.add(volume), "two claims got " + volume);
      assertEquals(pinnedNode(volume), nodeOf("db-" + i), "db-" + i + " follows its volume " + volume);
    }
  }

  @Test
  void a_pod_whose_claim_is_bound_goes_to_the_node_its_volume_is_pinned_to() {
    List.of("node-0", "node-1", "node-2").forEach(n -> createReady(labelled(n, "a")));
    var local = storage.storageClass("pinned", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    var volume = namespace + "-pinned";
    storage.createBound(localVolume(volume, local, "1Gi", "node-2"), "pinned-data");
    eventually(BOUND, "the claim bound to its volume", () -> storage.bound("pinned-data"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 3; i++) {
        create(admin, withClaims(pod(namespace, "user-" + i, SCHEDULER, "100m", "64Mi"), "pinned-data"));
      }
      eventually(BOUND, "every user bound", () -> List.of("user-0", "user-1", "user-2").stream().noneMatch(p -> nodeOf(p).isEmpty()));
    }
    for (int i = 0; i < 3; i++) {
      assertEquals("node-2", nodeOf("user-" + i));
    }
  }

  @Test
  void a_zonal_volume_keeps_its_pods_in_its_zone() {
    List.of("a-0", "a-1").forEach(n -> createReady(labelled(n, "a")));
    List.of("b-0", "b-1").forEach(n -> createReady(labelled(n, "b")));
    var volume = namespace + "-zonal";
    storage.createBound(hostPathVolume(volume, "5Gi", "ReadWriteMany", Map.of(ZONE, "b")), "shared");
    eventually(BOUND, "the claim bound to its volume", () -> storage.bound("shared"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 6; i++) {
        create(admin, withClaims(pod(namespace, "zonal-" + i, SCHEDULER, "100m", "64Mi"), "shared"));
      }
      eventually(BOUND, "every zonal pod bound", () -> pods("zonal-").stream().noneMatch(p -> nodeOf(p).isEmpty()));
    }
    for (var pod : pods("zonal-")) {
      assertTrue(nodeOf(pod).startsWith("b-"), pod + " left zone b for " + nodeOf(pod));
    }
  }

  @Test
  void a_wait_for_first_consumer_claim_is_provisioned_on_the_node_chosen_for_its_pod() throws InterruptedException {
    List.of("node-0", "node-1", "node-2").forEach(n -> createReady(labelled(n, "a")));
    var provisioned = storage.storageClass("provisioned", TestProvisioner.NAME, "WaitForFirstConsumer");
    storage.createClaim(storage.claim("scratch", provisioned.getMetadata().getName(), "2Gi", "ReadWriteOnce"));
    try (var provisioner = TestProvisioner.start(admin);
        var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(admin, withClaims(pod(namespace, "worker", SCHEDULER, "100m", "64Mi"), "scratch"));
      eventually(BOUND, "the worker bound", () -> !nodeOf("worker").isEmpty());
      eventually(BOUND, "its claim provisioned and bound", () -> storage.bound("scratch"));
      var claim = claimOf("scratch");
      storage.removeOnClose(claim.getSpec().getVolumeName());
      assertEquals(nodeOf("worker"), claim.getMetadata().getAnnotations().get(TestProvisioner.SELECTED_NODE));
      assertEquals(nodeOf("worker"), pinnedNode(claim.getSpec().getVolumeName()));
      assertTrue(provisioner.provisionedVolumes().contains(claim.getSpec().getVolumeName()));
    }
  }

  @Test
  void a_generic_ephemeral_volume_is_created_by_the_controller_provisioned_on_the_chosen_node_and_the_pod_bound()
      throws InterruptedException {
    List.of("node-0", "node-1").forEach(n -> createReady(labelled(n, "a")));
    var provisioned = storage.storageClass("ephemeral", TestProvisioner.NAME, "WaitForFirstConsumer");
    try (var provisioner = TestProvisioner.start(admin);
        var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(admin, new PodBuilder(pod(namespace, "cruncher", SCHEDULER, "100m", "64Mi"))
          .editSpec()
          .addNewVolume().withName("scratch").withNewEphemeral().withNewVolumeClaimTemplate().withNewSpec()
          .withAccessModes("ReadWriteOnce")
          .withStorageClassName(provisioned.getMetadata().getName())
          .withNewResources().withRequests(Map.of("storage", new Quantity("1Gi"))).endResources()
          .endSpec().endVolumeClaimTemplate().endEphemeral().endVolume()
          .endSpec()
          .build());
      eventually(BOUND, "the cruncher bound", () -> !nodeOf("cruncher").isEmpty());
      eventually(BOUND, "its ephemeral claim provisioned and bound", () -> storage.bound("cruncher-scratch"));
      var claim = claimOf("cruncher-scratch");
      storage.removeOnClose(claim.getSpec().getVolumeName());
      assertEquals("Pod", claim.getMetadata().getOwnerReferences().get(0).getKind(), "the controller made it");
      assertEquals(nodeOf("cruncher"), pinnedNode(claim.getSpec().getVolumeName()));
    }
  }

  @Test
  void a_node_at_its_attach_limit_is_skipped_and_a_pod_that_fits_no_limit_waits_with_kubes_message() {
    createReady(labelled("node-0", "a"));
    createReady(labelled("node-1", "a"));
    List.of("node-0", "node-1").forEach(n -> storage.createCsiNode(n, DRIVER, 1));
    for (var name : List.of("c-0", "c-1", "c-2")) {
      storage.createBound(csiVolume(namespace + "-" + name, DRIVER), name);
    }
    eventually(BOUND, "the claims bound", () -> storage.bound("c-0", "c-1", "c-2"));
    // node-0 has its one volume attached already: a pod placed there by hand.
    create(admin, new PodBuilder(withClaims(pod(namespace, "attached", SCHEDULER, "100m", "64Mi"), "c-0"))
        .editSpec().withNodeName("node-0").endSpec().build());
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(admin, withClaims(pod(namespace, "second", SCHEDULER, "100m", "64Mi"), "c-1"));
      eventually(BOUND, "the second pod bound", () -> !nodeOf("second").isEmpty());
      assertEquals("node-1", nodeOf("second"), "node-0 is at its limit of one " + DRIVER + " volume");
      create(admin, withClaims(pod(namespace, "third", SCHEDULER, "100m", "64Mi"), "c-2"));
      eventually(BOUND, "the third pod reported unschedulable", () -> podScheduled("third").isPresent());
    }
    assertEquals("0/2 nodes are available: 2 node(s) exceed max volume count."
        + " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
        podScheduled("third").orElseThrow().getMessage());
    assertEquals("", nodeOf("third"));
  }

  @Test
  void two_pods_racing_for_the_last_static_volume_one_wins_and_the_other_waits_until_its_claim_is_deleted() {
    createReady(labelled("node-0", "a"));
    createReady(labelled("node-1", "a"));
    var local = storage.storageClass("last", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    storage.createVolume(localVolume(namespace + "-last", local, "1Gi", "node-0"));
    storage.createClaim(storage.claim("claim-a", local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
    storage.createClaim(storage.claim("claim-b", local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
    String loser;
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(admin, withClaims(pod(namespace, "racer-a", SCHEDULER, "100m", "64Mi"), "claim-a"));
      create(admin, withClaims(pod(namespace, "racer-b", SCHEDULER, "100m", "64Mi"), "claim-b"));
      eventually(BOUND, "one racer bound", () -> !nodeOf("racer-a").isEmpty() || !nodeOf("racer-b").isEmpty());
      loser = nodeOf("racer-a").isEmpty() ? "racer-a" : "racer-b";
      var winner = loser.equals("racer-a") ? "racer-b" : "racer-a";
      eventually(BOUND, "the loser reported unschedulable", () -> podScheduled(loser).isPresent());
      assertEquals("node-0", nodeOf(winner));
      eventually(BOUND, "the winner's claim bound", () -> storage.bound("claim-" + winner.substring(6)));
      assertEquals("0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind."
          + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
          podScheduled(loser).orElseThrow().getMessage());
      assertEquals("", nodeOf(loser));

      // Deleting the claim sets its deletionTimestamp (an update, which moves the loser) and, once the
      // protection controller takes its finalizer off, removes it (no event moves a pod, as in kube-scheduler).
      // Which of the two the loser's next attempt sees is a race, so either message is right.
      var loserClaim = "claim-" + loser.substring(6);
      var preemption = " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
      var told = Set.of(
          "0/2 nodes are available: persistentvolumeclaim \"" + loserClaim + "\" not found." + preemption,
          "0/2 nodes are available: persistentvolumeclaim \"" + loserClaim + "\" is being deleted." + preemption);
      admin.persistentVolumeClaims().inNamespace(namespace).withName(loserClaim).delete();
      eventually(BOUND, "the loser told its claim is gone or going", () -> podScheduled(loser)
          .map(c -> told.contains(c.getMessage()))
          .orElse(false));
    }
    assertEquals("", nodeOf(loser));
  }

  // ---------------------------------------------------------------- fixtures

  private PersistentVolumeClaim claimOf(String name) {
    return Objects.requireNonNull(admin.persistentVolumeClaims().inNamespace(namespace).withName(name).get(), name);
  }

  /** The node a volume's {@code kubernetes.io/hostname In [node]} affinity names. */
  private String pinnedNode(String volume) {
    var pv = admin.persistentVolumes().withName(volume).get();
    return pv.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms().get(0).getMatchExpressions().stream()
        .filter(r -> HOSTNAME.equals(r.getKey()))
        .findFirst().orElseThrow().getValues().get(0);
  }
}
