package io.kubesched.informer.watch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubesched.binder.ApiRequests;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers of the loop: nodes and non-terminal pods (paged lists, kept-fields stores, the {@link
 * EventHandlers}), plus the {@link ClusterDataInformers} a policy reads. Starts them and waits for their first
 * list, and relists when the {@link InformerWatchdog} finds a watch lost.
 *
 * <p>{@link #start}, {@link #awaitSync} and {@link #close} are called by the loop's lifecycle; relists run on
 * the watchdog's thread.
 */
public final class InformerSet implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InformerSet.class);

  /** Objects per page when the informers list the cluster (kube's reflector uses 500). */
  static final long LIST_PAGE = 500;

  private final KubernetesClient client;
  private final Duration syncTimeout;
  private final EventHandlers handlers;
  private final ClusterDataInformers clusterData;
  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final BooleanSupplier running;
  private final InformerWatchdog watchdog = new InformerWatchdog(this::relist);
  private volatile @Nullable SharedIndexInformer<Node> nodeInformer;
  private volatile @Nullable SharedIndexInformer<Pod> podInformer;
  private @Nullable Lists starting;
  private long startedAt;

  public InformerSet(
      KubernetesClient client,
      Duration syncTimeout,
      EventHandlers handlers,
      ClusterDataInformers clusterData,
      SchedulerCache cache,
      SchedulingQueue queue,
      BooleanSupplier running) {
    this.client = client;
    this.syncTimeout = syncTimeout;
    this.handlers = handlers;
    this.clusterData = clusterData;
    this.cache = cache;
    this.queue = queue;
    this.running = running;
  }

  /**
   * Creates the informers and starts their first lists, all at once as kube's informer factory does, without
   * waiting for them: {@link #awaitSync} waits. Call once, then {@link #awaitSync}.
   */
  public void start() {
    startedAt = System.nanoTime();
    var lists = Lists.start(newNodeInformer(), newPodInformer(), clusterData::start);
    nodeInformer = lists.nodes();
    podInformer = lists.pods();
    starting = lists;
  }

  /**
   * Waits until the informers {@link #start} started have listed everything once, within the sync timeout
   * counted from that start.
   *
   * @return how many nodes were listed
   * @throws ExecutionException if a list fails, TimeoutException if the lists take longer than the sync timeout:
   *     every informer is stopped then
   */
  public int awaitSync() throws InterruptedException, ExecutionException, TimeoutException {
    var lists = Objects.requireNonNull(starting, "awaitSync before start");
    lists.await(startedAt + syncTimeout.toNanos());
    return lists.nodes().getStore().list().size();
  }

  /** @return whether {@link #start} created the informers */
  public boolean isStarted() {
    return nodeInformer != null;
  }

  /**
   * @return the pod {@code namespace/name} as the pod informer's store holds it (in its kept form), if it is
   *     there: every pod not finished; null if none, or before {@link #start}. Any thread; never blocks.
   */
  public @Nullable Pod pod(String namespace, String name) {
    var pods = podInformer;
    return pods == null ? null : pods.getStore().getByKey(namespace + "/" + name);
  }

  /** Starts the watchdog that relists when a watch is lost; after {@link #awaitSync}. */
  public void watch(String schedulerName) {
    watchdog.start(
        "kubesched-watchdog-" + schedulerName,
        () -> isWatching(nodeInformer) && isWatching(podInformer) && clusterData.isWatching(),
        () -> {
          var versions = new ArrayList<@Nullable String>(Arrays.asList(version(nodeInformer), version(podInformer)));
          versions.addAll(clusterData.versions());
          return versions;
        });
  }

  /** Stops the watchdog and every informer. Idempotent. */
  @Override
  public void close() {
    watchdog.close();
    var pods = podInformer;
    if (pods != null) {
      pods.stop();
    }
    var nodes = nodeInformer;
    if (nodes != null) {
      nodes.stop();
    }
    clusterData.close();
  }

  private SharedIndexInformer<Node> newNodeInformer() {
    // Lists in pages, as kube's reflector does: an unpaged list of a large cluster is the memory peak.
    var nodes = client.nodes().withLimit(LIST_PAGE).runnableInformer(0);
    nodes.itemStore(InformerStores.nodes()); // only what the scheduler reads: see docs/memory.md
    nodes.addEventHandler(handlers.nodes());
    return nodes;
  }

  private SharedIndexInformer<Pod> newPodInformer() {
    var pods = NodeListing.nonTerminalPods(client).withLimit(LIST_PAGE).runnableInformer(0);
    pods.itemStore(InformerStores.pods());
    pods.addEventHandler(handlers.pods());
    return pods;
  }

  /**
   * Waits for informers' first lists, all by one deadline.
   *
   * @param deadline the {@link System#nanoTime} by which every list must be done
   * @param onFailure run before the failure is thrown: the caller's informers stopped
   * @throws ExecutionException if a list fails, TimeoutException if one is not done by {@code deadline}
   */
  static void awaitAll(List<CompletableFuture<Void>> lists, long deadline, Runnable onFailure)
      throws InterruptedException, ExecutionException, TimeoutException {
    try {
      for (var list : lists) {
        list.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
      onFailure.run();
      throw e;
    }
  }

  /**
   * The first lists of a start or relist, all under way at once: the node and pod informers' and the cluster
   * data's. Used by the thread that started them.
   */
  private record Lists(
      SharedIndexInformer<Node> nodes,
      SharedIndexInformer<Pod> pods,
      List<CompletableFuture<Void>> lists,
      List<Handled> handled,
      ClusterDataInformers.Listing clusterData) {

    static Lists start(
        SharedIndexInformer<Node> nodes,
        SharedIndexInformer<Pod> pods,
        Supplier<ClusterDataInformers.Listing> clusterData) {
      try {
        var handled = List.of(Handled.track(nodes), Handled.track(pods));
        var lists = List.of(nodes.start().toCompletableFuture(), pods.start().toCompletableFuture());
        return new Lists(nodes, pods, lists, handled, clusterData.get());
      } catch (RuntimeException e) {
        nodes.stop();
        pods.stop();
        throw e;
      }
    }

    /**
     * Waits until every list is done, then puts the cluster data's in place ({@link
     * ClusterDataInformers.Listing#await}).
     *
     * @param deadline the {@link System#nanoTime} by which every list must be done
     * @throws ExecutionException if a list fails, TimeoutException if one is not done by {@code deadline}: every
     *     informer of these lists is stopped then
     */
    void await(long deadline) throws InterruptedException, ExecutionException, TimeoutException {
      awaitAll(lists, deadline, () -> {
        clusterData.abort();
        stop();
      });
      try {
        for (var informer : handled) {
          informer.await(deadline);
        }
      } catch (InterruptedException | TimeoutException | RuntimeException e) {
        clusterData.abort();
        stop();
        throw e;
      }
      try {
        clusterData.await(deadline);
      } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException e) {
        stop();
        throw e;
      }
    }

    private void stop() {
      nodes.stop();
      pods.stop();
    }
  }

  /**
   * The keys of the objects an informer's handlers have been given, to wait until they have been given every
   * object its first list stored. fabric8 completes an informer's start once the list is in its store and hands
   * the objects to the handlers afterwards, on the informer's own executor (kube-scheduler waits for the same
   * with its handlers' {@code HasSynced}). {@link #track} adds the informer's last handler, which records each
   * key it is given; fabric8 runs an informer's handlers one after another for each object, so a key recorded
   * there has been through the others. Thread-safe.
   */
  static final class Handled {

    private final SharedIndexInformer<?> informer;
    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    private final Runnable removeHandler;

    private <T> Handled(SharedIndexInformer<T> informer) {
      this.informer = informer;
      var store = informer.getStore();
      ResourceEventHandler<T> recorder =
          new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
              keys.add(store.getKey(object));
            }

            @Override
            public void onUpdate(T oldObject, T object) {
              keys.add(store.getKey(object));
            }

            @Override
            public void onDelete(T object, boolean deletedFinalStateUnknown) {
              keys.add(store.getKey(object));
            }
          };
      this.removeHandler = () -> informer.removeEventHandler(recorder);
      informer.addEventHandler(recorder);
    }

    /** Adds the recording handler to {@code informer}, which must not be started yet. */
    static Handled track(SharedIndexInformer<?> informer) {
      return new Handled(informer);
    }

    /**
     * Waits until the handlers have been given every object in the informer's store, looking again after 1, 2,
     * 4 … up to 20 ms; then removes the recording handler and forgets the keys.
     *
     * @throws TimeoutException if they have not by {@code deadline}
     */
    void await(long deadline) throws InterruptedException, TimeoutException {
      long pause = 1;
      while (!keys.containsAll(informer.getStore().listKeys())) {
        if (System.nanoTime() - deadline > 0) {
          throw new TimeoutException("the handlers of an informer were not given every object it listed in time");
        }
        Thread.sleep(pause);
        pause = Math.min(20, pause * 2);
      }
      removeHandler.run(); // from now on the keys would only grow
      keys.clear();
    }
  }

  private static @Nullable String version(@Nullable SharedIndexInformer<?> informer) {
    return informer == null ? null : informer.lastSyncResourceVersion();
  }

  private static boolean isWatching(@Nullable SharedIndexInformer<?> informer) {
    return informer == null || informer.isWatching();
  }

  /**
   * Replaces both informers with new ones that list everything again. The handlers see every object as
   * added, which is harmless (the queue and cache are keyed by uid and name); what was deleted while the
   * watches were lost is dropped from the cache afterwards.
   */
  private void relist() throws InterruptedException {
    if (!running.getAsBoolean()) {
      return;
    }
    var oldNodes = nodeInformer;
    var oldPods = podInformer;
    var lists = Lists.start(newNodeInformer(), newPodInformer(), clusterData::restart);
    var nodes = lists.nodes();
    var pods = lists.pods();
    try {
      lists.await(System.nanoTime() + syncTimeout.toNanos());
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("Relisting nodes and pods failed ({}); trying again later", ApiRequests.describeFailure(e));
      return;
    }
    if (!running.getAsBoolean()) { // closed meanwhile: close() stopped the old ones only
      nodes.stop();
      pods.stop();
      return;
    }
    nodeInformer = nodes;
    podInformer = pods;
    var nodeNames = new HashSet<String>();
    nodes.getStore().list().forEach(node -> nodeNames.add(node.getMetadata().getName()));
    var podUids = new HashSet<String>();
    pods.getStore().list().forEach(pod -> podUids.add(NodeListing.uid(pod)));
    int dropped = cache.retainOnly(nodeNames, podUids);
    handlers.retainOnly(podUids);
    if (oldNodes != null) {
      oldNodes.stop();
    }
    if (oldPods != null) {
      oldPods.stop();
    }
    queue.moveAllToActiveOrBackoff(ClusterEvent.RELIST);
    LOG.info(
        "Relisted {} nodes and {} pods; {} deleted while unwatched", nodeNames.size(), podUids.size(), dropped);
  }
}
