package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinityTerm;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link SchedulingQueue} driven by random chains of everything that can happen to it (pods added and
 * updated, with and without scheduling gates, taken, requeued with each kind of queueing hint, done,
 * deleted; cluster events and events about bound pods; time passing; flushes), checked after every step
 * against the queue's rules, stated over a model that only records what happened to each pod, never where
 * the queue should have put it.
 *
 * <p>Four pods and two priorities keep collisions, updates and priority ties frequent; time moves in steps
 * that land on backoff ends exactly, just past them, and on and past the unschedulable timeout.
 */
class SchedulingQueueProperties {

  private static final long INITIAL = Duration.ofSeconds(1).toNanos();
  private static final long MAX = Duration.ofSeconds(10).toNanos();
  /** Shorter than kube's five minutes, so that chains reach it often. */
  private static final long TIMEOUT = Duration.ofMinutes(1).toNanos();
  private static final List<String> NAMES = List.of("a", "b", "c", "d");
  private static final List<Duration> STEPS =
      List.of(
          Duration.ofNanos(1),
          Duration.ofMillis(500),
          Duration.ofSeconds(1),
          Duration.ofSeconds(2),
          Duration.ofSeconds(4),
          Duration.ofSeconds(10),
          Duration.ofMinutes(1),
          Duration.ofMinutes(5));

  /** Every way a pod can move, by the action that moved it: each must happen in some chain. */
  private static final List<String> TRANSITIONS =
      List.of(
          "add: nowhere->active",
          "add: nowhere->gated",
          "add: gated->active",
          "add: unschedulable->active",
          "add: unschedulable->backoff",
          "take: active->inFlight",
          "take: backoff->inFlight",
          "take: unschedulable->inFlight",
          "requeueUnschedulable: inFlight->unschedulable",
          "requeueUnschedulable: inFlight->backoff",
          "requeueAfterError: inFlight->backoff",
          "flush: backoff->active",
          "flush: unschedulable->active",
          "move: unschedulable->active",
          "move: unschedulable->backoff",
          "podEvent: unschedulable->backoff",
          "done: inFlight->nowhere",
          "delete: active->nowhere",
          "delete: backoff->nowhere",
          "delete: unschedulable->nowhere",
          "delete: gated->nowhere",
          "delete: inFlight->nowhere");

  @Property(tries = 300)
  void theQueueKeepsItsRulesAfterEveryStep(@ForAll("chains") ActionChain<Machine> chain) {
    chain
        .withInvariant("a pod is in at most one place", Machine::eachPodInOnePlace)
        .withInvariant("no pod is lost and none comes back", Machine::exactlyTheLivePods)
        .withInvariant("in flight are exactly the pods taken", Machine::inFlightAreTheTakenPods)
        .withInvariant("active is ordered by priority, then arrival", Machine::activeInPriorityThenArrivalOrder)
        .withInvariant("nothing is active before its backoff ends", Machine::nothingActiveBeforeItsBackoffEnds)
        .withInvariant("nothing stays in backoff past a flush after it ends", Machine::backoffEmptiedByFlush)
        .withInvariant("nothing stays unschedulable past a flush after the timeout", Machine::unschedulableEmptiedByFlush)
        .withInvariant("depths count the snapshot", Machine::depthsMatchSnapshot)
        .withInvariant("gated are exactly the waiting pods with gates", Machine::gatedAreThePodsWithGates)
        .run();

    Statistics.label("transition")
        .coverage(coverage -> TRANSITIONS.forEach(t -> coverage.check(t).count(n -> n > 0)));
    Statistics.label("stayed unschedulable")
        .coverage(coverage -> {
          coverage.check("move: only its update can help").count(n -> n > 0);
          coverage.check("podEvent: waits for no pod").count(n -> n > 0);
        });
  }

