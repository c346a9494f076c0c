package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.binder.BindOutcome;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.cycle.BindPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduling thread, an informer thread adding pods and another thread replacing the policy (once per pod
 * bound, for the first half of the pods), all at once: every pod is bound exactly once, never by a policy whose
 * replacement had not begun when it decided, and never by a policy that another had already replaced when the
 * pod arrived.
 */
class PolicyReplacementConcurrencyTest {

  private static final String NAME = "my-scheduler";
  private static final int PODS = 400;
  private static final int REPLACEMENTS = 200;
  private static final int NODES = 3;

  /** The last version whose replacement began, and the last whose replacement returned. */
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger installed = new AtomicInteger();
  private final Map<String, AtomicInteger> bindCalls = new ConcurrentHashMap<>();
  /** By pod: the version that decided it. */
  private final Map<String, Integer> decidedBy = new ConcurrentHashMap<>();
  /** By pod: the last version installed before it was added. */
  private final Map<String, Integer> installedAtAdd = new ConcurrentHashMap<>();
  private final List<String> errors = new CopyOnWriteArrayList<>();

  /** Version {@code v} places every pod on node {@code n(v mod NODES)}. */
  private FinderFunc version(int v) {
    return (pod, nodes) -> {
      if (v > started.get()) {
        errors.add(pod.name() + " decided by version " + v + " before its replacement began");
      }
      decidedBy.put(pod.name(), v);
      return Decision.bind("n" + (v % NODES));
    };
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void pods_flow_while_the_policy_is_replaced_many_times() throws Exception {
    BindPort port =
        (pod, node) -> {
          bindCalls.computeIfAbsent(pod.getMetadata().getName(), n -> new AtomicInteger()).incrementAndGet();
          return new BindOutcome.Bound(node, false);
        };
    var parts = FakeLoop.of(TestSettings.forFakeCluster(NAME), version(0), Ticker.SYSTEM, port).create();
    for (int n = 0; n < NODES; n++) {
      parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n" + n));
    }
    var scheduler = daemon("kubesched-" + NAME, parts.scheduling());
    var informer =
        daemon(
            "informer",
            () -> {
              for (int i = 0; i < PODS; i++) {
                var name = "p" + i;
                installedAtAdd.put(name, installed.get());
                parts.handlers().pods().onAdd(SchedulingLoopPartsTest.pod(name));
                if (i % 10 == 0) {
                  Thread.yield();
                }
              }
            });
    var replacer =
        daemon(
            "replacer",
            () -> {
              for (int v = 1; v <= REPLACEMENTS; v++) {
                while (bindCalls.size() < v) { // paced by the bindings: replacements interleave with decisions
                  Thread.yield();
                }
                started.set(v);
                parts.replacePolicy(NAME, version(v));
                installed.set(v);
              }
            });
    scheduler.start();
    informer.start();
    replacer.start();
    informer.join();
    replacer.join();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (bindCalls.size() < PODS && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    parts.queue().close();
    scheduler.join(5000);

    assertEquals(List.of(), errors);
    assertEquals(REPLACEMENTS, installed.get(), "every replacement returned");
    assertEquals(PODS, bindCalls.size(), "every pod bound");
    var twice = new ArrayList<String>();
    bindCalls.forEach((pod, calls) -> {
      if (calls.get() != 1) {
        twice.add(pod + " bound " + calls.get() + " times");
      }
    });
    assertEquals(List.of(), twice);
    var stale = new ArrayList<String>();
    decidedBy.forEach((pod, v) -> {
      if (v < installedAtAdd.get(pod)) {
        stale.add(pod + " decided by version " + v + ", replaced before it arrived (" + installedAtAdd.get(pod) + ")");
      }
    });
    assertEquals(List.of(), stale.stream().limit(5).toList(), stale.size() + " pods decided by a stale policy");
    assertTrue(decidedBy.values().stream().distinct().count() > 1, "the replacements were seen by the loop");
  }

  /** A thread that cannot keep the test JVM alive if the test times out, and whose failure fails the test. */
  private Thread daemon(String name, Runnable body) {
    var thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.setUncaughtExceptionHandler((t, e) -> errors.add(t.getName() + " failed: " + e));
    return thread;
  }
}
