package io.kubesched.benchmarks;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.simulation.Simulation;
import io.kubesched.simulation.SimulationResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A what-if of {@value #PODS} pending pods on the {@link SyntheticCluster} of {@code nodes} nodes (issue 47: "10 000
 * pods on 5 000 nodes in seconds"): one invocation is one whole {@link Simulation} run, from the snapshot to the
 * result, with {@link DefaultPolicy}; each of the copies of {@link SyntheticCluster#fittingPod()} is one operation,
 * so the score is pods placed per second and a whole run takes {@value #PODS} divided by it. Every pod fits (the
 * cluster has room for far more), so each is one decision, one assumption and one move of the waiting pods.
 *
 * <p>What a run allocates per pod comes from JMH's GC profiler ({@code -prof gc}); the snapshot's nodes are shared
 * between decisions ({@link ClusterSnapshot#withNodes} over the cache's node list, as in the live loop), so it is
 * about what one decision allocates, not a copy of the cluster per pod.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SimulationBenchmark {

  /** How many pods each run places. */
  public static final int PODS = 10_000;

  /** The cluster and the pod to copy, built once per trial. */
  @State(Scope.Benchmark)
  public static class ClusterState {

    /** How many nodes the snapshot has. */
    @Param({"5000"})
    public int nodes;

    /** The cluster as the simulation starts from it. */
    public ClusterSnapshot cluster = ClusterSnapshot.of(List.of());

    /** The pod copied {@value #PODS} times. */
    public PodInfo template = PodInfo.builder("unset", "unset").build();

    /** The default policy with a fixed seed; the simulation copies it, so every run starts alike. */
    public Policy policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();

    @Setup(Level.Trial)
    public void setUp() {
      var synthetic = SyntheticCluster.generate(nodes);
      cluster = ClusterSnapshot.of(synthetic.nodes());
      template = synthetic.fittingPod().toBuilder().name("web").uid("web").build();
    }
  }

  /**
   * @return the result of one run of {@value #PODS} pods
   * @throws IllegalStateException if a pod was left pending: the benchmark would measure another path
   */
  @Benchmark
  @OperationsPerInvocation(PODS)
  public SimulationResult tenThousandPods(ClusterState state) {
    var result = Simulation.of(state.cluster, state.policy).addPods(state.template, PODS).run();
    if (!result.pending().isEmpty()) {
      throw new IllegalStateException(result.pending().size() + " pods were left pending: " + result.pending().get(0));
    }
    return result;
  }
}