  @Provide
  Arbitrary<ActionChain<Machine>> chains() {
    return ActionChain.startWith(Machine::new)
        .withAction(6, add())
        .withAction(6, take())
        .withAction(3, requeueUnschedulable())
        .withAction(2, requeueAfterError())
        .withAction(1, requeueNotInFlight())
        .withAction(2, done())
        .withAction(2, delete())
        .withAction(2, move())
        .withAction(2, podEvent())
        .withAction(5, advance())
        .withAction(2, flush())
        .withMaxTransformations(60);
  }

  private static Action.Independent<Machine> add() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Combinators.combine(
                Arbitraries.of(NAMES),
                Arbitraries.of(0, 10),
                Arbitraries.frequency(Tuple.of(3, false), Tuple.of(1, true)))
            .as((name, priority, gated) ->
                Transformer.mutate(
                    "add " + name + "@" + priority + (gated ? " gated" : ""), m -> m.add(name, priority, gated)));
      }
    };
  }

  private static Action.Independent<Machine> take() {
    return Action.just(Transformer.mutate("take", Machine::take));
  }

  /** The hints an attempt can return a pod with: the default, one waiting for bound pods, and none. */
  private static final List<QueueingHint> HINTS =
      List.of(
          QueueingHint.ANY_CHANGE,
          new QueueingHint(
              true, "ns", List.of(PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone")), List.of(), List.of()),
          QueueingHint.POD_UPDATE_ONLY);

  private static Action.Dependent<Machine> requeueUnschedulable() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.takenAtCycle.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return Combinators.combine(
                Arbitraries.of(List.copyOf(new TreeMap<>(machine.takenAtCycle).keySet())),
                Arbitraries.integers().between(0, HINTS.size() - 1))
            .as((pod, hint) ->
                Transformer.mutate(
                    "requeueUnschedulable " + pod + " hint " + hint, m -> m.requeueUnschedulable(pod, HINTS.get(hint))));
      }
    };
  }

  private static Action.Dependent<Machine> requeueAfterError() {
    return inFlightAction("requeueAfterError", Machine::requeueAfterError);
  }

  private static Action.Dependent<Machine> done() {
    return inFlightAction("done", Machine::done);
  }

  private static Action.Independent<Machine> requeueNotInFlight() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(NAMES).map(name -> Transformer.mutate("requeue stale " + name, m -> m.requeueStale(name)));
      }
    };
  }

  private static Action.Independent<Machine> delete() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(NAMES).map(name -> Transformer.mutate("delete " + name, m -> m.delete(name)));
      }
    };
  }

  private static Action.Independent<Machine> move() {
    return Action.just(Transformer.mutate("move", Machine::move));
  }

  private static Action.Independent<Machine> podEvent() {
    return Action.just(Transformer.mutate("podEvent", Machine::podEvent));
  }

  private static Action.Independent<Machine> advance() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(STEPS).map(step -> Transformer.mutate("advance " + step, m -> m.advance(step)));
      }
    };
  }

  private static Action.Independent<Machine> flush() {
    return Action.just(Transformer.mutate("flush", Machine::flush));
  }

  private static Action.Dependent<Machine> inFlightAction(String name, BiConsumer<Machine, String> step) {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.takenAtCycle.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return Arbitraries.of(List.copyOf(new TreeMap<>(machine.takenAtCycle).keySet()))
            .map(pod -> Transformer.mutate(name + " " + pod, m -> step.accept(m, pod)));
      }
    };
  }

  /** The queue under test and a record of what happened to each pod. */
  static final class Machine {

    final FakeTicker clock = new FakeTicker();
    final SchedulingQueue queue =
        new SchedulingQueue(clock, Duration.ofNanos(INITIAL), Duration.ofNanos(MAX), Duration.ofNanos(TIMEOUT));

    /** The pods added and neither done nor deleted since, with the priority they were last added with. */
    final Map<String, Integer> priority = new HashMap<>();
    /** When each live pod was last queued (first added, or returned after an attempt), as a count. */
    final Map<String, Long> arrival = new HashMap<>();
    final Map<String, Integer> unschedulableAttempts = new HashMap<>();
    final Map<String, Integer> consecutiveErrors = new HashMap<>();
    /** The clock when each pod's last attempt failed. */
    final Map<String, Long> failedAt = new HashMap<>();
    /** The pods taken and not yet returned, with the cycle read right after taking them. */
    final Map<String, Long> takenAtCycle = new HashMap<>();
    /** Pods updated while in flight. */
    final Set<String> changedInFlight = new HashSet<>();
    /** Pods in flight while a cluster change arrived. */
    final Set<String> clusterEventInFlight = new HashSet<>();
    /** Pods in flight while an event about bound pods arrived. */
    final Set<String> podEventInFlight = new HashSet<>();
    /** Whether the version of each live pod last added has scheduling gates. */
    final Map<String, Boolean> gated = new HashMap<>();
    /** The hint each pod was last returned with as unschedulable. */
    final Map<String, QueueingHint> hint = new HashMap<>();

    long arrivals;
    long lastFlushAt = clock.nanoTime();

    static QueuedPod pod(String name, int priority) {
      return new QueuedPod("uid-" + name, "ns", name, priority, "default-scheduler");
    }

    void add(String name, int newPriority, boolean withGates) {
      step("add", () -> {
        boolean wasGated = where(name).equals("gated");
        if (!priority.containsKey(name)) {
          arrival.put(name, arrivals++);
          unschedulableAttempts.put(name, 0);
          consecutiveErrors.put(name, 0);
        }
        priority.put(name, newPriority);
        gated.put(name, withGates);
        if (takenAtCycle.containsKey(name)) {
          changedInFlight.add(name);
        }
        boolean wasUnschedulable = where(name).equals("unschedulable");
        queue.add(new QueuedPod("uid-" + name, "ns", name, newPriority, "default-scheduler", withGates));
        if (wasUnschedulable) {
          assertFalse(where(name).equals("unschedulable"), "an update moves an unschedulable pod");
        }
        if (wasGated && !withGates) {
          assertEquals(
              isBackingOff(name) ? "backoff" : "active",
              where(name),
              "removing the last gate moves the pod to active, or to backoff while an earlier backoff lasts");
        }
      });
    }

    void take() {
      step("take", () -> {
        var taken = queue.poll();
        lastFlushAt = clock.nanoTime();
        if (taken == null) {
          assertTrue(queue.contents().active().isEmpty(), "poll returned nothing while a pod was active");
          return;
        }
        String name = taken.name();
        assertTrue(priority.containsKey(name), "took a pod that is not live: " + name);
        assertEquals(priority.get(name), taken.priority(), "took an old version of " + name);
        assertFalse(isBackingOff(name), name + " was taken before its backoff ended");
        assertFalse(gated.get(name), name + " was taken with scheduling gates");
        for (var waiting : queue.contents().active()) {
          assertFalse(comesBefore(waiting.name(), name), waiting.name() + " should have been taken before " + name);
        }
        takenAtCycle.put(name, queue.schedulingCycle());
        changedInFlight.remove(name);
        clusterEventInFlight.remove(name);
        podEventInFlight.remove(name);
      });
    }

    void requeueUnschedulable(String name, QueueingHint withHint) {
      step("requeueUnschedulable", () -> {
        boolean changed =
            changedInFlight.remove(name)
                | (clusterEventInFlight.remove(name) && withHint.movedByClusterChange())
                | (podEventInFlight.remove(name) && withHint.waitsForAssignedPods());
        long cycle = takenAtCycle.remove(name);
        unschedulableAttempts.merge(name, 1, Integer::sum);
        consecutiveErrors.put(name, 0);
        hint.put(name, withHint);
        failed(name);
        assertTrue(queue.requeueUnschedulable(pod(name, priority.get(name)), cycle, withHint));
        // Right after a failure every pod is backing off, so the move request cycle rule decides.
        assertEquals(
            gated.get(name) ? "gated" : changed ? "backoff" : "unschedulable", where(name), "move request cycle");
      });
    }

    void requeueAfterError(String name) {
      step("requeueAfterError", () -> {
        changedInFlight.remove(name);
        clusterEventInFlight.remove(name);
        podEventInFlight.remove(name);
        takenAtCycle.remove(name);
        consecutiveErrors.merge(name, 1, Integer::sum);
        failed(name);
        assertTrue(queue.requeueAfterError(pod(name, priority.get(name))));
        assertEquals(gated.get(name) ? "gated" : "backoff", where(name));
      });
    }

    void requeueStale(String name) {
      if (takenAtCycle.containsKey(name)) {
        return;
      }
      step("requeueStale", () -> {
        String before = where(name);
        assertFalse(queue.requeueAfterError(pod(name, 0)), name + " is not in flight");
        assertFalse(queue.requeueUnschedulable(pod(name, 0), queue.schedulingCycle()), name + " is not in flight");
        assertEquals(before, where(name));
      });
    }

    void done(String name) {
      step("done", () -> {
        forget(name);
        assertTrue(queue.done("uid-" + name));
      });
    }

    void delete(String name) {
      step("delete", () -> {
        boolean live = priority.containsKey(name);
        forget(name);
        assertEquals(live, queue.delete("uid-" + name) != null);
      });
    }

    void move() {
      step("move", () -> {
        clusterEventInFlight.addAll(takenAtCycle.keySet());
        var before = SchedulingQueueTest.names(queue.contents().unschedulable());
        queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
        var after = SchedulingQueueTest.names(queue.contents().unschedulable());
        for (var name : before) {
          assertEquals(
              !hint.get(name).movedByClusterChange(),
              after.contains(name),
              "a cluster change moves every unschedulable pod but those only their update can help: " + name);
          if (after.contains(name)) {
            Statistics.label("stayed unschedulable").collect("move: only its update can help");
          }
        }
      });
    }

    void podEvent() {
      step("podEvent", () -> {
        podEventInFlight.addAll(takenAtCycle.keySet());
        var before = SchedulingQueueTest.names(queue.contents().unschedulable());
        queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, h -> true);
        var after = SchedulingQueueTest.names(queue.contents().unschedulable());
        for (var name : before) {
          assertEquals(
              !hint.get(name).waitsForAssignedPods(),
              after.contains(name),
              "an event about bound pods moves exactly the unschedulable pods waiting for them: " + name);
          if (after.contains(name)) {
            Statistics.label("stayed unschedulable").collect("podEvent: waits for no pod");
          }
        }
      });
    }

    void advance(Duration step) {
      clock.advance(step);
    }

    void flush() {
      step("flush", () -> {
        queue.flush();
        lastFlushAt = clock.nanoTime();
      });
    }

    // --- Invariants ---

    void eachPodInOnePlace() {
      var all = allWaitingOrInFlight();
      assertEquals(new HashSet<>(all).size(), all.size(), "duplicates in " + queue.contents());
    }

    void exactlyTheLivePods() {
      assertEquals(priority.keySet(), new HashSet<>(allWaitingOrInFlight()), queue.contents().toString());
    }

    void inFlightAreTheTakenPods() {
      assertEquals(
          takenAtCycle.keySet(),
          new HashSet<>(SchedulingQueueTest.names(queue.contents().inFlight())),
          queue.contents().toString());
    }

    void activeInPriorityThenArrivalOrder() {
      var active = queue.contents().active();
      for (var pod : active) {
        assertEquals(priority.get(pod.name()), pod.priority(), "active holds an old version of " + pod.name());
      }
      for (int i = 1; i < active.size(); i++) {
        String before = active.get(i - 1).name();
        String after = active.get(i).name();
        assertTrue(comesBefore(before, after), before + " is ahead of " + after + " in " + active);
      }
    }

    void nothingActiveBeforeItsBackoffEnds() {
      for (var pod : queue.contents().active()) {
        assertFalse(isBackingOff(pod.name()), pod.name() + " is active before its backoff ended");
      }
    }

    void backoffEmptiedByFlush() {
      for (var pod : queue.contents().backoff()) {
        String name = pod.name();
        assertTrue(failures(name) > 0, name + " is in backoff without a failure");
        assertTrue(
            backoffEnds(name) >= lastFlushAt, name + " stayed in backoff through a flush after its backoff ended");
      }
    }

    void unschedulableEmptiedByFlush() {
      for (var pod : queue.contents().unschedulable()) {
        String name = pod.name();
        assertTrue(
            lastFlushAt - failedAt.get(name) <= TIMEOUT,
            name + " stayed unschedulable through a flush after its timeout");
      }
    }

    void depthsMatchSnapshot() {
      var snapshot = queue.contents();
      assertEquals(
          new QueueDepths(
              snapshot.active().size(),
              snapshot.backoff().size(),
              snapshot.unschedulable().size(),
              snapshot.gated().size(),
              snapshot.inFlight().size()),
          queue.depths());
    }

    void gatedAreThePodsWithGates() {
      var expected = new HashSet<String>();
      gated.forEach((name, withGates) -> {
        if (withGates && !takenAtCycle.containsKey(name)) {
          expected.add(name);
        }
      });
      assertEquals(expected, new HashSet<>(SchedulingQueueTest.names(queue.contents().gated())));
    }

    // --- The rules, stated over the record ---

    /** kube-scheduler's PrioritySort: higher priority first, then the pod queued earlier. */
    private boolean comesBefore(String first, String second) {
      int p1 = priority.get(first);
      int p2 = priority.get(second);
      return p1 > p2 || (p1 == p2 && arrival.get(first) < arrival.get(second));
    }

    /** Consecutive errors if the last attempts erred, else the attempts that found no node. */
    private int failures(String name) {
      int errors = consecutiveErrors.getOrDefault(name, 0);
      return errors > 0 ? errors : unschedulableAttempts.getOrDefault(name, 0);
    }

    /** One second after the first failure, doubling per failure, never more than ten seconds. */
    private long backoffEnds(String name) {
      long backoff = INITIAL;
      for (int i = 1; i < failures(name); i++) {
        backoff = Math.min(2 * backoff, MAX);
      }
      return failedAt.get(name) + backoff;
    }

    private boolean isBackingOff(String name) {
      return failures(name) > 0 && clock.nanoTime() <= backoffEnds(name);
    }

    private void failed(String name) {
      failedAt.put(name, clock.nanoTime());
      arrival.put(name, arrivals++);
    }

    private void forget(String name) {
      priority.remove(name);
      arrival.remove(name);
      unschedulableAttempts.remove(name);
      consecutiveErrors.remove(name);
      failedAt.remove(name);
      takenAtCycle.remove(name);
      changedInFlight.remove(name);
      clusterEventInFlight.remove(name);
      podEventInFlight.remove(name);
      gated.remove(name);
      hint.remove(name);
    }

    private List<String> allWaitingOrInFlight() {
      var snapshot = queue.contents();
      return Stream.of(
              snapshot.active(), snapshot.backoff(), snapshot.unschedulable(), snapshot.gated(), snapshot.inFlight())
          .flatMap(List::stream)
          .map(QueuedPod::name)
          .toList();
    }

    private String where(String name) {
      return SchedulingQueueTest.where(queue, name);
    }

    /** Runs one action and records, for coverage, every pod it moved and from where to where. */
    private void step(String action, Runnable body) {
      var before = new HashMap<String, String>();
      NAMES.forEach(name -> before.put(name, where(name)));
      body.run();
      for (var name : NAMES) {
        String after = where(name);
        assertNotNull(after);
        if (!after.equals(before.get(name))) {
          Statistics.label("transition").collect(action + ": " + before.get(name) + "->" + after);
        }
      }
    }

    @Override
    public String toString() {
      return "Machine" + queue.contents() + " live=" + new TreeMap<>(priority) + " inFlight=" + takenAtCycle.keySet();
    }
  }
}
