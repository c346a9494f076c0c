package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.PodInfo;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.VictimOutcome;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.PreemptPort;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The loop acting on a preemption decision without an API server (kube-scheduler's preemption executor
 * tests, {@code executor_test.go}, where they concern the loop): the nomination recorded before any write,
 * the preemptor held while its victims are evicted, victims but the last evicted at once and the last after
 * them, the rest spared after a failure (which activates the preemptor), lower-priority nominations on the
 * node cleared, and the nomination released once the pod is placed.
 */
class PreemptionLoopTest {

  private static final String NAME = "my-scheduler";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<Runnable> evictions = new ArrayList<>();
  private final List<String> writes = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, VictimOutcome> outcomes = new HashMap<>();
  /** What deleting a victim does, by name: by default the outcome {@link #outcomes} gives (DELETED if none). */
  private Deletion deleting = name -> outcomes.getOrDefault(name, VictimOutcome.DELETED);
  /** Runs the deletions of a preemptor's victims but the last: inline unless a test says. */
  private Executor victimThreads = Runnable::run;

  @FunctionalInterface
  private interface Deletion {
    VictimOutcome of(String victim) throws InterruptedException;
  }
  /** The decision for each pod, by name; given the pod and the snapshot. */
  private BiFunction<PodInfo, ClusterSnapshot, Decision> decide = (pod, cluster) -> Decision.bind("n1");
  private final List<ClusterSnapshot> seen = new ArrayList<>();

  private final PreemptPort port =
      new PreemptPort() {
        @Override
        public VictimOutcome preempt(PodInfo victim, String conditionMessage) throws InterruptedException {
          writes.add("preempt " + victim.name() + " (" + conditionMessage + ")");
          return deleting.of(victim.name());
        }

        @Override
        public boolean clearNomination(PodInfo pod) {
          writes.add("clear " + pod.name());
          return true;
        }
      };

  private LoopParts parts() {
    var finder =
        new FinderFunc() {
          @Override
          public Decision find(PodInfo pod, List<NodeInfo> nodes) {
            return find(pod, ClusterSnapshot.of(nodes));
          }

          @Override
          public Decision find(PodInfo pod, ClusterSnapshot cluster) {
            seen.add(cluster);
            return decide.apply(pod, cluster);
          }
        };
    BindPort bindPort = (pod, node) -> new BindOutcome.Bound(node, false);
    var parts =
        FakeLoop.of(TestSettings.forFakeCluster(NAME), finder, clock::get, bindPort)
            .preemption(evictions::add, port)
            .victims(victimThreads)
            .create();
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n1"));
    return parts;
  }

  private static Pod pod(String name, int priority) {
    return new PodBuilder(SchedulingLoopPartsTest.pod(name)).editSpec().withPriority(priority).endSpec().build();
  }

  private static Pod victim(String name, int priority) {
    return SchedulingLoopPartsTest.boundTo(pod(name, priority), "n1");
  }

