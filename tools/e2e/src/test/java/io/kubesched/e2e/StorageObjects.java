package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.node;

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
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The storage objects of one volume test ({@link VolumesIT}, {@link KubeSchedulerParityIT}): nodes labelled
 * with hostname and zone, storage classes, local volumes pinned to a node, claims, CSINodes, and pods that
 * use claims. It remembers the cluster-scoped objects it made (and volumes a test hands it) and removes them,
 * with the namespace's pods and claims, when closed. One per test, used from the test's thread.
 */
final class StorageObjects implements AutoCloseable {

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  private final KubernetesClient admin;
  private final String namespace;
  private final List<String> volumes = new ArrayList<>();
  private final List<String> classes = new ArrayList<>();
  private final List<String> csiNodes = new ArrayList<>();

  StorageObjects(KubernetesClient admin, String namespace) {
    this.admin = admin;
    this.namespace = namespace;
  }

  /** @return a node with 4 CPUs and 8 GiB labelled with its hostname and {@code zone} (not created) */
  static Node labelled(String name, String zone) {
    return new NodeBuilder(node(name, "4", "8Gi", "110"))
        .editMetadata().withLabels(Map.of(HOSTNAME, name, ZONE, zone)).endMetadata()
        .build();
  }

  /** Creates the class {@code <namespace>-<suffix>}, removed on close. */
  StorageClass storageClass(String suffix, String provisioner, String bindingMode) {
    var name = namespace + "-" + suffix;
    var storageClass = TestProvisioner.storageClass(name, provisioner, bindingMode);
    admin.storage().v1().storageClasses().resource(storageClass).create();
    classes.add(name);
    return storageClass;
  }

  /** @return a {@code local} volume of {@code storageClass} pinned to {@code node} by hostname (not created) */
  static PersistentVolume localVolume(String name, StorageClass storageClass, String size, String node) {
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

  /** @return a claim in the test's namespace (not created) */
  PersistentVolumeClaim claim(String name, String className, String size, String accessMode) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec()
        .withStorageClassName(className)
        .withAccessModes(accessMode)
        .withNewResources().withRequests(Map.of("storage", new Quantity(size))).endResources()
        .endSpec()
        .build();
  }

  /** Creates the volume, removed on close. */
  void createVolume(PersistentVolume volume) {
    admin.persistentVolumes().resource(volume).create();
    volumes.add(volume.getMetadata().getName());
  }

  /** Removes on close a volume someone else made (a provisioner). */
  void removeOnClose(String volumeName) {
    volumes.add(volumeName);
  }

  /**
   * Creates {@code volume} pre-bound to a new claim {@code claimName} of the volume's class, size and first
   * access mode, which names the volume: the PersistentVolume controller then binds the two. Both removed on
   * close.
   */
  void createBound(PersistentVolume volume, String claimName) {
    var spec = volume.getSpec();
    createVolume(new PersistentVolumeBuilder(volume)
        .editSpec().withNewClaimRef().withNamespace(namespace).withName(claimName).endClaimRef().endSpec()
        .build());
    createClaim(new PersistentVolumeClaimBuilder(
            claim(claimName, spec.getStorageClassName(), spec.getCapacity().get("storage").toString(),
                spec.getAccessModes().get(0)))
        .editSpec().withVolumeName(volume.getMetadata().getName()).endSpec()
        .build());
  }

  /** @return a 1 GiB {@code ReadWriteOnce} volume of {@code driver}, without class (not created) */
  static PersistentVolume csiVolume(String name, String driver) {
    return new PersistentVolumeBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", new Quantity("1Gi")))
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName("")
        .withNewCsi().withDriver(driver).withVolumeHandle(name).endCsi()
        .endSpec()
        .build();
  }

  /** @return a {@code hostPath} volume without class and node affinity, with these labels (not created) */
  static PersistentVolume hostPathVolume(String name, String size, String accessMode, Map<String, String> labels) {
    return new PersistentVolumeBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", new Quantity(size)))
        .withAccessModes(accessMode)
        .withStorageClassName("")
        .withNewHostPath().withPath("/tmp/" + name).endHostPath()
        .endSpec()
        .build();
  }

  /** @return whether each claim exists and is {@code Bound} */
  boolean bound(String... claims) {
    for (var name : claims) {
      var claim = admin.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
      if (claim == null || claim.getStatus() == null || !"Bound".equals(claim.getStatus().getPhase())) {
        return false;
      }
    }
    return true;
  }

  void createClaim(PersistentVolumeClaim claim) {
    admin.persistentVolumeClaims().inNamespace(namespace).resource(claim).create();
  }

  /** Creates the CSINode of {@code node} with one driver that can attach {@code count} volumes; removed on close. */
  void createCsiNode(String node, String driver, int count) {
    admin.storage().v1().csiNodes().resource(new CSINodeBuilder()
        .withNewMetadata().withName(node).endMetadata()
        .withNewSpec().addNewDriver().withName(driver).withNodeID(node).withNewAllocatable().withCount(count)
        .endAllocatable().endDriver().endSpec()
        .build()).create();
    csiNodes.add(node);
  }

  /** @return {@code pod} with a {@code persistentVolumeClaim} volume for each claim */
  static Pod withClaims(Pod pod, String... claims) {
    var builder = new PodBuilder(pod).editSpec();
    for (var claim : claims) {
      builder = builder.addNewVolume().withName("v-" + claim).withNewPersistentVolumeClaim().withClaimName(claim)
          .endPersistentVolumeClaim().endVolume();
    }
    return builder.endSpec().build();
  }

  /** Deletes the namespace's pods (without grace: no kubelet) and claims, then what this made cluster-wide. */
  @Override
  public void close() {
    admin.pods().inNamespace(namespace).withGracePeriod(0).delete();
    admin.persistentVolumeClaims().inNamespace(namespace).delete();
    volumes.forEach(name -> admin.persistentVolumes().withName(name).delete());
    classes.forEach(name -> admin.storage().v1().storageClasses().withName(name).delete());
    csiNodes.forEach(name -> admin.storage().v1().csiNodes().withName(name).delete());
  }
}
