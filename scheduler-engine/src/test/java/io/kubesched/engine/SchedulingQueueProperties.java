package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics.PendingGroups;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
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
 * updated, with and without scheduling gates, with and without a nominated node, bound; taken, requeued
 * with each kind of queueing hint, done, deleted; nominated and cleared in memory; status-only updates;
 * held for preemption and released, with and without activation; cluster events and events about bound
 * pods; time passing; flushes; a pod group's members taken together, parked to wait for their group and
 * released), checked after every step against the queue's rules, stated over a model that only records
 * what happened to each pod, never where the queue should have put it.
 *
 * <p>Four pods and two priorities keep collisions, updates and priority ties frequent; time moves in steps
 * that land on backoff ends exactly, just past them, and on and past the unschedulable timeout. Each version
 * of a pod names one of two groups or none, mostly the same group, so that groups have several members and
 * members change groups now and then.
 */
class SchedulingQueueProperties {

  private static final long INITIAL = Duration.ofSeconds(1).toNanos();
  private static final long MAX = Duration.ofSeconds(10).toNanos();
  /** kube's backoff ordering window, 1 s (the initial backoff, were that shorter). */
  private static final long WINDOW = Duration.ofSeconds(1).toNanos();
  /** Shorter than kube's five minutes, so that chains reach it often. */
  private static final long TIMEOUT = Duration.ofMinutes(1).toNanos();
  private static final List<String> NAMES = List.of("a", "b", "c", "d");
  /** The profiles: a and b are pods of the first, c and d of the second ({@link Machine#profileOf}). */
  private static final List<String> PROFILES = List.of("one", "two");
  private static final List<Duration> STEPS =
      List.of(
          Duration.ofNanos(1),
          Duration.ofMillis(500),
          Duration.ofSeconds(1),
          Duration.ofSeconds(2),
          Duration.ofSeconds(4),
          Duration.ofSeconds(10),
          Duration.ofMinutes(1),
          Duration.ofMinutes(2),
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
          "policyChange: unschedulable->active",
          "policyChange: unschedulable->backoff",
          "podEvent: unschedulable->backoff",
          "done: inFlight->nowhere",
          "delete: active->nowhere",
          "delete: backoff->nowhere",
          "delete: unschedulable->nowhere",
          "delete: gated->nowhere",
          "delete: inFlight->nowhere",
          "hold: active->unschedulable",
          "hold: backoff->unschedulable",
          "hold: gated->unschedulable",
          "release: unschedulable->active",
          "release: unschedulable->backoff",
          "release: unschedulable->gated",
          "release: backoff->active",
          "takeGroup: active->inFlight",
          "takeGroup: backoff->inFlight",
          "takeGroup: unschedulable->inFlight",
          "takeGroup: gated->inFlight",
          "park: inFlight->gated",
          "park: inFlight->unschedulable",
          "park: inFlight->active",
          "releaseGroup: gated->active");

  /** Every pod group case, by what happened: each must happen in some chain. */
  private static final List<String> GROUP =
      List.of(
          "takeGroup: took several",
          "takeGroup: skipped a member in flight",
          "takeGroup: skipped a gated member",
          "takeGroup: skipped a held member",
          "takeGroup: took a member before its backoff ended",
          "park: parked",
          "park: held meanwhile",
          "park: gated meanwhile",
          "park: left its group meanwhile",
          "park: updated meanwhile, same group",
          "park: not in flight",
          "add: parked member updated",
          "add: parked member gated",
          "hold: parked member",
          "release: parked member stays",
          "releaseGroup: another group's parked member stays",
          "releaseGroup: nothing parked",
          "delete: parked member",
          "event: parked member stays",
          "flush: parked member past the timeout stays",
          "requeue: member taken with its group",
          "pendingGroups: waiting for members",
          "pendingGroups: waiting to fit");

  /** The groups a pod's version may name, "" for none. */
  private static final List<String> GROUPS = List.of("", "g1", "g2");

  /** Every preemption-mark case, by what happened: each must happen in some chain. */
  private static final List<String> PREEMPTION =
      List.of(
          "hold: in flight",
          "hold: waiting",
          "held: update remembered",
          "held: missed event remembered at requeue",
          "held: error remembered at requeue",
          "held: cluster event remembered",
          "held: event about bound pods remembered",
          "held: policy change remembered",
          "take: only held pods were left",
          "release: remembered move done",
          "release: timeout passed while held",
          "release: back to unschedulable",
          "release: activated",
          "release: gated",
          "release: activated in flight",
          "release: not held, activated");

  /** Every nominator case, by what happened: each must happen in some chain. */
  private static final List<String> NOMINATION =
      List.of(
          "add: from the status",
          "add: in-memory kept",
          "add: removed by the status",
          "add: bound",
          "nominate: set",
          "nominate: unknown pod",
          "nominate: bound pod",
          "observe: changed",
          "clear: dropped",
          "forget: dropped");

  @Property(tries = 2000)
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
        .withInvariant("a held pod waits as unschedulable or is in flight", Machine::heldPodsWaitAsUnschedulable)
        .withInvariant("nominations follow the nominator's rule", Machine::nominationsFollowTheRule)
        .withInvariant("pending groups count the groups by their members' places", Machine::pendingGroupsCount)
        .run();

