package io.kubesched.benchmarks;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decisions per second of {@link DefaultPolicy} (kube-scheduler's default filters and scores) over a
 * snapshot of {@code nodes} nodes that already run {@value SyntheticCluster#PODS_PER_NODE} pods each.
 *
 * <p>Each invocation is one call of {@link Policy#find}, exactly what the controller's worker calls per pod:
 * the round-robin start index moves on between calls as in production, so successive decisions examine
 * different windows of the snapshot. The snapshot is built once per trial and never changes (no pod is
 * assumed onto a node), so the figures exclude keeping the snapshot up to date.
 *
 * <ul>
 *   <li>{@link #podThatFits}: filters run until kube-scheduler's adaptive number of feasible nodes is found
 *       (all of 100 nodes, 420 of 1000, 500 of 5000), then five scorers score them and one is chosen.
 *   <li>{@link #podThatFitsNowhere}: every filter runs over every node and the "0/N nodes are available"
 *       message is built, as the controller does for the {@code FailedScheduling} event.
 * </ul>
 *
 * <p>Allocation per decision comes from JMH's GC profiler ({@code -prof gc}, {@code gc.alloc.rate.norm}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PolicyBenchmark {

  /** The seed that breaks ties between equal scores, so runs choose the same nodes. */
  static final long SEED = 42;

  /**
   * The cluster and the policy, built once per trial. Fields are public and mutable because JMH injects
   * {@code nodes} and the benchmarks read the rest; nothing changes them after {@link #setUp}.
   */
  @State(Scope.Benchmark)
  public static class ClusterState {

    /** The {@link #withoutScorer} value that keeps every scorer. */
    public static final String NONE = "none";

    /** How many nodes the snapshot has. */
    @Param({"100", "1000", "5000"})
    public int nodes;

    /**
     * A scorer to leave out of the default policy, to measure what it costs ({@code -p
     * withoutScorer=ImageLocality}); {@value #NONE} for the default policy itself.
     */
    @Param({NONE})
    public String withoutScorer = NONE;

    /** The snapshot the policy decides over. */
    public List<NodeInfo> snapshot = List.of();

    /** A pending pod that fits most nodes. */
    public PodInfo fittingPod = PodInfo.builder("unset", "unset").build();

    /** A pending pod that fits no node. */
    public PodInfo unfitPod = PodInfo.builder("unset", "unset").build();

    /** The default policy with a fixed seed. */
    public Policy policy = DefaultPolicy.builder().seed(SEED).build();

    /**
     * Builds the snapshot for {@link #nodes} and a fresh policy, so each trial starts at round-robin index 0.
     *
     * @throws IllegalArgumentException if {@link #nodes} is less than 1, or {@link #withoutScorer} is neither
     *     {@value #NONE} nor the name of one of the default policy's scorers
     */
    @Setup(Level.Trial)
    public void setUp() {
      var cluster = SyntheticCluster.generate(nodes);
      snapshot = cluster.nodes();
      fittingPod = cluster.fittingPod();
      unfitPod = cluster.unfitPod();
      var builder = DefaultPolicy.builder().seed(SEED);
      if (!withoutScorer.equals(NONE)) {
        var names = builder.build().scorers().stream().map(ws -> ws.scorer().name()).toList();
        if (!names.contains(withoutScorer)) {
          throw new IllegalArgumentException(
              "withoutScorer must be " + NONE + " or one of " + names + ", was '" + withoutScorer + "'");
        }
        builder.removeScorer(withoutScorer);
      }
      policy = builder.build();
    }
  }

  /** @return the decision for a pod that fits most nodes: a {@link Decision.Bind} */
  @Benchmark
  public Decision podThatFits(ClusterState state) {
    return state.policy.find(state.fittingPod, state.snapshot);
  }

  /**
   * @return kube-scheduler's message for a pod that fits no node, derived from the decision
   * @throws IllegalStateException if the pod was bound after all: the benchmark would measure the wrong path
   */
  @Benchmark
  public String podThatFitsNowhere(ClusterState state) {
    var decision = state.policy.find(state.unfitPod, state.snapshot);
    if (decision instanceof Decision.Unschedulable unschedulable) {
      return unschedulable.message(state.snapshot.size());
    }
    throw new IllegalStateException("the pod that fits nowhere was placed: " + decision);
  }
}
