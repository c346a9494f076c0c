package io.kubesched.policy.plugins.volumebinding;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.helper.ScoringShape;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's {@code VolumeBinding} score (PreScore and Score of {@code volume_binding.go} with {@code
 * scorer.go}), with the StorageCapacityScoring feature on, as by default in 1.37: how full the node's storage
 * would be with the pod's volumes, through a utilization-to-score shape.
 *
 * <p>For each node the pod's volumes are planned as {@link VolumeBindingFilter} plans them. When the plan binds
 * static volumes, their claims' requests and the volumes' capacities are summed per storage class of the
 * volume; otherwise each provisioned claim whose capacity was checked adds its request to its class, whose
 * capacity is that of the CSIStorageCapacity found for it. Each class scores {@code shape(requested × 100 /
 * capacity)} (the shape at 100 when the capacity is 0 or smaller than the request), and the node scores the
 * rounded mean over its classes; a node with no class (nothing to bind, nothing checked) scores 0.
 *
 * <p>The default shape, kube's VolumeBindingArgs defaulting with the gate on, is {@code (0, 10), (100, 0)}: the
 * least utilized storage wins. Shape scores 0..10 are scaled by 10. Immutable and thread-safe; the prepared
 * scorers too.
 */
public final class VolumeBindingScorer implements Scorer, PreScorer {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = VolumeBindingFilter.NAME;

  /** kube's default shape with StorageCapacityScoring on: utilization 0 scores 10, utilization 100 scores 0. */
  public static final List<ShapePoint> DEFAULT_SHAPE = List.of(
      new ShapePoint(0, ShapePoint.MAX_SHAPE_SCORE),
      new ShapePoint(ShapePoint.MAX_UTILIZATION, 0));

  private static final long MAX_UTILIZATION = ShapePoint.MAX_UTILIZATION;

  private static final Set<ClusterData> READS = new VolumeBindingFilter().reads();

  private final ScoringShape shape;

  /** Creates the scorer with kube's {@link #DEFAULT_SHAPE}. */
  public VolumeBindingScorer() {
    this(DEFAULT_SHAPE);
  }

  /**
   * @param shape the scoring function's points (kube's {@code VolumeBindingArgs.shape}), in strictly
   *     increasing utilization
   * @throws IllegalArgumentException if {@code shape} is empty or not strictly increasing in utilization
   */
  public VolumeBindingScorer(List<ShapePoint> shape) {
    this.shape = new ScoringShape(NAME, shape);
  }

  /** @return the scoring function's points, as given (scores 0..10) */
  public List<ShapePoint> shape() {
    return shape.points();
  }

  @Override
  public String name() {
    return NAME;
  }

  /** @return claims, volumes, storage classes, CSI drivers and CSI storage capacities */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Not supported: the score needs the pod's claims from the snapshot, so this scorer is used through {@link
   * #prepare}.
   *
   * @throws IllegalStateException always
   */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    throw new IllegalStateException(NAME + " scores only through prepare(pod, feasibleNodes, cluster)");
  }

  /** @return the scorer of {@code pod}'s feasible nodes, planning each node's volumes as the filter does */
  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    var planner = VolumePlanner.of(pod, cluster.storage());
    return new Prepared(planner);
  }

  @Override
  public String toString() {
    return NAME + "{shape=" + shape + "}";
  }

  /**
   * Kube's {@code StorageResource}: bytes requested of and offered by one storage class on a node.
   *
   * @param requested the bytes the pod's claims of the class request
   * @param capacity the bytes the class offers them on the node
   */
  record StorageResource(long requested, long capacity) {}

  /**
   * Kube's class resources of a node's plan: with static bindings, per class of the chosen volumes the claims'
   * requests and the volumes' capacities summed; without, per class of the provisioned claims whose capacity
   * was checked the requests summed and the class's capacity on the node (not a sum: two claims of one class
   * share it).
   */
  static Map<String, StorageResource> classResources(VolumePlanner.Plan plan) {
    var classes = new LinkedHashMap<String, StorageResource>();
    if (!plan.staticBindings().isEmpty()) {
      for (var binding : plan.staticBindings()) {
        classes.merge(
            binding.volume().storageClassName(),
            new StorageResource(binding.claim().requestedBytes(), binding.volume().capacityBytes()),
            (a, b) -> new StorageResource(a.requested() + b.requested(), a.capacity() + b.capacity()));
      }
    } else {
      for (var provision : plan.provisions()) {
        var capacity = provision.nodeCapacity();
        if (capacity == null) {
          continue;
        }
        // An absent capacity (only a maximum volume size given) reads as 0, which scores as full.
        long offered = Math.max(0, capacity.capacityBytes());
        classes.merge(
            provision.claim().storageClassName(),
            new StorageResource(provision.claim().requestedBytes(), offered),
            (a, b) -> new StorageResource(a.requested() + b.requested(), b.capacity()));
      }
    }
    return classes;
  }

  /**
   * kube's {@code buildScorerFunction}: each class scores the shape at {@code requested × 100 / capacity} (at
   * 100 when the capacity is 0 or below the request); the node scores their rounded mean, 0 without a class.
   */
  long score(Collection<StorageResource> classes) {
    if (classes.isEmpty()) {
      return 0;
    }
    long total = 0;
    for (var resource : classes) {
      long utilization = resource.capacity() == 0 || resource.requested() > resource.capacity()
          ? MAX_UTILIZATION
          : resource.requested() * MAX_UTILIZATION / resource.capacity();
      total += shape.score(utilization);
    }
    return Math.round((double) total / classes.size());
  }

  /** The scorer prepared for one pod. Immutable and thread-safe. */
  private final class Prepared implements Scorer {
    private final VolumePlanner planner;

    Prepared(VolumePlanner planner) {
      this.planner = planner;
    }

    @Override
    public String name() {
      return NAME;
    }

    /** @return the node's score; 0 when the pod has no claim or the node's volumes cannot be planned */
    @Override
    public long score(PodInfo pod, NodeInfo node) {
      if (!planner.hasClaims()) {
        return 0;
      }
      var plan = planner.plan(node);
      return plan.fits() ? VolumeBindingScorer.this.score(classResources(plan).values()) : 0;
    }
  }
}
