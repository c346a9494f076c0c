package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.Scorer;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.function.ToLongFunction;

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

  private final List<ScoredResource> resources;
  private final boolean plainRequests;

  private ResourceAllocation(String scorer, List<ScoredResource> resources, boolean plainRequests) {
    if (resources.isEmpty()) {
      throw new IllegalArgumentException(scorer + " needs at least one resource to score");
    }
    this.resources = List.copyOf(resources);
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
   * kube's {@code calculateNodeAllocatableRequest}: per resource, what the node has allocatable, what its pods
   * take ({@code allocated}) and that plus the pod's request ({@code requested}). A resource is left at zero
   * allocatable, so that every formula skips it, when the node has none of it, or when it is an extended
   * resource the pod does not request.
   */
  Usage usage(long[] podRequests, NodeInfo node) {
    int n = resources.size();
    var usage = new Usage(new long[n], new long[n], new long[n]);
    var nodeCpuAndMemory = plainRequests ? node.requested() : node.nonZeroRequested();
    var nodeRequested = node.requested();
    Resources allocatable = node.allocatable();
    for (int i = 0; i < n; i++) {
      String name = resources.get(i).name();
      long offered;
      long taken;
      switch (name) {
        case ScoredResource.CPU -> {
          offered = allocatable.milliCpu();
          taken = nodeCpuAndMemory.milliCpu();
        }
        case ScoredResource.MEMORY -> {
          offered = allocatable.memory();
          taken = nodeCpuAndMemory.memory();
        }
        case ScoredResource.EPHEMERAL_STORAGE -> {
          offered = allocatable.ephemeralStorage();
          taken = nodeRequested.ephemeralStorage();
        }
        default -> {
          // An extended resource the pod does not ask for must not make a node that offers it look emptier.
          if (podRequests[i] == 0) {
            continue;
          }
          offered = allocatable.extended(name);
          taken = nodeRequested.extended(name);
        }
      }
      if (offered == 0) {
        continue;
      }
      usage.allocatable[i] = offered;
      usage.allocated[i] = taken;
      usage.requested[i] = saturatedAdd(taken, podRequests[i]);
    }
    return usage;
  }

  /**
   * kube's {@code PreScore} of these plugins: a scorer of {@code pod} alone, with its requests computed once.
   *
   * @param scorer the name of the scorer prepared
   * @param formula turns a node's usage into its score
   */
  Scorer prepare(String scorer, PodInfo pod, ToLongFunction<Usage> formula) {
    return new Prepared(scorer, podRequests(pod), formula);
  }

  /** kube's {@code leastResourceScorer}: the weighted average of the unused share of each resource. */
  long leastAllocated(Usage usage) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long capacity = usage.allocatable[i];
      if (capacity == 0) {
        continue;
      }
      long requested = usage.requested[i];
      long score = requested > capacity ? 0 : percent(capacity - requested, capacity);
      int weight = resources.get(i).weight();
      nodeScore += score * weight;
      weightSum += weight;
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  /** kube's {@code mostResourceScorer}: the weighted average of the used share of each resource, capped. */
  long mostAllocated(Usage usage) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long capacity = usage.allocatable[i];
      if (capacity == 0) {
        continue;
      }
      // Requests can exceed capacity because pods without requests count the non-zero defaults.
      long requested = Math.min(usage.requested[i], capacity);
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
   */
  long requestedToCapacityRatio(Usage usage, LongUnaryOperator shape) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long capacity = usage.allocatable[i];
      if (capacity == 0) {
        continue;
      }
      long requested = usage.requested[i];
      long score =
          shape.applyAsLong(requested > capacity ? Scorer.MAX_SCORE : percent(requested, capacity));
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
   * side is {@link #balance}, in 50..100; the result is {@code 50 + (50 + withPod - withoutPod) / 2}, so 75
   * when the balance does not change, towards 100 when it improves, towards 50 when it worsens.
   */
  static long balancedAllocation(Usage usage) {
    long half = Scorer.MAX_SCORE / 2;
    long withPod = balance(usage.requested, usage.allocatable);
    long withoutPod = balance(usage.allocated, usage.allocatable);
    return half + (half + withPod - withoutPod) / 2;
  }

  /**
   * kube's {@code balancedResourceScore}: {@code (1 - std) * 100} truncated, where {@code std} is the
   * population standard deviation of the fractions {@code amount / allocatable} of the resources the node
   * offers, each capped at 1; with two fractions it is {@code |f0 - f1| / 2}. The double arithmetic follows
   * kube's operation order, so results agree bit for bit.
   */
  static long balance(long[] amounts, long[] allocatable) {
    var fractions = new double[amounts.length];
    int count = 0;
    double total = 0;
    for (int i = 0; i < amounts.length; i++) {
      if (allocatable[i] == 0) {
        continue;
      }
      double fraction = Math.min((double) amounts[i] / (double) allocatable[i], 1);
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

  /** A scorer of one pod: its requests are fixed, the {@code pod} passed to {@link #score} is not read. */
  private final class Prepared implements Scorer {
    private final String name;
    private final long[] podRequests;
    private final ToLongFunction<Usage> formula;

    Prepared(String name, long[] podRequests, ToLongFunction<Usage> formula) {
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
      return formula.applyAsLong(usage(podRequests, node));
    }
  }

  /**
   * Per resource, in the order of {@link #resources()}: allocatable (0 means skipped), allocated by the node's
   * pods, and requested with the pod. Arrays are owned by the instance and never escape the package.
   */
  static final class Usage {
    final long[] requested;
    final long[] allocated;
    final long[] allocatable;

    Usage(long[] requested, long[] allocated, long[] allocatable) {
      this.requested = requested;
      this.allocated = allocated;
      this.allocatable = allocatable;
    }
  }
}
