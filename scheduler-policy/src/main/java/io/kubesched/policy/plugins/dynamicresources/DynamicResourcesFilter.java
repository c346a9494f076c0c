package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.ClaimDeallocation;
import io.kubesched.api.ResourceClaim;
import io.kubesched.policy.framework.ClaimAllocator;
import io.kubesched.policy.framework.ClaimDeallocator;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.dynamicresources.cel.DeviceSelectors;
import io.kubesched.policy.plugins.dynamicresources.structured.Allocator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code DynamicResources} filter (PreEnqueue, PreFilter and Filter of {@code dynamicresources.go})
 * over one snapshot's {@link io.kubesched.api.DynamicResources}.
 *
 * <p>{@link #prepare} resolves the pod's claims ({@link PodClaims}): a template's claim not created yet, a claim
 * that does not exist, is being deleted or (made from a template) is not controlled by the pod, and a request of
 * an unallocated claim naming a class that does not exist turn the pod away before any node with kube's message,
 * code UnschedulableAndUnresolvable, as kube's PreEnqueue and PreFilter do (kube keeps such a pod out of the active
 * queue by PreEnqueue; here it is tried and parked unschedulable, and the claim and class events move it back). A
 * request without a class is an error, as in kube. A pod without claims, and without extended resources a class
 * backs, fits every node (kube's Skip).
 *
 * <p>Per node, as kube's Filter: the claims not allocated yet go to the structured {@link Allocator} together, once
 * per node (the result is kept for {@link ClaimAllocator#claimAllocations}); a node where it finds no devices for
 * all gets {@code cannot allocate all claims}, or the allocator's reason where it gives one (kube's {@code
 * ErrFailedAllocationOnNode}); an allocator error (a CEL failure, say) makes the attempt an error;
 * then a node outside an allocated claim's node selector gets {@code resourceclaim not available on the node}, and so
 * does every node for an allocated claim whose devices' binding failed (a binding failure condition {@code True}) or
 * did not succeed within kube's binding timeout of its allocation (kube's checks with DRADeviceBindingConditions).
 * Every rejection has code UnschedulableAndUnresolvable, as kube's, so preemption never evicts pods for devices.
 *
 * <p>PostFilter, as kube's: when no node fits, the first claim (in the pod's order) that was allocated, could not be
 * used on some node, and is reserved for no pod but perhaps this one is handed out for deallocation
 * ({@link ClaimDeallocator}), so the next attempt can allocate it where the pod fits; failing that, the claim the
 * scheduler created for the pod's extended resources in an earlier attempt is handed out for deletion.
 *
 * <p>Claims already allocated count as allocated whoever allocated them, including allocations the scheduler
 * assumed for pods being bound (the snapshot shows them so); a pod sharing such a claim is pinned to its nodes and
 * only added to {@code reservedFor}. kube 1.37's {@code CanBeReserved} puts no limit on sharing, so a claim
 * reserved for other pods is used as it is.
 *
 * <p>Extended resources backed by DRA (a pod requests an extended resource a DeviceClass names, explicitly or as
 * {@code deviceclass.resource.kubernetes.io/<class>}), as kube's DRAExtendedResource: where the node offers the
 * resource through a device plugin (allocatable above 0) nothing is done; elsewhere a claim for the pod is built for
 * the node ({@link PodClaims#extendedClaimOn}) and allocated together with the pod's other claims; {@link
 * #claimAllocations} then hands it out with {@link ClaimAllocation#create()} set, for the binding cycle to create.
 *
 * <p>Not modelled (the api has no field for it): devices' {@code skipNodeOperations} (kube's check in Filter). Immutable and thread-safe; the prepared filters too.
 */
public final class DynamicResourcesFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "DynamicResources";

  static final Set<ClusterData> READS = Set.of(
      ClusterData.RESOURCE_CLAIMS,
      ClusterData.RESOURCE_SLICES,
      ClusterData.DEVICE_CLASSES,
      ClusterData.DEVICE_TAINT_RULES);

  private final NodeAllocator.Factory allocators;
  private final Clock clock;

  /**
   * Creates the filter with its own CEL cache and the system clock (allocation timestamps, binding timeouts). CEL is
   * warmed up by the informers, at the first DeviceClass ({@link DeviceSelectors#warmUpInBackground}).
   */
  public DynamicResourcesFilter() {
    this(NodeAllocator.Factory.structured(DeviceSelectors.create(), Clock.systemUTC()));
  }

  DynamicResourcesFilter(NodeAllocator.Factory allocators) {
    this(allocators, Clock.systemUTC());
  }

  DynamicResourcesFilter(NodeAllocator.Factory allocators, Clock clock) {
    this.allocators = allocators;
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * {@inheritDoc} As kube-scheduler's: kube registers Node Add, UpdateNodeLabel and UpdateNodeAllocatable without a
   * hint, so any such change may help; claims, slices and classes move such a pod by its own hint.
   */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS, ClusterChange.NODE_ALLOCATABLE);
  }

  /** @return ResourceClaims, ResourceSlices, DeviceClasses and DeviceTaintRules */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Without {@link #prepare} this filter cannot see the pod's claims, as kube's Filter cannot without its PreFilter
   * state.
   *
   * @return an {@linkplain FilterResult#error error} for a pod with claims; a fit for one without
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return pod.resourceClaims().isEmpty()
        ? FilterResult.fit()
        : FilterResult.error(NAME + " filters a pod with claims only through prepare(pod, cluster)");
  }

  /**
   * @return a filter that turns the pod away when kube's PreEnqueue or PreFilter does, one that fits every node for
   *     a pod with nothing to allocate or check, else one that checks and allocates per node
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var resources = cluster.dynamicResources();
    var claims = PodClaims.resolve(pod, resources);
    var rejection = claims.rejection();
    if (rejection != null) {
      return PreFilter.rejectPod(NAME, FilterResult.unresolvable(new ClaimRejection(rejection)));
    }
    var error = claims.error();
    if (error != null) {
      return new Errored(error);
    }
    if (claims.nothingToDo()) {
      return PreFilter.skip(NAME);
    }
    var toAllocate = claims.toAllocate();
    boolean allocates = !toAllocate.isEmpty() || !claims.draExtendedResources().isEmpty();
    return new Prepared(pod, claims, toAllocate, allocates ? allocators.create(resources) : null,
        claims.bindingUnavailable(clock.instant(), ResourceClaim.DEFAULT_BINDING_TIMEOUT));
  }

  @Override
  public String toString() {
    return NAME;
  }

  /** The filter for a pod the plugin cannot decide for (kube's Error from PreFilter): every node is an error. */
  record Errored(String message) implements Filter {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return FilterResult.error(message);
    }
  }

  /**
   * The filter prepared for one pod. It remembers each node's allocation (kube's {@code nodeAllocations}), with the
   * claim for the pod's extended resources built for that node, so {@link #claimAllocations} hands out what the node
   * was accepted with, and the allocated claims a node could not use, so {@link #claimToDeallocate} can pick one
   * when no node fits. Thread-safe.
   */
  static final class Prepared implements Filter, ClaimAllocator, ClaimDeallocator {
    private final PodInfo pod;
    private final PodClaims claims;
    private final List<ResourceClaim> toAllocate;
    private final @Nullable NodeAllocator allocator;
    private final ConcurrentHashMap<String, NodeOutcome> outcomes = new ConcurrentHashMap<>();
    /** The keys of the allocated claims some node could not use (kube's {@code unavailableClaims}). */
    private final Set<String> unavailableClaims = ConcurrentHashMap.newKeySet();

    /** The allocated claims no node can use while their devices' binding failed or timed out. */
    private final List<ResourceClaim> bindingUnavailable;

    /**
     * One node's result.
     *
     * @param extended what the pod's extended resources need there
     * @param allocating how many claims went to the allocator (the pod's unallocated ones, and the extended one)
     * @param outcome the allocator's outcome; {@code null} when {@code extended} rejected the node
     */
    private record NodeOutcome(PodClaims.OnNode extended, int allocating, Allocator.@Nullable Outcome outcome) {}

    Prepared(
        PodInfo pod, PodClaims claims, List<ResourceClaim> toAllocate, @Nullable NodeAllocator allocator,
        List<ResourceClaim> bindingUnavailable) {
      this.pod = pod;
      this.claims = claims;
      this.toAllocate = toAllocate;
      this.allocator = allocator;
      this.bindingUnavailable = bindingUnavailable;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      var decided = outcome(node);
      if (decided.extended() instanceof PodClaims.OnNode.Rejected rejected) {
        return FilterResult.unresolvable(new ClaimRejection(rejected.message()));
      }
      if (claims.claims().isEmpty() && !(decided.extended() instanceof PodClaims.OnNode.Claim)) {
        return FilterResult.fit(); // extended resources offered here by device plugins: NodeResourcesFit's to check
      }
      var outcome = decided.outcome();
      if (outcome instanceof Allocator.Outcome.Failed failed) {
        return FilterResult.error(failed.message());
      }
      if (outcome instanceof Allocator.Outcome.Unsuitable unsuitable && !unsuitable.message().isEmpty()) {
        // kube's ErrFailedAllocationOnNode: unschedulable on this node with the allocator's reason
        return FilterResult.unresolvable(new ClaimRejection(unsuitable.message()));
      }
      if (!(outcome instanceof Allocator.Outcome.Allocated allocated)
          || allocated.results().size() != decided.allocating()) {
        return FilterResult.unresolvable(ClaimRejection.CANNOT_ALLOCATE);
      }
      var unavailable = claims.allocatedClaimsNotReaching(node);
      if (!unavailable.isEmpty() || !bindingUnavailable.isEmpty()) {
        unavailable.forEach(claim -> unavailableClaims.add(claim.key()));
        bindingUnavailable.forEach(claim -> unavailableClaims.add(claim.key()));
        return FilterResult.unresolvable(ClaimRejection.NOT_AVAILABLE_ON_NODE);
      }
      return FilterResult.fit();
    }

    /**
     * kube's PostFilter: of the claims some node found unavailable, the first in the pod's order that is reserved
     * for no pod, or for this pod only, is deallocated (kube picks one of them at random). A claim reserved for
     * another pod is never touched: that pod uses the allocation. Claims allocated now for this pod (by the
     * allocator) are not among them, being allocated on no node yet. Failing that, the claim the scheduler created
     * for the pod's extended resources in an earlier attempt, if one exists, is deleted (kube's {@code deletion of
     * ResourceClaim completed}), so that the next attempt creates one anew where the pod fits.
     */
    @Override
    public Optional<ClaimDeallocation> claimToDeallocate(PodInfo pod) {
      for (var claim : claims.claims()) {
        if (unavailableClaims.contains(claim.key()) && reservedForNoOtherPod(claim, pod)) {
          return Optional.of(ClaimDeallocation.of(claim));
        }
      }
      var stale = claims.extendedClaim();
      return stale == null ? Optional.empty() : Optional.of(ClaimDeallocation.deletion(stale));
    }

    private static boolean reservedForNoOtherPod(ResourceClaim claim, PodInfo pod) {
      var reservedFor = claim.reservedFor();
      return reservedFor.isEmpty() || (reservedFor.size() == 1 && reservedFor.get(0).uid().equals(pod.uid()));
    }

    /**
     * @return one entry per claim of the pod, in its order: the allocation found on {@code node} for a claim not
     *     allocated, {@code null} for an allocated one; then, where the node allocates extended resources through
     *     DRA, the claim to create with its allocation; empty if the node failed
     */
    @Override
    public List<ClaimAllocation> claimAllocations(NodeInfo node) {
      var decided = outcome(node);
      if (!(decided.outcome() instanceof Allocator.Outcome.Allocated allocated)
          || allocated.results().size() != decided.allocating()) {
        return List.of();
      }
      List<AllocationResult> results = allocated.results();
      var planned = new ArrayList<ClaimAllocation>(claims.claims().size() + 1);
      int next = 0;
      for (var claim : claims.claims()) {
        var allocation = claim.allocation() == null ? results.get(next++) : null;
        planned.add(new ClaimAllocation(claim.namespace(), claim.name(), claim.uid(), allocation));
      }
      if (decided.extended() instanceof PodClaims.OnNode.Claim extended) {
        var claim = extended.claim();
        planned.add(new ClaimAllocation(
            claim.namespace(), claim.name(), claim.uid(), results.get(next),
            new ExtendedResourceClaim(pod.name(), pod.uid(), claim.requests(), extended.requests().mappings())));
      }
      return planned;
    }

    /** @return the claims resolved in PreFilter (for the scorer and tests) */
    PodClaims claims() {
      return claims;
    }

    private NodeOutcome outcome(NodeInfo node) {
      return outcomes.computeIfAbsent(node.name(), n -> decide(node));
    }

    private NodeOutcome decide(NodeInfo node) {
      var extended = claims.extendedClaimOn(pod, node);
      if (extended instanceof PodClaims.OnNode.Rejected) {
        return new NodeOutcome(extended, 0, null);
      }
      var allocating = toAllocate;
      if (extended instanceof PodClaims.OnNode.Claim claim) {
        allocating = new ArrayList<>(toAllocate);
        allocating.add(claim.claim());
      }
      var nodeAllocator = allocator;
      Allocator.Outcome outcome = nodeAllocator == null || allocating.isEmpty()
          ? new Allocator.Outcome.Allocated(List.of())
          : nodeAllocator.allocate(node, allocating);
      return new NodeOutcome(extended, allocating.size(), outcome);
    }
  }
}