    Statistics.label("transition")
        .coverage(coverage -> TRANSITIONS.forEach(t -> coverage.check(t).count(n -> n > 0)));
    Statistics.label("stayed unschedulable")
        .coverage(coverage -> {
          coverage.check("move: only its update can help").count(n -> n > 0);
          coverage.check("podEvent: waits for no pod").count(n -> n > 0);
          coverage.check("policyChange: another profile's pod").count(n -> n > 0);
        });
    Statistics.label("policy change")
        .coverage(coverage -> {
          coverage.check("moved a pod only its update could help").count(n -> n > 0);
          coverage.check("a pod in flight of its profile").count(n -> n > 0);
        });
    Statistics.label("preemption")
        .coverage(coverage -> PREEMPTION.forEach(c -> coverage.check(c).count(n -> n > 0)));
    Statistics.label("nomination")
        .coverage(coverage -> NOMINATION.forEach(c -> coverage.check(c).count(n -> n > 0)));
    Statistics.label("group").coverage(coverage -> GROUP.forEach(c -> coverage.check(c).count(n -> n > 0)));
    Statistics.label("backoff")
        .coverage(coverage -> {
          coverage.check("take: popped from backoff with active empty").count(n -> n > 0);
          coverage.check("take: popped from backoff past an error backoff").count(n -> n > 0);
          coverage.check("take: nothing with only error backoffs").count(n -> n > 0);
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
        .withAction(2, policyChange())
        .withAction(5, advance())
        .withAction(2, flush())
        .withAction(2, hold())
        .withAction(3, preempt())
        .withAction(1, preemptionDone())
        .withAction(2, release())
        .withAction(2, nominate())
        .withAction(1, clearNomination())
        .withAction(2, observe())
        .withAction(3, updateInFlight())
        .withAction(1, updateParked())
        .withAction(3, takeGroup())
        .withAction(3, park())
        .withAction(2, releaseGroup())
        .withMaxTransformations(60);
  }

  private static Action.Independent<Machine> add() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Combinators.combine(
                Arbitraries.of(NAMES),
                Arbitraries.of(0, 10),
                Arbitraries.frequency(Tuple.of(3, false), Tuple.of(1, true)),
                Arbitraries.of(NODES),
                Arbitraries.frequency(Tuple.of(7, false), Tuple.of(1, true)),
                Arbitraries.frequency(Tuple.of(1, ""), Tuple.of(4, "g1"), Tuple.of(2, "g2")))
            .as((name, priority, gated, nominated, bound, group) ->
                Transformer.mutate(
                    "add " + name + "@" + priority + (gated ? " gated" : "") + (nominated.isEmpty() ? "" : " nnn=" + nominated)
                        + (bound ? " bound" : "") + (group.isEmpty() ? "" : " in " + group),
                    m -> m.add(name, priority, gated, nominated, bound, group)));
      }
    };
  }

  /**
   * An update of a pod in flight, often one that adds gates or changes its group, so that a member parked
   * after such an update is frequent.
   */
  private static Action.Dependent<Machine> updateInFlight() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.takenAtCycle.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return Combinators.combine(
                inFlight(machine),
                Arbitraries.of(0, 10),
                Arbitraries.frequency(Tuple.of(2, false), Tuple.of(1, true)),
                Arbitraries.of(GROUPS))
            .as((name, priority, gated, group) ->
                Transformer.mutate(
                    "update in flight " + name + "@" + priority + (gated ? " gated" : "")
                        + (group.isEmpty() ? "" : " in " + group),
                    m -> m.add(name, priority, gated, "", false, group)));
      }
    };
  }

  /** An update of a parked member, half of the time one that adds gates. */
  private static Action.Dependent<Machine> updateParked() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.parked.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        var parked = List.copyOf(new TreeSet<>(machine.parked));
        return Combinators.combine(Arbitraries.of(parked), Arbitraries.of(false, true))
            .as((name, gated) ->
                Transformer.mutate(
                    "update parked " + name + (gated ? " gated" : ""),
                    m -> m.add(name, m.priority.get(name), gated, "", false, m.group.get(name))));
      }
    };
  }

  /** The loop takes the other members of a group, mostly one with a member in flight. */
  private static Action.Dependent<Machine> takeGroup() {
    return new Action.Dependent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        var inFlight = machine.takenPod.values().stream()
            .map(Machine::groupOf)
            .filter(group -> !group.isEmpty())
            .distinct()
            .sorted()
            .toList();
        var groups = Arbitraries.of(GROUPS.subList(1, GROUPS.size()));
        var chosen = inFlight.isEmpty()
            ? groups
            : Arbitraries.oneOf(List.of(groups, Arbitraries.of(inFlight), Arbitraries.of(inFlight)));
        return chosen.map(group -> Transformer.mutate("takeGroup " + group, m -> m.takeGroup(group)));
      }
    };
  }

  /** The loop parks a member in flight, one that named a group when it was taken. */
  private static Action.Dependent<Machine> park() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return machine.lastTaken.values().stream().anyMatch(pod -> !Machine.groupOf(pod).isEmpty());
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        var members = machine.lastTaken.values().stream()
            .filter(pod -> !Machine.groupOf(pod).isEmpty())
            .map(QueuedPod::name)
            .sorted()
            .toList();
        var inFlight = members.stream().filter(machine.takenAtCycle::containsKey).toList();
        var names = inFlight.isEmpty()
            ? Arbitraries.of(members)
            : Arbitraries.oneOf(List.of(Arbitraries.of(members), Arbitraries.of(inFlight), Arbitraries.of(inFlight)));
        return names.map(name -> Transformer.mutate("park " + name, m -> m.park(name)));
      }
    };
  }

  private static Action.Independent<Machine> releaseGroup() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(GROUPS.subList(1, GROUPS.size()))
            .map(group -> Transformer.mutate("releaseGroup " + group, m -> m.releaseGroup(group)));
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
                inFlight(machine),
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
    return anyPodAction("requeue stale", Machine::requeueStale);
  }

  private static Action.Independent<Machine> delete() {
    return anyPodAction("delete", Machine::delete);
  }

  private static Action.Independent<Machine> move() {
    return Action.just(Transformer.mutate("move", Machine::move));
  }

  private static Action.Independent<Machine> podEvent() {
    return Action.just(Transformer.mutate("podEvent", Machine::podEvent));
  }

  private static Action.Independent<Machine> policyChange() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(PROFILES)
            .map(profile -> Transformer.mutate("policyChange " + profile, m -> m.policyChange(profile)));
      }
    };
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

  /** Nominated nodes, "" for none. */
  private static final List<String> NODES = List.of("", "n1", "n2");

  /**
   * Holds any pod, mostly one in flight or unschedulable (as preemption does: the pod just failed), so that
   * held pods that nothing would move, and their timeout, are frequent.
   */
  private static Action.Dependent<Machine> hold() {
    return new Action.Dependent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        var places = Machine.places(machine.queue.contents());
        var failed = NAMES.stream()
            .filter(name -> List.of("inFlight", "unschedulable").contains(places.getOrDefault(name, "nowhere")))
            .toList();
        return mostly(failed).map(name -> Transformer.mutate("hold " + name, m -> m.hold(name)));
      }
    };
  }

  /**
   * What the loop does when an attempt finds room by preemption: nominates the pod in flight, holds it, and
   * returns it as unschedulable, so that held pods nothing has moved yet are frequent.
   */
  private static Action.Dependent<Machine> preempt() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.takenAtCycle.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return Combinators.combine(
                inFlight(machine),
                Arbitraries.of(NODES.subList(1, NODES.size())),
                Arbitraries.integers().between(0, HINTS.size() - 1))
            .as((pod, node, hint) ->
                Transformer.mutate("preempt " + pod + " on " + node + " hint " + hint, m -> {
                  m.nominate(pod, node);
                  m.hold(pod);
                  m.requeueUnschedulable(pod, HINTS.get(hint));
                }));
      }
    };
  }

  /**
   * The preemption of a held pod ends after its victims' grace period (30 s by default, often longer): time
   * passes, then the mark is lifted.
   */
  private static Action.Dependent<Machine> preemptionDone() {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.held.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return Combinators.combine(Arbitraries.of(List.copyOf(new TreeSet<>(machine.held))), Arbitraries.of(STEPS))
            .as((pod, step) ->
                Transformer.mutate("preemption of " + pod + " done after " + step, m -> {
                  m.advance(step);
                  m.release(pod, false);
                }));
      }
    };
  }

  /** Releases any pod, mostly a held one. */
  private static Action.Dependent<Machine> release() {
    return new Action.Dependent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        var held = List.copyOf(new TreeSet<>(machine.held));
        return Combinators.combine(mostly(held), Arbitraries.of(false, false, true))
            .as((name, activate) ->
                Transformer.mutate(
                    "release " + name + (activate ? " activate" : ""), m -> m.release(name, activate)));
      }
    };
  }

  private static Action.Independent<Machine> nominate() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Combinators.combine(Arbitraries.of(NAMES), Arbitraries.of(NODES))
            .as((name, node) -> Transformer.mutate("nominate " + name + " to '" + node + "'", m -> m.nominate(name, node)));
      }
    };
  }

  private static Action.Independent<Machine> clearNomination() {
    return anyPodAction("clearNomination", Machine::clear);
  }

  private static Action.Independent<Machine> observe() {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Combinators.combine(Arbitraries.of(NAMES), Arbitraries.of(NODES))
            .as((name, node) ->
                Transformer.mutate("observe " + name + " nnn='" + node + "'", m -> m.observe(name, node)));
      }
    };
  }

  /** An action on any of the pods, live or not, labelled {@code name} and the pod's name. */
  private static Action.Independent<Machine> anyPodAction(String name, BiConsumer<Machine, String> step) {
    return new Action.Independent<>() {
      @Override
      public Arbitrary<Transformer<Machine>> transformer() {
        return Arbitraries.of(NAMES).map(pod -> Transformer.mutate(name + " " + pod, m -> step.accept(m, pod)));
      }
    };
  }

  /** @return one of the pods in flight, in a stable order; call only when there is one */
  private static Arbitrary<String> inFlight(Machine machine) {
    return Arbitraries.of(List.copyOf(new TreeMap<>(machine.takenAtCycle).keySet()));
  }

  /** @return any pod's name, two times in three one of {@code likely} when there are any */
  private static Arbitrary<String> mostly(List<String> likely) {
    return likely.isEmpty()
        ? Arbitraries.of(NAMES)
        : Arbitraries.oneOf(List.of(Arbitraries.of(NAMES), Arbitraries.of(likely), Arbitraries.of(likely)));
  }

  private static Action.Dependent<Machine> inFlightAction(String name, BiConsumer<Machine, String> step) {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Machine machine) {
        return !machine.takenAtCycle.isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Machine>> transformer(Machine machine) {
        return inFlight(machine)
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
    /** The {@code status.nominatedNodeName} of each live pod's latest version ("" for none). */
    final Map<String, String> statusNode = new HashMap<>();
    /** Whether each live pod's latest version is bound (has a {@code nodeName}). */
    final Map<String, Boolean> bound = new HashMap<>();
    /** The node each pod is nominated to, by the nominator's rule. */
    final Map<String, String> nominated = new HashMap<>();
    /** The live pods marked as preempting. */
    final Set<String> held = new HashSet<>();
    /** The held pods that something would have moved to backoff or active while they waited held. */
    final Set<String> suppressed = new HashSet<>();
    /** Pods moved to active by an activation, their backoff notwithstanding, and not taken since. */
    final Set<String> activated = new HashSet<>();
    /** The group each live pod's latest version names, "" for none. */
    final Map<String, String> group = new HashMap<>();
    /** The pods in flight, as they were handed out. */
    final Map<String, QueuedPod> takenPod = new HashMap<>();
    /** The last version of each pod handed out, in flight or not (nor live): for stale calls. */
    final Map<String, QueuedPod> lastTaken = new HashMap<>();
    /** The live pods parked to wait for their group. */
    final Set<String> parked = new HashSet<>();
    /** The pods in flight that were handed out with their group. */
    final Set<String> takenWithGroup = new HashSet<>();

    long arrivals;
    long lastFlushAt = clock.nanoTime();

    static QueuedPod pod(String name, int priority) {
      return new QueuedPod("uid-" + name, "ns", name, priority, "default-scheduler");
    }

    static PodInfo info(
        String name, int priority, boolean withGates, String nominatedNode, boolean isBound, String group) {
      return PodInfo.builder("ns", name)
          .uid("uid-" + name)
          .schedulerName(profileOf(name))
          .priority(priority)
          .schedulingGates(withGates ? List.of("gate") : List.of())
          .nominatedNodeName(nominatedNode)
          .nodeName(isBound ? "bound-to" : "")
          .podGroup(group.isEmpty() ? null : ref(group))
          .build();
    }

    static PodGroupRef ref(String group) {
      return new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "ns", group);
    }

    /** @return the profile of the pod named {@code name}: a and b are pods of the first, the others of the second */
    static String profileOf(String name) {
      return PROFILES.get(name.compareTo("c") < 0 ? 0 : 1);
    }

    /** @return the group the pod's version names, "" for none */
    static String groupOf(QueuedPod pod) {
      return pod.info() == null ? "" : pod.info().podGroup().map(PodGroupRef::name).orElse("");
    }

    void add(String name, int newPriority, boolean withGates, String nominatedNode, boolean isBound, String newGroup) {
      step("add", () -> {
        boolean wasParked = parked.remove(name);
        boolean wasGated = where(name).equals("gated") && !wasParked;
        boolean waitingHeld = held.contains(name) && !takenAtCycle.containsKey(name);
        if (!priority.containsKey(name)) {
          arrival.put(name, arrivals++);
          unschedulableAttempts.put(name, 0);
          consecutiveErrors.put(name, 0);
        }
        priority.put(name, newPriority);
        gated.put(name, withGates);
        group.put(name, newGroup);
        if (takenAtCycle.containsKey(name)) {
          changedInFlight.add(name);
        }
        if (waitingHeld && !withGates) {
          suppressed.add(name);
          Statistics.label("preemption").collect("held: update remembered");
        }
        newVersion(name, nominatedNode, isBound, "add");
        boolean wasUnschedulable = where(name).equals("unschedulable");
        queue.add(QueuedPod.of(info(name, newPriority, withGates, nominatedNode, isBound, newGroup)));
        if (wasParked) {
          // Not an attempt, so no backoff to wait out.
          assertEquals(withGates ? "gated" : "active", where(name), "an update moves a parked member");
          Statistics.label("group").collect(withGates ? "add: parked member gated" : "add: parked member updated");
          if (!withGates) {
            activated.add(name);
          }
        }
        if (waitingHeld) {
          assertEquals("unschedulable", where(name), "an update leaves a held pod where it is");
        } else if (wasUnschedulable) {
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
        var backoff = queue.contents().backoff();
        if (taken == null) {
          assertTrue(queue.contents().active().isEmpty(), "poll returned nothing while a pod was active");
          for (var waiting : backoff) {
            assertTrue(
                consecutiveErrors.getOrDefault(waiting.name(), 0) > 0,
                "poll returned nothing while " + waiting.name() + ", which found no node, was in backoff");
          }
          if (!backoff.isEmpty()) {
            Statistics.label("backoff").collect("take: nothing with only error backoffs");
          }
          if (held.stream().anyMatch(name -> !takenAtCycle.containsKey(name))
              && priority.keySet().stream().allMatch(name -> held.contains(name) || takenAtCycle.containsKey(name))) {
            Statistics.label("preemption").collect("take: only held pods were left");
          }
          return;
        }
        String name = taken.name();
        assertTrue(priority.containsKey(name), "took a pod that is not live: " + name);
        assertFalse(parked.contains(name), name + " was taken alone while parked");
        assertFalse(held.contains(name), name + " was taken while held for preemption");
        assertEquals(priority.get(name), taken.priority(), "took an old version of " + name);
        if (isBackingOff(name) && !activated.contains(name)) {
          // kube's SchedulerPopFromBackoffQ: only with active empty, only a pod that found no node, and the
          // first such pod in backoff's order.
          assertTrue(queue.contents().active().isEmpty(), name + " was taken from backoff while a pod was active");
          assertEquals(0, consecutiveErrors.getOrDefault(name, 0), name + " was taken before its error backoff ended");
          for (var waiting : backoff) {
            if (consecutiveErrors.getOrDefault(waiting.name(), 0) == 0) {
              assertFalse(
                  leavesBackoffBefore(waiting.name(), name),
                  waiting.name() + " should have been taken from backoff before " + name);
            } else if (leavesBackoffBefore(waiting.name(), name)) {
              Statistics.label("backoff").collect("take: popped from backoff past an error backoff");
            }
          }
          Statistics.label("backoff").collect("take: popped from backoff with active empty");
        }
        activated.remove(name);
        assertFalse(gated.get(name), name + " was taken with scheduling gates");
        for (var waiting : queue.contents().active()) {
          assertFalse(comesBefore(waiting.name(), name), waiting.name() + " should have been taken before " + name);
        }
        handedOut(taken, queue.schedulingCycle());
      });
    }

    /** Records a pod handed out in {@code cycle}, by take or with its group. */
    private void handedOut(QueuedPod taken, long cycle) {
      String name = taken.name();
      takenAtCycle.put(name, cycle);
      takenPod.put(name, taken);
      lastTaken.put(name, taken);
      changedInFlight.remove(name);
      clusterEventInFlight.remove(name);
      podEventInFlight.remove(name);
      activated.remove(name);
      takenWithGroup.remove(name);
    }

    void takeGroup(String g) {
      step("takeGroup", () -> {
        var expected = priority.keySet().stream()
            .filter(name -> group.get(name).equals(g))
            .filter(name -> {
              if (takenAtCycle.containsKey(name)) {
                Statistics.label("group").collect("takeGroup: skipped a member in flight");
                return false;
              }
              if (held.contains(name)) {
                Statistics.label("group").collect("takeGroup: skipped a held member");
                return false;
              }
              if (gated.get(name)) {
                Statistics.label("group").collect("takeGroup: skipped a gated member");
                return false;
              }
              return true;
            })
            .sorted(Comparator.comparing(arrival::get))
            .toList();
        long cycle = queue.schedulingCycle();
        for (var name : expected) {
          if (isBackingOff(name) && where(name).equals("backoff")) {
            Statistics.label("group").collect("takeGroup: took a member before its backoff ended");
          }
        }
        var taken = queue.takeGroupMembers(ref(g));
        assertEquals(expected, SchedulingQueueTest.names(taken), "the members taken, in the order they were queued");
        assertEquals(expected.isEmpty() ? cycle : cycle + 1, queue.schedulingCycle(), "one cycle for the members");
        if (taken.size() > 1) {
          Statistics.label("group").collect("takeGroup: took several");
        }
        for (var pod : taken) {
          assertEquals(priority.get(pod.name()), pod.priority(), "took an old version of " + pod.name());
          parked.remove(pod.name());
          handedOut(pod, queue.schedulingCycle());
          takenWithGroup.add(pod.name());
        }
      });
    }

    void park(String name) {
      step("park", () -> {
        var taken = lastTaken.get(name);
        if (!takenAtCycle.containsKey(name)) {
          String before = where(name);
          queue.waitForGroup(taken);
          assertEquals(before, where(name), "a pod not in flight is left alone");
          Statistics.label("group").collect("park: not in flight");
          return;
        }
        boolean changed = changedInFlight.contains(name);
        takenAtCycle.remove(name);
        takenPod.remove(name);
        takenWithGroup.remove(name);
        changedInFlight.remove(name);
        clusterEventInFlight.remove(name);
        podEventInFlight.remove(name);
        queue.waitForGroup(taken);
        String expected;
        if (held.contains(name)) {
          expected = "unschedulable";
          if (!gated.get(name)) {
            suppressed.add(name);
          }
          Statistics.label("group").collect("park: held meanwhile");
        } else if (gated.get(name)) {
          expected = "gated";
          Statistics.label("group").collect("park: gated meanwhile");
        } else if (!group.get(name).equals(groupOf(taken))) {
          expected = isBackingOff(name) ? "backoff" : "active";
          Statistics.label("group").collect("park: left its group meanwhile");
        } else {
          expected = "gated";
          parked.add(name);
          Statistics.label("group").collect(changed ? "park: updated meanwhile, same group" : "park: parked");
        }
        assertEquals(expected, where(name));
      });
    }

    void releaseGroup(String g) {
      step("releaseGroup", () -> {
        var expected = parked.stream().filter(name -> group.get(name).equals(g)).sorted().toList();
        boolean othersParked = parked.stream().anyMatch(name -> !group.get(name).equals(g));
        assertEquals(expected.size(), queue.releaseGroup(ref(g)));
        for (var name : expected) {
          assertEquals("active", where(name), "a released member is active, its backoff notwithstanding");
          parked.remove(name);
          activated.add(name);
        }
        if (othersParked) {
          Statistics.label("group").collect("releaseGroup: another group's parked member stays");
        }
        if (expected.isEmpty()) {
          Statistics.label("group").collect("releaseGroup: nothing parked");
        }
      });
    }

    void requeueUnschedulable(String name, QueueingHint withHint) {
      step("requeueUnschedulable", () -> {
        boolean changed =
            changedInFlight.remove(name)
                | (clusterEventInFlight.remove(name) && withHint.movedByClusterChange())
                | (podEventInFlight.remove(name) && withHint.waitsForAssignedPods());
        long cycle = takenAtCycle.remove(name);
        if (takenPod.remove(name).progress().attempts() == 0) {
          throw new AssertionError("a pod handed out counts an attempt: " + name);
        }
        if (takenWithGroup.remove(name)) {
          Statistics.label("group").collect("requeue: member taken with its group");
        }
        unschedulableAttempts.merge(name, 1, Integer::sum);
        consecutiveErrors.put(name, 0);
        hint.put(name, withHint);
        failed(name);
        assertTrue(queue.requeueUnschedulable(pod(name, priority.get(name)), cycle, withHint));
        if (held.contains(name)) {
          if (changed && !gated.get(name)) {
            suppressed.add(name);
            Statistics.label("preemption").collect("held: missed event remembered at requeue");
          }
          assertEquals("unschedulable", where(name), "a held pod waits as unschedulable");
          return;
        }
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
        takenPod.remove(name);
        takenWithGroup.remove(name);
        consecutiveErrors.merge(name, 1, Integer::sum);
        failed(name);
        assertTrue(queue.requeueAfterError(pod(name, priority.get(name))));
        if (held.contains(name)) {
          if (!gated.get(name)) {
            suppressed.add(name);
            Statistics.label("preemption").collect("held: error remembered at requeue");
          }
          assertEquals("unschedulable", where(name), "a held pod waits as unschedulable");
          return;
        }
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
        if (!parked.isEmpty()) {
          Statistics.label("group").collect("event: parked member stays");
        }
        clusterEventInFlight.addAll(takenAtCycle.keySet());
        moveUnschedulable(
            () -> queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD),
            QueueingHint::movedByClusterChange,
            "held: cluster event remembered",
            "a cluster change moves every unschedulable pod but those only their update can help: ",
            "move: only its update can help");
      });
    }

    void podEvent() {
      step("podEvent", () -> {
        podEventInFlight.addAll(takenAtCycle.keySet());
        moveUnschedulable(
            () -> queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, h -> true),
            QueueingHint::waitsForAssignedPods,
            "held: event about bound pods remembered",
            "an event about bound pods moves exactly the unschedulable pods waiting for them: ",
            "podEvent: waits for no pod");
      });
    }

    /**
     * The profile's policy was replaced: its pods in flight count as updated, its unschedulable pods move
     * whatever their hint (held ones remember the move), other profiles' pods stay.
     */
    void policyChange(String profile) {
      step("policyChange", () -> {
        for (var name : takenAtCycle.keySet()) {
          if (profileOf(name).equals(profile)) {
            changedInFlight.add(name);
            Statistics.label("policy change").collect("a pod in flight of its profile");
          }
        }
        var before = SchedulingQueueTest.names(queue.contents().unschedulable());
        queue.moveProfile(ClusterEvent.POLICY_CHANGE, profile);
        var after = SchedulingQueueTest.names(queue.contents().unschedulable());
        for (var name : before) {
          boolean ofProfile = profileOf(name).equals(profile);
          if (held.contains(name)) {
            assertTrue(after.contains(name), "a held pod stays: " + name);
            if (ofProfile && !gated.get(name) && suppressed.add(name)) {
              Statistics.label("preemption").collect("held: policy change remembered");
            }
            continue;
          }
          assertEquals(!ofProfile, after.contains(name), "a policy change moves exactly its profile's pods: " + name);
          if (!ofProfile) {
            Statistics.label("stayed unschedulable").collect("policyChange: another profile's pod");
          } else if (hint.get(name) == QueueingHint.POD_UPDATE_ONLY) {
            Statistics.label("policy change").collect("moved a pod only its update could help");
          }
        }
      });
    }

    /**
     * Runs an event that moves unschedulable pods and checks each one that was unschedulable before it: a
     * held pod stays (the move remembered, {@code remembered}, when its hint is one the event moves and it
     * has no gates); any other moves exactly when its hint is one the event moves ({@code rule}, then the
     * pod's name), and is collected as {@code stayed} when it does not.
     */
    private void moveUnschedulable(
        Runnable event, Predicate<QueueingHint> moves, String remembered, String rule, String stayed) {
      var before = SchedulingQueueTest.names(queue.contents().unschedulable());
      event.run();
      var after = SchedulingQueueTest.names(queue.contents().unschedulable());
      for (var name : before) {
        var itsHint = hint.getOrDefault(name, QueueingHint.ANY_CHANGE);
        if (held.contains(name)) {
          assertTrue(after.contains(name), "a held pod stays: " + name);
          if (moves.test(itsHint) && !gated.get(name) && suppressed.add(name)) {
            Statistics.label("preemption").collect(remembered);
          }
          continue;
        }
        assertEquals(!moves.test(itsHint), after.contains(name), rule + name);
        if (after.contains(name)) {
          Statistics.label("stayed unschedulable").collect(stayed);
        }
      }
    }

    void hold(String name) {
      step("hold", () -> {
        String before = where(name);
        boolean live = priority.containsKey(name);
        queue.holdForPreemption("uid-" + name);
        if (!live) {
          assertEquals("nowhere", where(name));
          return;
        }
        if (held.add(name)) {
          Statistics.label("preemption").collect(before.equals("inFlight") ? "hold: in flight" : "hold: waiting");
          if (before.equals("active") || before.equals("backoff") || parked.contains(name)) {
            suppressed.add(name);
          }
          if (parked.remove(name)) {
            Statistics.label("group").collect("hold: parked member");
          }
        }
        assertEquals(before.equals("inFlight") ? "inFlight" : "unschedulable", where(name));
      });
    }

    void release(String name, boolean activate) {
      step("release", () -> {
        String before = where(name);
        boolean wasHeld = held.remove(name);
        boolean wasSuppressed = suppressed.remove(name);
        queue.releasePreemption("uid-" + name, activate);
        String expected;
        if (!priority.containsKey(name)) {
          expected = "nowhere";
        } else if (before.equals("inFlight")) {
          expected = "inFlight";
          if (activate) {
            changedInFlight.add(name);
            Statistics.label("preemption").collect("release: activated in flight");
          }
        } else if (wasHeld) {
          boolean timedOut = !wasSuppressed && !gated.get(name) && !activate
              && clock.nanoTime() - failedAt.get(name) > TIMEOUT;
          if (gated.get(name)) {
            expected = "gated";
            Statistics.label("preemption").collect("release: gated");
          } else if (activate) {
            expected = "active";
            activated.add(name);
            Statistics.label("preemption").collect("release: activated");
          } else if (wasSuppressed || timedOut) {
            expected = isBackingOff(name) ? "backoff" : "active";
            Statistics.label("preemption")
                .collect(wasSuppressed ? "release: remembered move done" : "release: timeout passed while held");
          } else {
            expected = "unschedulable";
            Statistics.label("preemption").collect("release: back to unschedulable");
          }
        } else if (parked.contains(name)) {
          expected = "gated";
          Statistics.label("group").collect("release: parked member stays");
        } else if (activate && (before.equals("unschedulable") || before.equals("backoff"))) {
          expected = "active";
          activated.add(name);
          Statistics.label("preemption").collect("release: not held, activated");
        } else {
          expected = before;
        }
        assertEquals(expected, where(name));
        assertFalse(queue.preempting("uid-" + name));
      });
    }

    void nominate(String name, String node) {
      step("nominate", () -> {
        // A stale version: the queue must nominate the latest one it has.
        queue.nominate(info(name, -1, false, "", false, ""), node);
        if (!priority.containsKey(name)) {
          Statistics.label("nomination").collect("nominate: unknown pod");
        } else if (bound.get(name)) {
          nominated.remove(name);
          Statistics.label("nomination").collect("nominate: bound pod");
        } else if (node.isEmpty()) {
          nominated.remove(name);
        } else {
          nominated.put(name, node);
          Statistics.label("nomination").collect("nominate: set");
        }
      });
    }

    void clear(String name) {
      step("clearNomination", () -> {
        if (nominated.remove(name) != null) {
          Statistics.label("nomination").collect("clear: dropped");
        }
        queue.clearNomination("uid-" + name);
      });
    }

    void observe(String name, String node) {
      step("observe", () -> {
        var before = queue.contents();
        if (!priority.containsKey(name)) {
          queue.observe(info(name, 0, false, node, false, ""));
          assertEquals(before, queue.contents(), "an unknown pod is not observed");
          return;
        }
        var version = info(name, priority.get(name), gated.get(name), node, bound.get(name), group.get(name));
        newVersion(name, node, bound.get(name), "observe");
        queue.observe(version);
        var after = queue.contents();
        assertEquals(places(before), places(after), "a status update moves no pod");
        assertTrue(
            Stream.of(after.active(), after.backoff(), after.unschedulable(), after.gated(), after.inFlight())
                .flatMap(List::stream)
                .anyMatch(pod -> pod.name().equals(name) && version.equals(pod.info())),
            "the queue keeps the observed version");
      });
    }

    /** Applies the nominator's rule to a new version of a live pod (or a pod becoming live). */
    private void newVersion(String name, String nominatedNode, boolean isBound, String action) {
      String previous = statusNode.getOrDefault(name, "");
      String before = nominated.get(name);
      if (isBound) {
        nominated.remove(name);
        Statistics.label("nomination").collect(action + ": bound");
      } else if (!nominatedNode.isEmpty()) {
        nominated.put(name, nominatedNode);
        Statistics.label("nomination").collect(action + ": from the status");
      } else if (previous.isEmpty()) {
        if (before != null) {
          Statistics.label("nomination").collect(action + ": in-memory kept");
        }
      } else {
        nominated.remove(name);
        Statistics.label("nomination").collect(action + ": removed by the status");
      }
      if (action.equals("observe") && !Objects.equals(before, nominated.get(name))) {
        Statistics.label("nomination").collect("observe: changed");
      }
      statusNode.put(name, nominatedNode);
      bound.put(name, isBound);
    }

    void advance(Duration step) {
      clock.advance(step);
    }

    void flush() {
      step("flush", () -> {
        if (!parked.isEmpty()) {
          Statistics.label("group").collect("flush: parked member past the timeout stays");
        }
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
        if (activated.contains(pod.name())) {
          continue;
        }
        assertFalse(isBackingOff(pod.name()), pod.name() + " is active before its backoff ended");
      }
    }

    void backoffEmptiedByFlush() {
      for (var pod : queue.contents().backoff()) {
        String name = pod.name();
        assertTrue(failures(name) > 0, name + " is in backoff without a failure");
        assertTrue(
            backoffEnds(name) >= window(lastFlushAt),
            name + " stayed in backoff through a flush after its backoff ended");
      }
    }

    void unschedulableEmptiedByFlush() {
      for (var pod : queue.contents().unschedulable()) {
        String name = pod.name();
        if (held.contains(name)) {
          continue;
        }
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
        if (withGates && !takenAtCycle.containsKey(name) && !held.contains(name)) {
          expected.add(name);
        }
      });
      expected.addAll(parked);
      assertEquals(expected, new HashSet<>(SchedulingQueueTest.names(queue.contents().gated())));
    }

    void heldPodsWaitAsUnschedulable() {
      var places = places(queue.contents());
      for (var name : NAMES) {
        assertEquals(held.contains(name), queue.preempting("uid-" + name), "the mark of " + name);
        if (held.contains(name)) {
          assertEquals(takenAtCycle.containsKey(name) ? "inFlight" : "unschedulable", places.get(name), name);
        }
      }
    }

    void pendingGroupsCount() {
      var places = places(queue.contents());
      int waitingForMembers = 0;
      int waitingToFit = 0;
      for (var g : GROUPS.subList(1, GROUPS.size())) {
        var members = priority.keySet().stream().filter(name -> group.get(name).equals(g)).toList();
        if (members.stream().anyMatch(parked::contains)) {
          waitingForMembers++;
          Statistics.label("group").collect("pendingGroups: waiting for members");
        } else if (members.stream().anyMatch(name -> List.of("backoff", "unschedulable").contains(places.get(name)))) {
          waitingToFit++;
          Statistics.label("group").collect("pendingGroups: waiting to fit");
        }
      }
      assertEquals(
          new PendingGroups(waitingForMembers, waitingToFit), queue.pendingGroups());
    }

    void nominationsFollowTheRule() {
      var nominations = queue.nominations();
      assertEquals(nominated.size(), nominations.size(), nominations.toString());
      for (var name : NAMES) {
        String node = nominated.getOrDefault(name, "");
        assertEquals(node, nominations.nodeOf("uid-" + name), "the nomination of " + name);
        if (!node.isEmpty()) {
          assertTrue(priority.containsKey(name), "only pods the queue holds are nominated: " + name);
          var stored = nominations.on(node).stream().filter(pod -> pod.name().equals(name)).toList();
          assertEquals(1, stored.size(), nominations.toString());
          assertEquals(priority.get(name), stored.get(0).priority(), "the nominator holds the latest version");
          assertTrue(stored.get(0).nodeName().isEmpty(), "a bound pod is not nominated: " + name);
        }
      }
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

    /**
     * One second after the first failure, doubling per failure, never more than ten seconds; the backoff
     * ends on the start of the one-second window that instant falls in, and lasts until that window has passed.
     */
    private long backoffEnds(String name) {
      long backoff = INITIAL;
      for (int i = 1; i < failures(name); i++) {
        backoff = Math.min(2 * backoff, MAX);
      }
      return window(failedAt.get(name) + backoff);
    }

    private static long window(long t) {
      return t - Math.floorMod(t, WINDOW);
    }

    private boolean isBackingOff(String name) {
      return failures(name) > 0 && backoffEnds(name) >= window(clock.nanoTime());
    }

    /** Whether {@code first} leaves backoff before {@code second}: its backoff ends first, then active's order. */
    private boolean leavesBackoffBefore(String first, String second) {
      long e1 = backoffEnds(first);
      long e2 = backoffEnds(second);
      return e1 < e2 || (e1 == e2 && comesBefore(first, second));
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
      statusNode.remove(name);
      bound.remove(name);
      if (nominated.remove(name) != null) {
        Statistics.label("nomination").collect("forget: dropped");
      }
      held.remove(name);
      suppressed.remove(name);
      activated.remove(name);
      group.remove(name);
      takenPod.remove(name);
      takenWithGroup.remove(name);
      if (parked.remove(name)) {
        Statistics.label("group").collect("delete: parked member");
      }
    }

    /** Where each pod is, by name. */
    static Map<String, String> places(QueueContents contents) {
      var places = new TreeMap<String, String>();
      contents.active().forEach(pod -> places.put(pod.name(), "active"));
      contents.backoff().forEach(pod -> places.put(pod.name(), "backoff"));
      contents.unschedulable().forEach(pod -> places.put(pod.name(), "unschedulable"));
      contents.gated().forEach(pod -> places.put(pod.name(), "gated"));
      contents.inFlight().forEach(pod -> places.put(pod.name(), "inFlight"));
      return places;
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
      var before = places(queue.contents());
      body.run();
      var after = places(queue.contents());
      for (var name : NAMES) {
        String from = before.getOrDefault(name, "nowhere");
        String to = after.getOrDefault(name, "nowhere");
        if (!to.equals(from)) {
          Statistics.label("transition").collect(action + ": " + from + "->" + to);
        }
      }
    }

    @Override
    public String toString() {
      return "Machine" + queue.contents() + " live=" + new TreeMap<>(priority) + " inFlight=" + takenAtCycle.keySet();
    }
  }
}
