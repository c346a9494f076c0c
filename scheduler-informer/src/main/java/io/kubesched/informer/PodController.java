package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.ClusterData;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.BindOptions;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.Binder;
import io.kubesched.binder.SchedulingReporter;
import io.kubesched.binder.TokenBucket;
import io.kubesched.engine.ClusterDataCache;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.QueueingHint;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.Ticker;
import io.kubesched.engine.UnsupportedFeatures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places every pod whose {@code spec.schedulerName} is one of its profiles' scheduler names, as
 * kube-scheduler's scheduling loop does.
 *
 * <p>Two informers watch the nodes and the non-terminal pods; their handlers never block. Pods to place go
 * into a {@link SchedulingQueue} (active by priority, backoff, unschedulable, gated), bound pods and nodes
 * into the {@link SchedulerCache}; where a profile's policy {@linkplain FinderFunc#reads() reads} namespaces,
 * Services or workload controllers, {@link ClusterDataInformers} watch those too. One worker thread takes a
 * pod, refuses it if it uses a feature the library does not support ({@link UnsupportedFeatures}), else asks
 * the profile's {@link FinderFunc} over the cache's snapshot, assumes the chosen node in the cache (so the
 * next decision counts it) and hands the binding to a bounded pool, going on with the next pod while
 * bindings are in flight. A binding that fails forgets the assumption and requeues the pod. Every binding takes a token of a {@link TokenBucket}; reports
 * (events, pod conditions) take tokens of a second bucket of the same size, as kube-scheduler's event client
 * has a limit of its own. With leader election, only the leader's worker takes pods; the informers and
 * cache keep running so a new leader starts warm.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} any number of times from any thread.
 */
