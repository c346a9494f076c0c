package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Item stores for the node and pod informers that keep, of each object, only what the scheduler reads: a
 * cluster's watched pods then take a fraction of the heap fabric8's default store gives them (see {@code
 * docs/memory.md}). Set one fresh store on each informer before starting it: {@code
 * informer.itemStore(InformerStores.pods())}.
 *
 * <p><b>What is kept.</b> Of a pod: {@code metadata} name, namespace, uid, resourceVersion, labels,
 * ownerReferences and deletionTimestamp; {@code spec} nodeName, schedulerName, priority, nodeSelector,
 * {@code affinity.nodeAffinity}, tolerations, overhead, resources (pod level), the volumes of the four kinds
 * whose conflicts the scheduler checks (GCE persistent disk, AWS EBS, RBD, iSCSI), and of each container and
 * init container its name, image, resources, ports and restartPolicy; {@code status.phase}. Of a node: {@code
 * metadata} name, namespace, uid, resourceVersion and labels; {@code spec} unschedulable and taints; {@code
 * status} allocatable and images. Everything else is dropped: managedFields, annotations, env, probes,
 * volume mounts, other volumes, pod (anti-)affinity, topology spread constraints, conditions, container
 * statuses, addresses, capacity, node info. So {@code PodAdapter.toPodInfo}, {@code NodeAdapter.toNodeInfo},
 * {@link PodFilters} and {@link NodeChanges} answer the same for the kept form as for the object the API
 * server sent. Code that starts to read another field must add it here first.
 *
 * <p><b>Where the kept form shows up.</b> Everything the informer's cache returns ({@code getStore()}, {@code
 * getIndexer()}, indexes), the old object of {@code onUpdate}, and the object of an {@code onDelete} with
 * {@code deletedFinalStateUnknown} (a relist found it gone). {@code onAdd}, the new object of {@code
 * onUpdate} and a watched {@code onDelete} get the full object. Compare old and new objects only in kept
 * fields: in the old object a dropped field reads as empty, whatever it was. Custom indexers may read only
 * kept fields, because fabric8 removes an object's index entries by applying the indexer to the stored form.
 *
 * <p>Kept objects share the kept parts (labels, resource lists, tolerations, …) with the object received;
 * a dropped collection reads as an immutable empty one, a dropped scalar as {@code null}. Like every object
 * an informer hands out, they must not be modified. The stores are keyed as fabric8's informers key their
 * caches ({@code namespace/name}, or the name of a cluster-scoped object) and are safe for concurrent use:
 * fabric8 writes under its cache lock, the worker reads from its own thread.
 */
final class InformerStores {

  private InformerStores() {}

  /** @return a new, empty store for one pod informer, keeping of each pod what the scheduler reads */
  static ItemStore<Pod> pods() {
    return new KeptFieldsStore<>(InformerStores::keptPod);
  }

  /** @return a new, empty store for one node informer, keeping of each node what the scheduler reads */
  static ItemStore<Node> nodes() {
    return new KeptFieldsStore<>(InformerStores::keptNode);
  }

  /**
   * fabric8's map-backed store, with each object replaced by its kept form on the way in. Reads return the
   * stored instance: no copy per read, which matters because every scheduling cycle lists all nodes and the
   * pods on each.
   */
  private static final class KeptFieldsStore<T extends HasMetadata> implements ItemStore<T> {

    private final BasicItemStore<T> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    private final UnaryOperator<T> keep;

    KeptFieldsStore(UnaryOperator<T> keep) {
      this.keep = keep;
    }

    @Override
    public String getKey(T object) {
      return items.getKey(object);
    }

    @Override
    public @Nullable T put(String key, T object) {
      return items.put(key, keep.apply(object));
    }

    @Override
    public @Nullable T remove(String key) {
      return items.remove(key);
    }

    @Override
    public Stream<String> keySet() {
      return items.keySet();
    }

    @Override
    public Stream<T> values() {
      return items.values();
    }

    @Override
    public int size() {
      return items.size();
    }

    @Override
    public @Nullable T get(String key) {
      return items.get(key);
    }

    /**
     * Not the full objects: fabric8 then hands the objects of the initial list to {@code onAdd} as they
     * arrive, full, instead of from this store once the list is complete.
     */
    @Override
    public boolean isFullState() {
      return false;
    }
  }

  // Every fabric8 model object starts with empty mutable collections (and a map of unknown properties); the
  // kept objects share immutable empty ones instead, which saves about a kilobyte per pod.

