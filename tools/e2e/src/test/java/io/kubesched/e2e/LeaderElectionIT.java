package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.FakeClusterFixture.Recorder;
import io.kubesched.facade.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of one scheduler, each with its own connection, electing a leader on a lease of their own, with
 * the Lease rights of docs/operations.md for that lease only ({@link LeaseRbac}).
 * Short timings (lease 3 s, renew deadline 2 s, retry 500 ms) keep the test quick.
 */
class LeaderElectionIT extends RealClusterTest {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(2);
  private static final Duration RETRY = Duration.ofMillis(500);
  private static final Duration MARGIN = Duration.ofSeconds(3);
  private static final int PODS = 10;

  @Test
  void only_the_leader_binds_and_when_it_closes_the_other_replica_takes_over_within_the_lease()
      throws InterruptedException, IOException {
    create(admin, node("node-0", "8", "8Gi", "110"));
    LeaseRbac.grant(admin, namespace, SCHEDULER + "-" + namespace);
    var options =
        schedulerOptions()
            .leaderElection(
                Options.LeaderElection.builder()
                    .lease(namespace, SCHEDULER + "-" + namespace)
                    .leaseDuration(LEASE)
                    .renewDeadline(RENEW_DEADLINE)
                    .retryPeriod(RETRY)
                    .build())
            .build();
    var before = kubeschedThreads();
    var recorderA = new Recorder();
    var recorderB = new Recorder();
    try (var clientA = Client.create(options);
        var clientB = Client.create(options);
        var controllerA = clientA.newPodController(Policies.firstByName(), recorderA);
        var controllerB = clientB.newPodController(Policies.firstByName(), recorderB);
        var leaders = new LeaderWatch(controllerA, controllerB)) {
      controllerA.start();
      var threadsA = minus(kubeschedThreads(), before);
      controllerB.start();
      var threadsB = minus(minus(kubeschedThreads(), before), threadsA);

      eventually(LEASE.plus(MARGIN), "one replica leads", () -> controllerA.isLeader() || controllerB.isLeader());
      boolean aLeads = controllerA.isLeader();
      var leader = aLeads ? controllerA : controllerB;
      var follower = aLeads ? controllerB : controllerA;
      var leaderRecorder = aLeads ? recorderA : recorderB;
      var followerRecorder = aLeads ? recorderB : recorderA;
      var followerThreads = aLeads ? threadsB : threadsA;
      assertFalse(follower.isLeader(), "both lead");
      assertFalse(followerThreads.isEmpty(), "the follower started no thread");

      for (int i = 0; i < PODS; i++) {
        create(admin, pod(namespace, "early-" + i, SCHEDULER, "100m", "64Mi"));
      }
      eventually(WAIT, "the leader binds the pods", () -> leaderRecorder.bound.size() == PODS);
      assertTrue(followerRecorder.events.isEmpty(), "the follower acted: " + followerRecorder.events);
      // Only the leader has scheduled since the follower started: every other new thread is the leader's.
      var leaderThreads = minus(minus(kubeschedThreads(), before), followerThreads);
      assertFalse(leaderThreads.isEmpty(), "no thread of the leader found");

      long closing = System.nanoTime();
      leader.close();
      eventually(
          LEASE.plus(MARGIN).minusNanos(System.nanoTime() - closing),
          "the other replica leads",
          follower::isLeader);
      waitUpTo(Duration.ofSeconds(5), () -> alive(leaderThreads).isEmpty());
      assertEquals(Set.of(), names(alive(leaderThreads)), "threads of the closed replica still running");
      // The follower makes no thread of its own until it has pods to bind: so any other is the leader's.
      var extra = minus(minus(kubeschedThreads(), before), followerThreads);
      assertTrue(extra.isEmpty(), "threads left besides the new leader's: " + names(extra));

      for (int i = 0; i < PODS; i++) {
        create(admin, pod(namespace, "late-" + i, SCHEDULER, "100m", "64Mi"));
      }
      eventually(
          WAIT,
          "the new leader binds the new pods",
          () -> followerRecorder.bound.keySet().stream().filter(p -> p.startsWith("late-")).count() == PODS);
      assertFalse(leaders.sawTwo(), "two replicas led at once");
      assertTrue(leaders.polls() > 50, "the leaders were looked at only " + leaders.polls() + " times");
      assertTrue(
          leaderRecorder.bound.keySet().stream().noneMatch(p -> p.startsWith("late-")),
          "the closed replica bound pods: " + leaderRecorder.bound.keySet());
      assertTrue(
          followerRecorder.bound.keySet().stream().noneMatch(p -> p.startsWith("early-")),
          "the follower bound pods while not leading: " + followerRecorder.bound.keySet());
      assertTrue(recorderA.failed.isEmpty() && recorderB.failed.isEmpty(),
          "failures: " + recorderA.failed + " " + recorderB.failed);
    }
    for (int i = 0; i < PODS; i++) {
      assertEquals("node-0", nodeOf("early-" + i));
      assertEquals("node-0", nodeOf("late-" + i));
    }
  }

  /** Polls both replicas every few ms; remembers whether both were ever seen leading at the same time. */
  private static final class LeaderWatch implements AutoCloseable {

    private final ScheduledExecutorService poller =
        Executors.newSingleThreadScheduledExecutor(task -> {
          var thread = new Thread(task, "e2e-leader-watch");
          thread.setDaemon(true);
          return thread;
        });
    private final AtomicBoolean sawTwo = new AtomicBoolean();
    private final AtomicLong polls = new AtomicLong();

    LeaderWatch(Controller a, Controller b) {
      poller.scheduleWithFixedDelay(
          () -> {
            // a, b, a: leadership does not come and go within microseconds, so if a leads at both ends
            // it led throughout, and b leading in between means both led at once.
            if (a.isLeader() && b.isLeader() && a.isLeader()) {
              sawTwo.set(true);
            }
            polls.incrementAndGet();
          },
          0,
          5,
          TimeUnit.MILLISECONDS);
    }

    boolean sawTwo() {
      return sawTwo.get();
    }

    long polls() {
      return polls.get();
    }

    @Override
    public void close() throws InterruptedException {
      poller.shutdownNow();
      poller.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** The live threads the library named: all its threads start with {@code kubesched-}. */
  private static Set<Thread> kubeschedThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("kubesched-"))
        .collect(Collectors.toSet());
  }

  private static Set<Thread> minus(Set<Thread> threads, Set<Thread> without) {
    var rest = new HashSet<>(threads);
    rest.removeAll(without);
    return rest;
  }

  private static Set<Thread> alive(Set<Thread> threads) {
    return threads.stream().filter(Thread::isAlive).collect(Collectors.toSet());
  }

  private static Set<String> names(Set<Thread> threads) {
    return threads.stream().map(Thread::getName).collect(Collectors.toCollection(TreeSet::new));
  }
}