public final class PodController implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PodController.class);

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  /** How often a pod was tried, and when it was first queued: for the scheduling SLI metric. */
  private record Attempts(long firstQueuedNanos, int count) {}

  private final KubernetesClient client;
  private final ControllerSettings settings;
  private final Map<String, FinderFunc> profiles;
  private final SchedulingListener listener;
  private final Ticker ticker = Ticker.SYSTEM;
  private final SchedulingQueue queue;
  /** The nodes with their bound and assumed pods: what every decision reads. */
  private final SchedulerCache cache;
  private final SchedulerMetrics metrics;
  private final TokenBucket writes;
  private final Map<String, SchedulingReporter> reporters = new LinkedHashMap<>();
  private final Map<String, Attempts> attempts = new ConcurrentHashMap<>();
  /**
   * The node of a binding whose outcome is unknown (the POST, or the read-back after a 409, failed) per pod
   * uid: if the watch later shows the pod on that node, the binding had landed, and the listener hears it
   * then.
   */
  private final Map<String, String> unconfirmed = new ConcurrentHashMap<>();
  /** The last unschedulable message logged per pod uid, so a pod that keeps waiting logs once. */
  private final Map<String, String> lastLogged = new ConcurrentHashMap<>();
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Semaphore bindSlots;
  private final ExecutorService binders;
  private final ThreadPoolExecutor reporting;
  private final ScheduledExecutorService housekeeping;
  private final @Nullable LeaderElection election;
  /** Guards {@link #leading}: the worker waits on it while another replica leads. */
  private final Object leadership = new Object();
  private volatile boolean leading;
  private volatile @Nullable SharedIndexInformer<Node> nodeInformer;
  private volatile @Nullable SharedIndexInformer<Pod> podInformer;
  private final InformerWatchdog watchdog = new InformerWatchdog(this::restartInformers);
  /** Namespaces, Services and workload controllers, where a profile's policy reads them. */
  private final ClusterDataInformers clusterData;
  private final ClusterEventMoves moves;
  private @Nullable Thread worker;

  /**
   * A controller for one scheduler name, {@link ControllerSettings#schedulerName()}.
   *
   * @param client the client to watch and bind with; not closed by this controller
   * @param settings how to run
   * @param finder the placement policy
   * @param listener hears about each pod's outcome
   * @param metrics records what the loop does
   */
  public PodController(
      KubernetesClient client,
      ControllerSettings settings,
      FinderFunc finder,
      SchedulingListener listener,
      SchedulerMetrics metrics) {
    this(client, settings, Map.of(settings.schedulerName(), finder), listener, metrics);
  }

  /**
   * A controller for several scheduler names (profiles), each with its own policy; one queue, one cache and
   * one binding pool serve them all.
   *
   * @param profiles the policy of each scheduler name, at least one
   * @throws IllegalArgumentException if {@code profiles} is empty or a name is blank
   */
  public PodController(
      KubernetesClient client,
      ControllerSettings settings,
      Map<String, FinderFunc> profiles,
      SchedulingListener listener,
      SchedulerMetrics metrics) {
    if (profiles.isEmpty()) {
      throw new IllegalArgumentException("a controller needs at least one profile (scheduler name)");
    }
    profiles.keySet().forEach(name -> {
      if (name.isBlank()) {
        throw new IllegalArgumentException("a profile's scheduler name must not be blank");
      }
    });
    this.client = client;
    this.settings = settings;
    this.profiles = Map.copyOf(profiles);
    this.listener = listener;
    this.queue =
        new SchedulingQueue(
            ticker, settings.initialBackoff(), settings.maxBackoff(), settings.unschedulableTimeout());
    this.cache = new SchedulerCache(ticker, settings.assumedPodTtl());
    this.moves = new ClusterEventMoves(queue);
    var reads = EnumSet.noneOf(ClusterData.class);
    profiles.values().forEach(finder -> reads.addAll(finder.reads()));
    this.clusterData = new ClusterDataInformers(client, reads, moves::namespaceChanged);
    this.metrics = metrics;
    this.writes = TokenBucket.create(settings.qps(), settings.burst());
    // Reports get a bucket of their own, as kube-scheduler gives events a client of their own: a burst of
    // events must not slow the bindings down.
    var reportWrites = TokenBucket.create(settings.qps(), settings.burst());
    profiles.keySet().stream().sorted().forEach(
        name -> reporters.put(name, SchedulingReporter.create(client, reportWrites, name)));
    this.bindSlots = new Semaphore(settings.parallelBindings());
    this.binders =
        Executors.newFixedThreadPool(settings.parallelBindings(), threads("kubesched-bind-"));
    // Reports are best effort: when the API server is slow they queue up to a bound, then are dropped
    // (with a log line) rather than holding up scheduling, as client-go's event broadcaster does.
    this.reporting =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(REPORT_BACKLOG),
            threads("kubesched-report-"),
            (task, pool) -> LOG.debug("Dropping a report: {} are waiting", REPORT_BACKLOG));
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(threads("kubesched-housekeeping-"));
    var leaderSettings = settings.leaderElection();
    this.election = leaderSettings == null ? null : new LeaderElection(client, leaderSettings);
    this.leading = election == null;
  }

  /** Objects per page when the informers list the cluster (kube's reflector uses 500). */
  static final long LIST_PAGE = 500;

  /** How many reports (events, conditions) may wait for the API server before new ones are dropped. */
  static final int REPORT_BACKLOG = 1000;

  /**
   * Starts the informers, waits until they have listed every node and pod, then starts the worker (and,
   * with leader election, campaigns: the worker schedules only while this controller leads).
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
      clusterData.start(settings.syncTimeout());
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
          "cannot list nodes and pods"
              + (clusterData.reads().isEmpty() ? "" : " and what the policy reads " + clusterData.reads())
              + " from " + client.getMasterUrl() + ": " + cause,
          cause);
    }
    metrics.pendingPods(
        () -> {
          var depths = queue.depths();
          return new PendingPods(depths.active(), depths.backoff(), depths.unschedulable(), depths.gated());
        });
    housekeeping.scheduleWithFixedDelay(this::expireAssumptions, 1, 1, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(this::flushEventSeries, 30, 30, TimeUnit.SECONDS);
    var thread = new Thread(this::work, "kubesched-" + settings.schedulerName());
    thread.setDaemon(true);
    worker = thread;
    thread.start();
    watchdog.start(
        "kubesched-watchdog-" + settings.schedulerName(),
        () -> isWatching(nodeInformer) && isWatching(podInformer) && clusterData.isWatching(),
        () -> {
          var versions = new ArrayList<@Nullable String>(Arrays.asList(version(nodeInformer), version(podInformer)));
          versions.addAll(clusterData.versions());
          return versions;
        });
    if (election != null) {
      election.start(() -> setLeading(true), () -> setLeading(false));
    }
    LOG.info(
        "Scheduler {} started: {} nodes, {} pods to schedule{}",
        profiles.keySet(),
        nodes.getStore().list().size(),
        queue.size(),
        election == null ? "" : "; campaigning for leadership");
  }

  /** @return whether the controller was started and is not closed */
  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  /** @return whether this controller schedules now: always without leader election, else while it leads */
  public boolean isLeader() {
    return isRunning() && leading;
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
    if (nodeInformer == null) {
      throw new IllegalStateException("controller is not started");
    }
    return cache.snapshot();
  }

  /**
   * Stops scheduling, gives up leadership, waits for the bindings in flight (up to {@link
   * ControllerSettings#shutdownTimeout()}), then stops the informers and every thread this controller
   * started. Idempotent; callable from any thread, including a listener.
   */
  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    queue.close();
    synchronized (leadership) {
      leadership.notifyAll();
    }
    watchdog.close();
    var thread = worker;
    long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
    try {
      if (thread != null && thread != Thread.currentThread()) {
        thread.join(settings.shutdownTimeout().toMillis());
        if (thread.isAlive()) {
          thread.interrupt();
          thread.join(1000);
        }
      }
      binders.shutdown();
      if (!binders.awaitTermination(remainingMillis(deadline), TimeUnit.MILLISECONDS)) {
        LOG.warn("Bindings still in flight after {}; interrupting them", settings.shutdownTimeout());
        binders.shutdownNow();
        binders.awaitTermination(1, TimeUnit.SECONDS);
      }
      reporting.shutdown();
      if (!reporting.awaitTermination(remainingMillis(deadline), TimeUnit.MILLISECONDS)) {
        reporting.shutdownNow();
        reporting.awaitTermination(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      binders.shutdownNow();
      reporting.shutdownNow();
      Thread.currentThread().interrupt();
    }
    housekeeping.shutdownNow();
    try {
      housekeeping.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (election != null) {
      election.close();
    }
    if (podInformer != null) {
      podInformer.stop();
    }
    if (nodeInformer != null) {
      nodeInformer.stop();
    }
    clusterData.close();
    metrics.close();
    terminated.countDown();
    LOG.info("Scheduler {} stopped", profiles.keySet());
  }

  private static long remainingMillis(long deadlineNanos) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
  }

  private ThreadFactory threads(String prefix) {
    var count = new AtomicInteger();
    return runnable -> {
      var thread = new Thread(runnable, prefix + settings.schedulerName() + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private void setLeading(boolean nowLeading) {
    synchronized (leadership) {
      leading = nowLeading;
      leadership.notifyAll();
    }
    LOG.info(
        nowLeading ? "Scheduler {} leads: scheduling" : "Scheduler {} lost leadership: not scheduling",
        profiles.keySet());
  }

  private void awaitLeadership() throws InterruptedException {
    synchronized (leadership) {
      while (!leading && state.get() == State.RUNNING) {
        leadership.wait();
      }
    }
  }

  private SharedIndexInformer<Node> newNodeInformer() {
    // Lists in pages, as kube's reflector does: an unpaged list of a large cluster is the memory peak.
    var nodes = client.nodes().withLimit(LIST_PAGE).runnableInformer(0);
    nodes.itemStore(InformerStores.nodes()); // only what the scheduler reads: see docs/memory.md
    nodes.addEventHandler(new NodeHandler());
    return nodes;
  }

  private SharedIndexInformer<Pod> newPodInformer() {
    var pods = Snapshots.nonTerminalPods(client).withLimit(LIST_PAGE).runnableInformer(0);
    pods.itemStore(InformerStores.pods());
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
   * added, which is harmless (the queue and cache are keyed by uid and name); what was deleted while the
   * watches were lost is dropped from the cache afterwards.
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
      clusterData.restart(settings.syncTimeout());
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
    queue.moveAllToActiveOrBackoff("Relist");
    LOG.info(
        "Relisted {} nodes and {} pods; {} deleted while unwatched", nodeNames.size(), podUids.size(), dropped);
  }

  private void work() {
    try {
      while (state.get() == State.RUNNING) {
        awaitLeadership();
        var item = queue.take();
        if (item == null) {
          return;
        }
        if (!leading) { // lost leadership while waiting: the next leader will take it
          queue.requeueAfterError(item);
          continue;
        }
        long cycle = queue.schedulingCycle();
        long startedNanos = ticker.nanoTime();
        attempts.compute(
            item.uid(),
            (uid, seen) ->
                seen == null ? new Attempts(startedNanos, 1) : new Attempts(seen.firstQueuedNanos(), seen.count() + 1));
        try {
          schedule(item, cycle, startedNanos);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          LOG.error("Unexpected failure scheduling pod {}; it will be retried", item.key(), e);
          queue.requeueAfterError(item);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void schedule(QueuedPod item, long cycle, long startedNanos) throws InterruptedException {
    var pod = Objects.requireNonNull(podInformer).getStore().getByKey(item.key());
    var finder = profiles.get(item.profile());
    var skip =
        pod == null || !item.uid().equals(Snapshots.uid(pod))
            ? "it is gone"
            : finder == null || !PodFilters.needsScheduling(pod, item.profile())
                ? "it no longer needs scheduling"
                : cache.isAssumed(item.uid()) ? "it is being bound" : null;
    if (skip != null) {
      LOG.debug("Not scheduling pod {}: {}", item.key(), skip);
      done(item.uid());
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
      done(item.uid());
      LOG.warn("Cannot schedule {}", e.getMessage());
      report(item.profile(), reporter -> reporter.schedulingError(pod, e.getMessage()));
      metrics.attempt(item.profile(), Result.ERROR, Duration.ofNanos(ticker.nanoTime() - startedNanos));
      notify(() -> listener.failed(item.key(), e));
      return;
    }
    var refusal = UnsupportedFeatures.refusal(info);
    if (refusal.isPresent()) { // never given to the policy, which would place it as if it had no claims
      unschedulable(item, cycle, startedNanos, pod, info, refusal.get(), QueueingHint.POD_UPDATE_ONLY);
      return;
    }
    var nodes = cache.snapshot();
    Decision decision;
    long algorithmStart = ticker.nanoTime();
    try {
      decision =
          Objects.requireNonNull(finder.find(info, clusterData.snapshot(nodes)), "FinderFunc returned null");
    } catch (RuntimeException e) {
      metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
      fail(item, pod, startedNanos, new SchedulerException("FinderFunc failed for pod " + item.key() + ": " + e, e));
      return;
    }
    metrics.algorithm(Duration.ofNanos(ticker.nanoTime() - algorithmStart));
    if (decision instanceof Decision.Unschedulable unschedulable) {
      unschedulable(
          item, cycle, startedNanos, pod, info, unschedulable.message(nodes.size()), QueueingHint.of(info));
      return;
    }
    var nodeName = ((Decision.Bind) decision).nodeName();
    if (!nodes.hasNode(nodeName)) {
      fail(
          item,
          pod,
          startedNanos,
          new SchedulerException(
              "FinderFunc chose node '" + nodeName + "' for pod " + item.key()
                  + ", which is not among the " + nodes.size() + " nodes it was given"));
      return;
    }
    try {
      cache.assume(info, nodeName);
    } catch (IllegalStateException boundMeanwhile) {
      // Someone bound it between our read of the pod and now, and the watch already shows it: routine.
      LOG.info("Pod {} was bound while it was being scheduled ({}); leaving it", item.key(), boundMeanwhile.getMessage());
      done(item.uid());
      return;
    }
    bindSlots.acquire(); // at most parallelBindings in flight: the worker waits for a free one
    try {
      binders.execute(() -> bindAndRelease(item, pod, info, nodeName, startedNanos));
    } catch (RejectedExecutionException closing) {
      bindSlots.release();
      cache.forget(item.uid());
    }
  }

  /** The attempt found no node, or refused the pod: park it, and tell the log, the API server and the listener. */
  private void unschedulable(
      QueuedPod item, long cycle, long startedNanos, Pod pod, PodInfo info, String message, QueueingHint hint) {
    if (message.equals(lastLogged.put(item.uid(), message))) {
      LOG.debug("Pod {} is still unschedulable: {}", item.key(), message);
    } else {
      LOG.info("Pod {} is unschedulable: {}", item.key(), message);
    }
    queue.requeueUnschedulable(item, cycle, hint);
    metrics.attempt(item.profile(), Result.UNSCHEDULABLE, Duration.ofNanos(ticker.nanoTime() - startedNanos));
    report(item.profile(), reporter -> reporter.unschedulable(pod, message));
    notify(() -> listener.unschedulable(info, message));
  }

  private void bindAndRelease(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos) {
    try {
      bind(item, pod, info, nodeName, startedNanos);
    } catch (InterruptedException e) {
      cache.forget(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      cache.forget(item.uid());
      LOG.error("Unexpected failure binding pod {}; it will be retried", item.key(), e);
      queue.requeueAfterError(item);
    } finally {
      bindSlots.release();
    }
  }

  /** Runs on a binding thread: the assumption is in the cache; the worker has moved on. */
  private void bind(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos)
      throws InterruptedException {
    writes.acquire();
    long bindStart = ticker.nanoTime();
    var outcome =
        Binder.bind(new BindOptions(client, pod, nodeName, settings.bindTimeout(), settings.bindMode()));
    long now = ticker.nanoTime();
    metrics.bound(item.profile(), Duration.ofNanos(now - bindStart), outcome instanceof BindOutcome.Bound);
    if (outcome instanceof BindOutcome.Bound) {
      cache.finishBinding(item.uid());
      lastLogged.remove(item.uid());
      unconfirmed.remove(item.uid());
      var tried = attempts.remove(item.uid());
      queue.done(item.uid());
      metrics.attempt(item.profile(), Result.SCHEDULED, Duration.ofNanos(now - startedNanos));
      if (tried != null) {
        metrics.scheduled(tried.count(), Duration.ofNanos(now - tried.firstQueuedNanos()));
      }
      LOG.debug("Bound {} to {}", item.key(), nodeName);
      report(item.profile(), reporter -> reporter.scheduled(pod, nodeName));
      notify(() -> listener.bound(info, nodeName));
      return;
    }
    cache.forget(item.uid());
    if (outcome instanceof BindOutcome.Conflict conflict) {
      done(item.uid());
      LOG.info("Pod {} was bound to {} by someone else; leaving it there", item.key(), conflict.actualNode());
    } else if (outcome instanceof BindOutcome.PodGone gone) {
      done(item.uid());
      LOG.info("Not binding pod {}: {}", item.key(), gone.detail());
    } else if (outcome instanceof BindOutcome.Failed failed) {
      unconfirmed.put(item.uid(), nodeName);
      fail(
          item,
          pod,
          startedNanos,
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

  private void fail(QueuedPod item, Pod pod, long startedNanos, SchedulerException error) {
    LOG.warn("{}; retrying after backoff", error.getMessage());
    queue.requeueAfterError(item);
    metrics.attempt(item.profile(), Result.ERROR, Duration.ofNanos(ticker.nanoTime() - startedNanos));
    report(item.profile(), reporter -> reporter.schedulingError(pod, error.getMessage()));
    notify(() -> listener.failed(item.key(), error));
  }

  /** The pod is bound, gone, or waits for a change of its own: forget its attempts. */
  private void done(String uid) {
    queue.done(uid);
    attempts.remove(uid);
  }

  /** A write to the API server, best effort and off the scheduling thread. */
  @FunctionalInterface
  private interface Report {
    boolean to(SchedulingReporter reporter) throws InterruptedException;
  }

  private void report(String profile, Report report) {
    var reporter = reporters.get(profile);
    if (reporter == null || reporting.isShutdown()) {
      return;
    }
    reporting.execute(
        () -> {
          try {
            report.to(reporter);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (RuntimeException e) {
            LOG.warn("Reporting to the API server failed: {}", e.toString());
          }
        });
  }

  private void flushEventSeries() {
    for (var reporter : reporters.values()) {
      reporting.execute(
          () -> {
            try {
              reporter.flushSeries();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
              LOG.warn("Writing event series failed: {}", e.toString());
            }
          });
    }
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
          settings.assumedPodTtl());
      queue.add(new QueuedPod(pod.uid(), pod.namespace(), pod.name(), pod.priority(), pod.schedulerName()));
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

  private boolean isOurs(Pod pod) {
    var schedulerName = PodAdapter.schedulerName(pod);
    return profiles.containsKey(schedulerName) && PodFilters.needsScheduling(pod, schedulerName);
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
      boolean wasCounted = cache.removePod(uid);
      queue.delete(uid);
      attempts.remove(uid);
      lastLogged.remove(uid);
      unconfirmed.remove(uid);
      if (wasCounted || PodFilters.occupiesNode(pod)) {
        queue.moveAllToActiveOrBackoff("AssignedPodDelete"); // its node has room again
      }
    }

    private void handle(@Nullable Pod oldPod, Pod pod) {
      var uid = Snapshots.uid(pod);
      if (PodFilters.isAssigned(pod)) {
        lastLogged.remove(uid);
        if (PodFilters.isTerminal(pod)) {
          cache.removePod(uid);
          if (oldPod != null && !PodFilters.isTerminal(oldPod)) {
            queue.moveAllToActiveOrBackoff("AssignedPodFinished"); // a finished pod frees its node
          }
        } else {
          putBoundPod(pod); // confirms the assumption if this controller bound it
          if (oldPod == null || !PodFilters.isAssigned(oldPod)) {
            moves.assignedPodAdded(PodFilters.namespace(pod), PodFilters.labels(pod));
          } else {
            moves.assignedPodUpdated(
                PodFilters.namespace(pod), PodFilters.labels(oldPod), PodFilters.labels(pod));
          }
        }
      } else if (isOurs(pod)) {
        // Our own condition and event writes change only the status: they must not retry the pod.
        if (oldPod == null || changedBeyondStatus(oldPod, pod)) {
          queue.add(PodFilters.queueEntry(pod));
        }
      } else {
        queue.delete(uid); // e.g. now being deleted
      }
    }
  }

  /**
   * Whether an update changed more than the pod's status (kube-scheduler's {@code isPodUpdated}), so that
   * our own condition writes do not retry a waiting pod. The old pod comes from the informer's store, which
   * keeps only what the scheduler reads ({@link InformerStores}), so both are compared in that form: a change
   * of a field the scheduler does not read (an annotation, an env var) does not count either.
   */
  static boolean changedBeyondStatus(Pod oldPod, Pod pod) {
    try {
      var before = InformerStores.kept(oldPod);
      var after = InformerStores.kept(pod);
      return !Objects.equals(before.getSpec(), after.getSpec())
          || !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels());
    } catch (RuntimeException malformed) { // fabric8's Quantity.equals parses, and throws on "12x"
      return true;
    }
  }

  private final class NodeHandler implements ResourceEventHandler<Node> {

    @Override
    public void onAdd(Node node) {
      putNode(node);
      queue.moveAllToActiveOrBackoff("NodeAdd");
    }

    @Override
    public void onUpdate(Node oldNode, Node newNode) {
      putNode(newNode);
      if (NodeChanges.mayLetPodsFit(oldNode, newNode)) {
        queue.moveAllToActiveOrBackoff("NodeUpdate");
      }
    }

    @Override
    public void onDelete(Node node, boolean deletedFinalStateUnknown) {
      cache.removeNode(node.getMetadata().getName());
      moves.nodeDeleted(PodFilters.labels(node)); // only pods that spread over its domains; the rest are decided without it
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