  private static PodInfo info(LoopParts parts, String name) {
    return parts.cache().nodes().get(0).pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  /** Preempt {@code victims} on n1 for the first attempt of every pod, bind to n1 on the next. */
  private void preemptOnceThenBind(LoopParts parts, String... victims) {
    preemptOnceThenBind(parts, pod -> List.of(victims));
  }

  /** Preempt the victims {@code victimsOf} names for each pod on n1 at its first attempt, bind to n1 on the next. */
  private void preemptOnceThenBind(LoopParts parts, Function<String, List<String>> victimsOf) {
    var tried = new ArrayList<String>();
    decide =
        (pod, cluster) -> {
          if (tried.contains(pod.name())) {
            return Decision.bind("n1");
          }
          tried.add(pod.name());
          var chosen = victimsOf.apply(pod.name()).stream().map(v -> info(parts, v)).toList();
          return Decision.unschedulable(Map.of("n1", List.of("Insufficient cpu")))
              .withPostFilter("preemption: found room", new Nomination.To("n1", chosen));
        };
  }

  private static void scheduleNext(LoopParts parts) throws InterruptedException {
    parts.scheduling().scheduleOne(parts.queue().poll());
  }

  private void runEvictions() {
    var pending = new ArrayList<>(evictions);
    evictions.clear();
    pending.forEach(Runnable::run);
  }

  @Test
  void the_preemptor_is_nominated_and_held_while_its_victims_are_marked_and_deleted_in_order() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    parts.handlers().pods().onAdd(victim("v2", 2));
    preemptOnceThenBind(parts, "v2", "v1");
    var high = pod("high", 100);
    parts.handlers().pods().onAdd(high);

    scheduleNext(parts);

    assertEquals("n1", parts.queue().nominations().nodeOf("uid-high"), "nominated before any write");
    assertTrue(parts.queue().preempting("uid-high"), "held while its victims are evicted");
    assertEquals(List.of(), writes);
    assertEquals(1, parts.queue().contents().unschedulable().size());

    runEvictions();

    var message = NAME + ": preempting to accommodate a higher priority pod";
    assertEquals(List.of("preempt v2 (" + message + ")", "preempt v1 (" + message + ")"), writes);
    assertTrue(parts.queue().preempting("uid-high"), "held until the watch shows its last victim leaving");

    parts.handlers().pods().onDelete(victim("v2", 2), false);
    assertTrue(parts.queue().preempting("uid-high"), "v2 was not the last victim");
    parts.handlers().pods().onUpdate(victim("v1", 1), new PodBuilder(victim("v1", 1))
        .editMetadata().withDeletionTimestamp("2026-11-26T10:00:00Z").endMetadata().build());
    assertFalse(parts.queue().preempting("uid-high"), "its last victim is terminating");
    assertEquals(1, parts.queue().contents().backoff().size() + parts.queue().contents().active().size(),
        "moved by its victims' deletion, which came while it was held");
    parts.handlers().pods().onDelete(victim("v1", 1), false);
    clock.addAndGet(60_000_000_000L);
    scheduleNext(parts);

    assertEquals("", parts.queue().nominations().nodeOf("uid-high"), "placed: its nomination is released");
    assertTrue(parts.cache().isAssumed("uid-high"));
    assertEquals("n1", seen.get(seen.size() - 1).nominations().nodeOf("uid-high"), "the decision saw the room held");
  }

  @Test
  void the_second_attempt_sees_the_nomination_on_the_pod_and_in_the_snapshot() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    preemptOnceThenBind(parts, "v1");
    var nominatedSeen = new ArrayList<String>();
    var inner = decide;
    decide =
        (pod, cluster) -> {
          nominatedSeen.add(pod.nominatedNodeName() + "|" + cluster.nominations().nodeOf(pod.uid()));
          return inner.apply(pod, cluster);
        };
    parts.handlers().pods().onAdd(pod("high", 100));

    scheduleNext(parts);
    runEvictions();
    parts.handlers().pods().onDelete(victim("v1", 1), false);
    clock.addAndGet(60_000_000_000L);
    scheduleNext(parts);

