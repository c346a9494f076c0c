package io.kubesched.informer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.PendingPods;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.ApiRequests;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.report.PodGroupReporter;
import io.kubesched.binder.report.SchedulingReporter;
import io.kubesched.engine.ClusterEvent;
import io.kubesched.engine.DeviceCache;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.cycle.AssumptionExpiry;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.BindingCycle;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.cycle.PreemptPort;
import io.kubesched.informer.cycle.Profiles;
import io.kubesched.informer.cycle.Reporting;
import io.kubesched.informer.cycle.SchedulingCycle;
import io.kubesched.informer.cycle.ClaimAssumptions;
import io.kubesched.informer.cycle.ClaimPort;
import io.kubesched.informer.cycle.VolumePort;
import io.kubesched.informer.leader.LeaderElection;
import io.kubesched.informer.leader.Leadership;
import io.kubesched.informer.report.GroupReports;
import io.kubesched.informer.report.GuardedMetrics;
import io.kubesched.informer.report.SerialListener;
import io.kubesched.informer.watch.ClusterDataInformers;
import io.kubesched.informer.watch.EventHandlers;
import io.kubesched.informer.watch.InformerSet;
import io.kubesched.informer.watch.PodGroupSources;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places every pod whose {@code spec.schedulerName} is one of its profiles' scheduler names, as
 * kube-scheduler's scheduling loop does, composed as kube-scheduler composes it: an {@link InformerSet}
 * feeds the {@link EventHandlers}, which fill the queue and the cache; one scheduling thread runs the {@link
 * SchedulingCycle}; a bounded pool runs the {@link BindingCycle}; {@link Reporting} writes events and
 * conditions; {@link Leadership} gates the scheduling cycle under leader election.
 *
 * <p>Threads: the informers' handler threads; {@code kubesched-<name>} (the scheduling cycle); {@code
 * kubesched-filter-<name>-N} (helping it filter and score a large cluster's nodes: {@code parallelism - 1}, at
 * most one fewer than the available processors, none with one); {@code
 * kubesched-bind-<name>-N} (bindings, at most {@code parallelBindings}); {@code kubesched-preempt-<name>-N}
 * (evictions of preemption victims, at most {@code parallelBindings} preemptors at a time); {@code
 * kubesched-evict-<name>-N} (a preemptor's victims but the last, deleted at once: at most {@code
 * parallelBindings} deletions at a time); {@code kubesched-report-<name>-1}
 * (API writes of events and conditions); {@code kubesched-listener-<name>} (every {@link SchedulingListener}
 * call); {@code kubesched-housekeeping-<name>-1} (assumption expiry, event series, checks of the pods waiting
 * for their volumes to be bound); {@code
 * kubesched-watchdog-<name>} (relists); and the leader elector's.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} any number of times from any thread; {@link
 * #replacePolicy} from any thread at any time.
 */
