package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import io.kubesched.policy.plugins.dynamicresources.structured.Allocator;
import io.kubesched.policy.plugins.helper.DefaultScoreNormalization;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-scheduler's {@code DynamicResources} score (Score and NormalizeScore of {@code dynamicresources.go}, with
 * prioritized lists on as in 1.37): for each request with {@code firstAvailable} alternatives, the alternative the
 * node's allocation uses scores {@code 8 - index} (kube's {@code FirstAvailableDeviceRequestMaxSize} minus its
 * position), summed over the pod's claims; the scores are then scaled so the best node scores 100 (kube's {@code
 * DefaultNormalizeScore}). A claim already allocated counts with its allocation; the others with the allocation the
 * structured allocator finds on the node, as the filter found it. A pod whose claims have no prioritized list scores
 * 0 everywhere without allocating.
 *
 * <p>The allocation is computed again here, from the same snapshot, rather than carried over from the filter
 * (scorers see no prepared filter); the allocator is deterministic, so both agree. Immutable and thread-safe; the
 * prepared scorers too.
 */
public final class DynamicResourcesScorer implements Scorer, PreScorer, ScoreNormalizer {

  /** kube's {@code FirstAvailableDeviceRequestMaxSize}: the most alternatives a request may list. */
  static final int FIRST_AVAILABLE_MAX_SIZE = 8;

  private final NodeAllocator.Factory allocators;

  /** Creates the scorer with its own CEL cache and the system clock. */
  public DynamicResourcesScorer() {
    this(NodeAllocator.Factory.structured(DeviceSelectors.create(), Clock.systemUTC()));
  }

  DynamicResourcesScorer(NodeAllocator.Factory allocators) {
    this.allocators = allocators;
  }

  @Override
  public String name() {
    return DynamicResourcesFilter.NAME;
  }

  /** @return ResourceClaims, ResourceSlices, DeviceClasses and DeviceTaintRules */
  @Override
  public Set<ClusterData> reads() {
    return DynamicResourcesFilter.READS;
  }

  /** Without {@link #prepare} the claims are not known: every node scores 0. */
  @Override
  public long score(PodInfo pod, NodeInfo node) {
    return 0;
  }

  @Override
  public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
    var resources = cluster.dynamicResources();
    var claims = PodClaims.resolve(pod, resources);
    if (claims.rejection() != null || claims.error() != null || !hasPrioritizedList(claims.claims())) {
      return this;
    }
    var toAllocate = claims.toAllocate();
    boolean allocates = !toAllocate.isEmpty() || !claims.draExtendedResources().isEmpty();
    return new Prepared(claims, toAllocate, allocates ? allocators.create(resources) : null);
  }

  @Override
  public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    DefaultScoreNormalization.requireOnePerNode(name(), nodes, scores);
    DefaultScoreNormalization.normalize(scores, false);
  }

  @Override
  public String toString() {
    return name();
  }

  private static boolean hasPrioritizedList(List<ResourceClaim> claims) {
    for (var claim : claims) {
      for (var request : claim.requests()) {
        if (request.exactly() == null && !request.firstAvailable().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * kube's {@code computeScore}: for each claim, the allocated alternatives of its prioritized-list requests.
   *
   * @param claims the pod's claims, in order
   * @param newAllocations the allocations of the claims not allocated, in order
   * @throws IllegalStateException if fewer allocations are given than claims need
   */
  static long computeScore(List<ResourceClaim> claims, List<AllocationResult> newAllocations) {
    long score = 0;
    int next = 0;
    for (var claim : claims) {
      var allocation = claim.allocation();
      if (allocation == null) {
        if (next >= newAllocations.size()) {
          throw new IllegalStateException("number of allocations " + newAllocations.size()
              + " is smaller than number of claims needing allocation");
        }
        allocation = newAllocations.get(next++);
      }
      var allocatedSubRequests = new HashSet<String>();
      for (var device : allocation.devices()) {
        if (device.request().contains("/")) {
          allocatedSubRequests.add(device.request());
        }
      }
      for (var request : claim.requests()) {
        if (request.exactly() != null) {
          continue;
        }
        var alternatives = request.firstAvailable();
        for (int i = 0; i < alternatives.size(); i++) {
          if (allocatedSubRequests.contains(request.name() + "/" + alternatives.get(i).name())) {
            score += FIRST_AVAILABLE_MAX_SIZE - i;
          }
        }
      }
    }
    return score;
  }

  /**
   * The scorer prepared for one pod with a prioritized list. The claim for the pod's extended resources, where the
   * node allocates them through DRA, is allocated with the others, as the filter allocated it, so the alternatives
   * found are the same.
   */
  static final class Prepared implements Scorer, ScoreNormalizer {
    private final PodClaims claims;
    private final List<ResourceClaim> toAllocate;
    private final @org.jspecify.annotations.Nullable NodeAllocator allocator;

    Prepared(
        PodClaims claims,
        List<ResourceClaim> toAllocate,
        @org.jspecify.annotations.Nullable NodeAllocator allocator) {
      this.claims = claims;
      this.toAllocate = toAllocate;
      this.allocator = allocator;
    }

    @Override
    public String name() {
      return DynamicResourcesFilter.NAME;
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      List<AllocationResult> results = new ArrayList<>();
      var allocating = toAllocate;
      if (claims.extendedClaimOn(pod, node) instanceof PodClaims.OnNode.Claim extended) {
        allocating = new ArrayList<>(toAllocate);
        allocating.add(extended.claim());
      }
      var nodeAllocator = allocator;
      if (nodeAllocator != null && !allocating.isEmpty()) {
        // A feasible node's allocation succeeded in the filter; anything else scores 0, as kube's missing entry.
        if (!(nodeAllocator.allocate(node, allocating) instanceof Allocator.Outcome.Allocated allocated)
            || allocated.results().size() != allocating.size()) {
          return 0;
        }
        results = allocated.results();
      }
      return computeScore(claims.claims(), results);
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      DefaultScoreNormalization.requireOnePerNode(name(), nodes, scores);
      DefaultScoreNormalization.normalize(scores, false);
    }
  }
}
