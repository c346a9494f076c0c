package io.kubesched.informer.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.watch.MockServers;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Leader election against fabric8's mock API server in CRUD mode, with short timings. Nothing here
 * sleeps to let time pass: every wait polls for its condition until a deadline, and the invariant that
 * at most one candidate leads is checked at every poll.
 */
class LeaderElectionTest {

  private static final String NAMESPACE = "kube-system";
  private static final String NAME = "my-scheduler";

  /**
   * 2 s lease, 1.5 s renew deadline, 200 ms retry period: short, yet long enough that a loaded 2-core CI
   * machine does not miss renewals (1 s / 600 ms did, losing leadership the tests did not take away).
   */
  private static final LeaderSettings SHORT =
      new LeaderSettings(
          NAMESPACE, NAME, Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(200));

  /**
   * A lease far longer than any wait below: a follower that takes over within the wait can only have
   * found the lease released, not expired.
   */
  private static final LeaderSettings LONG_LEASE =
      new LeaderSettings(
          NAMESPACE, NAME, Duration.ofSeconds(30), Duration.ofMillis(1500), Duration.ofMillis(200));

  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private KubernetesMockServer server;
  private KubernetesClient observer;
  private final List<Candidate> candidates = new ArrayList<>();

  /**
   * The first Lease requests of a JVM load classes for a second or more, longer than the 600 ms renew
   * deadline of {@link #SHORT}: the first test's leader would lose its lease to the class loader. One
   * election that leads, renews and releases beforehand takes that cost.
   */
  @BeforeAll
  static void warmUp() {
    var warmUpServer = MockServers.crud();
    try (var client = warmUpServer.createClient(new JdkHttpClientFactory());
        var election =
            new LeaderElection(client, SHORT, "warm-up", UnaryOperator.identity(), Ticker.SYSTEM)) {
      election.start(() -> {}, () -> {});
      await("the warm-up election leads", election::isLeader);
      var lease = client.leases().inNamespace(NAMESPACE).withName(NAME);
      await(
          "the warm-up election renews",
          () -> !lease.get().getSpec().getRenewTime().equals(lease.get().getSpec().getAcquireTime()));
    } finally {
      warmUpServer.destroy();
    }
  }

  @BeforeEach
  void startServer() {
    server = MockServers.crud();
    observer = server.createClient(new JdkHttpClientFactory());
  }

  @AfterEach
  void stopServer() {
    candidates.forEach(Candidate::close);
    observer.close();
    MockServers.destroy(server);
  }

  /** Faults to inject into a candidate's lock, and what it saw. */
  private static final class Faults {
    /** Every call fails, as when the API server cannot be reached. */
    final AtomicBoolean failing = new AtomicBoolean();
    /** While set, a read hangs until the latch opens or the thread is interrupted. */
    volatile @Nullable CountDownLatch hang;
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger hungReads = new AtomicInteger();
  }

  private record FaultyLock(Lock delegate, Faults faults) implements Lock {
    private void check() {
      if (faults.failing.get()) {
        throw new KubernetesClientException("injected: the API server cannot be reached");
      }
    }

    @Override
    public @Nullable LeaderElectionRecord get(KubernetesClient client) {
      faults.reads.incrementAndGet();
      var hang = faults.hang;
      if (hang != null) {
        faults.hungReads.incrementAndGet();
        try {
          hang.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new KubernetesClientException("injected: the hung request was interrupted");
        }
      }
      check();
      return delegate.get(client);
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
      check();
      delegate.create(client, record);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
      check();
      delegate.update(client, record);
    }

    @Override
    public String identity() {
      return delegate.identity();
    }

    @Override
    public String describe() {
      return delegate.describe();
    }
  }

  /** One replica: its own client, its election, and what its callbacks saw. */
  private final class Candidate implements AutoCloseable {
    final KubernetesClient client = server.createClient(new JdkHttpClientFactory());
    final Faults faults = new Faults();
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<String> callbackThreads = new CopyOnWriteArrayList<>();
    final LeaderElection election;

