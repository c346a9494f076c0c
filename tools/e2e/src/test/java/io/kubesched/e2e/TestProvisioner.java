package io.kubesched.e2e;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An external volume provisioner for the end-to-end tests, doing what a real one (the CSI external-provisioner
 * sidecar) does for a claim on the real cluster, with kube-controller-manager's PersistentVolume controller
 * running ({@link io.kubesched.testcluster.TestCluster#startControllerManager()}).
 *
 * <p>The contract with 1.37's PersistentVolume controller: for an unbound claim whose StorageClass names a
 * provisioner that is not built in, the controller annotates the claim with {@value #STORAGE_PROVISIONER} =
 * that provisioner's name; for a {@code WaitForFirstConsumer} class it does so only once the claim carries
 * {@value #SELECTED_NODE} (which the scheduler sets when it picks the pod's node). This provisioner acts on a
 * claim that has no {@code spec.volumeName}, carries both annotations with the first one equal to {@linkplain
 * #name() its name}, and whose class names it as provisioner: it creates the volume {@code pvc-<claim uid>}
 * with the claim's requested storage as capacity, the claim's access modes and volume mode, the class's name,
 * reclaim policy and mount options, a {@code hostPath} source, node affinity {@code kubernetes.io/hostname In
 * [h]} (h: the selected node's {@code kubernetes.io/hostname} label, its name where the node or the label is
 * missing), {@code spec.claimRef} to the claim with its uid, and the annotation {@value #PROVISIONED_BY} =
 * its name. The controller then binds the claim to that volume. When such a volume is {@code Released} (its
 * claim deleted) with reclaim policy {@code Delete}, the provisioner deletes it, as the controller expects
 * of an external provisioner.
 *
 * <p>It watches claims and volumes in all namespaces with informers that resync every second (a creation
 * that failed is tried again then), and makes its API calls on one thread of its own. Threads: all methods
 * may be called from any thread. {@link #close} stops it; volumes it created stay.
 */
final class TestProvisioner implements AutoCloseable {

  /** The provisioner name a StorageClass names to have its claims provisioned by this provisioner. */
  static final String NAME = "kubesched.io/test-provisioner";

  static final String STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
  static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
  static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
  static final String HOSTNAME = "kubernetes.io/hostname";

  private static final Logger LOG = LoggerFactory.getLogger(TestProvisioner.class);
  private static final long RESYNC_MILLIS = 1_000;

  private final KubernetesClient client;
  private final String name;
  private final ExecutorService worker;
  private final Set<String> provisioned = ConcurrentHashMap.newKeySet();
  private final SharedIndexInformer<PersistentVolumeClaim> claims;
  private final SharedIndexInformer<PersistentVolume> volumes;

  private TestProvisioner(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
    this.worker =
        Executors.newSingleThreadExecutor(
            r -> {
              var thread = new Thread(r, "test-provisioner");
              thread.setDaemon(true);
              return thread;
            });
    this.claims =
        client.persistentVolumeClaims().inAnyNamespace().inform(handler(this::claimSeen), RESYNC_MILLIS);
    this.volumes = client.persistentVolumes().inform(handler(this::volumeSeen), RESYNC_MILLIS);
  }

  /**
   * Starts a provisioner named {@value #NAME}; returns once its informers have listed what exists.
   *
   * @param client a client allowed to read claims, classes and nodes and to create and delete volumes (the
   *     admin's); not closed by {@link #close}
   */
  static TestProvisioner start(KubernetesClient client) {
    return start(client, NAME);
  }

  /** Starts a provisioner of that name, for classes that name it; as {@link #start(KubernetesClient)}. */
  static TestProvisioner start(KubernetesClient client, String name) {
    return new TestProvisioner(Objects.requireNonNull(client, "client"), Objects.requireNonNull(name, "name"));
  }

  /**
   * A StorageClass whose claims this kind of provisioner provisions: reclaim policy {@code Delete}, volume
   * expansion off.
   *
   * @param bindingMode {@code WaitForFirstConsumer} or {@code Immediate}
   */
  static StorageClass storageClass(String className, String provisioner, String bindingMode) {
    return new StorageClassBuilder()
        .withNewMetadata()
        .withName(className)
        .endMetadata()
        .withProvisioner(provisioner)
        .withVolumeBindingMode(bindingMode)
        .withReclaimPolicy("Delete")
        .build();
  }

  /** @return the provisioner name that classes name to have their claims provisioned by this one */
  String name() {
    return name;
  }

  /** @return the names of the volumes this provisioner has created so far (a copy) */
  Set<String> provisionedVolumes() {
    return Set.copyOf(provisioned);
  }

  /** Stops watching and provisioning; waits up to 10 s for a volume being created to be so. Idempotent. */
  @Override
  public void close() throws InterruptedException {
    claims.close();
    volumes.close();
    worker.shutdown();
    worker.awaitTermination(10, TimeUnit.SECONDS);
  }

  private <T> ResourceEventHandler<T> handler(Consumer<T> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        submit(() -> seen.accept(object));
      }

      @Override
      public void onUpdate(T previous, T object) {
        submit(() -> seen.accept(object));
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {}
    };
  }

  private void submit(Runnable task) {
    if (worker.isShutdown()) {
      return;
    }
    try {
      worker.execute(
          () -> {
            try {
              task.run();
            } catch (KubernetesClientException e) {
              LOG.warn("test provisioner {}: {} (tried again at the next resync)", name, e.getMessage());
            }
          });
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private void claimSeen(PersistentVolumeClaim claim) {
    var annotations = orEmpty(claim.getMetadata().getAnnotations());
    var selectedNode = annotations.get(SELECTED_NODE);
    if (claim.getSpec().getVolumeName() != null && !claim.getSpec().getVolumeName().isEmpty()
        || !name.equals(annotations.get(STORAGE_PROVISIONER))
        || selectedNode == null
        || claim.getSpec().getStorageClassName() == null) {
      return;
    }
    var storageClass = client.storage().v1().storageClasses().withName(claim.getSpec().getStorageClassName()).get();
    if (storageClass == null || !name.equals(storageClass.getProvisioner())) {
      return;
    }
    var volumeName = "pvc-" + claim.getMetadata().getUid();
    if (provisioned.contains(volumeName) || client.persistentVolumes().withName(volumeName).get() != null) {
      return;
    }
    var node = client.nodes().withName(selectedNode).get();
    var hostname =
        node == null ? selectedNode : orEmpty(node.getMetadata().getLabels()).getOrDefault(HOSTNAME, selectedNode);
    var volume =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName(volumeName)
            .withAnnotations(Map.of(PROVISIONED_BY, name))
            .endMetadata()
            .withNewSpec()
            .withCapacity(Map.of("storage", claim.getSpec().getResources().getRequests().get("storage")))
            .withAccessModes(claim.getSpec().getAccessModes())
            .withVolumeMode(claim.getSpec().getVolumeMode())
            .withStorageClassName(storageClass.getMetadata().getName())
            .withPersistentVolumeReclaimPolicy(
                storageClass.getReclaimPolicy() == null ? "Delete" : storageClass.getReclaimPolicy())
            .withMountOptions(storageClass.getMountOptions())
            .withNewHostPath()
            .withPath("/tmp/kubesched-test-provisioner/" + volumeName)
            .withType("DirectoryOrCreate")
            .endHostPath()
            .withNewNodeAffinity()
            .withNewRequired()
            .addNewNodeSelectorTerm()
            .withMatchExpressions(
                new NodeSelectorRequirementBuilder()
                    .withKey(HOSTNAME)
                    .withOperator("In")
                    .withValues(hostname)
                    .build())
            .endNodeSelectorTerm()
            .endRequired()
            .endNodeAffinity()
            .withNewClaimRef()
            .withApiVersion("v1")
            .withKind("PersistentVolumeClaim")
            .withNamespace(claim.getMetadata().getNamespace())
            .withName(claim.getMetadata().getName())
            .withUid(claim.getMetadata().getUid())
            .endClaimRef()
            .endSpec()
            .build();
    try {
      client.persistentVolumes().resource(volume).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    provisioned.add(volumeName);
    LOG.debug("test provisioner {}: created {} for claim {}/{} on {}", name, volumeName,
        claim.getMetadata().getNamespace(), claim.getMetadata().getName(), hostname);
  }

  private void volumeSeen(PersistentVolume volume) {
    if (!name.equals(orEmpty(volume.getMetadata().getAnnotations()).get(PROVISIONED_BY))
        || volume.getStatus() == null
        || !"Released".equals(volume.getStatus().getPhase())
        || !"Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())
        || volume.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    client.persistentVolumes().withName(volume.getMetadata().getName()).delete();
  }

  private static Map<String, String> orEmpty(@Nullable Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
