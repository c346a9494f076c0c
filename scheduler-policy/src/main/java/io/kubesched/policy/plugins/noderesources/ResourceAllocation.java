package io.kubesched.policy.plugins.noderesources;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.helper.ScoringShape;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;

/**
 * The arithmetic kube-scheduler's resource-allocation scores share ({@code noderesources/resource_allocation.go}
 * and the strategies beside it): which amounts of a pod and a node they read, which resources they skip, and
 * the formulas of LeastAllocated, MostAllocated, RequestedToCapacityRatio and BalancedAllocation, in kube's
 * integer (and, for BalancedAllocation, floating-point) arithmetic.
 *
 * <p>One deviation, on purpose: where kube multiplies an int64 quantity by 100 and would overflow (quantities
 * above about 9.2e16, e.g. memory above 92 PB), the exact value is computed instead.
 *
 * <p>Immutable and thread-safe.
 */
final class ResourceAllocation {

  private static final BigInteger HUNDRED = BigInteger.valueOf(Scorer.MAX_SCORE);

  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int EPHEMERAL_STORAGE = 2;
  private static final int EXTENDED = 3;

  private final List<ScoredResource> resources;
  /** Per resource, in order: {@link #CPU}, {@link #MEMORY}, {@link #EPHEMERAL_STORAGE} or {@link #EXTENDED}. */
  private final int[] kinds;
  private final boolean plainRequests;

