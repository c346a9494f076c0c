package io.kubesched.benchmarks;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decisions per second of {@link DefaultPolicy} sharing its node loop out to {@code parallelism} threads
 * ({@link Policy#withParallelism(int, java.util.concurrent.Executor, int, int)}), over the same snapshots as
 * {@link PolicyBenchmark} ({@link SyntheticCluster}), with the same two pods: one that fits most nodes (the
 * search stops at the adaptive number of feasible nodes, then those are scored) and one that fits none (every
 * node filtered, every node's reasons, kube's message).
 *
 * <p>{@code parallelism} 1 is the sequential policy, the baseline. The helper threads are a fixed pool of {@code
 * parallelism - 1} made per trial, as the controller makes its {@code kubesched-filter} pool; the benchmark's
 * own thread is the scheduling thread. To measure on 1, 2, 4 or 8 cores, run the jar under {@code taskset -c
 * 0-(N-1)} (the forked JVMs inherit the CPU set): see the engine's notes (docs/performance.md#measurement-notes).
 * {@code minNodes} and {@code chunkSize}
 * default to the policy's own; {@code -p minNodes=0} runs the parallel path below the threshold too, which is how
 * the threshold is measured (at 100 and 500 nodes).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ParallelPolicyBenchmark {

  /**
   * The cluster, the pool and the policy, built once per trial. Fields are public and mutable because JMH
   * injects the parameters and the benchmarks read the rest; nothing changes them after {@link #setUp}.
   */
  @State(Scope.Benchmark)
  public static class ParallelState {

    /** How many nodes the snapshot has. */
    @Param({"100", "500", "5000", "15000"})
    public int nodes;

    /** How many threads work on one decision, the benchmark's included; 1 for the sequential policy. */
    @Param({"1", "2", "4", "8"})
    public int parallelism;

    /** Below this many nodes a decision stays on one thread; -1 for {@link Policy#DEFAULT_MIN_PARALLEL_NODES}. */
    @Param({"-1"})
    public int minNodes;

    /** Nodes a thread takes at a time; -1 for {@link Policy#DEFAULT_PARALLEL_CHUNK_SIZE}. */
    @Param({"-1"})
    public int chunkSize;

    /** The snapshot the policy decides over. */
    public List<NodeInfo> snapshot = List.of();

    /** A pending pod that fits most nodes. */
    public PodInfo fittingPod = PodInfo.builder("unset", "unset").build();

    /** A pending pod that fits no node. */
    public PodInfo unfitPod = PodInfo.builder("unset", "unset").build();

    /** The default policy with a fixed seed, sharing its node loop out when {@link #parallelism} is above 1. */
    public Policy policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();

    private @Nullable ExecutorService pool;

    /**
     * Builds the snapshot, the pool and a fresh policy, so each trial starts at round-robin index 0.
     *
     * @throws IllegalArgumentException if {@link #nodes} or {@link #parallelism} is less than 1
     */
    @Setup(Level.Trial)
    public void setUp() {
      if (parallelism < 1) {
        throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
      }
      var cluster = SyntheticCluster.generate(nodes);
      snapshot = cluster.nodes();
      fittingPod = cluster.fittingPod();
      unfitPod = cluster.unfitPod();
      policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();
      if (parallelism > 1) {
        var count = new AtomicInteger();
        var executor =
            Executors.newFixedThreadPool(
                parallelism - 1,
                runnable -> {
                  var thread = new Thread(runnable, "kubesched-filter-bench-" + count.incrementAndGet());
                  thread.setDaemon(true);
                  return thread;
                });
        pool = executor;
        policy =
            policy.withParallelism(
                parallelism,
                executor,
                minNodes < 0 ? Policy.DEFAULT_MIN_PARALLEL_NODES : minNodes,
                chunkSize < 0 ? Policy.DEFAULT_PARALLEL_CHUNK_SIZE : chunkSize);
      }
    }

    /** Stops the pool. */
    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      var executor = pool;
      if (executor != null) {
        executor.shutdown();
        executor.awaitTermination(10, TimeUnit.SECONDS);
      }
    }
  }

  /** @return the decision for a pod that fits most nodes: a {@link Decision.Bind} */
  @Benchmark
  public Decision podThatFits(ParallelState state) {
    return state.policy.find(state.fittingPod, state.snapshot);
  }

  /**
   * @return kube-scheduler's message for a pod that fits no node, derived from the decision
   * @throws IllegalStateException if the pod was bound after all: the benchmark would measure the wrong path
   */
  @Benchmark
  public String podThatFitsNowhere(ParallelState state) {
    var decision = state.policy.find(state.unfitPod, state.snapshot);
    if (decision instanceof Decision.Unschedulable unschedulable) {
      return unschedulable.message(state.snapshot.size());
    }
    throw new IllegalStateException("the pod that fits nowhere was placed: " + decision);
  }
}