  private static Pod keptPod(Pod pod) {
    var kept = new Pod();
    kept.setApiVersion(pod.getApiVersion());
    kept.setKind(pod.getKind());
    var meta = keptMeta(pod.getMetadata());
    if (meta != null) {
      meta.setOwnerReferences(pod.getMetadata().getOwnerReferences());
      meta.setDeletionTimestamp(pod.getMetadata().getDeletionTimestamp());
    }
    kept.setMetadata(meta);
    kept.setSpec(pod.getSpec() == null ? null : keptSpec(pod.getSpec()));
    kept.setStatus(pod.getStatus() == null ? null : keptStatus(pod.getStatus()));
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  /** The metadata both kinds keep: what keys the object, its version, uid and labels. */
  private static @Nullable ObjectMeta keptMeta(@Nullable ObjectMeta meta) {
    if (meta == null) {
      return null;
    }
    var kept = new ObjectMeta();
    kept.setName(meta.getName());
    kept.setNamespace(meta.getNamespace());
    kept.setUid(meta.getUid());
    kept.setResourceVersion(meta.getResourceVersion());
    kept.setLabels(meta.getLabels());
    kept.setOwnerReferences(List.of());
    kept.setAnnotations(Map.of());
    kept.setFinalizers(List.of());
    kept.setManagedFields(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static PodSpec keptSpec(PodSpec spec) {
    var kept = new PodSpec();
    kept.setNodeName(spec.getNodeName());
    kept.setSchedulerName(spec.getSchedulerName());
    kept.setPriority(spec.getPriority());
    kept.setNodeSelector(spec.getNodeSelector());
    kept.setAffinity(nodeAffinityOnly(spec.getAffinity()));
    kept.setTolerations(spec.getTolerations());
    kept.setOverhead(spec.getOverhead());
    kept.setResources(spec.getResources());
    kept.setVolumes(conflictingVolumes(spec.getVolumes()));
    kept.setContainers(keptContainers(spec.getContainers()));
    kept.setInitContainers(keptContainers(spec.getInitContainers()));
    kept.setEphemeralContainers(List.of());
    kept.setEvictionResponders(List.of());
    kept.setHostAliases(List.of());
    kept.setImagePullSecrets(List.of());
    kept.setReadinessGates(List.of());
    kept.setResourceClaims(List.of());
    kept.setSchedulingGates(List.of());
    kept.setTopologySpreadConstraints(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static @Nullable Affinity nodeAffinityOnly(@Nullable Affinity affinity) {
    if (affinity == null || affinity.getNodeAffinity() == null) {
      return null;
    }
    var kept = new Affinity();
    kept.setNodeAffinity(affinity.getNodeAffinity());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  /**
   * The volumes whose conflicts the scheduler checks, whole: a volume naming one of these kinds and another
   * is kept, so that it is refused as before.
   */
  private static @Nullable List<Volume> conflictingVolumes(@Nullable List<Volume> volumes) {
    if (volumes == null) {
      return null;
    }
    return volumes.stream()
        .filter(Objects::nonNull)
        .filter(
            v ->
                v.getGcePersistentDisk() != null
                    || v.getAwsElasticBlockStore() != null
                    || v.getRbd() != null
                    || v.getIscsi() != null)
        .toList();
  }

  private static @Nullable List<Container> keptContainers(@Nullable List<Container> containers) {
    return containers == null ? null : containers.stream().map(InformerStores::keptContainer).toList();
  }

  private static @Nullable Container keptContainer(@Nullable Container container) {
    if (container == null) {
      return null;
    }
    var kept = new Container();
    kept.setName(container.getName());
    kept.setImage(container.getImage());
    kept.setResources(container.getResources());
    kept.setPorts(container.getPorts());
    kept.setRestartPolicy(container.getRestartPolicy());
    kept.setArgs(List.of());
    kept.setCommand(List.of());
    kept.setEnv(List.of());
    kept.setEnvFrom(List.of());
    kept.setResizePolicy(List.of());
    kept.setRestartPolicyRules(List.of());
    kept.setVolumeDevices(List.of());
    kept.setVolumeMounts(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static PodStatus keptStatus(PodStatus status) {
    var kept = new PodStatus();
    kept.setPhase(status.getPhase());
    kept.setAllocatedResources(Map.of());
    kept.setConditions(List.of());
    kept.setContainerStatuses(List.of());
    kept.setEphemeralContainerStatuses(List.of());
    kept.setHostIPs(List.of());
    kept.setInitContainerStatuses(List.of());
    kept.setNodeAllocatableResourceClaimStatuses(List.of());
    kept.setPodIPs(List.of());
    kept.setResourceClaimStatuses(List.of());
    kept.setVolumeHealth(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static Node keptNode(Node node) {
    var kept = new Node();
    kept.setApiVersion(node.getApiVersion());
    kept.setKind(node.getKind());
    kept.setMetadata(keptMeta(node.getMetadata()));
    kept.setSpec(node.getSpec() == null ? null : keptNodeSpec(node.getSpec()));
    kept.setStatus(node.getStatus() == null ? null : keptNodeStatus(node.getStatus()));
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static NodeSpec keptNodeSpec(NodeSpec spec) {
    var kept = new NodeSpec();
    kept.setUnschedulable(spec.getUnschedulable());
    kept.setTaints(spec.getTaints());
    kept.setPodCIDRs(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static NodeStatus keptNodeStatus(NodeStatus status) {
    var kept = new NodeStatus();
    kept.setAllocatable(status.getAllocatable());
    kept.setImages(status.getImages());
    kept.setAddresses(List.of());
    kept.setCapacity(Map.of());
    kept.setConditions(List.of());
    kept.setDeclaredFeatures(List.of());
    kept.setRuntimeHandlers(List.of());
    kept.setVolumesAttached(List.of());
    kept.setVolumesInUse(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }
}
