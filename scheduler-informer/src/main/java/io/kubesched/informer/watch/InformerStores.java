package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.kubesched.fabric8.Fabric8Compat;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Item stores for the node and pod informers that keep, of each object, only what the scheduler reads: a
 * cluster's watched pods then take a fraction of the heap fabric8's default store gives them (the memory notes, {@code
 * docs/performance.md#measurement-notes}). Set one fresh store on each informer before starting it: {@code
 * informer.itemStore(InformerStores.pods())}.
 *
 * <p><b>What is kept.</b> Of a pod: {@code metadata} name, namespace, uid, resourceVersion, generation, labels,
 * ownerReferences and deletionTimestamp; {@code spec} nodeName, schedulerName, priority, preemptionPolicy,
 * nodeSelector, {@code affinity} (nodeAffinity, podAffinity, podAntiAffinity), topologySpreadConstraints,
 * schedulingGates, schedulingGroup (the pod group it joins, also where it is left among the spec's unknown
 * properties), resourceClaims, tolerations, overhead, resources (pod level), hostNetwork and hostUsers, the volumes
 * of the four kinds
 * whose conflicts the scheduler checks (GCE persistent disk, AWS EBS, RBD, iSCSI), inline {@code csi} volumes
 * and those that use a claim ({@code persistentVolumeClaim}, generic {@code ephemeral}), and of each container
 * and init container its name, image, resources, ports, restartPolicy, restartPolicyRules and the volume mounts that
 * set bindMountOptions (their name and options), of each ephemeral container with such mounts its name and those
 * mounts; {@code status} phase, startTime and
 * nominatedNodeName (what preemption reads), resourceClaimStatuses (the claims made from templates), the
 * {@code PodScheduled}, {@code PodResizePending}, {@code
 * PodResizeInProgress} and {@code DisruptionTarget} conditions (every other one as its type alone, in its place:
 * status patches address conditions by index), the pod-level {@code allocatedResources} and
 * {@code resources.requests}, and of each container and init container status its name, {@code
 * allocatedResources} and {@code resources.requests} (what an in-place resize is counted from). Of a node:
 * {@code metadata} name, namespace, uid, resourceVersion, generation and labels; {@code spec} unschedulable and taints;
 * {@code status} allocatable, images and declaredFeatures. Everything else is dropped: managedFields, annotations,
 * env, probes, other volume mounts, other volumes, all but the type of other conditions, the rest of the container
 * statuses (state, image, restart count...), resource limits in statuses, addresses, capacity, node info. So {@code
 * PodAdapter.toPodInfo}, {@code NodeAdapter.toNodeInfo},
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
 * <p>Kept objects share the kept parts (labels, resource lists, tolerations, …) with the object received,
 * and a store shares equal kept parts between its objects: the pods of one Deployment then hold one set of
 * labels, owner references, tolerations, affinity and containers, the nodes one copy of each image. Parts
 * are equal as fabric8 compares them, which compares quantities by amount: a pod may show {@code 1} where
 * it said {@code 1000m} (in its status or overhead; containers compare their quantities as text). A dropped
 * collection reads as an immutable empty one, a dropped scalar as {@code null}. Like every object an informer
 * hands out, kept objects must not be modified.
 *
 * <p>The stores are keyed as fabric8's informers key their caches ({@code namespace/name}, or the name of a
 * cluster-scoped object) and are safe for concurrent use: fabric8 writes under its cache lock, the worker
 * reads from its own thread.
 */
public final class InformerStores {

  private static final String SCHEDULING_GROUP = "schedulingGroup";

  private InformerStores() {}

  /** @return a new, empty store for one pod informer, keeping of each pod what the scheduler reads */
  public static ItemStore<Pod> pods() {
    return new KeptFieldsStore<>(InformerStores::keptPod);
  }

  /** @return a new, empty store for one node informer, keeping of each node what the scheduler reads */
  public static ItemStore<Node> nodes() {
    return new KeptFieldsStore<>(InformerStores::keptNode);
  }

  /**
   * @param keep what to keep of each object; applied once, on the way in
   * @return a new, empty store for an informer of other kinds (namespaces, workloads, storage objects), keeping of each object
   *     what {@code keep} returns
   */
  static <T extends HasMetadata> ItemStore<T> keeping(UnaryOperator<T> keep) {
    return new KeptFieldsStore<>((object, parts) -> keep.apply(object));
  }

