package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The dynamic-resource objects of the cluster as one {@link io.kubesched.api.ClusterSnapshot} sees them:
 * ResourceSlices, DeviceClasses, ResourceClaims and DeviceTaintRules. What the scheduler allocated for a pod
 * being bound appears as allocated (the claim {@link ResourceClaim#withAllocation with the allocation}), as
 * kube-scheduler's in-flight allocations do, so no device is given twice.
 *
 * <p>Immutable; the lookups are indexed on first use (from immutable data, published through a volatile field), so
 * one instance can be shared by many snapshots and threads.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class DynamicResources {

  private static final DynamicResources EMPTY = new DynamicResources(List.of(), List.of(), List.of(), List.of());

  private final List<ResourceSlice> slices;
  private final List<DeviceClass> classes;
  private final List<ResourceClaim> claims;
  private final List<DeviceTaintRule> taintRules;
  private volatile @Nullable Indexes indexes;

  /** Never changed after construction; published through the volatile field. */
  private record Indexes(Map<String, DeviceClass> classes, Map<ClaimKey, ResourceClaim> claims) {}

  /** A claim's namespace and name, as the index's key: no string is built per claim. */
  private record ClaimKey(String namespace, String name) {}

  private DynamicResources(
      List<ResourceSlice> slices,
      List<DeviceClass> classes,
      List<ResourceClaim> claims,
      List<DeviceTaintRule> taintRules) {
    this.slices = slices;
    this.classes = classes;
    this.claims = claims;
    this.taintRules = taintRules;
  }

  /** @return no object at all */
  public static DynamicResources empty() {
    return EMPTY;
  }

  /**
   * @return these objects (each collection copied); where two have the same key (claims by namespace and name,
   *     classes by name), the later one is kept
   */
  public static DynamicResources of(
      Collection<ResourceSlice> slices,
      Collection<DeviceClass> classes,
      Collection<ResourceClaim> claims,
      Collection<DeviceTaintRule> taintRules) {
    return new DynamicResources(
        List.copyOf(slices), List.copyOf(classes), List.copyOf(claims), List.copyOf(taintRules));
  }

  /**
   * The view after the scheduler's Reserve of {@code allocations} for one pod: each claim named shows its new
   * allocation (when one is given and the claim shows none yet) and the pod in its {@code reservedFor}. What a pod group's trial hands to the next
   * member, and what the loop shows until the watch has the writes. A claim not found (or of another uid) is left out.
   * A claim to create ({@link ClaimAllocation#create()}) with an allocation is added, under its name before creation,
   * controlled by the pod, so its devices show taken.
   *
   * @param pod the consumer the claims are reserved for
   * @param allocations what the decision writes to the pod's claims
   * @return the new view; this one when {@code allocations} is empty
   */
  public DynamicResources withClaimAllocations(ConsumerRef pod, List<ClaimAllocation> allocations) {
    if (allocations.isEmpty()) {
      return this;
    }
    var byKey = new HashMap<ClaimKey, ClaimAllocation>();
    allocations.forEach(a -> byKey.put(new ClaimKey(a.namespace(), a.name()), a));
    var next = new java.util.ArrayList<ResourceClaim>(claims.size());
    for (var claim : claims) {
      var allocation = byKey.get(new ClaimKey(claim.namespace(), claim.name()));
      if (allocation == null || !allocation.uid().equals(claim.uid())) {
        next.add(claim);
        continue;
      }
      next.add(claim.reservedBy(pod, allocation));
    }
    for (var allocation : allocations) {
      var created = allocation.assumedCreatedClaim(pod);
      if (created != null && !contains(created)) {
        next.add(created);
      }
    }
    return new DynamicResources(slices, classes, List.copyOf(next), taintRules);
  }

  private boolean contains(ResourceClaim claim) {
    var known = indexes().claims.get(new ClaimKey(claim.namespace(), claim.name()));
    return known != null && known.uid().equals(claim.uid());
  }

  /** @return every slice, in no particular order */
  public List<ResourceSlice> slices() {
    return slices;
  }

  /** @return every class, in no particular order */
  public List<DeviceClass> deviceClasses() {
    return classes;
  }

  /** @return every claim (with the allocations assumed), in no particular order */
  public List<ResourceClaim> claims() {
    return claims;
  }

  /** @return every taint rule, in no particular order */
  public List<DeviceTaintRule> taintRules() {
    return taintRules;
  }

  /** @return the class {@code name}, if it exists */
  public Optional<DeviceClass> deviceClass(String name) {
    return Optional.ofNullable(indexes().classes.get(name));
  }

  /** @return the claim {@code namespace/name}, if it exists */
  public Optional<ResourceClaim> claim(String namespace, String name) {
    return Optional.ofNullable(indexes().claims.get(new ClaimKey(namespace, name)));
  }

  private Indexes indexes() {
    var known = indexes;
    if (known == null) {
      var byName = new HashMap<String, DeviceClass>();
      classes.forEach(c -> byName.put(c.name(), c));
      var byKey = new HashMap<ClaimKey, ResourceClaim>(Math.max(16, claims.size() * 2));
      claims.forEach(c -> byKey.put(new ClaimKey(c.namespace(), c.name()), c));
      known = new Indexes(Map.copyOf(byName), byKey);
      indexes = known;
    }
    return known;
  }
}
