package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kubesched.adapter.ClusterDataAdapter;
import io.kubesched.adapter.DisruptionBudgetAdapter;
import io.kubesched.adapter.DynamicResourceAdapter;
import io.kubesched.adapter.StorageAdapter;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.Storage;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.api.DynamicResources;
import io.kubesched.engine.ClusterDataCache;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.DeviceCache;
import io.kubesched.engine.StorageCache;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches what the policy reads beyond nodes and pods ({@link ClusterData}: {@link
 * io.kubesched.informer.cycle.Profiles#watched()}, the union of the profiles' first {@link
 * io.kubesched.api.FinderFunc#reads()} and what the settings add for later policies): namespaces, Services,
 * ReplicationControllers, ReplicaSets
 * and StatefulSets, PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes, CSIDrivers,
 * CSIStorageCapacities, ({@code policy/v1}) PodDisruptionBudgets and ({@code resource.k8s.io/v1}) ResourceClaims,
 * ResourceSlices, DeviceClasses and DeviceTaintRules, each only when it is read, so a policy
 * that reads none costs no watch and needs no permission. Their informers keep of each object only its name
 * and what the snapshot needs (a namespace's labels, a workload's selector, a budget's selector and the
 * status preemption counts with; of a storage or dynamic-resource object only its name, as its record is kept in
 * the {@link StorageCache} or the {@link DeviceCache}), and fill a {@link ClusterDataCache}, the {@link #storage()
 * StorageCache} and the {@link #devices() DeviceCache}.
 *
 * <p>Started and synced with the node and pod informers; {@link #restart} lists everything again into a
 * fresh cache and swaps it in once synced, so that what was deleted while unwatched is gone. The {@link
 * StorageCache} is one for the informers' whole life, since the loop holds the volumes it reserved for pods
 * in it: a start or restart lists the storage objects into a fresh staging cache and, once synced, {@linkplain
 * StorageCache#replaceObjects replaces} the objects of the one cache with them, its reservations kept; the same
 * for the {@link DeviceCache} and the allocations it holds assumed.
 *
 * <p>A namespace added or relabelled is reported to {@code namespaceChanged}, and a storage object added, or
 * updated in what the volume rules read, to {@link StorageEvents} (on the informer's thread), except during
 * the initial list of a start or restart, after which the controller moves every waiting pod anyway. Which
 * storage changes are reported follows kube-scheduler's volume plugins' {@code EventsToRegister}: adds and
 * updates, no CSIDriver add, no deletes. Dynamic-resource changes are reported to {@link DeviceEvents}: a claim added,
 * its status changed or deleted, with whether devices were freed; a slice, class or taint rule added, changed in
 * what the allocator reads, or deleted; {@link ClusterEventMoves} keeps those kube's DynamicResources plugin
 * registers. An object that cannot be read ({@link
 * io.kubesched.api.MalformedObjectException}) is left out of the snapshot, with a warning.
 *
 * <p>Lifecycle: {@link #start} once, {@link #restart} any number of times, each followed by its {@link
 * Listing#await} (or {@link Listing#abort}), {@link #close()} any number of times; they are called by one thread
 * at a time (the controller's start, watchdog and close).
 */
public final class ClusterDataInformers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDataInformers.class);

  /** The storage kinds: where the policy reads one, each snapshot carries the {@link StorageCache}'s storage. */
  private static final Set<ClusterData> STORAGE =
      EnumSet.of(
          ClusterData.PERSISTENT_VOLUME_CLAIMS,
          ClusterData.PERSISTENT_VOLUMES,
          ClusterData.STORAGE_CLASSES,
          ClusterData.CSI_NODES,
          ClusterData.CSI_DRIVERS,
          ClusterData.CSI_STORAGE_CAPACITIES);

  /** The dynamic-resource kinds: where the policy reads one, each snapshot carries the {@link DeviceCache}'s. */
  private static final Set<ClusterData> DEVICES =
      EnumSet.of(
          ClusterData.RESOURCE_CLAIMS,
          ClusterData.RESOURCE_SLICES,
          ClusterData.DEVICE_CLASSES,
          ClusterData.DEVICE_TAINT_RULES);

  /** {@code resource.k8s.io/v1} DeviceTaintRules, read generically: fabric8 7.5 has no model of this version. */
  static final ResourceDefinitionContext DEVICE_TAINT_RULES =
      new ResourceDefinitionContext.Builder()
          .withGroup("resource.k8s.io")
          .withVersion("v1")
          .withKind("DeviceTaintRule")
          .withPlural("devicetaintrules")
          .withNamespaced(false)
          .build();

  /**
   * Hears of storage objects changed, as {@link ClusterEventMoves} takes them; called on an informer's thread.
   */
  interface StorageEvents {
    /** Hears of nothing. */
    StorageEvents NONE =
        new StorageEvents() {
          @Override
          public void claimChanged(ClusterEvent event, String namespace, String name) {}

          @Override
          public void storageChanged(ClusterEvent event) {}
        };

    /** A claim was added or updated ({@link ClusterEvent#PERSISTENT_VOLUME_CLAIM_ADD} or {@code _UPDATE}). */
    void claimChanged(ClusterEvent event, String namespace, String name);

    /** Another storage object was added or updated: one of the other storage events of {@link ClusterEvent}. */
    void storageChanged(ClusterEvent event);
  }

  /**
   * Hears of dynamic-resource objects changed, as {@link ClusterEventMoves} takes them; called on an informer's
   * thread.
   */
  interface DeviceEvents {
    /** Hears of nothing. */
    DeviceEvents NONE =
        new DeviceEvents() {
          @Override
          public void claimChanged(
              ClusterEvent event, String namespace, String name, @Nullable String ownerUid, boolean freesDevices) {}

          @Override
          public void supplyChanged(ClusterEvent event) {}
        };

    /**
     * A ResourceClaim was added, its status changed, or it was deleted (its other updates are not reported).
     *
     * @param event {@link ClusterEvent#RESOURCE_CLAIM_ADD}, {@code _UPDATE} or {@code _DELETE}
     * @param ownerUid the uid of the claim's controller, {@code null} if none
     * @param freesDevices whether devices were freed: the claim was deallocated, or deleted while allocated (as
     *     last seen or as deleted) or in a final state not known
     */
    void claimChanged(ClusterEvent event, String namespace, String name, @Nullable String ownerUid,
        boolean freesDevices);

    /** A ResourceSlice, DeviceClass or DeviceTaintRule was added, changed in what the allocator reads, or deleted. */
    void supplyChanged(ClusterEvent event);
  }

  private final KubernetesClient client;
  private final Set<ClusterData> reads;
  private final boolean readsStorage;
  private final Consumer<String> namespaceChanged;
  private final StorageEvents storageEvents;
  private final StorageCache storage;
  private final boolean readsDevices;
  private final DeviceEvents deviceEvents;
  private final DeviceCache devices;
  private volatile ClusterDataCache cache;
  private volatile List<SharedIndexInformer<?>> informers = List.of();
  private volatile Feed<StorageCache> feed;
  private volatile Feed<DeviceCache> deviceFeed;

  /**
   * The loop's informers: storage changes move the pods they may help (as kube's volume plugins register) and
   * then run {@code storageSeen} (the binding cycle's check of pods waiting for their volumes).
   *
   * @param client the client to watch with; not closed here
   * @param reads what the policy reads; nothing is watched for an empty set
   * @param moves hears of namespaces and storage objects changed
   * @param storage the loop's one storage cache, which these informers fill
   * @param storageSeen runs on the informer's thread after each reported storage change; must not block
   */
  public ClusterDataInformers(
      KubernetesClient client,
      Set<ClusterData> reads,
      ClusterEventMoves moves,
      StorageCache storage,
      Runnable storageSeen) {
    this(client, reads, moves, storage, new DeviceCache(), storageSeen);
  }

  /**
   * The loop's informers, as {@link #ClusterDataInformers(KubernetesClient, Set, ClusterEventMoves, StorageCache,
   * Runnable)}, filling the loop's one {@code devices} cache too; a dynamic-resource change moves the pods kube's
   * DynamicResources plugin would ({@link ClusterEventMoves#deviceClaimChanged}, {@link
   * ClusterEventMoves#deviceSupplyChanged}).
   *
   * @param devices the loop's one device cache, which these informers fill and the binding cycle assumes in
   */
  public ClusterDataInformers(
      KubernetesClient client,
      Set<ClusterData> reads,
      ClusterEventMoves moves,
      StorageCache storage,
      DeviceCache devices,
      Runnable storageSeen) {
    this(
        client,
        reads,
        moves::namespaceChanged,
        new StorageEvents() {
          @Override
          public void claimChanged(ClusterEvent event, String namespace, String name) {
            moves.claimChanged(event, namespace, name);
            storageSeen.run();
          }

          @Override
          public void storageChanged(ClusterEvent event) {
            moves.storageChanged(event);
            storageSeen.run();
          }
        },
        storage,
        new DeviceEvents() {
          @Override
          public void claimChanged(
              ClusterEvent event, String namespace, String name, @Nullable String ownerUid, boolean freesDevices) {
            moves.deviceClaimChanged(event, namespace, name, ownerUid, freesDevices);
          }

          @Override
          public void supplyChanged(ClusterEvent event) {
            moves.deviceSupplyChanged(event);
          }
        },
        devices);
  }

  /**
   * @param client the client to watch with; not closed here
   * @param reads what the policy reads; nothing is watched for an empty set
   * @param namespaceChanged hears the name of a namespace added, or whose labels changed
   */
  ClusterDataInformers(KubernetesClient client, Set<ClusterData> reads, Consumer<String> namespaceChanged) {
    this(client, reads, namespaceChanged, StorageEvents.NONE, new StorageCache(), DeviceEvents.NONE,
        new DeviceCache());
  }

  /**
   * @param client the client to watch with; not closed here
   * @param reads what the policy reads; nothing is watched for an empty set
   * @param namespaceChanged hears the name of a namespace added, or whose labels changed
   * @param storageEvents hears of storage objects added or changed
   */
  ClusterDataInformers(
      KubernetesClient client,
      Set<ClusterData> reads,
      Consumer<String> namespaceChanged,
      StorageEvents storageEvents) {
    this(client, reads, namespaceChanged, storageEvents, new StorageCache(), DeviceEvents.NONE, new DeviceCache());
  }

  /**
   * @param client the client to watch with; not closed here
   * @param reads what the policy reads; nothing is watched for an empty set
   * @param deviceEvents hears of the dynamic-resource events (after the initial list)
   * @param devices the device cache to fill
   */
  ClusterDataInformers(
      KubernetesClient client,
      Set<ClusterData> reads,
      DeviceEvents deviceEvents,
      DeviceCache devices) {
    this(client, reads, name -> {}, StorageEvents.NONE, new StorageCache(), deviceEvents, devices);
  }

  private ClusterDataInformers(
      KubernetesClient client,
      Set<ClusterData> reads,
      Consumer<String> namespaceChanged,
      StorageEvents storageEvents,
      StorageCache storage,
      DeviceEvents deviceEvents,
      DeviceCache devices) {
    this.client = client;
    this.reads = Set.copyOf(reads);
    this.readsStorage = this.reads.stream().anyMatch(STORAGE::contains);
    this.readsDevices = this.reads.stream().anyMatch(DEVICES::contains);
    this.namespaceChanged = namespaceChanged;
    this.storageEvents = storageEvents;
    this.storage = storage;
    this.deviceEvents = deviceEvents;
    this.devices = devices;
    this.cache = new ClusterDataCache(this.reads);
    this.feed = storageFeed();
    this.deviceFeed = deviceFeed();
  }

  /**
   * @return the dynamic-resource objects as watched, with the loop's assumed allocations: one instance for the
   *     life of these informers, across restarts; empty where the policy reads no dynamic-resource kind
   */
  public DeviceCache devices() {
    return devices;
  }

  /**
   * @return the storage objects as watched, with the loop's volume reservations: one instance for the life of
   *     these informers, across restarts; empty where the policy reads no storage kind
   */
  StorageCache storage() {
    return storage;
  }

  /** @return what is watched */
  public Set<ClusterData> reads() {
    return reads;
  }

  /**
   * Starts the informers' first lists, all at once, without waiting for them: {@link Listing#await} waits and
   * then puts what they listed in place.
   */
  Listing start() {
    return new Listing(false);
  }

  /**
   * Starts new informers that list everything again into a fresh cache, without waiting: {@link Listing#await}
   * waits, then swaps the fresh cache in and stops the old informers.
   */
  Listing restart() {
    return new Listing(true);
  }

  /**
   * A {@link #start} or {@link #restart} under way: its informers listing into a fresh cache and staging feeds.
   * Used by the thread that started it.
   */
  final class Listing {

    private final boolean restart;
    private final ClusterDataCache fresh = new ClusterDataCache(reads);
    private final Feed<StorageCache> freshFeed = storageFeed();
    private final Feed<DeviceCache> freshDeviceFeed = deviceFeed();
    private final List<SharedIndexInformer<?>> created = new ArrayList<>();
    private final List<CompletableFuture<Void>> lists = new ArrayList<>();
    /** Per informer, what its handlers have been given, for {@link #awaitHandled}. */
    private final List<InformerSet.Handled> handled = new ArrayList<>();

    private Listing(boolean restart) {
      this.restart = restart;
      try {
        createInformers(fresh, freshFeed, freshDeviceFeed, created);
        for (var informer : created) {
          handled.add(InformerSet.Handled.track(informer));
          lists.add(informer.start().toCompletableFuture());
        }
      } catch (RuntimeException e) {
        abort();
        throw e;
      }
    }

    /**
     * Waits until every informer has listed, then makes the fresh cache and feeds the live ones (and, for a
     * restart, stops the old informers).
     *
     * @param deadline the {@link System#nanoTime} by which every list must be done
     * @throws ExecutionException if a list fails, TimeoutException if one is not done by {@code deadline}: the
     *     fresh informers are stopped then, and the old ones and their cache stay
     */
    void await(long deadline) throws InterruptedException, ExecutionException, TimeoutException {
      InformerSet.awaitAll(lists, deadline, this::abort);
      awaitHandled(deadline);
      var old = informers;
      cache = fresh;
      informers = List.copyOf(created);
      feed.close(); // what the old informers still hear is no longer written
      deviceFeed.close();
      freshFeed.goLive();
      freshDeviceFeed.goLive();
      feed = freshFeed;
      deviceFeed = freshDeviceFeed;
      if (restart) {
        old.forEach(SharedIndexInformer::stop);
      }
    }

    /**
     * Waits until each informer's handlers have been given every object its list stored ({@link
     * InformerSet.Handled}): without it, an object listed could reach the fresh cache only after it went live
     * (and then as a change, announced), and the first snapshots would lack it.
     *
     * @throws TimeoutException if they have not by {@code deadline}; the fresh informers are stopped then
     */
    private void awaitHandled(long deadline) throws InterruptedException, TimeoutException {
      try {
        for (var informer : handled) {
          informer.await(deadline);
        }
      } catch (InterruptedException | TimeoutException e) {
        abort();
        throw e;
      }
    }

    /** Stops the fresh informers; the old ones and their cache stay. */
    void abort() {
      freshFeed.close();
      freshDeviceFeed.close();
      created.forEach(SharedIndexInformer::stop);
    }
  }

  /** @return whether every informer says it is watching (true when there are none) */
  boolean isWatching() {
    for (var informer : informers) {
      if (!informer.isWatching()) {
        return false;
      }
    }
    return true;
  }

  /** @return each informer's last resource version, always in the same order */
  List<@Nullable String> versions() {
    var versions = new ArrayList<@Nullable String>();
    informers.forEach(informer -> versions.add(informer.lastSyncResourceVersion()));
    return versions;
  }

  /**
   * @return the snapshot of one decision over {@code nodes}, with the {@link #storage()}'s storage where the
   *     policy reads storage and the {@link #devices()}' dynamic resources where it reads them: see {@link
   *     ClusterDataCache#snapshot(List, Storage, DynamicResources, Nominations)}
   */
  public ClusterSnapshot snapshot(List<NodeInfo> nodes) {
    return snapshot(nodes, Nominations.NONE);
  }

  /** As {@link #snapshot(List)}, with the pods preemption nominated to nodes. */
  public ClusterSnapshot snapshot(List<NodeInfo> nodes, Nominations nominations) {
    return cache.snapshot(
        nodes,
        readsStorage ? storage.storage() : Storage.empty(),
        readsDevices ? devices.dynamicResources() : DynamicResources.empty(),
        nominations);
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::stop);
  }

  /** Creates, without starting them, the informers of what the policy reads, into {@code created}. */
  private void createInformers(
      ClusterDataCache into,
      Feed<StorageCache> feed,
      Feed<DeviceCache> deviceFeed,
      List<SharedIndexInformer<?>> created) {
    createStorageInformers(feed, created);
    createDeviceInformers(deviceFeed, created);
    if (reads.contains(ClusterData.NAMESPACES)) {
      created.add(namespaces(into));
    }
    if (reads.contains(ClusterData.SERVICES)) {
      created.add(
          workloads(
              client.services().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              into,
              "Service",
              ClusterDataAdapter::workloadSelector,
              service ->
                  new ServiceBuilder()
                      .withMetadata(name(service))
                      .withNewSpec()
                      .withSelector(service.getSpec() == null ? null : service.getSpec().getSelector())
                      .endSpec()
                      .build()));
    }
    if (reads.contains(ClusterData.REPLICATION_CONTROLLERS)) {
      created.add(
          workloads(
              client.replicationControllers().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              into,
              "ReplicationController",
              ClusterDataAdapter::workloadSelector,
              controller ->
                  new ReplicationControllerBuilder()
                      .withMetadata(name(controller))
                      .withNewSpec()
                      .withSelector(controller.getSpec() == null ? null : controller.getSpec().getSelector())
                      .endSpec()
                      .build()));
    }
    if (reads.contains(ClusterData.REPLICA_SETS)) {
      created.add(
          workloads(
              client.apps().replicaSets().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              into,
              "ReplicaSet",
              ClusterDataAdapter::workloadSelector,
              replicaSet ->
                  new ReplicaSetBuilder()
                      .withMetadata(name(replicaSet))
                      .withNewSpec()
                      .withSelector(replicaSet.getSpec() == null ? null : replicaSet.getSpec().getSelector())
                      .endSpec()
                      .build()));
    }
    if (reads.contains(ClusterData.POD_DISRUPTION_BUDGETS)) {
      created.add(disruptionBudgets(into));
    }
    if (reads.contains(ClusterData.STATEFUL_SETS)) {
      created.add(
          workloads(
              client.apps().statefulSets().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              into,
              "StatefulSet",
              ClusterDataAdapter::workloadSelector,
              statefulSet ->
                  new StatefulSetBuilder()
                      .withMetadata(name(statefulSet))
                      .withNewSpec()
                      .withSelector(statefulSet.getSpec() == null ? null : statefulSet.getSpec().getSelector())
                      .endSpec()
                      .build()));
    }
  }

  private SharedIndexInformer<Namespace> namespaces(ClusterDataCache into) {
    var informer = client.namespaces().withLimit(InformerSet.LIST_PAGE).runnableInformer(0);
    informer.itemStore(
        InformerStores.keeping(
            namespace ->
                new NamespaceBuilder()
                    .withMetadata(
                        new ObjectMetaBuilder(name(namespace))
                            .withLabels(ClusterDataAdapter.namespaceLabels(namespace))
                            .build())
                    .build()));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Namespace namespace) {
            put(namespace);
          }

          @Override
          public void onUpdate(Namespace oldNamespace, Namespace namespace) {
            put(namespace);
          }

          @Override
          public void onDelete(Namespace namespace, boolean deletedFinalStateUnknown) {
            into.removeNamespace(namespace.getMetadata().getName());
          }

          private void put(Namespace namespace) {
            var name = namespace.getMetadata().getName();
            // During the initial list the cache is not live yet: the controller moves every pod after it.
            if (into.putNamespace(name, ClusterDataAdapter.namespaceLabels(namespace)) && cache == into) {
              namespaceChanged.accept(name);
            }
          }
        });
    return informer;
  }

  /**
   * PodDisruptionBudgets, by {@code namespace/name}. A change moves no waiting pod: kube-scheduler registers no
   * event for them (a budget only decides which victims preemption prefers, on the pod's next attempt).
   */
  private SharedIndexInformer<PodDisruptionBudget> disruptionBudgets(ClusterDataCache into) {
    var informer =
        client.policy().v1().podDisruptionBudget().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0);
    informer.itemStore(InformerStores.keeping(ClusterDataInformers::keptBudget));
    // kube-scheduler counts a budget whose selector it cannot parse as protecting no pod: it is left out.
    informer.addEventHandler(
        keyedHandler(
            "PodDisruptionBudget",
            Cache::metaNamespaceKeyFunc,
            (key, budget) -> into.putDisruptionBudget(key, DisruptionBudgetAdapter.toBudget(budget)),
            into::removeDisruptionBudget));
    return informer;
  }

  /** What {@link DisruptionBudgetAdapter} reads of a budget: its selector, allowed disruptions and disrupted pods. */
  static PodDisruptionBudget keptBudget(PodDisruptionBudget budget) {
    var spec = budget.getSpec();
    var status = budget.getStatus();
    var kept = new PodDisruptionBudgetBuilder().withMetadata(name(budget));
    if (spec != null) {
      kept.withNewSpec().withSelector(spec.getSelector()).endSpec();
    }
    if (status != null) {
      kept.withNewStatus()
          .withDisruptionsAllowed(status.getDisruptionsAllowed())
          .withDisruptedPods(status.getDisruptedPods())
          .endStatus();
    }
    return kept.build();
  }

  private static <T extends HasMetadata> SharedIndexInformer<T> workloads(
      SharedIndexInformer<T> informer,
      ClusterDataCache into,
      String kind,
      Function<T, Optional<WorkloadSelector>> selector,
      UnaryOperator<T> keep) {
    informer.itemStore(InformerStores.keeping(keep));
    informer.addEventHandler(
        keyedHandler(
            kind,
            object -> kind + "/" + Cache.metaNamespaceKeyFunc(object),
            (key, object) -> into.putWorkload(key, selector.apply(object).orElse(null)),
            into::removeWorkload));
    return informer;
  }

  /**
   * A handler that puts each added or updated object under its key and removes a deleted one. An object the
   * put rejects (it throws: a malformed object) is removed instead and logged, never thrown: a handler that
   * throws would stop fabric8's event delivery. Runs on the informer's thread, as its handlers do.
   *
   * @param kind the object's kind, for the log
   */
  private static <T extends HasMetadata> ResourceEventHandler<T> keyedHandler(
      String kind, Function<T, String> key, BiConsumer<String, T> put, Consumer<String> remove) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        put(object);
      }

      @Override
      public void onUpdate(T oldObject, T object) {
        put(object);
      }

      @Override
      public void onDelete(T object, boolean deletedFinalStateUnknown) {
        remove.accept(key.apply(object));
      }

      private void put(T object) {
        var itsKey = key.apply(object);
        try {
          put.accept(itsKey, object);
        } catch (RuntimeException e) {
          remove.accept(itsKey);
          LOG.warn("Leaving {} {} out of the snapshot: {}", kind, Cache.metaNamespaceKeyFunc(object), e.toString());
        }
      }
    };
  }

  private void createStorageInformers(Feed<StorageCache> feed, List<SharedIndexInformer<?>> created) {
    if (reads.contains(ClusterData.PERSISTENT_VOLUME_CLAIMS)) {
      created.add(
          nameOnlyInformer(
              client.persistentVolumeClaims().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "PersistentVolumeClaim",
              PersistentVolumeClaim::new,
              (into, claim) -> into.putClaim(StorageAdapter.claim(claim)),
              (into, claim) -> into.removeClaim(claim.getMetadata().getNamespace(), claim.getMetadata().getName()),
              ClusterEvent.PERSISTENT_VOLUME_CLAIM_ADD,
              ClusterEvent.PERSISTENT_VOLUME_CLAIM_UPDATE,
              (event, claim) ->
                  storageEvents.claimChanged(
                      event, claim.getMetadata().getNamespace(), claim.getMetadata().getName())));
    }
    if (reads.contains(ClusterData.PERSISTENT_VOLUMES)) {
      created.add(
          nameOnlyInformer(
              client.persistentVolumes().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "PersistentVolume",
              PersistentVolume::new,
              (into, volume) -> into.putVolume(StorageAdapter.volume(volume)),
              (into, volume) -> into.removeVolume(volume.getMetadata().getName()),
              ClusterEvent.PERSISTENT_VOLUME_ADD,
              ClusterEvent.PERSISTENT_VOLUME_UPDATE,
              (event, volume) -> storageEvents.storageChanged(event)));
    }
    var storageApi = client.storage().v1();
    if (reads.contains(ClusterData.STORAGE_CLASSES)) {
      created.add(
          nameOnlyInformer(
              storageApi.storageClasses().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "StorageClass",
              StorageClass::new,
              (into, storageClass) -> into.putStorageClass(StorageAdapter.storageClass(storageClass)),
              (into, storageClass) -> into.removeStorageClass(storageClass.getMetadata().getName()),
              ClusterEvent.STORAGE_CLASS_ADD,
              ClusterEvent.STORAGE_CLASS_UPDATE,
              (event, storageClass) -> storageEvents.storageChanged(event)));
    }
    if (reads.contains(ClusterData.CSI_NODES)) {
      created.add(
          nameOnlyInformer(
              storageApi.csiNodes().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "CSINode",
              CSINode::new,
              (into, csiNode) -> into.putCsiNode(StorageAdapter.csiNode(csiNode)),
              (into, csiNode) -> into.removeCsiNode(csiNode.getMetadata().getName()),
              ClusterEvent.CSI_NODE_ADD,
              ClusterEvent.CSI_NODE_UPDATE,
              (event, csiNode) -> storageEvents.storageChanged(event)));
    }
    if (reads.contains(ClusterData.CSI_DRIVERS)) {
      created.add(
          nameOnlyInformer(
              storageApi.csiDrivers().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "CSIDriver",
              CSIDriver::new,
              (into, csiDriver) -> into.putCsiDriver(StorageAdapter.csiDriver(csiDriver)),
              (into, csiDriver) -> into.removeCsiDriver(csiDriver.getMetadata().getName()),
              null, // kube registers no CSIDriver add
              ClusterEvent.CSI_DRIVER_UPDATE,
              (event, csiDriver) -> storageEvents.storageChanged(event)));
    }
    if (reads.contains(ClusterData.CSI_STORAGE_CAPACITIES)) {
      created.add(
          nameOnlyInformer(
              storageApi.csiStorageCapacities().inAnyNamespace().withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "CSIStorageCapacity",
              CSIStorageCapacity::new,
              (into, capacity) -> into.putCapacity(StorageAdapter.capacity(capacity)),
              (into, capacity) ->
                  into.removeCapacity(capacity.getMetadata().getNamespace(), capacity.getMetadata().getName()),
              ClusterEvent.CSI_STORAGE_CAPACITY_ADD,
              ClusterEvent.CSI_STORAGE_CAPACITY_UPDATE,
              (event, capacity) -> storageEvents.storageChanged(event)));
    }
  }

  /**
   * The dynamic-resource informers: each store keeps an object's name only (the {@link DeviceCache} holds its
   * record), and every add, change the allocator reads, and delete is reported.
   */
  private void createDeviceInformers(Feed<DeviceCache> feed, List<SharedIndexInformer<?>> created) {
    BiConsumer<ClusterEvent, Object> announce = (event, object) -> deviceEvents.supplyChanged(event);
    if (reads.contains(ClusterData.RESOURCE_CLAIMS)) {
      created.add(
          reportingInformer(
              client.resources(ResourceClaim.class).inAnyNamespace().withLimit(InformerSet.LIST_PAGE)
                  .runnableInformer(0),
              feed,
              "ResourceClaim",
              ResourceClaim::new,
              (into, object) -> {
                var claim = DynamicResourceAdapter.claim(object);
                var before = into.seenClaim(claim.namespace(), claim.name()).orElse(null);
                into.putClaim(claim);
                return ClaimSeen.changed(before, claim);
              },
              (into, object, finalStateUnknown) -> {
                var namespace = object.getMetadata().getNamespace();
                var name = object.getMetadata().getName();
                var before = into.seenClaim(namespace, name).orElse(null);
                into.removeClaim(namespace, name);
                var status = object.getStatus();
                return ClaimSeen.deleted(namespace, name, before,
                    finalStateUnknown || (status != null && status.getAllocation() != null));
              },
              ClusterEvent.RESOURCE_CLAIM_ADD,
              ClusterEvent.RESOURCE_CLAIM_UPDATE,
              ClusterEvent.RESOURCE_CLAIM_DELETE,
              (event, seen) ->
                  deviceEvents.claimChanged(event, seen.namespace(), seen.name(), seen.ownerUid(), seen.freesDevices())));
    }
    if (reads.contains(ClusterData.RESOURCE_SLICES)) {
      created.add(
          nameOnlyInformer(
              client.resources(ResourceSlice.class).withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "ResourceSlice",
              ResourceSlice::new,
              (into, slice) -> into.putSlice(DynamicResourceAdapter.slice(slice)),
              (into, slice) -> into.removeSlice(slice.getMetadata().getName()),
              ClusterEvent.RESOURCE_SLICE_ADD,
              ClusterEvent.RESOURCE_SLICE_UPDATE,
              ClusterEvent.RESOURCE_SLICE_DELETE,
              announce::accept));
    }
    if (reads.contains(ClusterData.DEVICE_CLASSES)) {
      created.add(
          nameOnlyInformer(
              client.resources(DeviceClass.class).withLimit(InformerSet.LIST_PAGE).runnableInformer(0),
              feed,
              "DeviceClass",
              DeviceClass::new,
              (into, deviceClass) -> {
                // A pod can use devices only through a class: the first one listed or added starts CEL's first
                // compile in the background, which a cluster without DRA never pays for.
                DeviceSelectors.warmUpInBackground();
                return into.putDeviceClass(DynamicResourceAdapter.deviceClass(deviceClass));
              },
              (into, deviceClass) -> into.removeDeviceClass(deviceClass.getMetadata().getName()),
              ClusterEvent.DEVICE_CLASS_ADD,
              ClusterEvent.DEVICE_CLASS_UPDATE,
              ClusterEvent.DEVICE_CLASS_DELETE,
              announce::accept));
    }
    if (reads.contains(ClusterData.DEVICE_TAINT_RULES)) {
      created.add(
          nameOnlyInformer(
              client.genericKubernetesResources(DEVICE_TAINT_RULES).withLimit(InformerSet.LIST_PAGE)
                  .runnableInformer(0),
              feed,
              "DeviceTaintRule",
              () -> {
                var kept = new GenericKubernetesResource();
                kept.setApiVersion(DynamicResourceAdapter.API_VERSION);
                kept.setKind("DeviceTaintRule");
                return kept;
              },
              // A rule without a device selector taints no device: it is kept out, as if absent (a rule that
              // lost its selector is reported: its taints are gone).
              (into, rule) -> {
                var read = DynamicResourceAdapter.taintRule(rule);
                if (read.isPresent()) {
                  return into.putTaintRule(read.get());
                }
                var name = rule.getMetadata().getName();
                boolean had = into.dynamicResources().taintRules().stream().anyMatch(r -> r.name().equals(name));
                into.removeTaintRule(name);
                return had;
              },
              (into, rule) -> into.removeTaintRule(rule.getMetadata().getName()),
              ClusterEvent.DEVICE_TAINT_RULE_ADD,
              ClusterEvent.DEVICE_TAINT_RULE_UPDATE,
              ClusterEvent.DEVICE_TAINT_RULE_DELETE,
              announce::accept));
    }
  }

  /**
   * An informer of one kind whose store keeps of each object its name only (the cache {@code C} holds its
   * record), feeding {@code feed}.
   *
   * @param empty a new, empty object of the kind, to hold the kept name
   * @param put converts an object and records it; returns whether it changed what the rules read
   * @param remove forgets an object, found by its (kept) name
   * @param added the event an object added is reported as; null if kube registers none
   * @param updated the event an object changed is reported as
   * @param announce reports an event of an object
   */
  private static <C, T extends HasMetadata> SharedIndexInformer<T> nameOnlyInformer(
      SharedIndexInformer<T> informer,
      Feed<C> feed,
      String kind,
      Supplier<T> empty,
      BiPredicate<C, T> put,
      BiConsumer<C, T> remove,
      @Nullable ClusterEvent added,
      ClusterEvent updated,
      BiConsumer<ClusterEvent, T> announce) {
    return nameOnlyInformer(informer, feed, kind, empty, put, remove, added, updated, null, announce);
  }

  /**
   * As the other {@code nameOnlyInformer}, reporting a deleted object as {@code deleted} when it is not null.
   */
  private static <C, T extends HasMetadata> SharedIndexInformer<T> nameOnlyInformer(
      SharedIndexInformer<T> informer,
      Feed<C> feed,
      String kind,
      Supplier<T> empty,
      BiPredicate<C, T> put,
      BiConsumer<C, T> remove,
      @Nullable ClusterEvent added,
      ClusterEvent updated,
      @Nullable ClusterEvent deleted,
      BiConsumer<ClusterEvent, T> announce) {
    return reportingInformer(
        informer,
        feed,
        kind,
        empty,
        (into, object) -> put.test(into, object) ? object : null,
        (into, object, finalStateUnknown) -> {
          remove.accept(into, object);
          return object;
        },
        added,
        updated,
        deleted,
        announce);
  }

  /** Forgets a deleted object, found by its kept name, and says what to report of it. */
  @FunctionalInterface
  private interface Removal<C, T, R> {
    /**
     * @param object the object as deleted, or as last kept (its name only) when its final state is not known
     * @return what to report; {@code null} for nothing
     */
    @Nullable R remove(C into, T object, boolean finalStateUnknown);
  }

  /**
   * As {@code nameOnlyInformer}, reporting what {@code put} and {@code remove} return: {@code put} returns {@code
   * null} when the object changed nothing to report.
   */
  private static <C, T extends HasMetadata, R> SharedIndexInformer<T> reportingInformer(
      SharedIndexInformer<T> informer,
      Feed<C> feed,
      String kind,
      Supplier<T> empty,
      BiFunction<C, T, @Nullable R> put,
      Removal<C, T, R> remove,
      @Nullable ClusterEvent added,
      ClusterEvent updated,
      @Nullable ClusterEvent deleted,
      BiConsumer<ClusterEvent, R> announce) {
    informer.itemStore(InformerStores.nameOnly(empty));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(T object) {
            put(object, added);
          }

          @Override
          public void onUpdate(T oldObject, T object) {
            put(object, updated);
          }

          @Override
          public void onDelete(T object, boolean deletedFinalStateUnknown) {
            var report = new ArrayList<R>(1);
            boolean live = feed.write(into -> {
              var removed = remove.remove(into, object, deletedFinalStateUnknown);
              if (removed != null) {
                report.add(removed);
              }
              return true;
            });
            if (live && deleted != null && !report.isEmpty()) {
              announce.accept(deleted, report.get(0));
            }
          }

          private void put(T object, @Nullable ClusterEvent event) {
            var report = new ArrayList<R>(1);
            boolean live;
            try {
              live = feed.write(into -> {
                var changed = put.apply(into, object);
                if (changed != null) {
                  report.add(changed);
                }
                return changed != null;
              });
            } catch (RuntimeException e) { // a handler that throws would stop fabric8's event delivery
              feed.write(into -> {
                remove.remove(into, object, false);
                return false;
              });
              LOG.warn("Leaving {} {} out of the snapshot: {}", kind, Cache.metaNamespaceKeyFunc(object), e.toString());
              return;
            }
            if (live && event != null) {
              announce.accept(event, report.get(0));
            }
          }
        });
    return informer;
  }

  private Feed<StorageCache> storageFeed() {
    return new Feed<>(new StorageCache(), storage, StorageCache::replaceObjects);
  }

  private Feed<DeviceCache> deviceFeed() {
    return new Feed<>(new DeviceCache(), devices, DeviceCache::replaceObjects);
  }

  /**
   * Where the name-only informers of one start write: a staging cache while they list, then, once all are
   * synced and {@link #goLive} swaps it in, the one cache the loop reads ({@link StorageCache} or {@link
   * DeviceCache}); nowhere once {@link #close closed} (the informers of a start or restart that failed, or were
   * replaced).
   */
  private static final class Feed<C> {

    private final C staging;
    private final C live;
    private final BiConsumer<C, C> replaceObjects;
    private @Nullable C target;

    Feed(C staging, C live, BiConsumer<C, C> replaceObjects) {
      this.staging = staging;
      this.live = live;
      this.replaceObjects = replaceObjects;
      this.target = staging;
    }

    /**
     * @param write records or forgets an object in the cache written to
     * @return whether {@code write} changed the live cache (false while listing into staging, or closed)
     */
    synchronized boolean write(Predicate<C> write) {
      var into = target;
      if (into == null) {
        return false;
      }
      return write.test(into) && into == live;
    }

    /** The objects listed replace the live cache's, what it holds for pods kept; later writes go to it. */
    synchronized void goLive() {
      if (target == staging) {
        replaceObjects.accept(live, staging);
        target = live;
      }
    }

    synchronized void close() {
      target = null;
    }
  }

  /** The metadata an informer needs to key and relist an object: no labels, annotations or managed fields. */
  private static ObjectMeta name(HasMetadata object) {
    var meta = object.getMetadata();
    return new ObjectMetaBuilder()
        .withName(meta.getName())
        .withNamespace(meta.getNamespace())
        .withUid(meta.getUid())
        .withResourceVersion(meta.getResourceVersion())
        .build();
  }
}
