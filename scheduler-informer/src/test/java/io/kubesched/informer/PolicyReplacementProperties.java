package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.BindPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * Policies replaced at random points while pods arrive and are scheduled, some replacements landing in the
 * middle of an attempt: every pod ends bound exactly once, each by the policy that was current when its attempt
 * began, and a replacement leaves none of the profile's pods waiting as unschedulable. The loop runs on the
 * test thread with a fake clock that never reaches the unschedulable timeout, so only the replacements can move
 * the pods the earlier policies found no node for.
 */
class PolicyReplacementProperties {

  private static final String NAME = "my-scheduler";
  private static final int NODES = 3;
  /** Pods a node holds under the policies that place on one node. */
  private static final int SLOTS = 2;
  /** Policy {@code k < NODES} places on node {@code nk} only; {@link #NOWHERE} on none; {@link #ANYWHERE} on any. */
  private static final int NOWHERE = NODES;
  private static final int ANYWHERE = NODES + 1;

  /** One step of a run. */
  sealed interface Step {}

  /** A new pod arrives. */
  record Add() implements Step {}

  /** The next pod ready is tried. */
  record Schedule() implements Step {}

  /** Policy {@code policy} replaces the current one. */
  record Replace(int policy) implements Step {}

  /** Policy {@code policy} replaces the current one while the next decision is being made. */
  record ReplaceDuring(int policy) implements Step {}

  /** A second passes. */
  record Advance() implements Step {}

  @Provide
  Arbitrary<List<Step>> runs() {
    var policies = Arbitraries.integers().between(0, NOWHERE);
    Arbitrary<Step> step =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(new Add())),
            Tuple.of(5, Arbitraries.just(new Schedule())),
            Tuple.of(2, policies.map(Replace::new)),
            Tuple.of(2, policies.map(ReplaceDuring::new)),
            Tuple.of(2, Arbitraries.just(new Advance())));
    return step.list().ofMinSize(1).ofMaxSize(60);
  }

  /** A run's state: the loop, its fake clock, and what the test knows. */
  private static final class Run {
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    final Map<String, Integer> bindCalls = new TreeMap<>();
    /** The policy each bound pod was decided by. */
    final Map<String, Integer> decidedBy = new HashMap<>();
    final List<String> added = new ArrayList<>();
    final List<FinderFunc> policies = new ArrayList<>();
    final LoopParts parts;
    int current;
    /** The policy that replaces the current one during the next decision, if any. */
    @Nullable Integer during;
    /** The policy that made the last decision, -1 for none. */
    int lastDecidedBy = -1;

    Run() {
      for (int k = 0; k <= ANYWHERE; k++) {
        policies.add(policy(k));
      }
      BindPort port =
          (pod, node) -> {
            bindCalls.merge(pod.getMetadata().getName(), 1, Integer::sum);
            return new BindOutcome.Bound(node, false);
          };
      parts = FakeLoop.of(TestSettings.forFakeCluster(NAME), policies.get(0), clock::get, port).create();
      for (int n = 0; n < NODES; n++) {
        parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n" + n));
      }
    }

    private FinderFunc policy(int k) {
      return new FinderFunc() {
        @Override
        public Decision find(PodInfo pod, List<NodeInfo> nodes) {
          var replacing = during;
          if (replacing != null) {
            during = null;
            replace(replacing);
            Statistics.label("case").collect("replaced during an attempt");
          }
          lastDecidedBy = k;
          var reasons = new TreeMap<String, List<String>>();
          for (var node : nodes) {
            boolean allowed = k == ANYWHERE || node.name().equals("n" + k) && node.pods().size() < SLOTS;
            if (allowed) {
              decidedBy.put(pod.name(), k);
              return Decision.bind(node.name());
            }
            reasons.put(node.name(), List.of("not for policy " + k));
          }
          return Decision.unschedulable(reasons);
        }
      };
    }

    void replace(int policy) {
      if (parts.queue().depths().unschedulable() > 0) {
        Statistics.label("case").collect("a replacement moved unschedulable pods");
      }
      parts.replacePolicy(NAME, policies.get(policy));
      current = policy;
      assertEquals(0, parts.queue().depths().unschedulable(), "a replacement leaves no pod of its profile unschedulable");
    }

    void step(Step step) throws InterruptedException {
      if (step instanceof Add) {
        var name = "p" + added.size();
        added.add(name);
        parts.handlers().pods().onAdd(SchedulingLoopPartsTest.pod(name));
      } else if (step instanceof Schedule) {
        var item = parts.queue().poll();
        if (item == null) {
          return;
        }
        int atStart = current;
        lastDecidedBy = -1;
        parts.scheduling().scheduleOne(item);
        if (lastDecidedBy >= 0) {
          assertEquals(atStart, lastDecidedBy, "the attempt used the policy current when it began");
        }
      } else if (step instanceof Replace replace) {
        replace(replace.policy());
      } else if (step instanceof ReplaceDuring replace) {
        during = replace.policy();
      } else if (step instanceof Advance) {
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
      }
    }

    /** Lets every pod in: the policy that places anywhere, then attempts until each backoff (at most 10 s) ran out. */
    void finish() throws InterruptedException {
      during = null;
      replace(ANYWHERE);
      for (int round = 0; round < 2; round++) {
        for (var item = parts.queue().poll(); item != null; item = parts.queue().poll()) {
          parts.scheduling().scheduleOne(item);
        }
        clock.addAndGet(Duration.ofSeconds(11).toNanos());
      }
    }
  }

  @Property(tries = 300)
  void every_pod_is_bound_once_by_the_policy_current_when_its_attempt_began(@ForAll("runs") List<Step> steps)
      throws InterruptedException {
    var run = new Run();
    for (var step : steps) {
      run.step(step);
    }
    var boundEarly = run.decidedBy.entrySet().stream().filter(e -> e.getValue() != ANYWHERE).count();
    run.finish();

    var expected = new TreeMap<String, Integer>();
    run.added.forEach(name -> expected.put(name, 1));
    assertEquals(expected, run.bindCalls, "every pod bound, none twice");
    assertEquals(0, run.parts.queue().size(), "nothing left in the queue");
    if (boundEarly > 0 && boundEarly < run.added.size()) {
      Statistics.label("case").collect("some pods placed by the earlier policies, the rest by the last one");
    }
    Statistics.label("case")
        .coverage(coverage -> {
          coverage.check("replaced during an attempt").count(n -> n > 0);
          coverage.check("a replacement moved unschedulable pods").count(n -> n > 0);
          coverage.check("some pods placed by the earlier policies, the rest by the last one").count(n -> n > 0);
        });
  }
}