public final class SchedulingLoop implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulingLoop.class);

  /** A pod group object added, changed or deleted: moves its own members only. */
  private static final ClusterEvent POD_GROUP_CHANGE =
      new ClusterEvent(ClusterEvent.Resource.WILDCARD, ClusterEvent.ActionType.ALL, "PodGroupChange");

  /** How many reports (events, conditions) may wait for the API server before new ones are dropped. */
  static final int REPORT_BACKLOG = 1000;

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private final ControllerSettings settings;
  private final SchedulerMetrics metrics;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final ExecutorService binders;
  private final ExecutorService preemptors;
  private final ExecutorService victims;
  /** Helps the scheduling thread filter and score large clusters; null when it works alone. */
  private final @Nullable ExecutorService nodeWorkers;
  private final ThreadPoolExecutor reports;
  private final ScheduledExecutorService housekeeping;
  /**
   * Held by {@link #start} from the end of the informers' sync until the worker runs and the housekeeping is
   * scheduled, and by {@link #close} while it marks the loop closed: a close during a start either comes first
   * (the start then stops) or finds the worker and the housekeeping to stop.
   */
  private final Object lifecycle = new Object();
  private final SerialListener listener;
  private final Reporting reporting;
  private final LoopParts parts;
  private final ClusterDataInformers clusterData;
  private final PodGroupSources groupSources;
  private final GroupReports groupReports;
  private final InformerSet informers;
  private final Explainer explainer;
  private final BiFunction<List<NodeInfo>, Nominations, ClusterSnapshot> snapshots;
  private final @Nullable LeaderElection election;
  private final String masterUrl;
  private @Nullable Thread worker;

  /**
   * A loop for several scheduler names (profiles), each with its own policy; one queue, one cache and one
   * binding pool serve them all. It watches what these policies {@linkplain FinderFunc#reads() read} and what
   * {@link ControllerSettings#watch()} adds.
   *
   * @param client the client to watch and bind with; not closed by this loop
   * @param settings how to run (validated by the facade's {@code Options})
   * @param profiles the first policy of each scheduler name, at least one; {@link #replacePolicy} replaces them
   * @param listener hears about each pod's outcome, on a thread of its own
   * @param metrics records what the loop does; a call that throws is logged and ignored
   * @throws IllegalArgumentException if {@code profiles} is empty or a name is blank
   */
  public SchedulingLoop(
      KubernetesClient client,
      ControllerSettings settings,
      Map<String, FinderFunc> profiles,
      SchedulingListener listener,
      SchedulerMetrics metrics) {
    this(client, client, settings, profiles, listener, metrics);
  }

  /**
   * As {@link #SchedulingLoop(KubernetesClient, ControllerSettings, Map, SchedulingListener, SchedulerMetrics)},
   * with the loop's writes (bindings, preemption, reports) made through a client of their own.
   *
   * @param bindingClient the client the loop writes with: bindings, volume bindings, preemption, events, pod
   *     conditions and pod group status (the same API server and credentials as {@code client}); not closed by
   *     this loop
   */
  public SchedulingLoop(
      KubernetesClient client,
      KubernetesClient bindingClient,
      ControllerSettings settings,
      Map<String, FinderFunc> profiles,
      SchedulingListener listener,
      SchedulerMetrics metrics) {
    this.settings = settings;
    // The scheduling thread works too: parallelism - 1 helpers, and no more threads than processors, since
    // filtering and scoring only compute (kube-scheduler starts its 16 goroutines whatever the CPUs; a thread
    // costs more than a goroutine, and more of them than cores only adds switches).
    int threads = nodeThreads(settings.parallelism(), Runtime.getRuntime().availableProcessors());
    this.nodeWorkers =
        threads < 2 ? null : Executors.newFixedThreadPool(threads - 1, threads("kubesched-filter-"));
    var workers = nodeWorkers;
    var policies =
        new Profiles(
            profiles,
            settings.watch(),
            workers == null ? UnaryOperator.identity() : finder -> finder.withParallelism(threads, workers));
    this.metrics = new GuardedMetrics(metrics);
    this.masterUrl = String.valueOf(client.getMasterUrl());
    this.binders = Executors.newFixedThreadPool(settings.parallelBindings(), threads("kubesched-bind-"));
    // Evictions run beside the bindings, as kube-scheduler's preemption goroutines: as many preemptors at a
    // time as bindings (each waits on the API server, not on the CPU; with two, preemptors arriving every
    // 200 ms queued up behind each other's deletions), and a preemptor's victims but the last at once, on as
    // many threads again (kube-scheduler's parallelizer).
    this.preemptors = Executors.newFixedThreadPool(settings.parallelBindings(), threads("kubesched-preempt-"));
    this.victims = Executors.newFixedThreadPool(settings.parallelBindings(), threads("kubesched-evict-"));
    // Reports are best effort: when the API server is slow they queue up to a bound, then are dropped
    // (with a log line) rather than holding up scheduling, as client-go's event broadcaster does.
    this.reports =
        new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(REPORT_BACKLOG), threads("kubesched-report-"),
            (task, pool) -> LOG.debug("Dropping a report: {} are waiting", REPORT_BACKLOG));
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(threads("kubesched-housekeeping-"));
    this.listener = new SerialListener(listener, settings.schedulerName());
    // Reports get a bucket of their own, as kube-scheduler gives events a client of their own: a burst of
    // events must not slow the bindings down. They are written through the binding client (each request
    // written whole and answered on the report thread), not through the informers' client, whose one selector
    // thread also reads every watch: at 500 nodes that took the scheduler's CPU from 4.5-5.4 s to 3.5-4.0 over
    // the measured phases (the end-to-end benchmark's notes, docs/performance.md#measurement-notes).
    var reportWrites = TokenBucket.create(settings.qps(), settings.burst());
    var reporters = new LinkedHashMap<String, SchedulingReporter>();
    policies.names().stream().sorted().forEach(
        name -> reporters.put(name, SchedulingReporter.create(bindingClient, reportWrites, name)));
    this.reporting = new Reporting(reporters, reports, this.listener);
    var leaderSettings = settings.leaderElection();
    this.election = leaderSettings == null ? null : new LeaderElection(client, leaderSettings);
    this.groupReports =
        new GroupReports(
            new PodGroupReporter(bindingClient, reportWrites, settings.schedulerName()), reports, Clock.systemUTC());
    // Pod group objects of the sources asked for; its listener is called only once the informers run.
    this.groupSources = new PodGroupSources(client, settings.podGroupSources(), this::podGroupChanged);
    // Bindings and volume bindings share one bucket: kube-scheduler writes both through one client. Like the
    // bindings, the volume bindings and preemption's writes go through the binding client.
    var writes = TokenBucket.create(settings.qps(), settings.burst());
    var injected =
        new LoopParts.Injected(
            Ticker.SYSTEM, binders, BindPort.toApiServer(bindingClient, settings.bindTimeout(), settings.bindMode()),
            VolumePort.toApiServer(bindingClient, writes),
            ClaimPort.toApiServer(bindingClient, writes, Clock.systemUTC()),
            preemptors, victims, PreemptPort.toApiServer(bindingClient, writes), writes, reporting,
            (nodes, nominations) -> clusterData().snapshot(nodes, nominations),
            groupLookup(groupSources), groupReports, BindingCycle.GROUP_BIND_RETRY_DELAY);
    // The one StorageCache of this loop: the storage informers fill it, the scheduling cycle reserves in it,
    // the binding cycle waits on it (and checks its waiting pods again at each storage change).
    var storage = new StorageCache();
    // The one DeviceCache of this loop: the dynamic-resource informers fill it (and each snapshot carries its
    // DynamicResources); the binding cycle assumes the claims' allocations in it (DeviceCache.assume/forget).
    var devices = new DeviceCache();
    this.parts = LoopParts.create(
        settings, policies, this.metrics, election == null && !settings.externalLeadership(), storage,
        ClaimAssumptions.in(devices), injected);
    this.snapshots = injected.clusterSnapshot();
    this.explainer =
        new Explainer(
            policies, parts.queue(), parts.cache(), injected.clusterSnapshot(), parts.handlers()::pendingPod,
            injected.groups());
    this.clusterData =
        new ClusterDataInformers(
            client, policies.watched(), parts.moves(), storage, devices, parts.binding()::checkVolumeWaits);
    this.informers =
        new InformerSet(
            client, settings.syncTimeout(), parts.handlers(), clusterData, parts.cache(), parts.queue(), this::isRunning);
  }

  private ClusterDataInformers clusterData() {
    return clusterData;
  }

  /**
   * @param parallelism the setting
   * @param processors the processors available to the JVM
   * @return how many threads filter and score the nodes for one pod, the scheduling thread included
   */
  static int nodeThreads(int parallelism, int processors) {
    return Math.max(1, Math.min(parallelism, processors));
  }

  private static PodGroupLookup groupLookup(PodGroupSources sources) {
    return new PodGroupLookup() {
      @Override
      public boolean honours(PodGroupRef.Source source) {
        return sources.serves(source);
      }

      @Override
      public @Nullable PodGroup group(PodGroupRef ref) {
        return sources.group(ref);
      }

      @Override
      public @Nullable String invalid(PodGroupRef ref) {
        return sources.invalid(ref);
      }
    };
  }

  /**
   * A pod group object was added, changed or deleted (on an informer thread): its members waiting for it are
   * tried again, and so are those that did not fit (its minimum may have dropped); its timeout starts over. A
   * change of its status only (as our own reports make) changes nothing.
   */
  private void podGroupChanged(PodGroupRef ref, @Nullable PodGroup before, @Nullable PodGroup after) {
    if (before != null && before.equals(after)) {
      return; // its status changed (our own writes among them): nothing a placement reads
    }
    parts.groups().forget(ref);
    if (after == null && before != null) {
      groupReports.forget(before);
    }
    var queue = parts.queue();
    queue.releaseGroup(ref);
    queue.moveUnschedulableIf(
        POD_GROUP_CHANGE,
        (pod, hint) -> pod.info() != null && ref.equals(pod.info().podGroupRef()));
  }

  /**
   * Replaces the policy of the profile {@code schedulerName}: each scheduling attempt that starts from now on
   * uses {@code finder}; one in flight finishes with the policy it began with, so no pod is lost or bound twice.
   * The profile's pods waiting as unschedulable are tried again, as after a cluster event. Callable from any
   * thread, before {@link #start()}, while running, or after {@link #close()} (then it changes nothing that
   * runs).
   *
   * @throws ConfigurationException if {@code schedulerName} is not one of this loop's profiles (the message
   *     lists them), or if {@code finder} {@linkplain FinderFunc#reads() reads} cluster data this loop does not
   *     watch (the message names it)
   */
  public void replacePolicy(String schedulerName, FinderFunc finder) {
    parts.replacePolicy(schedulerName, finder);
  }

  /**
   * @return the pod group objects this loop knows and can read, of the sources it watches, ordered by source,
   *     namespace and name
   * @throws IllegalStateException if not started
   */
  public List<PodGroup> podGroups() {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    return groupSources.groups();
  }

  /**
   * @return the sources of pod groups this loop watches (asked for, and served by the API server): members of a
   *     group of another source are scheduled one by one
   * @throws IllegalStateException if not started
   */
  public Set<PodGroupRef.Source> podGroupSources() {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    return groupSources.served();
  }

  /**
   * @return the policy the profile {@code schedulerName}'s next attempt uses (given the loop's node workers)
   * @throws ConfigurationException if {@code schedulerName} is not one of this loop's profiles (the message lists
   *     them)
   */
  public FinderFunc policy(String schedulerName) {
    var profile = parts.profiles().get(schedulerName);
    if (profile == null) {
      throw new ConfigurationException(
          "schedulerName '" + schedulerName + "' is not a profile of this controller; its profiles are "
              + parts.profiles().names());
    }
    return profile.finder();
  }

  /**
   * Starts the informers, waits until they have listed every node and pod, then starts the scheduling
   * thread (and, with leader election, campaigns: the loop schedules only while it leads).
   *
   * @throws IllegalStateException if started before, or closed
   * @throws SchedulerException if the informers cannot list within the sync timeout; the loop is closed
   *     then. If {@link #close()} is called while this lists, this returns without starting.
   */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("controller was already started or is closed: " + state.get());
    }
    int nodes;
    try {
      informers.start(); // every first list at once, as kube's informer factory starts them
      groupSources.start(); // meanwhile: decides which sources are served before the first pod is taken
      nodes = informers.awaitSync();
      awaitGroupSources();
    } catch (RuntimeException e) {
      close(); // the discovery of pod group sources failed: the informers listing meanwhile are stopped
      throw e;
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
              + " from " + masterUrl + ": " + ApiRequests.describeFailure(cause),
          cause);
    }
    synchronized (lifecycle) {
      // close() may have run since the sync: then its executors are shut down and it joined no worker.
      if (state.get() == State.CLOSED) {
        LOG.info("Scheduler '{}' closed while it was starting", settings.schedulerName());
        return;
      }
      startWorking(nodes);
    }
  }

  /** The rest of {@link #start} once the informers have synced; under {@link #lifecycle}, so that close() waits. */
  private void startWorking(int nodes) {
    var queue = parts.queue();
    metrics.pendingPods(
        () -> {
          var depths = queue.depths();
          return new PendingPods(depths.active(), depths.backoff(), depths.unschedulable(), depths.gated());
        });
    metrics.pendingGroups(queue::pendingGroups);
    var expiry = new AssumptionExpiry(parts.cache(), queue, settings.assumedPodTtl());
    housekeeping.scheduleWithFixedDelay(expiry::run, 1, 1, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(reporting::flushSeries, 30, 30, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(groupReports::flushSeries, 30, 30, TimeUnit.SECONDS);
    // kube's PreBind polls every second; claim and volume events may check sooner.
    housekeeping.scheduleWithFixedDelay(parts.binding()::checkVolumeWaits, 1, 1, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(parts.binding()::checkDeviceWaits, 1, 1, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(parts.preemption()::checkHeld, 1, 1, TimeUnit.SECONDS);
    housekeeping.scheduleWithFixedDelay(parts.groups()::checkTimeouts, 1, 1, TimeUnit.SECONDS);
    var thread = new Thread(parts.scheduling(), "kubesched-" + settings.schedulerName());
    thread.setDaemon(true);
    worker = thread;
    thread.start();
    informers.watch(settings.schedulerName());
    if (election != null) {
      var leadership = parts.leadership();
      // client-go's leader_election_master_status: 0 while campaigning, 1 while leading, by the lease's name.
      var lease = Objects.requireNonNull(settings.leaderElection(), "leaderElection").lockName();
      metrics.leaderElection(lease, false);
      election.start(
          () -> {
            leadership.set(true);
            metrics.leaderElection(lease, true);
          },
          () -> {
            leadership.set(false);
            metrics.leaderElection(lease, false);
          });
    }
    LOG.info(
        "Scheduler {} started: {} nodes, {} pods to schedule{}",
        parts.profiles().names(), nodes, queue.size(),
        election != null ? "; campaigning for leadership"
            : settings.externalLeadership() ? "; scheduling while the application says it leads" : "");
  }

  /** Waits, within the sync timeout, for the pod group informers' first lists. */
  private void awaitGroupSources() throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + settings.syncTimeout().toNanos();
    while (!groupSources.hasSynced()) {
      if (System.nanoTime() - deadline > 0) {
        throw new TimeoutException("pod groups not listed within " + settings.syncTimeout());
      }
      Thread.sleep(10);
    }
  }

  /** @return whether the loop was started and is not closed */
  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  /**
   * Under {@linkplain ControllerSettings#externalLeadership() external leadership}, starts or stops scheduling
   * as the embedding application gains or loses its leadership: the scheduling thread takes no pod while not
   * leading (an attempt in flight finishes, as when an elected leader loses its lease). Any thread, any time;
   * after {@link #close()} it changes nothing.
   *
   * @throws IllegalStateException if this loop elects its own leader or runs without leadership
   */
  public void setLeading(boolean leading) {
    if (!settings.externalLeadership()) {
      throw new IllegalStateException(
          "setLeading needs Options.Builder.externalLeadership(); this controller "
              + (election != null ? "elects its own leader" : "schedules without leadership"));
    }
    parts.leadership().set(leading);
  }

  /** @return whether this loop schedules now: always without leader election, else while it leads */
  public boolean isLeader() {
    return isRunning() && parts.leadership().isLeading();
  }

  /**
   * Blocks until the loop is closed.
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public void awaitTermination() throws InterruptedException {
    terminated.await();
  }

  /**
   * The nodes as the next decision would see them: each with the pods bound to it and the pods this loop
   * has chosen it for but whose binding the watch has not shown yet.
   *
   * @throws IllegalStateException if not started
   */
  public List<NodeInfo> nodes() {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    return parts.cache().nodes();
  }

  /**
   * Explains the pod {@code namespace/name} as this loop's next attempt of it would see it: the nodes with the
   * pods bound and assumed on them, the nominations, and the policy its profile has now (after any {@link
   * #replacePolicy}); a member of a pod group this loop places with its group is explained with the group.
   * Nothing changes: the pod is not taken, assumed or reported, and the policy's round-robin start stays. Any
   * thread, while the loop runs; the policy's work runs on the calling thread, and the loop waits for it at
   * most for a read of the queue or the cache.
   *
   * @return the explanation, or why there is none (bound, being bound, a plain {@link FinderFunc}, a group
   *     waiting for members, ...); empty if no pod of that name exists (finished ones included) or none of
   *     this loop's profiles is its scheduler
   * @throws IllegalStateException if not started
   */
  public Optional<LoopExplanation> explain(String namespace, String name) {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    var pod = informers.pod(namespace, name);
    return pod == null ? Optional.empty() : Optional.ofNullable(explainer.explain(pod));
  }

  /**
   * @return the cluster as the next decision would see it: {@link #nodes()}, the nominations of preemption, and
   *     what the profiles' policies read (namespaces, workloads, storage, devices, budgets)
   * @throws IllegalStateException if not started
   */
  public ClusterSnapshot snapshot() {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    return snapshots.apply(parts.cache().nodes(), parts.queue().nominations());
  }

  /**
   * @return the pods this loop has yet to place, wherever they wait in its queue or are being decided (not those
   *     being bound, nor those that cannot be read), highest priority first; among equals, those ready first,
   *     then those in backoff, waiting for a change, gated, and being decided
   * @throws IllegalStateException if not started
   */
  public List<PodInfo> pendingPods() {
    if (!informers.isStarted()) {
      throw new IllegalStateException("controller is not started");
    }
    var contents = parts.queue().contents();
    var pods = new ArrayList<PodInfo>();
    for (var part : List.of(contents.active(), contents.backoff(), contents.unschedulable(), contents.gated(),
        contents.inFlight())) {
      part.forEach(item -> {
        if (item.info() != null && !parts.cache().isAssumed(item.uid())) {
          pods.add(item.info());
        }
      });
    }
    pods.sort(Comparator.comparingInt(PodInfo::priority).reversed());
    return List.copyOf(pods);
  }

  /**
   * Stops scheduling, gives up leadership, waits for the bindings in flight (up to {@link
   * ControllerSettings#shutdownTimeout()}), delivers the listener calls they made, then stops the informers
   * and every thread this loop started. Pods waiting for their volumes to be bound are left pending (their
   * volume writes stay, as kube-scheduler leaves them), for the next scheduler. Idempotent; callable from any
   * thread, including a listener.
   */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (state.getAndSet(State.CLOSED) == State.CLOSED) {
        return;
      }
    }
    parts.queue().close();
    parts.leadership().close();
    var timeout = settings.shutdownTimeout();
    long deadline = System.nanoTime() + timeout.toNanos();
    var thread = worker;
    try {
      if (thread != null && thread != Thread.currentThread()) {
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
          thread.interrupt();
          thread.join(1000);
        }
      }
      drain(binders, deadline, "Bindings still in flight after " + timeout + "; interrupting them");
      drain(preemptors, deadline, "Evictions still in flight after " + timeout + "; interrupting them");
      drain(victims, deadline, "Evictions still in flight after " + timeout + "; interrupting them");
      drain(reports, deadline, "Reports still waiting after " + timeout + "; dropping them");
      listener.close(Duration.ofMillis(remainingMillis(deadline) + 1000));
    } catch (InterruptedException e) {
      binders.shutdownNow();
      preemptors.shutdownNow();
      victims.shutdownNow();
      reports.shutdownNow();
      Thread.currentThread().interrupt();
    }
    housekeeping.shutdownNow();
    if (nodeWorkers != null) { // the scheduling thread has ended, or was interrupted and left within a chunk
      nodeWorkers.shutdownNow();
    }
    try {
      housekeeping.awaitTermination(1, TimeUnit.SECONDS);
      if (nodeWorkers != null) {
        nodeWorkers.awaitTermination(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (election != null) {
      election.close();
    }
    informers.close();
    groupSources.close();
    metrics.close();
    terminated.countDown();
    LOG.info("Scheduler {} stopped", parts.profiles().names());
  }

  private static void drain(ExecutorService pool, long deadline, String warning) throws InterruptedException {
    pool.shutdown();
    if (!pool.awaitTermination(remainingMillis(deadline), TimeUnit.MILLISECONDS)) {
      LOG.warn(warning);
      pool.shutdownNow();
      pool.awaitTermination(1, TimeUnit.SECONDS);
    }
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
}
