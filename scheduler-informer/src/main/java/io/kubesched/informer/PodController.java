package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.BindOptions;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.Binder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places every pod whose {@code spec.schedulerName} is {@link ControllerSettings#schedulerName()}.
 *
 * <p>Two informers watch the nodes and the non-terminal pods. Their handlers never block: a pod that needs
 * scheduling goes into a queue keyed by uid, a change that may let waiting pods fit ends their backoff. One
 * worker thread takes pods from the queue, builds a snapshot of the nodes with the pods on them, asks the
 * {@link FinderFunc}, records the choice (so the next pod sees it before the watch does) and binds. A pod
 * that fits nowhere, or whose binding failed, is tried again after a backoff.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} any number of times from any thread.
 */
public final class PodController implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PodController.class);
  /**
   * How long a pod whose binding succeeded may stay unconfirmed by the watch before its assumption is dropped
   * and the pod tried again (kube-scheduler used 15 minutes before it stopped expiring assumptions).
   */
  static final java.time.Duration ASSUMED_POD_TTL = java.time.Duration.ofMinutes(15);

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private final KubernetesClient client;
  private final ControllerSettings settings;
  private final FinderFunc finder;
  private final SchedulingListener listener;
  private final SchedulingQueue queue;
  /** The nodes with their bound and assumed pods: what every decision reads. */
  private final SchedulerCache cache;
  /**
   * The node of a binding whose outcome is unknown (the POST or its read-back failed) per pod uid: if the
   * watch later shows the pod on that node, the binding had landed, and the listener hears it then.
   */
  private final Map<String, String> unconfirmed = new ConcurrentHashMap<>();
  /** The last unschedulable message logged per pod uid, so a pod that keeps waiting logs once. */
  private final Map<String, String> lastLogged = new ConcurrentHashMap<>();
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final CountDownLatch terminated = new CountDownLatch(1);
  private volatile @Nullable SharedIndexInformer<Node> nodeInformer;
  private volatile @Nullable SharedIndexInformer<Pod> podInformer;
  private final InformerWatchdog watchdog = new InformerWatchdog(this::restartInformers);
  private @Nullable Thread worker;
  private @Nullable ScheduledExecutorService housekeeping;

  /**
   * @param client the client to watch and bind with; not closed by this controller
   * @param settings how to run
   * @param finder the placement policy
   * @param listener hears about each pod's outcome
   */
  public PodController(
      KubernetesClient client,
      ControllerSettings settings,
      FinderFunc finder,
      SchedulingListener listener) {
    this.client = client;
    this.settings = settings;
    this.finder = finder;
    this.listener = listener;
    this.queue = new SchedulingQueue(System::nanoTime, settings.initialBackoff(), settings.maxBackoff());
    this.cache = new SchedulerCache(Ticker.SYSTEM, ASSUMED_POD_TTL);
  }

  /**
   * Starts the informers, waits until they have listed every node and pod, then starts the worker.
   *
   * @throws IllegalStateException if started before, or closed
   * @throws SchedulerException if the informers cannot list within the sync timeout; the controller is
   *     closed then. If {@link #close()} is called while this lists, this returns without starting.
   */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("controller was already started or is closed: " + state.get());
    }
    var nodes = newNodeInformer();
    var pods = newPodInformer();
    nodeInformer = nodes;
    podInformer = pods;
    try {
      startAndSync(nodes);
      startAndSync(pods);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new SchedulerException("interrupted while listing nodes and pods", e);
    } catch (ExecutionException | TimeoutException e) {
      if (state.get() == State.CLOSED) {
        LOG.info("Scheduler '{}' closed while it was starting", settings.schedulerName());
        return; // close() stopped the informers under us: not a failure to list
      }
      close();
      var cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new SchedulerException(
          "cannot list nodes and pods from " + client.getMasterUrl() + ": " + cause, cause);
    }
    var chores =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              var t = new Thread(runnable, "kubesched-housekeeping-" + settings.schedulerName());
              t.setDaemon(true);
              return t;
            });
    chores.scheduleWithFixedDelay(this::expireAssumptions, 1, 1, TimeUnit.SECONDS);
    housekeeping = chores;
    var thread = new Thread(this::work, "kubesched-" + settings.schedulerName());
    thread.setDaemon(true);
    worker = thread;
    thread.start();
    watchdog.start(
        "kubesched-watchdog-" + settings.schedulerName(),
        () -> isWatching(nodeInformer) && isWatching(podInformer),
        () -> Arrays.asList(version(nodeInformer), version(podInformer)));
    LOG.info(
        "Scheduler '{}' started: {} nodes, {} pods to schedule",
        settings.schedulerName(),
        nodes.getStore().list().size(),
        queue.size());
  }

  /** @return whether the controller was started and is not closed */
  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  /**
   * Blocks until the controller is closed.
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public void awaitTermination() throws InterruptedException {
    terminated.await();
  }

  /**
   * The nodes as the next decision would see them: each with the pods bound to it and the pods this
   * controller has chosen it for but whose binding the watch has not shown yet.
   *
   * @throws IllegalStateException if not started
   */
  public List<NodeInfo> snapshot() {
    var nodes = nodeInformer;
    if (nodes == null) {
      throw new IllegalStateException("controller is not started");
    }
    return cache.snapshot();
  }

  /**
   * Stops the worker (letting a binding in progress finish, up to the bind timeout) and the informers.
   * Idempotent; callable from any thread, including a listener.
   */
  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    queue.close();
    watchdog.close();
    if (housekeeping != null) {
      housekeeping.shutdownNow();
    }
    var thread = worker;
    if (thread != null && thread != Thread.currentThread()) {
      try {
        thread.join(settings.bindTimeout().toMillis() * 2);
        if (thread.isAlive()) {
          thread.interrupt();
          thread.join(settings.bindTimeout().toMillis());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (podInformer != null) {
      podInformer.stop();
    }
    if (nodeInformer != null) {
      nodeInformer.stop();
    }
    terminated.countDown();
    LOG.info("Scheduler '{}' stopped", settings.schedulerName());
  }

  private SharedIndexInformer<Node> newNodeInformer() {
    var nodes = client.nodes().runnableInformer(0);
    nodes.addEventHandler(new NodeHandler());
    return nodes;
  }

  private SharedIndexInformer<Pod> newPodInformer() {
    var pods = Snapshots.nonTerminalPods(client).runnableInformer(0);
    pods.addEventHandler(new PodHandler());
    return pods;
  }

  private void startAndSync(SharedIndexInformer<?> informer)
      throws InterruptedException, ExecutionException, TimeoutException {
    informer.start().toCompletableFuture().get(settings.syncTimeout().toMillis(), TimeUnit.MILLISECONDS);
  }

  private static @Nullable String version(@Nullable SharedIndexInformer<?> informer) {
    return informer == null ? null : informer.lastSyncResourceVersion();
  }

  private static boolean isWatching(@Nullable SharedIndexInformer<?> informer) {
    return informer == null || informer.isWatching();
  }

  /**
   * Replaces both informers with new ones that list everything again. The handlers see every object as
   * added, which is harmless: the queue is keyed by uid and the handlers only add, confirm or wake.
   */
  private void restartInformers() throws InterruptedException {
    if (state.get() != State.RUNNING) {
      return;
    }
    var oldNodes = nodeInformer;
    var oldPods = podInformer;
    var nodes = newNodeInformer();
    var pods = newPodInformer();
    try {
      startAndSync(nodes);
      startAndSync(pods);
    } catch (ExecutionException | TimeoutException e) {
      nodes.stop();
      pods.stop();
      LOG.warn("Relisting nodes and pods failed ({}); trying again later", e.toString());
      return;
    }
    if (state.get() != State.RUNNING) { // closed meanwhile: close() stopped the old ones only
      nodes.stop();
      pods.stop();
      return;
    }
    nodeInformer = nodes;
    podInformer = pods;
    var nodeNames = new HashSet<String>();
    nodes.getStore().list().forEach(node -> nodeNames.add(node.getMetadata().getName()));
    var podUids = new HashSet<String>();
    pods.getStore().list().forEach(pod -> podUids.add(Snapshots.uid(pod)));
    int dropped = cache.retainOnly(nodeNames, podUids);
    if (oldNodes != null) {
      oldNodes.stop();
    }
    if (oldPods != null) {
      oldPods.stop();
    }
    queue.activateAll();
    LOG.info(
        "Relisted {} nodes and {} pods; {} deleted while unwatched",
        nodeNames.size(),
        podUids.size(),
        dropped);
  }

  private void work() {
    try {
      while (state.get() == State.RUNNING) {
        var item = queue.take();
        if (item == null) {
          return;
        }
        try {
          schedule(item);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          LOG.error("Unexpected failure scheduling pod {}; it will be retried", item.key(), e);
          queue.backoff(item);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void schedule(QueuedPod item) throws InterruptedException {
    var pod = Objects.requireNonNull(podInformer).getStore().getByKey(item.key());
    var skip =
        pod == null || !item.uid().equals(Snapshots.uid(pod))
            ? "it is gone"
            : !PodFilters.needsScheduling(pod, settings.schedulerName())
                ? "it no longer needs scheduling"
                : cache.isAssumed(item.uid()) ? "it is being bound" : null;
    if (skip != null) {
      LOG.debug("Not scheduling pod {}: {}", item.key(), skip);
      queue.forget(item.uid());
      var triedNode = unconfirmed.remove(item.uid());
      if (pod != null && triedNode != null && triedNode.equals(PodFilters.nodeName(pod))) {
        reportLateBinding(pod, triedNode);
      }
      return;
    }
    PodInfo info;
    try {
      info = PodAdapter.toPodInfo(pod);
    } catch (MalformedObjectException e) {
      // Not retried until the pod changes: the update event queues it again.
      queue.forget(item.uid());
      LOG.warn("Cannot schedule {}", e.getMessage());
      notify(() -> listener.failed(item.key(), e));
      return;
    }
    var nodes = snapshot();
    Decision decision;
    try {
      decision = Objects.requireNonNull(finder.find(info, nodes), "FinderFunc returned null");
    } catch (RuntimeException e) {
      fail(item, new SchedulerException("FinderFunc failed for pod " + item.key() + ": " + e, e));
      return;
    }
    if (decision instanceof Decision.Unschedulable unschedulable) {
      var message = unschedulable.message(nodes.size());
      if (message.equals(lastLogged.put(item.uid(), message))) {
        LOG.debug("Pod {} is still unschedulable: {}", item.key(), message);
      } else {
        LOG.info("Pod {} is unschedulable: {}", item.key(), message);
      }
      queue.backoff(item);
      notify(() -> listener.unschedulable(info, message));
      return;
    }
    var nodeName = ((Decision.Bind) decision).nodeName();
    if (nodes.stream().noneMatch(node -> node.name().equals(nodeName))) {
      fail(
          item,
          new SchedulerException(
              "FinderFunc chose node '" + nodeName + "' for pod " + item.key()
                  + ", which is not among the " + nodes.size() + " nodes it was given"));
      return;
    }
    bind(item, pod, info, nodeName);
  }

  private void bind(QueuedPod item, Pod pod, PodInfo info, String nodeName)
      throws InterruptedException {
    cache.assume(info, nodeName);
    var outcome =
        Binder.bind(
            new BindOptions(client, pod, nodeName, settings.bindTimeout(), settings.bindMode()));
    if (outcome instanceof BindOutcome.Bound) {
      cache.finishBinding(item.uid());
      queue.forget(item.uid());
      lastLogged.remove(item.uid());
      unconfirmed.remove(item.uid());
      LOG.debug("Bound {} to {}", item.key(), nodeName);
      notify(() -> listener.bound(info, nodeName));
      return;
    }
    cache.forget(item.uid());
    if (outcome instanceof BindOutcome.Conflict conflict) {
      queue.forget(item.uid());
      LOG.info("Pod {} was bound to {} by someone else; leaving it there", item.key(), conflict.actualNode());
    } else if (outcome instanceof BindOutcome.PodGone gone) {
      queue.forget(item.uid());
      LOG.info("Not binding pod {}: {}", item.key(), gone.detail());
    } else if (outcome instanceof BindOutcome.Failed failed) {
      unconfirmed.put(item.uid(), nodeName);
      fail(
          item,
          new SchedulerException(
              "binding pod " + item.key() + " to node " + nodeName + " failed: " + failed.detail()));
    }
  }

  /** A binding reported as failed had landed after all: the watch shows the pod on the node we chose. */
  private void reportLateBinding(Pod pod, String nodeName) {
    LOG.info(
        "{} is bound to {}: an attempt whose answer was lost had succeeded",
        PodAdapter.describe(pod),
        nodeName);
    try {
      var info = PodAdapter.toPodInfo(pod);
      notify(() -> listener.bound(info, nodeName));
    } catch (MalformedObjectException e) {
      LOG.warn("Cannot report pod {}: {}", PodAdapter.describe(pod), e.getMessage());
    }
  }

  private void fail(QueuedPod item, SchedulerException error) {
    LOG.warn("{}; retrying after backoff", error.getMessage());
    queue.backoff(item);
    notify(() -> listener.failed(item.key(), error));
  }

  private void notify(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("SchedulingListener threw; ignoring it", e);
    }
  }

  /** Expired assumptions: the binding succeeded but the watch never showed the pod; try it again. */
  private void expireAssumptions() {
    List<PodInfo> expired;
    try {
      expired = cache.expire();
    } catch (RuntimeException e) { // a failing chore must not stop the ones after it
      LOG.error("Expiring assumed pods failed", e);
      return;
    }
    for (var pod : expired) {
      LOG.warn(
          "Pod {} was bound to {} {} ago but the watch never showed it there; scheduling it again",
          pod.key(),
          pod.nodeName(),
          ASSUMED_POD_TTL);
      queue.add(new SchedulingQueue.Item(pod.uid(), pod.namespace(), pod.name()));
    }
  }

  /** Records a bound pod in the cache, or drops it with a warning if it cannot be read. */
  private void putBoundPod(Pod pod) {
    try {
      cache.putPod(PodAdapter.toPodInfo(pod));
    } catch (MalformedObjectException e) {
      cache.removePod(Snapshots.uid(pod));
      LOG.warn("Bound pod left out of the snapshot: {}", e.getMessage());
    }
  }

  private final class PodHandler implements ResourceEventHandler<Pod> {

    @Override
    public void onAdd(Pod pod) {
      handle(null, pod);
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
      handle(oldPod, newPod);
    }

    @Override
    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
      var uid = Snapshots.uid(pod);
      cache.removePod(uid);
      lastLogged.remove(uid);
      unconfirmed.remove(uid);
      if (PodFilters.occupiesNode(pod)) {
        queue.activateAll(); // its node has room again
      }
    }

    private void handle(@Nullable Pod oldPod, Pod pod) {
      var uid = Snapshots.uid(pod);
      if (PodFilters.isAssigned(pod)) {
        lastLogged.remove(uid);
        if (PodFilters.isTerminal(pod)) {
          cache.removePod(uid);
          if (oldPod != null && !PodFilters.isTerminal(oldPod)) {
            queue.activateAll(); // a finished pod frees its node
          }
        } else {
          putBoundPod(pod); // confirms the assumption if this controller bound it
        }
      } else if (PodFilters.needsScheduling(pod, settings.schedulerName())) {
        queue.add(QueuedPod.of(pod));
      }
    }
  }

  private final class NodeHandler implements ResourceEventHandler<Node> {

    @Override
    public void onAdd(Node node) {
      putNode(node);
      queue.activateAll();
    }

    @Override
    public void onUpdate(Node oldNode, Node newNode) {
      putNode(newNode);
      if (NodeChanges.mayLetPodsFit(oldNode, newNode)) {
        queue.activateAll();
      }
    }

    @Override
    public void onDelete(Node node, boolean deletedFinalStateUnknown) {
      // Pods queued for it are decided again without it; nothing to wake.
      cache.removeNode(node.getMetadata().getName());
    }

    private void putNode(Node node) {
      try {
        cache.putNode(NodeAdapter.toNodeInfo(node, List.of()));
      } catch (MalformedObjectException e) {
        cache.removeNode(node.getMetadata().getName());
        LOG.warn("Leaving node out of the snapshot: {}", e.getMessage());
      }
    }
  }
}