  /**
   * @param empty a new, empty object of the kind, to hold the kept metadata
   * @return a new, empty store keeping of each object only its name, namespace, uid and resourceVersion (what an
   *     informer needs to key and relist it): for the kinds whose record a cache beside the informer holds
   *     (storage objects in the {@code StorageCache}, dynamic-resource objects in the {@code DeviceCache})
   */
  public static <T extends HasMetadata> ItemStore<T> nameOnly(Supplier<T> empty) {
    return keeping(
        object -> {
          var meta = object.getMetadata();
          var kept = empty.get();
          kept.setMetadata(
              new ObjectMetaBuilder()
                  .withName(meta.getName())
                  .withNamespace(meta.getNamespace())
                  .withUid(meta.getUid())
                  .withResourceVersion(meta.getResourceVersion())
                  .build());
          return kept;
        });
  }

  /**
   * @return the form of {@code pod} a pod store keeps, without sharing parts with other pods: for comparing
   *     a received pod with the stored (old) one field for field
   */
  public static Pod kept(Pod pod) {
    return keptPod(pod, new SharedParts());
  }

  /**
   * @return a function that keeps pods as a store does, sharing equal kept parts among the pods it has kept
   *     and still referenced (the pods of one Deployment then hold one set of containers, labels and
   *     tolerations); thread-safe
   */
  static UnaryOperator<Pod> podKeeper() {
    var parts = new SharedParts();
    return pod -> keptPod(pod, parts);
  }

  /**
   * fabric8's map-backed store, with each object replaced by its kept form on the way in. Reads return the
   * stored instance: no copy per read, which matters because every scheduling cycle lists all nodes and the
   * pods on each.
   */
  private static final class KeptFieldsStore<T extends HasMetadata> implements ItemStore<T> {

    private final BasicItemStore<T> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    private final SharedParts parts = new SharedParts();
    private final BiFunction<T, SharedParts, T> keep;

    KeptFieldsStore(BiFunction<T, SharedParts, T> keep) {
      this.keep = keep;
    }

    @Override
    public String getKey(T object) {
      return items.getKey(object);
    }

