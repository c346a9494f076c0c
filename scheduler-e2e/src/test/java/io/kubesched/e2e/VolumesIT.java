package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.kubesched.api.FinderFunc;
import io.kubesched.policy.plugins.DefaultPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pods with PersistentVolumeClaims on the real API server, with kube-controller-manager's PersistentVolume
 * controller and the {@link TestProvisioner}: {@link DefaultPolicy}'s VolumeBinding, VolumeZone and
 * NodeVolumeLimits, and the loop's reserve and pre-bind steps. After every test, whatever it did, no bound pod
 * sits on a node its volume cannot reach and no volume belongs to two claims.
 */
class VolumesIT extends RealClusterTest {

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String DRIVER = "csi.kubesched.io";
  private static final Duration BOUND = Duration.ofSeconds(60);

  /** Cluster-scoped objects this test made, removed after it. */
  private final List<String> volumes = new ArrayList<>();
  private final List<String> classes = new ArrayList<>();
  private final List<String> csiNodes = new ArrayList<>();

  private static FinderFunc defaultPolicy() {
    return DefaultPolicy.builder().seed(13).build();
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
      admin.pods().inNamespace(namespace).withGracePeriod(0).delete();
      admin.persistentVolumeClaims().inNamespace(namespace).delete();
      volumes.forEach(name -> admin.persistentVolumes().withName(name).delete());
      classes.forEach(name -> admin.storage().v1().storageClasses().withName(name).delete());
      csiNodes.forEach(name -> admin.storage().v1().csiNodes().withName(name).delete());
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
    var local = storageClass("local", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    for (int i = 0; i < 3; i++) {
      createVolume(localVolume(namespace + "-local-" + i, local, "1Gi", nodes.get(i)));
      createClaim(claim("data-db-" + i, local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
    }
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 3; i++) {
        create(admin, withClaims(pod(namespace, "db-" + i, SCHEDULER, "100m", "64Mi"), "data-db-" + i));
      }
      eventually(BOUND, "every db pod bound", () -> List.of("db-0", "db-1", "db-2").stream().noneMatch(p -> nodeOf(p).isEmpty()));
      eventually(BOUND, "every claim bound by the PersistentVolume controller", () -> claimsBound("data-db-0", "data-db-1", "data-db-2"));
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
    var local = storageClass("pinned", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    var volume = namespace + "-pinned";
    createVolume(new PersistentVolumeBuilder(localVolume(volume, local, "1Gi", "node-2"))
        .editSpec().withNewClaimRef().withNamespace(namespace).withName("pinned-data").endClaimRef().endSpec().build());
    createClaim(new PersistentVolumeClaimBuilder(claim("pinned-data", local.getMetadata().getName(), "1Gi", "ReadWriteOnce"))
        .editSpec().withVolumeName(volume).endSpec().build());
    eventually(BOUND, "the claim bound to its volume", () -> claimsBound("pinned-data"));
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
    createVolume(new PersistentVolumeBuilder()
        .withNewMetadata().withName(volume).withLabels(Map.of(ZONE, "b")).endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", new Quantity("5Gi")))
        .withAccessModes("ReadWriteMany")
        .withStorageClassName("")
        .withNewHostPath().withPath("/tmp/" + volume).endHostPath()
        .withNewClaimRef().withNamespace(namespace).withName("shared").endClaimRef()
        .endSpec()
        .build());
    createClaim(new PersistentVolumeClaimBuilder(claim("shared", "", "5Gi", "ReadWriteMany"))
        .editSpec().withVolumeName(volume).endSpec().build());
    eventually(BOUND, "the claim bound to its volume", () -> claimsBound("shared"));
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
    var provisioned = storageClass("provisioned", TestProvisioner.NAME, "WaitForFirstConsumer");
    createClaim(claim("scratch", provisioned.getMetadata().getName(), "2Gi", "ReadWriteOnce"));
    try (var provisioner = TestProvisioner.start(admin);
        var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(admin, withClaims(pod(namespace, "worker", SCHEDULER, "100m", "64Mi"), "scratch"));
      eventually(BOUND, "the worker bound", () -> !nodeOf("worker").isEmpty());
      eventually(BOUND, "its claim provisioned and bound", () -> claimsBound("scratch"));
      var claim = claimOf("scratch");
      volumes.add(claim.getSpec().getVolumeName());
      assertEquals(nodeOf("worker"), claim.getMetadata().getAnnotations().get(TestProvisioner.SELECTED_NODE));
      assertEquals(nodeOf("worker"), pinnedNode(claim.getSpec().getVolumeName()));
      assertTrue(provisioner.provisionedVolumes().contains(claim.getSpec().getVolumeName()));
    }
  }

  @Test
  void a_generic_ephemeral_volume_is_created_by_the_controller_provisioned_on_the_chosen_node_and_the_pod_bound()
      throws InterruptedException {
    List.of("node-0", "node-1").forEach(n -> createReady(labelled(n, "a")));
    var provisioned = storageClass("ephemeral", TestProvisioner.NAME, "WaitForFirstConsumer");
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
      eventually(BOUND, "its ephemeral claim provisioned and bound", () -> claimsBound("cruncher-scratch"));
      var claim = claimOf("cruncher-scratch");
      volumes.add(claim.getSpec().getVolumeName());
      assertEquals("Pod", claim.getMetadata().getOwnerReferences().get(0).getKind(), "the controller made it");
      assertEquals(nodeOf("cruncher"), pinnedNode(claim.getSpec().getVolumeName()));
    }
  }

  @Test
  void a_node_at_its_attach_limit_is_skipped_and_a_pod_that_fits_no_limit_waits_with_kubes_message() {
    createReady(labelled("node-0", "a"));
    createReady(labelled("node-1", "a"));
    List.of("node-0", "node-1").forEach(n -> {
      admin.storage().v1().csiNodes().resource(new CSINodeBuilder()
          .withNewMetadata().withName(n).endMetadata()
          .withNewSpec().addNewDriver().withName(DRIVER).withNodeID(n).withNewAllocatable().withCount(1).endAllocatable().endDriver().endSpec()
          .build()).create();
      csiNodes.add(n);
    });
    for (var name : List.of("c-0", "c-1", "c-2")) {
      var volume = namespace + "-" + name;
      createVolume(new PersistentVolumeBuilder()
          .withNewMetadata().withName(volume).endMetadata()
          .withNewSpec()
          .withCapacity(Map.of("storage", new Quantity("1Gi")))
          .withAccessModes("ReadWriteOnce")
          .withStorageClassName("")
          .withNewCsi().withDriver(DRIVER).withVolumeHandle(volume).endCsi()
          .withNewClaimRef().withNamespace(namespace).withName(name).endClaimRef()
          .endSpec()
          .build());
      createClaim(new PersistentVolumeClaimBuilder(claim(name, "", "1Gi", "ReadWriteOnce"))
          .editSpec().withVolumeName(volume).endSpec().build());
    }
    eventually(BOUND, "the claims bound", () -> claimsBound("c-0", "c-1", "c-2"));
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
    assertEquals("0/2 nodes are available: 2 node(s) exceed max volume count.",
        podScheduled("third").orElseThrow().getMessage());
    assertEquals("", nodeOf("third"));
  }

  @Test
  void two_pods_racing_for_the_last_static_volume_one_wins_and_the_other_waits_until_its_claim_is_deleted() {
    createReady(labelled("node-0", "a"));
    createReady(labelled("node-1", "a"));
    var local = storageClass("last", "kubernetes.io/no-provisioner", "WaitForFirstConsumer");
    createVolume(localVolume(namespace + "-last", local, "1Gi", "node-0"));
    createClaim(claim("claim-a", local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
    createClaim(claim("claim-b", local.getMetadata().getName(), "1Gi", "ReadWriteOnce"));
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
      eventually(BOUND, "the winner's claim bound", () -> claimsBound("claim-" + winner.substring(6)));
      assertEquals("0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind.",
          podScheduled(loser).orElseThrow().getMessage());
      assertEquals("", nodeOf(loser));

      var loserClaim = "claim-" + loser.substring(6);
      admin.persistentVolumeClaims().inNamespace(namespace).withName(loserClaim).delete();
      eventually(BOUND, "the loser told its claim is gone", () -> podScheduled(loser)
          .map(c -> c.getMessage().equals(
              "0/2 nodes are available: persistentvolumeclaim \"" + loserClaim + "\" not found."))
          .orElse(false));
    }
    assertEquals("", nodeOf(loser));
  }

  // ---------------------------------------------------------------- fixtures

  private Node labelled(String name, String zone) {
    return new NodeBuilder(node(name, "4", "8Gi", "110"))
        .editMetadata().withLabels(Map.of(HOSTNAME, name, ZONE, zone)).endMetadata()
        .build();
  }

  private StorageClass storageClass(String suffix, String provisioner, String bindingMode) {
    var name = namespace + "-" + suffix;
    var storageClass = TestProvisioner.storageClass(name, provisioner, bindingMode);
    admin.storage().v1().storageClasses().resource(storageClass).create();
    classes.add(name);
    return storageClass;
  }

  private static PersistentVolume localVolume(String name, StorageClass storageClass, String size, String node) {
    return new PersistentVolumeBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", new Quantity(size)))
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(storageClass.getMetadata().getName())
        .withPersistentVolumeReclaimPolicy("Retain")
        .withNewLocal().withPath("/mnt/" + name).endLocal()
        .withNewNodeAffinity().withNewRequired().addNewNodeSelectorTerm()
        .withMatchExpressions(new NodeSelectorRequirementBuilder().withKey(HOSTNAME).withOperator("In").withValues(node).build())
        .endNodeSelectorTerm().endRequired().endNodeAffinity()
        .endSpec()
        .build();
  }

  private PersistentVolumeClaim claim(String name, String className, String size, String accessMode) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec()
        .withStorageClassName(className)
        .withAccessModes(accessMode)
        .withNewResources().withRequests(Map.of("storage", new Quantity(size))).endResources()
        .endSpec()
        .build();
  }

  private void createVolume(PersistentVolume volume) {
    admin.persistentVolumes().resource(volume).create();
    volumes.add(volume.getMetadata().getName());
  }

  private void createClaim(PersistentVolumeClaim claim) {
    admin.persistentVolumeClaims().inNamespace(namespace).resource(claim).create();
  }

  private static Pod withClaims(Pod pod, String... claims) {
    var builder = new PodBuilder(pod).editSpec();
    for (var claim : claims) {
      builder = builder.addNewVolume().withName("v-" + claim).withNewPersistentVolumeClaim().withClaimName(claim)
          .endPersistentVolumeClaim().endVolume();
    }
    return builder.endSpec().build();
  }

  private PersistentVolumeClaim claimOf(String name) {
    return Objects.requireNonNull(admin.persistentVolumeClaims().inNamespace(namespace).withName(name).get(), name);
  }

  /** Whether each claim is Bound, with the PersistentVolume controller's bind-completed annotation. */
  private boolean claimsBound(String... names) {
    for (var name : names) {
      var claim = admin.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
      if (claim == null || claim.getStatus() == null || !"Bound".equals(claim.getStatus().getPhase())) {
        return false;
      }
    }
    return true;
  }

  /** The node a volume's {@code kubernetes.io/hostname In [node]} affinity names. */
  private String pinnedNode(String volume) {
    var pv = admin.persistentVolumes().withName(volume).get();
    return pv.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms().get(0).getMatchExpressions().stream()
        .filter(r -> HOSTNAME.equals(r.getKey()))
        .findFirst().orElseThrow().getValues().get(0);
  }

  private List<String> pods(String prefix) {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .map(p -> p.getMetadata().getName())
        .filter(n -> n.startsWith(prefix))
        .sorted()
        .toList();
  }
}
