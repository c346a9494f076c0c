package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.testcluster.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the scheduler's volume binding relies on from the test cluster, without the scheduler: the
 * PersistentVolume controller of kube-controller-manager binds a claim to a volume pre-bound to it, hands a
 * {@code WaitForFirstConsumer} claim to its external provisioner only once the claim names its selected node,
 * and binds the claim to the volume the {@link TestProvisioner} then creates on that node.
 */
@ExtendWith(RealClusterExtension.class)
class VolumeControllerIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";

  private KubernetesClient admin;
  private String namespace;
  private String className;
  private String nodeName;
  private TestProvisioner provisioner;

  @BeforeEach
  void setUp(TestCluster cluster) {
    assertTrue(cluster.controllerManagerRunning(), "the e2e suite's cluster runs the controller-manager");
    admin = cluster.admin();
    namespace = "e2e-volumecontrollerit-" + NAMESPACES.incrementAndGet();
    className = namespace + "-wffc"; // classes, volumes and nodes are cluster-wide: named after the namespace
    nodeName = namespace + "-node";
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    provisioner = TestProvisioner.start(admin);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    admin.persistentVolumeClaims().inNamespace(namespace).delete();
    provisioner.close();
    admin.storage().v1().storageClasses().withName(className).delete();
    admin.nodes().withName(nodeName).delete();
  }

  @Test
  void a_volume_pre_bound_to_a_claim_is_bound_to_it_by_the_controller() {
    var volumeName = namespace + "-static";
    admin.persistentVolumes().resource(new PersistentVolumeBuilder()
            .withNewMetadata().withName(volumeName).endMetadata()
            .withNewSpec()
            .withCapacity(Map.of("storage", new Quantity("1Gi")))
            .withAccessModes("ReadWriteOnce")
            .withStorageClassName("")
            .withPersistentVolumeReclaimPolicy("Retain")
            .withNewHostPath().withPath("/tmp/" + volumeName).endHostPath()
            .withNewClaimRef().withNamespace(namespace).withName("data").endClaimRef()
            .endSpec()
            .build())
        .create();
    var created = admin.persistentVolumeClaims().inNamespace(namespace).resource(claim("data", "", "1Gi")).create();

    eventually(WAIT, "the claim is Bound", () -> "Bound".equals(phase(claim("data"))));

    var claim = claim("data");
    assertEquals(volumeName, claim.getSpec().getVolumeName());
    assertEquals("yes", claim.getMetadata().getAnnotations().get(BIND_COMPLETED));
    eventually(WAIT, "the volume is Bound", () -> "Bound".equals(phase(volume(volumeName))));
    assertEquals(created.getMetadata().getUid(), volume(volumeName).getSpec().getClaimRef().getUid());
    assertEquals(List.of(), List.copyOf(provisioner.provisionedVolumes()), "nothing to provision");
    admin.persistentVolumeClaims().inNamespace(namespace).withName("data").delete();
    admin.persistentVolumes().withName(volumeName).delete();
  }

  @Test
  void a_wait_for_first_consumer_claim_on_a_selected_node_is_provisioned_there_and_bound() {
    createWaitForFirstConsumerClass();
    createNode(nodeName, "host-of-" + nodeName);
    var request = claim("data", className, "2Gi");
    request.getMetadata().setAnnotations(Map.of(TestProvisioner.SELECTED_NODE, nodeName));
    var created = admin.persistentVolumeClaims().inNamespace(namespace).resource(request).create();

    eventually(WAIT, "the claim is Bound", () -> "Bound".equals(phase(claim("data"))));

    var claim = claim("data");
    var uid = created.getMetadata().getUid();
    assertEquals(TestProvisioner.NAME, claim.getMetadata().getAnnotations().get(TestProvisioner.STORAGE_PROVISIONER),
        "the controller handed the claim to the provisioner");
    assertEquals("yes", claim.getMetadata().getAnnotations().get(BIND_COMPLETED));
    assertEquals("pvc-" + uid, claim.getSpec().getVolumeName());
    var volume = volume("pvc-" + uid);
    assertEquals(TestProvisioner.NAME, volume.getMetadata().getAnnotations().get(TestProvisioner.PROVISIONED_BY));
    assertEquals(new Quantity("2Gi"), volume.getSpec().getCapacity().get("storage"));
    assertEquals(className, volume.getSpec().getStorageClassName());
    assertEquals(List.of("ReadWriteOnce"), volume.getSpec().getAccessModes());
    assertEquals(uid, volume.getSpec().getClaimRef().getUid());
    var term = volume.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms().get(0);
    assertEquals(TestProvisioner.HOSTNAME, term.getMatchExpressions().get(0).getKey());
    assertEquals("In", term.getMatchExpressions().get(0).getOperator());
    assertEquals(List.of("host-of-" + nodeName), term.getMatchExpressions().get(0).getValues(),
        "pinned by the node's hostname label");
    eventually(WAIT, "the volume is Bound", () -> "Bound".equals(phase(volume("pvc-" + uid))));

    admin.persistentVolumeClaims().inNamespace(namespace).withName("data").delete();

    eventually(WAIT, "the released volume is deleted by its provisioner", () -> volumeOrNull("pvc-" + uid) == null);
  }

  @Test
  void a_wait_for_first_consumer_claim_waits_for_its_node_before_the_provisioner_is_asked() {
    createWaitForFirstConsumerClass();
    createNode(nodeName, nodeName);
    admin.persistentVolumeClaims().inNamespace(namespace).resource(claim("data", className, "1Gi")).create();

    eventually(WAIT, "the controller reports that the claim waits for its first consumer",
        () -> admin.v1().events().inNamespace(namespace).list().getItems().stream()
            .anyMatch(e -> "WaitForFirstConsumer".equals(e.getReason())
                && "PersistentVolumeClaim".equals(e.getInvolvedObject().getKind())
                && "data".equals(e.getInvolvedObject().getName())));

    var waiting = claim("data");
    assertEquals("Pending", phase(waiting));
    assertNull(waiting.getSpec().getVolumeName());
    assertNull(orEmpty(waiting.getMetadata().getAnnotations()).get(TestProvisioner.STORAGE_PROVISIONER));
    assertEquals(List.of(), List.copyOf(provisioner.provisionedVolumes()));

    // What the scheduler does once it has chosen the pod's node.
    admin.persistentVolumeClaims().inNamespace(namespace).withName("data").edit(c -> {
      c.getMetadata().setAnnotations(Map.of(TestProvisioner.SELECTED_NODE, nodeName));
      return c;
    });

    eventually(WAIT, "the claim is Bound", () -> "Bound".equals(phase(claim("data"))));
    var volume = volume(claim("data").getSpec().getVolumeName());
    assertEquals(List.of(nodeName),
        volume.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms().get(0).getMatchExpressions().get(0)
            .getValues(),
        "pinned by the node's hostname label");
  }

  private void createWaitForFirstConsumerClass() {
    admin.storage().v1().storageClasses()
        .resource(TestProvisioner.storageClass(className, TestProvisioner.NAME, "WaitForFirstConsumer"))
        .create();
  }

  private void createNode(String name, String hostname) {
    admin.nodes().resource(new NodeBuilder()
            .withNewMetadata().withName(name).withLabels(Map.of(TestProvisioner.HOSTNAME, hostname)).endMetadata()
            .build())
        .create();
  }

  private PersistentVolumeClaim claim(String name, String storageClass, String storage) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(storageClass)
        .withNewResources().withRequests(Map.of("storage", new Quantity(storage))).endResources()
        .endSpec()
        .build();
  }

  private PersistentVolumeClaim claim(String name) {
    return admin.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
  }

  private PersistentVolume volume(String name) {
    var volume = volumeOrNull(name);
    assertTrue(volume != null, "the volume " + name + " exists");
    return volume;
  }

  private PersistentVolume volumeOrNull(String name) {
    return admin.persistentVolumes().withName(name).get();
  }

  private static String phase(PersistentVolumeClaim claim) {
    return claim == null || claim.getStatus() == null ? "" : claim.getStatus().getPhase();
  }

  private static String phase(PersistentVolume volume) {
    return volume.getStatus() == null ? "" : volume.getStatus().getPhase();
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
