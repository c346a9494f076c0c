package io.kubesched.benchmarks;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
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
 * Decisions per second of {@link DefaultPolicy} for pods that carry inter-pod constraints, over the
 * snapshots of kube-scheduler's {@code SchedulingPodAntiAffinity} and {@code TopologySpreading} performance
 * tests ({@link SchedulerPerfCluster}).
 *
 * <p>Each invocation is one call of {@link FinderFunc#find(PodInfo, ClusterSnapshot)}, what the controller's
 * worker calls per pod, so a filter's {@code PreFilter} and a scorer's {@code PreScore} run once per decision
 * over the whole snapshot, as they do in production. As in {@link PolicyBenchmark}, the snapshot never changes
 * and the round-robin start index moves on between calls.
 *
 * <ul>
 *   <li>{@link #podWithPodAntiAffinity}: pods with a required anti-affinity on the hostname are placed on
 *       every fifth node (1000 at 5000 nodes); the pending pod has the same
 *       anti-affinity and the label it selects, so a policy that honours it rejects those nodes both ways
 *       (the pending pod's term, and the placed pods' terms against it).
 *   <li>{@link #podWithTopologySpread}: one plain pod per node (5000 at 5000 nodes) is placed; the
 *       pending pod has a {@code DoNotSchedule} zone spread constraint with {@code maxSkew} 5 that no
 *       placed pod matches, so it fits every node, after counting the matching pods of the whole snapshot.
 * </ul>
 *
 * <p>Until the policy has InterPodAffinity and PodTopologySpread, the pods' constraints are carried and not
 * read, and these benchmarks measure the same path as {@link PolicyBenchmark#podThatFits} on barer nodes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PodConstraintsBenchmark {

  /**
   * One node in this many has a placed anti-affinity pod: scheduler_perf's {@code initPods} over {@code
   * initNodes} (1000 of 5000 nodes, 100 of 500).
   */
  public static final int NODES_PER_ANTI_AFFINITY_POD = 5;

  /**
   * What both benchmarks share: the node count and the policy. Fields are public and mutable because JMH
   * injects {@code nodes}; nothing changes them after setup.
   */
  @State(Scope.Benchmark)
  public abstract static class ConstrainedState {

    /** How many nodes the snapshot has. */
    @Param({"5000"})
    public int nodes;

    /** The snapshot the policy decides over. */
    public ClusterSnapshot snapshot = ClusterSnapshot.of(List.of());

    /** The pod to place. */
    public PodInfo pod = PodInfo.builder("unset", "unset").build();

    /** The default policy with a fixed seed, fresh each trial so the round-robin index starts at 0. */
    public Policy policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();

    /** @return the cluster for {@link #nodes} */
    abstract SchedulerPerfCluster cluster();

    /**
     * Builds the snapshot for {@link #nodes} and a fresh policy.
     *
     * @throws IllegalArgumentException if {@link #nodes} is out of the cluster's range
     */
    @Setup(Level.Trial)
    public void setUp() {
      var cluster = cluster();
      snapshot = cluster.snapshot();
      pod = cluster.pendingPod();
      policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();
    }
  }

  /** {@code SchedulingPodAntiAffinity}: one node in {@value #NODES_PER_ANTI_AFFINITY_POD} has a placed pod. */
  @State(Scope.Benchmark)
  public static class AntiAffinityState extends ConstrainedState {
    @Override
    SchedulerPerfCluster cluster() {
      return SchedulerPerfCluster.withPodAntiAffinity(nodes, nodes / NODES_PER_ANTI_AFFINITY_POD);
    }
  }

  /** {@code TopologySpreading}: one plain pod per node (5000 at 5000 nodes, as scheduler_perf's). */
  @State(Scope.Benchmark)
  public static class SpreadingState extends ConstrainedState {
    @Override
    SchedulerPerfCluster cluster() {
      return SchedulerPerfCluster.withTopologySpreading(nodes, nodes);
    }
  }

  /** @return the decision for a pod with required pod anti-affinity on the hostname */
  @Benchmark
  public Decision podWithPodAntiAffinity(AntiAffinityState state) {
    return state.policy.find(state.pod, state.snapshot);
  }

  /** @return the decision for a pod with a zone spread constraint */
  @Benchmark
  public Decision podWithTopologySpread(SpreadingState state) {
    return state.policy.find(state.pod, state.snapshot);
  }
}
