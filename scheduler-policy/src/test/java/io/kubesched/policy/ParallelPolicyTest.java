package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The node loop shared out: the cut-off, pods that fit nowhere, small clusters, failures, executors. */
class ParallelPolicyTest {

  private static final ExecutorService POOL = Executors.newFixedThreadPool(7);
  private static final PodInfo POD = PodInfo.builder("default", "web").build();
  private static final Duration NO_HANG = Duration.ofSeconds(20);

  @AfterAll
  static void stopPool() throws InterruptedException {
    POOL.shutdown();
    POOL.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** A filter that rejects the nodes {@code rejects} names, counting its calls (from any thread). */
  static final class Counting implements Filter {
    final AtomicInteger calls = new AtomicInteger();
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    private final Predicate<String> rejects;

    Counting(Predicate<String> rejects) {
      this.rejects = rejects;
    }

    @Override
    public String name() {
      return "Counting";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      threads.add(Thread.currentThread().getName());
      return rejects.test(node.name()) ? FilterResult.unschedulable(Reason.of("rejected")) : FilterResult.fit();
    }
  }

  private static Policy policy(Filter filter) {
    return Policy.builder().filter(filter).scorer(PolicyTest.fixed("Spread", Map.of()), 1).seed(7).build();
  }

  @Test
  void a_search_cut_off_at_the_nodes_to_find_claims_no_chunk_past_those_it_needs_and_decides_as_one_thread() {
    var nodes = PolicyTest.nodes(1000);
    var alone = new Counting(name -> name.endsWith("3"));
    var shared = new Counting(name -> name.endsWith("3"));
    var sequential = policy(alone);
    var parallel = policy(shared).withParallelism(4, POOL, 0, 10);

    for (int round = 0; round < 3; round++) {
      assertEquals(sequential.find(POD, nodes), parallel.find(POD, nodes), "round " + round);
    }

    // 420 feasible of 1000 (adaptive) take about 467 nodes a round; past the chunks a round needs, each thread
    // finishes the chunk it holds and may claim one more before it sees that enough are found.
    assertEquals(420, Policy.numFeasibleNodesToFind(0, 1000));
    assertTrue(alone.calls.get() < 3 * 470, "filtered " + alone.calls.get() + " nodes alone");
    assertTrue(
        shared.calls.get() <= alone.calls.get() + 3 * (2 * 4 * 10),
        "filtered " + shared.calls.get() + " nodes shared, " + alone.calls.get() + " alone");
  }

  @Test
  void a_pod_that_fits_nowhere_gets_every_nodes_reason_as_with_one_thread() {
    var nodes = PolicyTest.nodes(600);
    var sequential = policy(new Counting(name -> true));
    var parallel = policy(new Counting(name -> true)).withParallelism(3, POOL, 0, 16);

    var decision = assertInstanceOf(Decision.Unschedulable.class, parallel.find(POD, nodes));

    assertEquals(600, decision.reasonsByNode().size());
    assertEquals(sequential.find(POD, nodes), decision);
  }

  @Test
  void fewer_nodes_than_threads_and_chunks_still_decide_as_one_thread() {
    for (int count = 1; count <= 5; count++) {
      var nodes = PolicyTest.nodes(count);
      var sequential = policy(new Counting(name -> name.equals("n0")));
      var parallel = policy(new Counting(name -> name.equals("n0"))).withParallelism(8, POOL, 0, 1);
      for (int round = 0; round < 3; round++) {
        assertEquals(sequential.find(POD, nodes), parallel.find(POD, nodes), count + " nodes, round " + round);
      }
    }
  }

  @Test
  void a_filter_that_throws_is_thrown_to_the_caller_and_nothing_hangs() {
    var nodes = PolicyTest.nodes(2000);
    var boom = new IllegalStateException("boom");
    Filter throwing =
        new Filter() {
          @Override
          public String name() {
            return "Throwing";
          }

          @Override
          public FilterResult filter(PodInfo pod, NodeInfo node) {
            if (node.name().equals("n1500")) {
              throw boom;
            }
            return node.name().startsWith("n1") ? FilterResult.unschedulable(Reason.of("no")) : FilterResult.fit();
          }
        };
    // With every node to find, the search reaches n1500.
    var parallel =
        Policy.builder()
            .filter(throwing)
            .scorer(PolicyTest.fixed("Spread", Map.of()), 1)
            .percentageOfNodesToScore(100)
            .build()
            .withParallelism(4, POOL, 0, 8);

    var thrown =
        assertTimeoutPreemptively(
            NO_HANG, () -> assertThrows(IllegalStateException.class, () -> parallel.find(POD, nodes)));

    assertSame(boom, thrown);
    // The pool is free again: the next decision runs.
    var fine = policy(new Counting(name -> false)).withParallelism(4, POOL, 0, 8);
    assertInstanceOf(Decision.Bind.class, assertTimeoutPreemptively(NO_HANG, () -> fine.find(POD, nodes)));
  }

  @Test
  void a_filter_that_fails_past_the_cut_off_is_never_looked_at_as_with_one_thread() {
    var nodes = PolicyTest.nodes(1000);
    Filter failingLate =
        new Filter() {
          @Override
          public String name() {
            return "FailsLate";
          }

          @Override
          public FilterResult filter(PodInfo pod, NodeInfo node) {
            return node.name().equals("n990") ? FilterResult.error("cannot tell") : FilterResult.fit();
          }
        };
    var sequential = policy(failingLate);
    var parallel = policy(failingLate).withParallelism(4, POOL, 0, 10);

    assertEquals(sequential.find(POD, nodes), parallel.find(POD, nodes));
  }

  @Test
  void a_filter_that_fails_before_the_cut_off_gives_the_same_exception_as_with_one_thread() {
    var nodes = PolicyTest.nodes(300);
    Filter failing =
        new Filter() {
          @Override
          public String name() {
            return "Fails";
          }

          @Override
          public FilterResult filter(PodInfo pod, NodeInfo node) {
            return node.name().equals("n40") || node.name().equals("n41")
                ? FilterResult.error("cannot tell")
                : FilterResult.fit();
          }
        };
    var sequential = assertThrows(SchedulerException.class, () -> policy(failing).find(POD, nodes));
    var parallel =
        assertThrows(
            SchedulerException.class, () -> policy(failing).withParallelism(4, POOL, 0, 3).find(POD, nodes));

    assertEquals(sequential.getMessage(), parallel.getMessage());
    assertTrue(parallel.getMessage().contains("on node n40"), parallel.getMessage());
  }

  @Test
  void a_scorer_that_throws_is_thrown_to_the_caller() {
    var nodes = PolicyTest.nodes(700);
    Scorer throwing =
        new Scorer() {
          @Override
          public String name() {
            return "Throwing";
          }

          @Override
          public long score(PodInfo pod, NodeInfo node) {
            if (node.name().equals("n77") || node.name().equals("n300")) {
              throw new IllegalArgumentException("cannot score " + node.name());
            }
            return 1;
          }
        };
    var parallel =
        Policy.builder()
            .filter(new Counting(name -> false))
            .scorer(throwing, 1)
            .percentageOfNodesToScore(100)
            .build()
            .withParallelism(4, POOL, 0, 16);

    var thrown =
        assertTimeoutPreemptively(
            NO_HANG, () -> assertThrows(IllegalArgumentException.class, () -> parallel.find(POD, nodes)));

    assertEquals("cannot score n77", thrown.getMessage(), "the first node's, as with one thread");
  }

  @Test
  void filters_run_on_the_pools_threads() {
    var nodes = PolicyTest.nodes(2000);
    var helped = new CountDownLatch(1);
    var caller = Thread.currentThread().getName();
    Filter waiting =
        new Filter() {
          @Override
          public String name() {
            return "WaitsForHelp";
          }

          @Override
          public FilterResult filter(PodInfo pod, NodeInfo node) {
            var thread = Thread.currentThread().getName();
            if (!thread.equals(caller)) {
              helped.countDown();
            } else if (node.name().equals("n0")) {
              try { // if the caller claimed the first chunk, it waits here until a helper has filtered a node
                helped.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return FilterResult.fit();
          }
        };
    var parallel = policy(waiting).withParallelism(3, POOL, 0, 16);

    parallel.find(POD, nodes);

    assertEquals(0, helped.getCount(), "no helper filtered a node");
  }

  @Test
  void an_executor_that_never_runs_or_rejects_its_tasks_leaves_the_work_to_the_caller() {
    var nodes = PolicyTest.nodes(1000);
    var expected = policy(new Counting(name -> name.endsWith("7"))).find(POD, nodes);
    var stopped = Executors.newSingleThreadExecutor();
    stopped.shutdown();

    var neverRuns = policy(new Counting(name -> name.endsWith("7"))).withParallelism(4, task -> {}, 0, 10);
    var rejects = policy(new Counting(name -> name.endsWith("7"))).withParallelism(4, stopped, 0, 10);

    assertEquals(expected, assertTimeoutPreemptively(NO_HANG, () -> neverRuns.find(POD, nodes)));
    assertEquals(expected, assertTimeoutPreemptively(NO_HANG, () -> rejects.find(POD, nodes)));
  }

  @Test
  void below_the_threshold_a_decision_stays_on_the_calling_thread() {
    var handedOut = new AtomicInteger();
    var filter = new Counting(name -> false);
    var parallel =
        policy(filter)
            .withParallelism(
                4,
                task -> {
                  handedOut.incrementAndGet();
                  task.run();
                });

    parallel.find(POD, PolicyTest.nodes(Policy.DEFAULT_MIN_PARALLEL_NODES - 1));
    assertEquals(0, handedOut.get());
    assertEquals(Set.of(Thread.currentThread().getName()), filter.threads);

    parallel.find(POD, PolicyTest.nodes(Policy.DEFAULT_MIN_PARALLEL_NODES));
    assertTrue(handedOut.get() > 0, "no task handed out at the threshold");
  }

  @Test
  void explain_stays_on_the_calling_thread_and_agrees_with_find() {
    var nodes = PolicyTest.nodes(1000);
    var filter = new Counting(name -> name.endsWith("1"));
    var parallel = policy(filter).withParallelism(4, POOL, 0, 10);

    var explained = parallel.explain(POD, nodes);

    assertEquals(Set.of(Thread.currentThread().getName()), filter.threads);
    assertEquals(explained.decision(), parallel.find(POD, nodes));
  }

  @Test
  void parallelism_1_is_the_sequential_policy_and_below_1_is_refused_naming_the_value() {
    var sequential = policy(new Counting(name -> false));

    assertSame(sequential, sequential.withParallelism(1, POOL));
    assertEquals(1, sequential.parallelism());
    var parallel = sequential.withParallelism(6, POOL);
    assertEquals(6, parallel.parallelism());
    assertEquals(6, parallel.withoutPreemption().parallelism());
    assertEquals(1, parallel.withParallelism(1, POOL).parallelism());
    assertTrue(parallel.toString().endsWith(", parallelism=6]"), parallel.toString());
    assertNotEquals(sequential.toString(), parallel.toString());
    var error = assertThrows(IllegalArgumentException.class, () -> sequential.withParallelism(0, POOL));
    assertEquals("parallelism must be at least 1, was 0", error.getMessage());
    error = assertThrows(IllegalArgumentException.class, () -> sequential.withParallelism(4, POOL, -1, 16));
    assertEquals("minNodes must not be negative, was -1", error.getMessage());
    error = assertThrows(IllegalArgumentException.class, () -> sequential.withParallelism(4, POOL, 500, 0));
    assertEquals("chunkSize must be at least 1, was 0", error.getMessage());
  }

  @Test
  void a_parallel_policy_shares_the_round_robin_with_the_policy_it_came_from() {
    var nodes = PolicyTest.nodes(1000);
    var sequential = Policy.builder().filter(new Counting(name -> false)).seed(3).build();
    var parallel = sequential.withParallelism(4, POOL, 0, 10);

    // Without scorers the first feasible node is taken, and the next decision starts one node further.
    var first = (Decision.Bind) sequential.find(POD, nodes);
    var second = (Decision.Bind) parallel.find(POD, nodes);
    var third = (Decision.Bind) sequential.find(POD, nodes);

    assertEquals(List.of("n0", "n1", "n2"), List.of(first.nodeName(), second.nodeName(), third.nodeName()));
  }
}
