package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kubesched.adapter.ClusterDataAdapter;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.engine.ClusterDataCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches what the policy reads beyond nodes and pods ({@link ClusterData}, the union of the profiles'
 * {@link io.kubesched.api.FinderFunc#reads()}): namespaces, Services, ReplicationControllers, ReplicaSets
 * and StatefulSets, each only when it is read, so a policy that reads none costs no watch and needs no
 * permission. Their informers keep of each object only its name and what the snapshot needs (a namespace's
 * labels, a workload's selector), and fill a {@link ClusterDataCache}.
 *
 * <p>Started and synced with the node and pod informers; {@link #restart} lists everything again into a
 * fresh cache and swaps it in once synced, so that what was deleted while unwatched is gone. A namespace
 * added or relabelled is reported to {@code namespaceChanged} (on the informer's thread), except during the
 * initial list of a start or restart, after which the controller moves every waiting pod anyway.
 *
 * <p>Lifecycle: {@link #start} once, {@link #restart} any number of times, {@link #close()} any number of
 * times; they are called by one thread at a time (the controller's start, watchdog and close).
 */
final class ClusterDataInformers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDataInformers.class);

  private final KubernetesClient client;
  private final Set<ClusterData> reads;
  private final Consumer<String> namespaceChanged;
  private volatile ClusterDataCache cache;
  private volatile List<SharedIndexInformer<?>> informers = List.of();

  /**
   * @param client the client to watch with; not closed here
   * @param reads what the policy reads; nothing is watched for an empty set
   * @param namespaceChanged hears the name of a namespace added, or whose labels changed
   */
  ClusterDataInformers(KubernetesClient client, Set<ClusterData> reads, Consumer<String> namespaceChanged) {
    this.client = client;
    this.reads = Set.copyOf(reads);
    this.namespaceChanged = namespaceChanged;
    this.cache = new ClusterDataCache(this.reads);
  }

  /** @return what is watched */
  Set<ClusterData> reads() {
    return reads;
  }

  /**
   * Starts the informers and waits until each has listed.
   *
   * @throws ExecutionException if a list fails, TimeoutException if one takes longer than {@code timeout};
   *     the informers started are stopped then
   */
  void start(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
    var fresh = new ClusterDataCache(reads);
    var started = startAndSync(fresh, timeout);
    cache = fresh;
    informers = started;
  }

  /**
   * Lists everything again with new informers into a fresh cache, then swaps both in and stops the old
   * informers.
   *
   * @throws ExecutionException or TimeoutException as {@link #start}; the old informers and cache stay then
   */
  void restart(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
    var fresh = new ClusterDataCache(reads);
    var started = startAndSync(fresh, timeout);
    var old = informers;
    cache = fresh;
    informers = started;
    old.forEach(SharedIndexInformer::stop);
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

  /** @return the snapshot of one decision over {@code nodes}: see {@link ClusterDataCache#snapshot} */
  ClusterSnapshot snapshot(List<NodeInfo> nodes) {
    return cache.snapshot(nodes);
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::stop);
  }

  private List<SharedIndexInformer<?>> startAndSync(ClusterDataCache into, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    var created = new ArrayList<SharedIndexInformer<?>>();
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
    try {
      for (var informer : created) {
        informer.start().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
      created.forEach(SharedIndexInformer::stop);
      throw e;
    }
    return List.copyOf(created);
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

  private static <T extends HasMetadata> SharedIndexInformer<T> workloads(
      SharedIndexInformer<T> informer,
      ClusterDataCache into,
      String kind,
      Function<T, Optional<WorkloadSelector>> selector,
      UnaryOperator<T> keep) {
    informer.itemStore(InformerStores.keeping(keep));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
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
            into.removeWorkload(key(object));
          }

          private void put(T object) {
            try {
              into.putWorkload(key(object), selector.apply(object).orElse(null));
            } catch (RuntimeException e) { // a handler that throws would stop fabric8's event delivery
              into.removeWorkload(key(object));
              LOG.warn("Leaving {} {} out of the snapshot: {}", kind, Cache.metaNamespaceKeyFunc(object), e.toString());
            }
          }

          private String key(T object) {
            return kind + "/" + Cache.metaNamespaceKeyFunc(object);
          }
        });
    return informer;
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