    @Override
    public @Nullable T put(String key, T object) {
      return items.put(key, keep.apply(object, parts));
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

  /**
   * One instance of each kept part that is equal in several objects: the pods of one Deployment have equal
   * labels, owner, tolerations, affinity and containers, most pods have equal statuses, the nodes hold equal
   * images. Held weakly, so a part no stored object uses any more is forgotten. A part that cannot be hashed
   * (fabric8's {@code Quantity} throws on a malformed amount) is kept as it is.
   *
   * <p>Containers and lists of containers have a way of their own: fabric8 hashes and compares a quantity by
   * its amount, which it parses into {@code BigDecimal}s on every call, so sharing a pod's container and its
   * list of containers the general way parsed each of their quantities three or four times per watch event.
   * A container is found by its kept fields with quantities as their text ({@link ContainerKey}), a list of
   * shared containers by the identity of its elements.
   */
  private static final class SharedParts {

    private final Map<Object, WeakReference<Object>> known = new WeakHashMap<>();
    private final WeakValues<ContainerKey, Container> containers = new WeakValues<>();
    private final WeakValues<ElementIdentities, List<Container>> containerLists = new WeakValues<>();

    @SuppressWarnings("unchecked")
    synchronized <P> @Nullable P share(@Nullable P part) {
      if (part == null) {
        return null;
      }
      WeakReference<Object> reference;
      try {
        reference = known.get(part);
      } catch (RuntimeException e) {
        return part;
      }
      var shared = reference == null ? null : reference.get();
      if (shared != null) {
        return (P) shared;
      }
      known.put(part, new WeakReference<>(part));
      return part;
    }

    /** @return the kept form of each container, shared, in a list shared with other lists of the same ones */
    synchronized @Nullable List<Container> shareContainers(@Nullable List<Container> received) {
      if (received == null) {
        return null;
      }
      var kept = new Container[received.size()];
      for (int i = 0; i < kept.length; i++) {
        var container = keptContainer(received.get(i));
        kept[i] = container == null ? null : containers.intern(new ContainerKey(container), container);
      }
      var list = Collections.unmodifiableList(Arrays.asList(kept));
      return containerLists.intern(new ElementIdentities(kept), list);
    }
  }

  /**
   * A kept container's fields as {@link Container#equals} compares them, but each quantity as its text: two
   * containers of equal keys are equal, and the key's hash parses no quantity. (Two containers that say {@code 1}
   * and {@code 1000m} have different keys, so they are not shared; each keeps what it said.) Restart policy rules
   * count by their actions, the only part read ({@code PodAdapter.runtime}): their type is not on fabric8 7.4's model.
   */
  private record ContainerKey(
      @Nullable String name,
      @Nullable String image,
      @Nullable String restartPolicy,
      @Nullable List<ContainerPort> ports,
      @Nullable Map<String, QuantityText> limits,
      @Nullable Map<String, QuantityText> requests,
      @Nullable List<ResourceClaim> claims,
      @Nullable Map<String, Object> resourceExtras,
      boolean hasResources,
      List<VolumeMount> volumeMounts,
      List<@Nullable String> restartRuleActions) {

    ContainerKey(Container kept) {
      this(
          kept.getName(),
          kept.getImage(),
          kept.getRestartPolicy(),
          kept.getPorts(),
          texts(kept.getResources() == null ? null : kept.getResources().getLimits()),
          texts(kept.getResources() == null ? null : kept.getResources().getRequests()),
          kept.getResources() == null ? null : kept.getResources().getClaims(),
          kept.getResources() == null ? null : kept.getResources().getAdditionalProperties(),
          kept.getResources() != null,
          kept.getVolumeMounts(),
          Fabric8Compat.get().restartRuleActions(kept));
    }

    private static @Nullable Map<String, QuantityText> texts(@Nullable Map<String, Quantity> list) {
      if (list == null) {
        return null;
      }
      var texts = new HashMap<String, QuantityText>(list.size() * 2);
      list.forEach(
          (name, quantity) ->
              texts.put(
                  name,
                  quantity == null
                      ? null
                      : new QuantityText(
                          quantity.getAmount(), quantity.getFormat(), quantity.getAdditionalProperties())));
      return texts;
    }
  }

  /** A quantity as written: its amount and format, compared as text. */
  private record QuantityText(
      @Nullable String amount, @Nullable String format, @Nullable Map<String, Object> extras) {}

  /** A list's elements, compared by identity: the key of a list of shared parts. */
  private static final class ElementIdentities {
    private final Object[] elements;
    private final int hash;

    ElementIdentities(Object[] elements) {
      this.elements = elements;
      int h = 1;
      for (var element : elements) {
        h = 31 * h + System.identityHashCode(element);
      }
      this.hash = h;
    }

    @Override
    public boolean equals(@Nullable Object other) {
      if (!(other instanceof ElementIdentities that) || that.elements.length != elements.length) {
        return false;
      }
      for (int i = 0; i < elements.length; i++) {
        if (elements[i] != that.elements[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * A map from keys to values held weakly: {@link #intern} returns the value already there for an equal key
   * while one is still referenced elsewhere, else keeps the candidate. Entries whose value was collected are
   * dropped on the next call. Not thread-safe: {@link SharedParts} calls it under its lock.
   */
  private static final class WeakValues<K, V> {

    private final Map<K, Entry<K, V>> entries = new HashMap<>();
    private final ReferenceQueue<V> collected = new ReferenceQueue<>();

    private static final class Entry<K, V> extends WeakReference<V> {
      private final K key;

      Entry(V value, K key, ReferenceQueue<V> queue) {
        super(value, queue);
        this.key = key;
      }
    }

    V intern(K key, V candidate) {
      for (var gone = collected.poll(); gone != null; gone = collected.poll()) {
        @SuppressWarnings("unchecked")
        var entry = (Entry<K, V>) gone;
        entries.remove(entry.key, entry);
      }
      var entry = entries.get(key);
      var known = entry == null ? null : entry.get();
      if (known != null) {
        return known;
      }
      entries.put(key, new Entry<>(candidate, key, collected));
      return candidate;
    }
  }

  // Every fabric8 model object starts with a dozen empty mutable collections (and a map of unknown
  // properties); the objects built here hold shared immutable empty ones instead.

  private static Pod keptPod(Pod pod, SharedParts parts) {
    var kept = new Pod();
    kept.setApiVersion(pod.getApiVersion());
    kept.setKind(pod.getKind());
    var meta = keptMeta(pod.getMetadata(), parts);
    if (meta != null) {
      meta.setOwnerReferences(parts.share(pod.getMetadata().getOwnerReferences()));
      meta.setDeletionTimestamp(pod.getMetadata().getDeletionTimestamp());
    }
    kept.setMetadata(meta);
    kept.setSpec(pod.getSpec() == null ? null : keptSpec(pod.getSpec(), parts));
    kept.setStatus(pod.getStatus() == null ? null : parts.share(keptStatus(pod.getStatus(), parts)));
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  /** The metadata both kinds keep: what keys the object, its version, generation, uid and labels. */
  private static @Nullable ObjectMeta keptMeta(@Nullable ObjectMeta meta, SharedParts parts) {
    if (meta == null) {
      return null;
    }
    var kept = new ObjectMeta();
    kept.setName(meta.getName());
    kept.setNamespace(parts.share(meta.getNamespace()));
    kept.setUid(meta.getUid());
    kept.setResourceVersion(meta.getResourceVersion());
    // The reporter writes it as its condition's observedGeneration, as kube-scheduler does.
    kept.setGeneration(meta.getGeneration());
    kept.setLabels(parts.share(meta.getLabels()));
    kept.setOwnerReferences(List.of());
    kept.setAnnotations(Map.of());
    kept.setFinalizers(List.of());
    kept.setManagedFields(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static PodSpec keptSpec(PodSpec spec, SharedParts parts) {
    var kept = new PodSpec();
    kept.setNodeName(parts.share(spec.getNodeName()));
    kept.setSchedulerName(parts.share(spec.getSchedulerName()));
    kept.setPriority(spec.getPriority());
    kept.setPreemptionPolicy(parts.share(spec.getPreemptionPolicy()));
    kept.setNodeSelector(parts.share(spec.getNodeSelector()));
    kept.setAffinity(parts.share(keptAffinity(spec.getAffinity())));
    kept.setTolerations(parts.share(spec.getTolerations()));
    kept.setOverhead(parts.share(spec.getOverhead()));
    kept.setResources(parts.share(spec.getResources()));
    kept.setVolumes(parts.share(keptVolumes(spec.getVolumes())));
    kept.setContainers(parts.shareContainers(spec.getContainers()));
    kept.setInitContainers(parts.shareContainers(spec.getInitContainers()));
    kept.setEphemeralContainers(keptEphemeralContainers(spec.getEphemeralContainers()));
    // What the node's runtime is asked for (NodeDeclaredFeatures reads it).
    kept.setHostNetwork(spec.getHostNetwork());
    kept.setHostUsers(spec.getHostUsers());
    kept.setHostAliases(List.of());
    kept.setImagePullSecrets(List.of());
    kept.setReadinessGates(List.of());
    kept.setResourceClaims(parts.share(spec.getResourceClaims()));
    kept.setSchedulingGates(parts.share(spec.getSchedulingGates()));
    kept.setTopologySpreadConstraints(parts.share(spec.getTopologySpreadConstraints()));
    kept.setAdditionalProperties(keptExtras(spec.getAdditionalProperties()));
    // Fields fabric8 7's model lacks (where it keeps schedulingGroup in the extras above).
    var compat = Fabric8Compat.get();
    compat.setSchedulingGroup(kept, parts.share(compat.schedulingGroup(spec)));
    compat.clearUnread(kept);
    return kept;
  }

  /**
   * Of a spec's unknown properties, only {@code schedulingGroup}: a model that has no such field leaves it
   * there, and {@code PodAdapter} reads it from there.
   */
  private static Map<String, Object> keptExtras(@Nullable Map<String, Object> extras) {
    var group = extras == null ? null : extras.get(SCHEDULING_GROUP);
    return group == null ? Map.of() : Map.of(SCHEDULING_GROUP, group);
  }

  /** Node affinity, pod affinity and pod anti-affinity: everything an {@code Affinity} holds, sans extras. */
  private static @Nullable Affinity keptAffinity(@Nullable Affinity affinity) {
    if (affinity == null
        || affinity.getNodeAffinity() == null
            && affinity.getPodAffinity() == null
            && affinity.getPodAntiAffinity() == null) {
      return null;
    }
    var kept = new Affinity();
    kept.setNodeAffinity(affinity.getNodeAffinity());
    kept.setPodAffinity(affinity.getPodAffinity());
    kept.setPodAntiAffinity(affinity.getPodAntiAffinity());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  /**
   * The volumes whose conflicts the scheduler checks, inline CSI volumes (counted against attach limits) and
   * those that use a persistent volume claim (by name,
   * or a generic ephemeral one), whole: a volume naming one of these kinds and another is kept, so that it is
   * refused as before.
   */
  private static @Nullable List<Volume> keptVolumes(@Nullable List<Volume> volumes) {
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
                    || v.getIscsi() != null
                    || v.getCsi() != null
                    || v.getPersistentVolumeClaim() != null
                    || v.getEphemeral() != null)
        .toList();
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
    kept.setVolumeDevices(List.of());
    kept.setVolumeMounts(keptMounts(container.getVolumeMounts()));
    kept.setAdditionalProperties(Map.of());
    var compat = Fabric8Compat.get();
    compat.clearUnread(kept);
    compat.copyRestartPolicyRules(container, kept);
    return kept;
  }

  /**
   * Of a container's volume mounts, those that set {@code bindMountOptions}, with only their name and options (a pod
   * with one needs its node to declare {@code VolumeBindMountOptions}); an immutable empty list for the usual
   * container, which has none.
   */
  private static List<VolumeMount> keptMounts(@Nullable List<VolumeMount> mounts) {
    if (mounts == null || mounts.isEmpty()) {
      return List.of();
    }
    var compat = Fabric8Compat.get();
    List<VolumeMount> kept = null;
    for (var mount : mounts) {
      var options = mount == null ? null : compat.bindMountOptions(mount);
      if (options == null || options.isEmpty()) {
        continue;
      }
      var trimmed = new VolumeMount();
      trimmed.setName(mount.getName());
      trimmed.setAdditionalProperties(Map.of());
      compat.setBindMountOptions(trimmed, options);
      if (kept == null) {
        kept = new ArrayList<>(1);
      }
      kept.add(trimmed);
    }
    return kept == null ? List.of() : List.copyOf(kept);
  }

  /** Of the ephemeral containers, those with a mount that sets {@code bindMountOptions}: their name and such mounts. */
  private static List<EphemeralContainer> keptEphemeralContainers(@Nullable List<EphemeralContainer> containers) {
    if (containers == null || containers.isEmpty()) {
      return List.of();
    }
    List<EphemeralContainer> kept = null;
    for (var container : containers) {
      var mounts = container == null ? List.<VolumeMount>of() : keptMounts(container.getVolumeMounts());
      if (mounts.isEmpty()) {
        continue;
      }
      var trimmed = new EphemeralContainer();
      trimmed.setName(container.getName());
      trimmed.setArgs(List.of());
      trimmed.setCommand(List.of());
      trimmed.setEnv(List.of());
      trimmed.setEnvFrom(List.of());
      trimmed.setPorts(List.of());
      trimmed.setResizePolicy(List.of());
      trimmed.setVolumeDevices(List.of());
      trimmed.setVolumeMounts(mounts);
      trimmed.setAdditionalProperties(Map.of());
      if (kept == null) {
        kept = new ArrayList<>(1);
      }
      kept.add(trimmed);
    }
    return kept == null ? List.of() : List.copyOf(kept);
  }

  /**
   * The conditions kept: PodScheduled, the two that say how far an in-place resize is, and DisruptionTarget,
   * which marks a pod a scheduler preempted.
   */
  private static final Set<String> KEPT_CONDITIONS =
      Set.of("PodScheduled", "PodResizePending", "PodResizeInProgress", "DisruptionTarget");

  /**
   * The conditions in their places: those of {@link #KEPT_CONDITIONS} whole, every other one as its type alone
   * (shared). The reporter's status patch names a condition by its index in the server's list, and adds the list
   * itself when the pod shows none, which would replace every condition the pod has; so the kept list is as long as
   * the server's, in its order.
   */
  private static List<PodCondition> keptConditions(@Nullable List<PodCondition> conditions, SharedParts parts) {
    if (conditions == null || conditions.isEmpty()) {
      return List.of();
    }
    var kept = new ArrayList<PodCondition>(conditions.size());
    for (var condition : conditions) {
      if (condition != null) {
        kept.add(KEPT_CONDITIONS.contains(condition.getType()) ? condition : parts.share(typeOnly(condition)));
      }
    }
    return List.copyOf(kept);
  }

  private static PodCondition typeOnly(PodCondition condition) {
    var kept = new PodCondition();
    kept.setType(condition.getType());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static PodStatus keptStatus(PodStatus status, SharedParts parts) {
    var kept = new PodStatus();
    kept.setPhase(status.getPhase());
    // Preemption reads them: victims of equal priority that started first are spared, a nominated pod has
    // room held on its node, and a victim marked DisruptionTarget stops its preemptor from preempting again.
    kept.setStartTime(status.getStartTime());
    kept.setNominatedNodeName(status.getNominatedNodeName());
    // The reporter reads PodScheduled to write it only when it changes; without it, every attempt would
    // rewrite the condition, change the pod's resourceVersion and start a new event instead of a series.
    // PodResizePending says whether a resize is infeasible, which changes how the pod's requests count.
    // DisruptionTarget (True, PreemptionByScheduler) marks a pod being deleted as a preemption victim.
    kept.setConditions(keptConditions(status.getConditions(), parts));
    // A status differs per pod (its PodScheduled condition's time, its start time), but the kept container
    // statuses of the pods of one Deployment are equal: shared, they cost once per Deployment instead of once
    // per pod.
    kept.setContainerStatuses(parts.share(keptContainerStatuses(status.getContainerStatuses())));
    kept.setEphemeralContainerStatuses(List.of());
    kept.setHostIPs(List.of());
    kept.setInitContainerStatuses(parts.share(keptContainerStatuses(status.getInitContainerStatuses())));
    kept.setPodIPs(List.of());
    // The claims made from templates for the pod: which claim each of spec.resourceClaims resolves to.
    kept.setResourceClaimStatuses(parts.share(status.getResourceClaimStatuses()));
    kept.setAdditionalProperties(Map.of());
    // Fields fabric8 7's model lacks: there they are kept in the extras just emptied.
    var compat = Fabric8Compat.get();
    compat.setAllocatedResources(kept, parts.share(compat.allocatedResources(status)));
    compat.setResources(kept, parts.share(requestsOnly(compat.resources(status))));
    compat.clearUnread(kept);
    return kept;
  }

  /** Of each container status, what an in-place resize is counted from: name, allocated and actuated requests. */
  private static @Nullable List<ContainerStatus> keptContainerStatuses(@Nullable List<ContainerStatus> statuses) {
    if (statuses == null) {
      return null;
    }
    return statuses.stream().map(InformerStores::keptContainerStatus).toList();
  }

  private static @Nullable ContainerStatus keptContainerStatus(@Nullable ContainerStatus status) {
    if (status == null) {
      return null;
    }
    var kept = new ContainerStatus();
    kept.setName(status.getName());
    kept.setAllocatedResources(status.getAllocatedResources());
    kept.setResources(requestsOnly(status.getResources()));
    kept.setAllocatedResourcesStatus(List.of());
    kept.setVolumeMounts(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  /** Resource requirements with their requests only; {@code null} stays {@code null}, as readers tell it apart. */
  private static @Nullable ResourceRequirements requestsOnly(@Nullable ResourceRequirements resources) {
    if (resources == null) {
      return null;
    }
    var kept = new ResourceRequirements();
    kept.setRequests(resources.getRequests());
    kept.setLimits(Map.of());
    kept.setClaims(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static Node keptNode(Node node, SharedParts parts) {
    var kept = new Node();
    kept.setApiVersion(node.getApiVersion());
    kept.setKind(node.getKind());
    kept.setMetadata(keptMeta(node.getMetadata(), parts));
    kept.setSpec(node.getSpec() == null ? null : keptNodeSpec(node.getSpec(), parts));
    kept.setStatus(node.getStatus() == null ? null : keptNodeStatus(node.getStatus(), parts));
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static NodeSpec keptNodeSpec(NodeSpec spec, SharedParts parts) {
    var kept = new NodeSpec();
    kept.setUnschedulable(spec.getUnschedulable());
    kept.setTaints(parts.share(spec.getTaints()));
    kept.setPodCIDRs(List.of());
    kept.setAdditionalProperties(Map.of());
    return kept;
  }

  private static NodeStatus keptNodeStatus(NodeStatus status, SharedParts parts) {
    var kept = new NodeStatus();
    kept.setAllocatable(parts.share(status.getAllocatable()));
    var images = status.getImages();
    kept.setImages(images == null ? null : parts.share(images.stream().map(parts::share).toList()));
    kept.setAddresses(List.of());
    kept.setCapacity(Map.of());
    kept.setConditions(List.of());
    kept.setRuntimeHandlers(List.of());
    kept.setVolumesAttached(List.of());
    kept.setVolumesInUse(List.of());
    kept.setAdditionalProperties(Map.of());
    var compat = Fabric8Compat.get();
    compat.clearUnread(kept);
    var features = compat.declaredFeatures(status);
    if (features != null && !features.isEmpty()) {
      compat.setDeclaredFeatures(kept, parts.share(features));
    }
    return kept;
  }
}