  private ResourceAllocation(String scorer, List<ScoredResource> resources, boolean plainRequests) {
    if (resources.isEmpty()) {
      throw new IllegalArgumentException(scorer + " needs at least one resource to score");
    }
    this.resources = List.copyOf(resources);
    this.kinds = new int[resources.size()];
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] =
          switch (this.resources.get(i).name()) {
            case ScoredResource.CPU -> CPU;
            case ScoredResource.MEMORY -> MEMORY;
            case ScoredResource.EPHEMERAL_STORAGE -> EPHEMERAL_STORAGE;
            default -> EXTENDED;
          };
    }
    this.plainRequests = plainRequests;
  }

  /**
   * The amounts NodeResourcesFit's strategies read: CPU and memory as the scores' non-zero requests ({@link
   * PodInfo#nonZeroRequests()}, {@link NodeInfo#nonZeroRequested()}), everything else as requested.
   *
   * @throws IllegalArgumentException if {@code resources} is empty
   */
  static ResourceAllocation nonZero(String scorer, List<ScoredResource> resources) {
    return new ResourceAllocation(scorer, resources, false);
  }

  /**
   * The amounts BalancedAllocation reads: what pods actually request, without the non-zero defaults.
   *
   * @throws IllegalArgumentException if {@code resources} is empty
   */
  static ResourceAllocation plain(String scorer, List<ScoredResource> resources) {
    return new ResourceAllocation(scorer, resources, true);
  }

  List<ScoredResource> resources() {
    return resources;
  }

  /** @return what {@code pod} requests of each resource, in the order of {@link #resources()} */
  long[] podRequests(PodInfo pod) {
    var cpuAndMemory = plainRequests ? pod.requests() : pod.nonZeroRequests();
    var requests = pod.requests();
    var amounts = new long[resources.size()];
    for (int i = 0; i < amounts.length; i++) {
      amounts[i] =
          switch (resources.get(i).name()) {
            case ScoredResource.CPU -> cpuAndMemory.milliCpu();
            case ScoredResource.MEMORY -> cpuAndMemory.memory();
            case ScoredResource.EPHEMERAL_STORAGE -> requests.ephemeralStorage();
            default -> requests.extended(resources.get(i).name());
          };
    }
    return amounts;
  }

  /** @return whether {@code podRequests} is zero for every resource (kube's best-effort pod) */
  static boolean requestsNothing(long[] podRequests) {
    for (long amount : podRequests) {
      if (amount != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's {@code calculateNodeAllocatableRequest} for resource {@code i}: what the node offers of it, or 0
   * when every formula is to skip it (the node has none of it, or it is an extended resource the pod does not
   * request).
   */
  private long allocatable(int i, long[] podRequests, NodeInfo node) {
    Resources allocatable = node.allocatable();
    return switch (kinds[i]) {
      case CPU -> allocatable.milliCpu();
      case MEMORY -> allocatable.memory();
      case EPHEMERAL_STORAGE -> allocatable.ephemeralStorage();
      // An extended resource the pod does not ask for must not make a node that offers it look emptier.
      default -> podRequests[i] == 0 ? 0 : allocatable.extended(resources.get(i).name());
    };
  }

  /** What the node's pods take of resource {@code i} (kube's {@code allocated}). */
  private long allocated(int i, NodeInfo node) {
    return switch (kinds[i]) {
      case CPU -> (plainRequests ? node.requested() : node.nonZeroRequested()).milliCpu();
      case MEMORY -> (plainRequests ? node.requested() : node.nonZeroRequested()).memory();
      case EPHEMERAL_STORAGE -> node.requested().ephemeralStorage();
      default -> node.requested().extended(resources.get(i).name());
    };
  }

  /** What the node's pods and the pod take together of resource {@code i} (kube's {@code requested}). */
  private long requested(int i, long[] podRequests, NodeInfo node) {
    return saturatedAdd(allocated(i, node), podRequests[i]);
  }

  /**
   * kube's {@code PreScore} of these plugins: a scorer of {@code pod} alone, with its requests computed once.
   *
   * @param scorer the name of the scorer prepared
   * @param formula scores a node from the pod's requests
   */
  Scorer prepare(String scorer, PodInfo pod, Formula formula) {
    return new Prepared(scorer, podRequests(pod), formula);
  }

  /**
   * kube's {@code leastResourceScorer}: the weighted average of the unused share of each resource.
   *
   * @param podRequests the pod's {@link #podRequests}
   */
  long leastAllocated(long[] podRequests, NodeInfo node) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < kinds.length; i++) {
      long capacity = allocatable(i, podRequests, node);
      if (capacity == 0) {
        continue;
      }
      long requested = requested(i, podRequests, node);
      long score = requested > capacity ? 0 : percent(capacity - requested, capacity);
      int weight = resources.get(i).weight();
      nodeScore += score * weight;
      weightSum += weight;
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  /**
   * kube's {@code mostResourceScorer}: the weighted average of the used share of each resource, capped.
   *
   * @param podRequests the pod's {@link #podRequests}
   */
  long mostAllocated(long[] podRequests, NodeInfo node) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < kinds.length; i++) {
      long capacity = allocatable(i, podRequests, node);
      if (capacity == 0) {
        continue;
      }
      // Requests can exceed capacity because pods without requests count the non-zero defaults.
      long requested = Math.min(requested(i, podRequests, node), capacity);
      int weight = resources.get(i).weight();
      nodeScore += percent(requested, capacity) * weight;
      weightSum += weight;
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  /**
   * kube's {@code buildRequestedToCapacityRatioScorerFunction}: each resource's utilization (0..100, whole
   * percent, over 100 counted as 100) mapped through {@code shape}; resources whose mapped score is 0 do not
   * count, not even their weight; the weighted average is rounded half away from zero.
   *
   * @param podRequests the pod's {@link #podRequests}
   */
  long requestedToCapacityRatio(long[] podRequests, NodeInfo node, ScoringShape shape) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < kinds.length; i++) {
      long capacity = allocatable(i, podRequests, node);
      if (capacity == 0) {
        continue;
      }
      long requested = requested(i, podRequests, node);
      long score = shape.score(requested > capacity ? Scorer.MAX_SCORE : percent(requested, capacity));
      if (score > 0) {
        int weight = resources.get(i).weight();
        nodeScore += score * weight;
        weightSum += weight;
      }
    }
    // Go's math.Round; the quotient is never negative, where Java's Math.round agrees with it.
    return weightSum == 0 ? 0 : Math.round((double) nodeScore / (double) weightSum);
  }

  /**
   * kube's {@code balancedResourceScorer} (1.37): how much placing the pod improves the node's balance. Each
   * side is a {@link #balance}, in 50..100; the result is {@code 50 + (50 + withPod - withoutPod) / 2}, so 75
   * when the balance does not change, towards 100 when it improves, towards 50 when it worsens.
   *
   * @param podRequests the pod's {@link #podRequests}
   */
  long balancedAllocation(long[] podRequests, NodeInfo node) {
    long half = Scorer.MAX_SCORE / 2;
    long withPod = balance(podRequests, node, true);
    long withoutPod = balance(podRequests, node, false);
    return half + (half + withPod - withoutPod) / 2;
  }

  /**
   * {@link #balance(long[], long[])} of the node's amounts with the pod ({@code withPod}) or without it,
   * computed in place: no array per node, the same operations in the same order, so the same result bit for
   * bit. With more than two resources the fractions are computed twice, once for their mean and once for
   * the deviation from it.
   */
  private long balance(long[] podRequests, NodeInfo node, boolean withPod) {
    int count = 0;
    double total = 0;
    double first = 0;
    double second = 0;
    for (int i = 0; i < kinds.length; i++) {
      double fraction = fraction(i, podRequests, node, withPod);
      if (Double.isNaN(fraction)) {
        continue;
      }
      total += fraction;
      if (count == 0) {
        first = fraction;
      } else if (count == 1) {
        second = fraction;
      }
      count++;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((first - second) / 2);
    } else if (count > 2) {
      double mean = total / count;
      double sum = 0;
      for (int i = 0; i < kinds.length; i++) {
        double fraction = fraction(i, podRequests, node, withPod);
        if (!Double.isNaN(fraction)) {
          sum = sum + (fraction - mean) * (fraction - mean);
        }
      }
      std = Math.sqrt(sum / count);
    }
    return (long) ((1 - std) * Scorer.MAX_SCORE);
  }

  /** @return resource {@code i}'s share of the node taken, capped at 1; NaN when the resource is skipped */
  private double fraction(int i, long[] podRequests, NodeInfo node, boolean withPod) {
    long capacity = allocatable(i, podRequests, node);
    if (capacity == 0) {
      return Double.NaN;
    }
    long amount = withPod ? requested(i, podRequests, node) : allocated(i, node);
    return fraction(amount, capacity);
  }

  private static double fraction(long amount, long allocatable) {
    return Math.min((double) amount / (double) allocatable, 1);
  }

  /**
   * kube's {@code balancedResourceScore}: {@code (1 - std) * 100} truncated, where {@code std} is the
   * population standard deviation of the fractions {@code amount / allocatable} of the resources the node
   * offers (those with {@code allocatable} not 0), each capped at 1; with two fractions it is {@code |f0 -
   * f1| / 2}. The double arithmetic follows kube's operation order, so results agree bit for bit. The
   * scorers compute it in place ({@link #balancedAllocation}); this form states the formula over arrays.
   */
  static long balance(long[] amounts, long[] allocatable) {
    var fractions = new double[amounts.length];
    int count = 0;
    double total = 0;
    for (int i = 0; i < amounts.length; i++) {
      if (allocatable[i] == 0) {
        continue;
      }
      double fraction = fraction(amounts[i], allocatable[i]);
      total += fraction;
      fractions[count++] = fraction;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((fractions[0] - fractions[1]) / 2);
    } else if (count > 2) {
      double mean = total / count;
      double sum = 0;
      for (int i = 0; i < count; i++) {
        sum = sum + (fractions[i] - mean) * (fractions[i] - mean);
      }
      std = Math.sqrt(sum / count);
    }
    return (long) ((1 - std) * Scorer.MAX_SCORE);
  }

  /**
   * {@code part * 100 / whole} rounded down, exactly, for {@code 0 <= part <= whole}, {@code whole > 0}: kube's
   * int64 expression, without its overflow for huge quantities.
   */
  static long percent(long part, long whole) {
    if (part <= Long.MAX_VALUE / Scorer.MAX_SCORE) {
      return part * Scorer.MAX_SCORE / whole;
    }
    return BigInteger.valueOf(part).multiply(HUNDRED).divide(BigInteger.valueOf(whole)).longValueExact();
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** @throws IllegalArgumentException if a resource is named twice */
  static void requireDistinct(String scorer, List<ScoredResource> resources) {
    var seen = new HashSet<String>();
    for (var resource : resources) {
      if (!seen.add(resource.name())) {
        throw new IllegalArgumentException(scorer + " names resource " + resource.name() + " twice");
      }
    }
  }

  /** How a scorer turns the pod's {@link #podRequests} and a node into the node's score. */
  @FunctionalInterface
  interface Formula {
    long score(long[] podRequests, NodeInfo node);
  }

  /** A scorer of one pod: its requests are fixed, the {@code pod} passed to {@link #score} is not read. */
  private static final class Prepared implements Scorer {
    private final String name;
    private final long[] podRequests;
    private final Formula formula;

    Prepared(String name, long[] podRequests, Formula formula) {
      this.name = name;
      this.podRequests = podRequests;
      this.formula = formula;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return formula.score(podRequests, node);
    }
  }
}
