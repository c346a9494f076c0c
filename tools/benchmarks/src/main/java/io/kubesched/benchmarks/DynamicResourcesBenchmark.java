package io.kubesched.benchmarks;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.AllocationMode;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.NodeSelection;
import io.kubesched.api.Quantity;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourcePool;
import io.kubesched.api.ResourceSlice;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * Decisions per second of {@link DefaultPolicy} for a pod with one ResourceClaim (one GPU of a class, with a CEL
 * selector on an attribute and a capacity) over {@code nodes} nodes, each publishing a slice of {@value #GPUS}
 * GPUs (four a100 of 40Gi, four h100 of 80Gi), three of the h100 allocated to another claim: the DynamicResources plugin's PreFilter, then its Filter (the
 * structured allocator) on the nodes the search visits, then its Score. As {@link PolicyBenchmark}, the snapshot is
 * built once per trial and never changes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class DynamicResourcesBenchmark {

  /** Snapshots {@link ClusterState#changingSnapshots} cycles through. */
  static final int VARIANTS = 64;

  /** GPUs per node. */
  static final int GPUS = 8;

  static final String DRIVER = "gpu.example.com";

  /** The cluster, the claim and the policy, built once per trial; nothing changes them after {@link #setUp}. */
  @State(Scope.Benchmark)
  public static class ClusterState {

    /** How many nodes the snapshot has. */
    @Param({"5000"})
    public int nodes;

    /** The snapshot the policy decides over. */
    public ClusterSnapshot snapshot = ClusterSnapshot.of(List.of());

    /** The pending pod with a claim for one GPU. */
    public PodInfo pod = PodInfo.builder("unset", "unset").build();

    /** The default policy with a fixed seed. */
    public Policy policy = DefaultPolicy.builder().seed(PolicyBenchmark.SEED).build();

    /**
     * {@value #VARIANTS} snapshots, the k-th with node k's allocated claim replaced by an equal new object: the
     * next one differs from it by two claims, as consecutive snapshots of the loop differ by the claim just reserved
     * and one the watch updated.
     */
    public List<ClusterSnapshot> changingSnapshots = List.of();

    private int next;

    /** @return the next of {@link #changingSnapshots}, round robin */
    ClusterSnapshot nextChangingSnapshot() {
      next = (next + 1) % changingSnapshots.size();
      return changingSnapshots.get(next);
    }

    /** Builds the nodes, their slices, half their GPUs allocated, the class and the pod's claim. */
    @Setup(Level.Trial)
    public void setUp() {
      var cluster = SyntheticCluster.generate(nodes);
      var slices = new ArrayList<ResourceSlice>(nodes);
      var claims = new ArrayList<ResourceClaim>();
      for (var node : cluster.nodes()) {
        var devices = new ArrayList<Device>(GPUS);
        for (int i = 0; i < GPUS; i++) {
          devices.add(Device.of("gpu-" + i,
              Map.of("model", new DeviceAttribute.StringValue(i % 2 == 0 ? "a100" : "h100")),
              Map.of("memory", new DeviceCapacity(Quantity.parse(i % 2 == 0 ? "40Gi" : "80Gi")))));
        }
        var name = node.name();
        var used = new ArrayList<DeviceAllocation>();
        for (int i = 1; i < GPUS - 1; i += 2) {
          used.add(new DeviceAllocation("gpu", DRIVER, name, "gpu-" + i, false, List.of(), List.of(), List.of(), null,
              Map.of()));
        }
        claims.add(new ResourceClaim("default", name + "-used", "uid-" + name + "-used", "1", null, Map.of(),
            List.of(), List.of(), List.of(), new AllocationResult(used, List.of(), null, null), List.of(), false));
        slices.add(new ResourceSlice(name + "-gpus", DRIVER, new ResourcePool(name, 1, 1), NodeSelection.node(name),
            false, devices, List.of()));
      }
      var gpu = new DeviceClass("gpu", List.of("device.driver == \"" + DRIVER + "\""), List.of(), null);
      var namespace = cluster.fittingPod().namespace();
      claims.add(new ResourceClaim(namespace, "train-gpu", "uid-train-gpu", "1", null, Map.of(),
          List.of(DeviceRequest.exactly("gpu", new DeviceRequirements("gpu",
              List.of("device.attributes[\"" + DRIVER + "\"].model == \"h100\" && device.capacity[\"" + DRIVER
                  + "\"].memory.compareTo(quantity(\"64Gi\")) >= 0"),
              AllocationMode.EXACT_COUNT, 1, false, List.of(), Map.of()))),
          List.of(), List.of(), null, List.of(), false));
      var sliceList = List.copyOf(slices);
      var classes = List.of(gpu);
      snapshot = ClusterSnapshot.of(cluster.nodes()).withDynamicResources(
          DynamicResources.of(sliceList, classes, claims, List.of()));
      pod = cluster.fittingPod().toBuilder()
          .resourceClaims(List.of(PodResourceClaim.ofClaim("gpu", "train-gpu"))).build();
      policy.find(pod, snapshot); // the nodes' index, which the loop's snapshots carry over from one to the next
      var variants = new ArrayList<ClusterSnapshot>(VARIANTS);
      for (int k = 0; k < Math.min(VARIANTS, nodes); k++) {
        var changed = new ArrayList<>(claims);
        var used = changed.get(k);
        changed.set(k, used.withReservedFor(List.copyOf(used.reservedFor())));
        variants.add(snapshot.withDynamicResources(DynamicResources.of(sliceList, classes, changed, List.of())));
      }
      changingSnapshots = List.copyOf(variants);
    }
  }

  /**
   * @return the decision for the pod with a claim: a {@link Decision.Bind} carrying the claim's allocation
   * @throws IllegalStateException if no allocation was made: the benchmark would measure the wrong path
   */
  @Benchmark
  public Decision podWithAClaim(ClusterState state) {
    return allocated(state.policy.find(state.pod, state.snapshot));
  }

  /**
   * As {@link #podWithAClaim}, each decision over a snapshot whose claims differ from the previous decision's by
   * two claims (new objects), as in the scheduling loop, where every decision follows a reservation: what the
   * allocator prepares per attempt is derived from the previous attempt's rather than reused whole.
   *
   * @return the decision, a {@link Decision.Bind} carrying the claim's allocation
   */
  @Benchmark
  public Decision podWithAClaimClaimsChanging(ClusterState state) {
    return allocated(state.policy.find(state.pod, state.nextChangingSnapshot()));
  }

  private static Decision allocated(Decision decision) {
    if (decision instanceof Decision.Bind bind && bind.claimAllocations().size() == 1) {
      return decision;
    }
    throw new IllegalStateException("the pod with a claim was not allocated: " + decision);
  }
}