    assertEquals(List.of("|", "n1|n1"), nominatedSeen);
  }

  /**
   * The e2e race two_preemptors_racing_for_one_node: the second racer chose the first one's victims before
   * their deletion reached the cache, so both wait for the same last victim; both are released when it goes.
   */
  @Test
  void two_preemptors_sharing_their_last_victim_are_both_released_when_it_leaves() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    parts.handlers().pods().onAdd(victim("v2", 2));
    preemptOnceThenBind(parts, pod -> pod.equals("racer-a") ? List.of("v2") : List.of("v1", "v2"));
    parts.handlers().pods().onAdd(pod("racer-a", 100));
    parts.handlers().pods().onAdd(pod("racer-b", 100));

    scheduleNext(parts);
    scheduleNext(parts);
    runEvictions();
    assertTrue(parts.queue().preempting("uid-racer-a"));
    assertTrue(parts.queue().preempting("uid-racer-b"));

    parts.handlers().pods().onUpdate(victim("v2", 2), new PodBuilder(victim("v2", 2))
        .editMetadata().withDeletionTimestamp("2026-11-26T10:00:00Z").endMetadata().build());

    assertFalse(parts.queue().preempting("uid-racer-a"), "its last victim is terminating");
    assertFalse(parts.queue().preempting("uid-racer-b"), "its last victim is terminating");
  }

  @Test
  void a_last_victim_the_cache_lost_without_an_event_releases_the_preemptor_at_the_next_check() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    preemptOnceThenBind(parts, "v1");
    parts.handlers().pods().onAdd(pod("high", 100));
    scheduleNext(parts);
    runEvictions();
    parts.preemption().checkHeld();
    assertTrue(parts.queue().preempting("uid-high"), "v1 is still in the cache");

    parts.cache().removePod("uid-v1"); // as a relist that no longer finds it does
    parts.preemption().checkHeld();

    assertFalse(parts.queue().preempting("uid-high"));
  }

  @Test
  void a_failed_eviction_spares_the_remaining_victims_and_activates_the_preemptor() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    parts.handlers().pods().onAdd(victim("v2", 2));
    outcomes.put("v2", VictimOutcome.failed("deleting pod default/v2 failed: 500"));
    preemptOnceThenBind(parts, "v2", "v1");
    parts.handlers().pods().onAdd(pod("high", 100));

    scheduleNext(parts);
    runEvictions();

    assertEquals(1, writes.size(), "v1 spared: " + writes);
    assertFalse(parts.queue().preempting("uid-high"));
    assertEquals(1, parts.queue().contents().active().size(), "tried again at once");
  }

  /** kube-scheduler's TestAsyncPreemptionFailure, its cases for a single pod preemptor. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "Failure with a single victim, fail-victim, false, true",
    "Success with a single victim, victim1, true, true",
    "Failure in first of three victims, fail-victim victim2 victim3, false, false",
    "Failure in second of three victims, victim1 fail-victim victim3, false, false",
    "Failure in first two of three victims, fail-victim1 fail-victim2 victim3, false, false",
    "Failure in third of three victims, victim1 victim2 fail-victim, false, true",
    "Success with three victims, victim1 victim2 victim3, true, true"
  })
  void async_preemption_failure(
      String name, String victimNames, boolean expectSuccessfulPreemption, boolean expectAttemptForLastVictim)
      throws Exception {
    var parts = parts();
    var victims = victimNames.split(" ");
    for (var v : victims) {
      parts.handlers().pods().onAdd(victim(v, 1));
      if (v.startsWith("fail-victim")) {
        outcomes.put(v, VictimOutcome.failed("deleting pod default/" + v + " failed: 500"));
      }
    }
    preemptOnceThenBind(parts, victims);
    parts.handlers().pods().onAdd(pod("high", 100));

    scheduleNext(parts);
    runEvictions();

    var last = victims[victims.length - 1];
    assertEquals(
        expectAttemptForLastVictim, writes.stream().anyMatch(w -> w.startsWith("preempt " + last + " ")), "" + writes);
    assertEquals(
        expectSuccessfulPreemption, parts.queue().preempting("uid-high"),
        "held for its last victim after a success, released after a failure");
    if (!expectSuccessfulPreemption) {
      assertEquals(1, parts.queue().contents().active().size(), "activated, to be tried again at once");
    }
  }

  @Test
  void the_victims_but_the_last_are_deleted_at_once_and_the_last_after_all_of_them() throws Exception {
    var pool = Executors.newFixedThreadPool(3);
    try {
      victimThreads = pool;
      var together = new CyclicBarrier(3);
      var before = new AtomicInteger();
      var lastSawBefore = new AtomicInteger(-1);
      deleting =
          name -> {
            if (name.equals("last")) {
              lastSawBefore.set(before.get());
              return VictimOutcome.DELETED;
            }
            try {
              together.await(10, TimeUnit.SECONDS); // passes only if the three deletions run at the same time
            } catch (BrokenBarrierException | TimeoutException e) {
              return VictimOutcome.failed("not deleted together: " + e);
            }
            before.incrementAndGet();
            return VictimOutcome.DELETED;
          };
      var parts = parts();
      for (var v : List.of("a", "b", "c", "last")) {
        parts.handlers().pods().onAdd(victim(v, 1));
      }
      preemptOnceThenBind(parts, "a", "b", "c", "last");
      parts.handlers().pods().onAdd(pod("high", 100));

      scheduleNext(parts);
      runEvictions();

      assertEquals(3, lastSawBefore.get(), "the last victim once the others were deleted: " + writes);
      assertEquals(4, writes.size());
      assertTrue(parts.queue().preempting("uid-high"), "every deletion succeeded: held for the last victim");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void a_victim_already_terminating_is_not_written_to_and_without_others_nothing_is_held() throws Exception {
    var parts = parts();
    var terminating =
        new PodBuilder(victim("v1", 1)).editMetadata().withDeletionTimestamp("2026-11-26T10:00:00Z").endMetadata()
            .build();
    parts.handlers().pods().onAdd(terminating);
    preemptOnceThenBind(parts, "v1");
    parts.handlers().pods().onAdd(pod("high", 100));

    scheduleNext(parts);

    assertEquals(List.of(), evictions, "nothing to evict");
    assertFalse(parts.queue().preempting("uid-high"));
    assertEquals("n1", parts.queue().nominations().nodeOf("uid-high"), "the room is held all the same");
  }

  @Test
  void lower_priority_pods_nominated_to_the_node_lose_their_nomination() throws Exception {
    var parts = parts();
    parts.handlers().pods().onAdd(victim("v1", 1));
    parts.handlers().pods().onAdd(
        new PodBuilder(pod("low", 10)).editStatus().withNominatedNodeName("n1").endStatus().build());
    parts.handlers().pods().onAdd(
        new PodBuilder(pod("higher", 200)).editStatus().withNominatedNodeName("n1").endStatus().build());
    assertEquals(2, parts.queue().nominations().on("n1").size(), "nominations read from the pods' status");
    decide = (pod, cluster) -> pod.name().equals("high")
        ? Decision.unschedulable(Map.of("n1", List.of("Insufficient cpu")))
            .withPostFilter("preemption: found room", new Nomination.To("n1", List.of(info(parts, "v1"))))
        : Decision.unschedulable(Map.of("n1", List.of("Insufficient cpu"))).withPostFilter("", Nomination.KEEP);
    parts.handlers().pods().onAdd(pod("high", 100));

    scheduleNext(parts); // "higher" (priority 200) keeps its nomination
    scheduleNext(parts); // "high" (100) preempts
    runEvictions();

    assertEquals(List.of("clear low", "preempt v1 (" + NAME + ": preempting to accommodate a higher priority pod)"),
        writes);
    assertEquals("", parts.queue().nominations().nodeOf("uid-low"));
    assertEquals("n1", parts.queue().nominations().nodeOf("uid-higher"), "a higher-priority nomination stays");
    assertEquals("n1", parts.queue().nominations().nodeOf("uid-high"));
  }

  @Test
  void a_decision_that_clears_the_nomination_clears_it_in_the_queue() throws Exception {
    var parts = parts();
    var nominated = new PodBuilder(pod("p", 5)).editStatus().withNominatedNodeName("n1").endStatus().build();
    parts.handlers().pods().onAdd(nominated);
    assertEquals("n1", parts.queue().nominations().nodeOf("uid-p"));
    decide = (pod, cluster) -> Decision.unschedulable(Map.of("n1", List.of("Insufficient cpu")));

    scheduleNext(parts);

    assertEquals("", parts.queue().nominations().nodeOf("uid-p"));
    assertTrue(parts.queue().nominations().isEmpty());
  }
}
