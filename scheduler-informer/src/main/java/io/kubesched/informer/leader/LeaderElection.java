package io.kubesched.informer.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.kubesched.engine.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election for the scheduling loop: of all the replicas of one scheduler, only the holder of a
 * Lease (by default {@code <namespace>/<scheduler name>}, the pod's namespace or kube-system) schedules. Built
 * on fabric8's {@code LeaderElector} with a Lease lock ({@link UpdatingLeaseLock}), released when closed, as
 * kube-scheduler does.
 *
 * <p>Unlike kube-scheduler, which exits when it loses the lease, a replica that loses it (renewals
 * failed until the renew deadline, or another holder took the lease) calls {@code onStoppedLeading} and
 * campaigns again, one retry period later. fabric8's elector is single-use, so each campaign is a new
 * elector, with the same identity, over a new {@link LeaderLock}.
 *
 * <p>The renew deadline holds even when a request hangs. fabric8 checks it only between two attempts,
 * and cannot cancel a request in flight (client-go can), so one request that hangs past the lease
 * duration would leave this replica leading while another one takes over the expired lease. A watchdog
 * therefore stops the leader when its last successful renewal started more than the renew deadline ago,
 * and fences the lock so that the hung campaign cannot renew any more; it ends at fabric8's deadline and
 * the next one begins.
 *
 * <p>Threads: two daemon threads per instance. The elector's thread, named
 * {@code kubesched-leader-<lock name>-<n>}, does fabric8's work (fabric8's shared scheduler only times
 * it) and runs the callbacks; the watchdog's, with {@code -watchdog} appended, checks the deadline every
 * retry period and starts the next campaign. The callbacks strictly alternate, the first one being
 * {@code onStartedLeading}; they must be quick and must not block, for a slow callback delays the next
 * renewal. {@code onStoppedLeading} runs elsewhere in two cases only: on the watchdog's thread when it
 * stops a leader whose elector is stuck, and on the closing thread when {@link #close()} could not wait
 * for the release.
 *
 * <p>Thread-safe.
 */
public final class LeaderElection implements AutoCloseable {

  /** The prefix of the name of the elector's thread. */
  static final String THREAD_PREFIX = "kubesched-leader-";

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final Runnable NOTHING = () -> {};

  private final KubernetesClient client;
  private final LeaderSettings settings;
  private final String identity;
  private final UnaryOperator<Lock> decorateLock;
  private final Ticker ticker;
  private final ExecutorService executor;
  private final ScheduledExecutorService watchdog;
  private final LeaseCalls calls;
  private final Object gate = new Object();
  private volatile @Nullable Thread electorThread;
  private volatile @Nullable Thread watchdogThread;
  private volatile @Nullable CompletableFuture<?> round;
  private volatile @Nullable LeaderLock roundLock;
  private volatile boolean leading;
  private volatile boolean closed;
  private boolean started;
  private volatile Runnable onStartedLeading = NOTHING;
  private volatile Runnable onStoppedLeading = NOTHING;

  /**
   * An election with a fresh identity, {@code <hostname>_<random uuid>} as kube-scheduler's.
   *
   * @param client the client that reads and writes the Lease; the caller closes it, after this
   * @param settings where and how fast to campaign
   */
  public LeaderElection(KubernetesClient client, LeaderSettings settings) {
    this(client, settings, newIdentity(), UnaryOperator.identity(), Ticker.SYSTEM);
  }

  /**
   * @param identity this candidate's identity, unique among the candidates
   * @param decorateLock wraps fabric8's Lease lock, for tests that make it fail
   * @param ticker the clock of the watchdog
   * @throws IllegalArgumentException if {@code identity} is blank
   */
  public LeaderElection(
      KubernetesClient client,
      LeaderSettings settings,
      String identity,
      UnaryOperator<Lock> decorateLock,
      Ticker ticker) {
    if (identity.isBlank()) {
      throw new IllegalArgumentException("identity must not be blank");
    }
    this.client = client;
    this.settings = settings;
    this.identity = identity;
    this.decorateLock = decorateLock;
    this.ticker = ticker;
    this.calls = new LeaseCalls(settings.lockNamespace() + "/" + settings.lockName(), settings.retryPeriod());
    var threadName = THREAD_PREFIX + settings.lockName() + "-" + THREADS.incrementAndGet();
    this.executor =
        Executors.newSingleThreadExecutor(
            task -> {
              var thread = new Thread(task, threadName);
              thread.setDaemon(true);
              electorThread = thread;
              return thread;
            });
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              var thread = new Thread(task, threadName + "-watchdog");
              thread.setDaemon(true);
              watchdogThread = thread;
              return thread;
            });
  }

  /** @return a new identity, {@code <hostname>_<random uuid>}, as kube-scheduler makes its own */
  static String newIdentity() {
    return hostname() + "_" + UUID.randomUUID();
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      var fromEnvironment = System.getenv("HOSTNAME");
      return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
    }
  }

  /** @return this candidate's identity, as written into the Lease while it leads */
  String identity() {
    return identity;
  }

  /**
   * Starts campaigning in the background and returns at once.
   *
   * @param onStartedLeading called on the elector's thread each time this candidate becomes the leader
   * @param onStoppedLeading called each time it stops being the leader, lost or closed: on the elector's
   *     thread but for the two exceptions in the class description
   * @throws IllegalStateException if started before or closed
   */
  public synchronized void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
    if (closed) {
      throw new IllegalStateException("leader election for " + describe() + " is closed");
    }
    if (started) {
      throw new IllegalStateException("leader election for " + describe() + " is started already");
    }
    started = true;
    this.onStartedLeading = onStartedLeading;
    this.onStoppedLeading = onStoppedLeading;
    LOG.info("Campaigning for the lease {} as {}", describe(), identity);
    executor.execute(this::campaign);
    var period = settings.retryPeriod().toNanos();
    watchdog.scheduleWithFixedDelay(this::checkRenewal, period, period, TimeUnit.NANOSECONDS);
  }

  /**
   * @return whether this candidate leads: true from its {@code onStartedLeading} until its
   *     {@code onStoppedLeading}; false before {@link #start} and after {@link #close()}
   */
  boolean isLeader() {
    return leading;
  }

  /**
   * Stops campaigning; if this candidate leads, releases the lease (so that another replica takes over
   * within a retry period instead of a lease duration) and calls {@code onStoppedLeading}. Waits up to
   * the renew deadline for that; if the API server does not answer in time, gives up the release (the
   * lease then expires by itself) and calls {@code onStoppedLeading} on this thread. No thread of this
   * election is left running when it returns, unless it is called from a callback: then the elector's
   * thread ends as soon as the callback returns. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (Thread.currentThread() == watchdogThread) {
      watchdog.shutdown(); // not shutdownNow(): that would interrupt this very close()
    } else {
      watchdog.shutdownNow();
    }
    if (Thread.currentThread() == electorThread) {
      cancelRound();
      executor.shutdown();
      return;
    }
    var deadline = System.nanoTime() + settings.renewDeadline().toNanos();
    var release = executor.submit(this::cancelRound);
    executor.shutdown();
    try {
      release.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (!executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        throw new TimeoutException();
      }
    } catch (TimeoutException e) {
      LOG.warn(
          "Releasing the lease {} took longer than {}; it will expire by itself",
          describe(),
          settings.renewDeadline());
    } catch (ExecutionException e) {
      LOG.warn("Releasing the lease {} failed; it will expire by itself", describe(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      executor.shutdownNow();
      awaitElectorThread();
      stopped();
    }
  }

  private void awaitElectorThread() {
    // A callback on the watchdog's thread may close: that thread ends when the callback returns.
    boolean onWatchdog = Thread.currentThread() == watchdogThread;
    try {
      if (!executor.awaitTermination(1, TimeUnit.SECONDS)
          || !(onWatchdog || watchdog.awaitTermination(1, TimeUnit.SECONDS))) {
        LOG.warn("A leader election thread for {} did not end", describe());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One campaign: a new fabric8 elector (they are single-use) that acquires, renews, and ends on loss. */
  private void campaign() {
    if (closed) {
      return;
    }
    try {
      startRound();
    } catch (RuntimeException e) {
      // Not expected; but an exception here would end the campaigning for good.
      roundEnded(e);
    }
  }

  private void startRound() {
    var lock =
        new LeaderLock(
            decorateLock.apply(new UpdatingLeaseLock(settings.lockNamespace(), settings.lockName(), identity)),
            ticker,
            calls);
    roundLock = lock;
    var config =
        new LeaderElectionConfigBuilder()
            .withName(settings.lockName())
            .withLock(lock)
            .withLeaseDuration(settings.leaseDuration())
            .withRenewDeadline(settings.renewDeadline())
            .withRetryPeriod(settings.retryPeriod())
            .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::newLeader))
            .withReleaseOnCancel(true)
            .build();
    var next = new LeaderElectorBuilder(client, executor).withConfig(config).build().start();
    round = next;
    next.whenComplete((ignored, failure) -> roundEnded(failure));
  }

  private void roundEnded(@Nullable Throwable failure) {
    if (closed) {
      return;
    }
    // fabric8 has called onStopLeading if it saw itself lead; this keeps the gate right if it did not.
    stopped();
    if (failure != null && !(failure instanceof CancellationException)) {
      LOG.warn("Leader election for {} failed; campaigning again", describe(), failure);
    } else {
      LOG.info("Campaigning again for the lease {}", describe());
    }
    // One retry period apart, so that no failure can make campaigns follow each other without pause.
    try {
      watchdog.schedule(
          () -> executor.execute(this::campaign),
          settings.retryPeriod().toNanos(),
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  /**
   * The watchdog's check, every retry period: stops the leader whose last successful renewal started
   * more than the renew deadline ago, and fences its lock. Package-private for tests.
   */
  void checkRenewal() {
    var lock = roundLock;
    if (lock == null || !leading) {
      return;
    }
    var sinceRenewal = ticker.nanoTime() - lock.renewedAt();
    if (sinceRenewal > settings.renewDeadline().toNanos()) {
      lock.fence();
      var failure = calls.lastFailure();
      LOG.warn(
          "The lease {} was last renewed {} ms ago, beyond the renew deadline {}: {}",
          describe(),
          TimeUnit.NANOSECONDS.toMillis(sinceRenewal),
          settings.renewDeadline(),
          failure == null ? "the API server does not answer in time" : failure);
      stopped();
    }
  }

  /**
   * Runs on the elector's thread. The gate closes first, so that this replica has stopped scheduling
   * before the released lease lets another one start; then cancelling makes fabric8 release the lease.
   */
  private void cancelRound() {
    stopped();
    var current = round;
    if (current != null) {
      current.cancel(true);
    }
  }

  private void started() {
    synchronized (gate) {
      if (closed || leading) {
        return;
      }
      leading = true;
      LOG.info("Leading: acquired the lease {} as {}", describe(), identity);
      runQuietly("onStartedLeading", onStartedLeading);
    }
  }

  private void stopped() {
    synchronized (gate) {
      if (!leading) {
        return;
      }
      leading = false;
      if (closed) {
        LOG.info("Stopped leading the lease {}: closed", describe());
      } else {
        LOG.warn("Stopped leading: lost the lease {}; campaigning again", describe());
      }
      runQuietly("onStoppedLeading", onStoppedLeading);
    }
  }

  private void newLeader(@Nullable String holder) {
    LOG.debug("The lease {} is now held by {}", describe(), holder);
  }

  /** A callback that throws must not end the campaign: fabric8 would drop the renewal loop with it. */
  private void runQuietly(String name, Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      LOG.error("The {} callback of the leader election for {} failed", name, describe(), e);
    }
  }

  private String describe() {
    return settings.lockNamespace() + "/" + settings.lockName();
  }
}