    Candidate(String identity, LeaderSettings settings) {
      this(identity, settings, Ticker.SYSTEM);
    }

    Candidate(String identity, LeaderSettings settings, Ticker ticker) {
      election =
          new LeaderElection(client, settings, identity, lock -> new FaultyLock(lock, faults), ticker);
      candidates.add(this);
    }

    Candidate start() {
      return start(() -> {});
    }

    Candidate start(Runnable alsoOnStarted) {
      election.start(
          () -> {
            record("started");
            alsoOnStarted.run();
          },
          () -> record("stopped"));
      return this;
    }

    private void record(String event) {
      callbackThreads.add(Thread.currentThread().getName());
      events.add(event);
    }

    boolean leads() {
      return election.isLeader();
    }

    @Override
    public void close() {
      election.close();
      client.close();
    }
  }

  private @Nullable Lease lease() {
    return observer.leases().inNamespace(NAMESPACE).withName(NAME).get();
  }

  private @Nullable String holder() {
    var lease = lease();
    return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
  }

  /** @return whether the write won; false if the leader renewed in between (409 Conflict) */
  private boolean tryToTakeTheLease(String holder, int seconds) {
    try {
      observer
          .leases()
          .inNamespace(NAMESPACE)
          .withName(NAME)
          .edit(
              lease -> {
                lease.getSpec().setHolderIdentity(holder);
                lease.getSpec().setLeaseDurationSeconds(seconds);
                lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
                return lease;
              });
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  private static void atMostOneLeads(Candidate... all) {
    long leaders = Arrays.stream(all).filter(Candidate::leads).count();
    if (leaders > 1) {
      fail(leaders + " candidates lead at once");
    }
  }

  /** Polls until {@code done}, checking {@code invariant} at every poll; fails after {@link #PATIENCE}. */
  private static void await(String what, BooleanSupplier done, Runnable invariant) {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      invariant.run();
      if (done.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("waited " + PATIENCE + " in vain until " + what);
      }
      pause();
    }
  }

  private static void await(String what, BooleanSupplier done) {
    await(what, done, () -> {});
  }

  /** Checks {@code invariant} at every poll for {@code period}: sampling, not waiting for a result. */
  private static void sample(Duration period, Runnable invariant) {
    long end = System.nanoTime() + period.toNanos();
    while (System.nanoTime() < end) {
      invariant.run();
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static Set<String> leaderThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.toLowerCase(Locale.ROOT).contains("leader"))
        .collect(Collectors.toSet());
  }

  @Test
  void a_lone_candidate_leads_writes_itself_into_the_lease_and_is_told_so_on_the_electors_thread() {
    var a = new Candidate("a", SHORT).start();

    await("a leads", a::leads);

    assertEquals(List.of("started"), a.events);
    assertTrue(
        a.callbackThreads.get(0).startsWith(LeaderElection.THREAD_PREFIX + NAME),
        () -> "onStartedLeading ran on " + a.callbackThreads.get(0));
    var lease = lease();
    assertEquals("a", lease.getSpec().getHolderIdentity());
    assertEquals(2, lease.getSpec().getLeaseDurationSeconds());
  }

  @Test
  void of_two_candidates_at_most_one_leads_at_any_time_and_the_other_takes_over_the_released_lease() {
    var a = new Candidate("a", LONG_LEASE).start();
    var b = new Candidate("b", LONG_LEASE).start();
    Runnable atMostOne = () -> atMostOneLeads(a, b);

    await("one of them leads", () -> a.leads() || b.leads(), atMostOne);
    // Long enough for several renewals by the leader and attempts by the follower.
    sample(Duration.ofSeconds(1), atMostOne);
    var leader = a.leads() ? a : b;
    var follower = leader == a ? b : a;
    assertTrue(leader.leads(), "the leader kept the lease");
    assertEquals(List.of(), follower.events);

    leader.close();

    assertFalse(leader.leads());
    assertEquals(List.of("started", "stopped"), leader.events);
    assertNotEquals(
        leader.election.identity(),
        holder(),
        "close() released the lease (or the follower holds it already)");
    await("the follower takes over the released lease", follower::leads, atMostOne);
    assertEquals(follower.election.identity(), holder());
    assertEquals(List.of("started", "stopped"), leader.events, "a closed candidate never leads again");
  }

  @Test
  void when_the_leaders_client_is_closed_the_other_takes_over_once_the_lease_expires() {
    var a = new Candidate("a", SHORT).start();
    await("a leads", a::leads);
    var b = new Candidate("b", SHORT).start();
    Runnable atMostOne = () -> atMostOneLeads(a, b);
    sample(Duration.ofMillis(300), atMostOne);

    a.client.close(); // a's renewals now fail

    await("b takes over", b::leads, atMostOne);
    assertEquals(List.of("started", "stopped"), a.events, "a stopped leading at its renew deadline");
    assertEquals(List.of("started"), b.events);
    assertEquals("b", holder());
    sample(Duration.ofMillis(300), atMostOne);
  }

  @Test
  void a_leader_whose_renewals_fail_stops_leading_and_leads_again_once_they_succeed() {
    var a = new Candidate("a", SHORT).start();
    await("a leads", a::leads);

    a.faults.failing.set(true);
    await("a stops leading at its renew deadline", () -> a.events.size() >= 2);
    assertFalse(a.leads());
    assertEquals(List.of("started", "stopped"), a.events);

    a.faults.failing.set(false);
    await("a campaigns again and leads", () -> a.events.size() >= 3);
    assertTrue(a.leads());
    assertEquals(List.of("started", "stopped", "started"), a.events);
  }

  @Test
  void a_leader_whose_lease_is_taken_stops_leading_and_leads_again_once_that_lease_expires() {
    var a = new Candidate("a", SHORT).start();
    await("a leads", a::leads);

    await("an intruder takes the lease for 3 s", () -> tryToTakeTheLease("intruder", 3));

    await("a sees the lease taken", () -> a.events.size() >= 2);
    assertFalse(a.leads());
    assertEquals(List.of("started", "stopped"), a.events);
    assertEquals("intruder", holder(), "a did not overwrite a lease that had not expired");
    await("a takes the expired lease back", () -> a.events.size() >= 3);
    assertTrue(a.leads());
    assertEquals(List.of("started", "stopped", "started"), a.events);
    assertEquals("a", holder());
  }

  @Test
  void close_releases_the_lease_tells_the_leader_once_on_the_electors_thread_and_leaves_no_thread() {
    var before = leaderThreads();
    var a = new Candidate("a", SHORT).start();
    await("a leads", a::leads);
    assertNotEquals(before, leaderThreads(), "the elector's thread is recognisable by its name");

    a.election.close();
    a.election.close();

    assertFalse(a.leads());
    assertEquals(List.of("started", "stopped"), a.events);
    assertTrue(
        a.callbackThreads.get(1).startsWith(LeaderElection.THREAD_PREFIX + NAME),
        () -> "onStoppedLeading ran on " + a.callbackThreads.get(1));
    var spec = lease().getSpec();
    assertTrue(spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty(), spec::toString);
    await("no leader thread is left", () -> leaderThreads().equals(before));
  }

  @Test
  void closing_a_candidate_that_never_led_calls_no_callback_and_leaves_no_thread() {
    var before = leaderThreads();
    var a = new Candidate("a", LONG_LEASE).start();
    await("a leads", a::leads);
    var b = new Candidate("b", LONG_LEASE).start();
    await("b has tried twice", () -> b.faults.reads.get() >= 2);

    b.election.close();

    assertEquals(List.of(), b.events);
    assertEquals("a", holder());
    a.election.close();
    await("no leader thread is left", () -> leaderThreads().equals(before));
  }

  @Test
  void an_election_starts_once_and_not_after_close() {
    var a = new Candidate("a", SHORT).start();
    assertThrows(IllegalStateException.class, () -> a.election.start(() -> {}, () -> {}));

    var b = new Candidate("b", SHORT);
    b.election.close();
    assertThrows(IllegalStateException.class, () -> b.election.start(() -> {}, () -> {}));
  }

  @Test
  void a_callback_that_throws_does_not_stop_the_renewals() {
    var a =
        new Candidate("a", SHORT)
            .start(
                () -> {
                  throw new IllegalStateException("a faulty gate");
                });
    await("a leads", a::leads);
    var firstRenewal = lease().getSpec().getRenewTime();

    await("a renews its lease", () -> !lease().getSpec().getRenewTime().equals(firstRenewal));
    assertTrue(a.leads());
    assertEquals(List.of("started"), a.events);
  }

  @Test
  void a_malformed_lease_is_retried_rather_than_ending_the_campaign() {
    // fabric8's LeaseLock cannot read a Lease without renewTime or leaseDurationSeconds: a
    // NullPointerException that, unconverted, would end the acquire loop for good.
    observer
        .leases()
        .inNamespace(NAMESPACE)
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName(NAME)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("someone")
                .endSpec()
                .build())
        .create();
    var a = new Candidate("a", SHORT).start();
    await("a has tried three times", () -> a.faults.reads.get() >= 3);
    assertFalse(a.leads());

    observer.leases().inNamespace(NAMESPACE).withName(NAME).delete();

    await("a leads once the lease is readable", a::leads);
    assertEquals("a", holder());
  }

  @Test
  void a_leader_whose_renewal_hangs_stops_at_its_renew_deadline_and_leads_again_once_the_api_answers() {
    var now = new AtomicLong();
    var a = new Candidate("a", SHORT, now::get).start();
    await("a leads", a::leads);

    var hang = new CountDownLatch(1);
    a.faults.hang = hang;
    await("a's renewal hangs", () -> a.faults.hungReads.get() > 0);
    now.addAndGet(SHORT.renewDeadline().toNanos());
    a.election.checkRenewal();
    assertTrue(a.leads(), "the renew deadline has not passed yet");

    now.addAndGet(Duration.ofMillis(1).toNanos());
    await("the watchdog stops a", () -> !a.leads());
    // The stop callback runs after leading ends, on the watchdog's thread: wait for it, not only for the flag.
    await("a hears that it stopped", () -> a.events.size() >= 2);
    assertEquals(List.of("started", "stopped"), a.events);
    assertTrue(
        a.callbackThreads.get(1).endsWith("-watchdog"),
        () -> "onStoppedLeading ran on " + a.callbackThreads.get(1));
    assertEquals("a", holder(), "the hung candidate could not release the lease");

    a.faults.hang = null;
    hang.countDown();
    await("a campaigns again and leads", () -> a.events.size() >= 3);
    assertTrue(a.leads());
    assertEquals(List.of("started", "stopped", "started"), a.events);
    assertEquals("a", holder());
  }

  @Test
  void close_gives_up_a_release_that_hangs_and_stops_the_leader_on_the_closing_thread() {
    var before = leaderThreads();
    var a = new Candidate("a", SHORT, () -> 0L).start();
    await("a leads", a::leads);
    a.faults.hang = new CountDownLatch(1);
    await("a's renewal hangs", () -> a.faults.hungReads.get() > 0);

    a.election.close();

    assertFalse(a.leads());
    assertEquals(List.of("started", "stopped"), a.events);
    assertEquals(Thread.currentThread().getName(), a.callbackThreads.get(1));
    await("no leader thread is left", () -> leaderThreads().equals(before));
  }
}
