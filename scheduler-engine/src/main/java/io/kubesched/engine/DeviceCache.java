package io.kubesched.engine;

import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DeviceClass;
import io.kubesched.api.DeviceTaintRule;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.ResourceSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The dynamic resource allocation objects the informers last saw (ResourceSlices, DeviceClasses, ResourceClaims,
 * DeviceTaintRules), with the allocations assumed for pods being bound laid over the claims: kube-scheduler's
 * claim assume cache and in-flight allocations of its DynamicResources plugin. A claim a pod's assumption
 * allocates shows that allocation ({@link ResourceClaim#withAllocation}), and every claim a pod's assumption names
 * shows the pod in {@code reservedFor}, so the next decision, made before the API server has heard of either, never
 * gives the same device to another claim.
 *
 * <p>An assumption holds per claim until one of these: {@link #forget} drops the pod's whole assumption (its
 * binding failed or was abandoned); the watch shows the claim allocated (for a claim the assumption allocates) or
 * reserved for the pod (for one it only reserves), so the informer's view now holds what was assumed; or the watch
 * shows the claim gone (deleted, or replaced by a claim of the same name and another uid). Like kube's assume
 * cache, an allocation the watch shows wins over the one assumed.
 *
 * <p>The claim the scheduler creates for a pod's extended resources backed by DRA is assumed before it exists: the
 * view shows it under its name before creation, allocated, so its devices are taken; {@link #created} then holds it
 * under the name the API server gave it, as any other claim.
 *
 * <p>{@link #dynamicResources()} hands every decision the same immutable {@link DynamicResources} until an object
 * or an assumption changes.
 *
 * <p>Thread-safe: the informers' handlers write the objects, the scheduling thread assumes, the binding threads
 * forget.
 */
public final class DeviceCache {

  private final Store<ResourceSlice> slices = new Store<>();
  private final Store<DeviceClass> classes = new Store<>();
  private final Store<ResourceClaim> claims = new Store<>();
  private final Store<DeviceTaintRule> taintRules = new Store<>();
  /** Each pod's assumed claims still pending, by pod uid, in the order assumed. */
  private final Map<String, List<ClaimAllocation>> assumptions = new LinkedHashMap<>();

  private @Nullable DynamicResources view = DynamicResources.empty();
  /** The claims the last view laid assumptions over, by key. */
  private Map<String, Overlay> overlays = Map.of();

  /**
   * Records a slice seen added or updated.
   *
   * @return whether it changed what the allocator reads (a slice not known before, or different)
   */
  public synchronized boolean putSlice(ResourceSlice slice) {
    return changed(slices.put(slice.name(), slice));
  }

  /** Forgets a deleted slice. */
  public synchronized void removeSlice(String name) {
    removed(slices.remove(name));
  }

  /** Records a device class seen added or updated; returns whether it changed what the allocator reads. */
  public synchronized boolean putDeviceClass(DeviceClass deviceClass) {
    return changed(classes.put(deviceClass.name(), deviceClass));
  }

  /** Forgets a deleted device class. */
  public synchronized void removeDeviceClass(String name) {
    removed(classes.remove(name));
  }

  /** Records a taint rule seen added or updated; returns whether it changed what the allocator reads. */
  public synchronized boolean putTaintRule(DeviceTaintRule rule) {
    return changed(taintRules.put(rule.name(), rule));
  }

  /** Forgets a deleted taint rule (or one that now matches no device). */
  public synchronized void removeTaintRule(String name) {
    removed(taintRules.remove(name));
  }

  /**
   * Records a claim seen added or updated, and drops what the assumptions held for it that the watch now shows:
   * an assumed allocation once the claim is allocated, an assumed reservation once the claim is reserved for the
   * pod, and every assumption of a claim of another uid (the assumed claim is gone).
   *
   * @return whether it changed what the allocator reads
   */
  public synchronized boolean putClaim(ResourceClaim claim) {
    boolean changed = changed(claims.put(claim.key(), claim));
    if (dropAssumed(claim.key(), claim)) {
      view = null;
      changed = true;
    }
    return changed;
  }

  /** Forgets a deleted claim and every assumption of it. */
  public synchronized void removeClaim(String namespace, String name) {
    var key = namespace + "/" + name;
    removed(claims.remove(key));
    if (dropAssumed(key, null)) {
      view = null;
    }
  }

  /**
   * Replaces every object with those {@code source} holds, keeping this cache's assumptions but for what the new
   * objects show (as {@link #putClaim} drops it) or no longer hold: what a relist does, listing everything again
   * into a fresh cache and handing it over once synced.
   *
   * @param source the cache the relist filled; its assumptions are ignored, and it is not changed
   * @return whether anything the allocator reads changed
   */
  public boolean replaceObjects(DeviceCache source) {
    if (source == this) {
      return false;
    }
    Map<String, ResourceSlice> newSlices;
    Map<String, DeviceClass> newClasses;
    Map<String, ResourceClaim> newClaims;
    Map<String, DeviceTaintRule> newRules;
    synchronized (source) { // never both locks at once: two caches could be replaced into each other
      newSlices = new HashMap<>(source.slices.byKey);
      newClasses = new HashMap<>(source.classes.byKey);
      newClaims = new HashMap<>(source.claims.byKey);
      newRules = new HashMap<>(source.taintRules.byKey);
    }
    synchronized (this) {
      boolean changed =
          !slices.byKey.equals(newSlices)
              || !classes.byKey.equals(newClasses)
              || !claims.byKey.equals(newClaims)
              || !taintRules.byKey.equals(newRules);
      if (changed) {
        slices.replace(newSlices);
        classes.replace(newClasses);
        claims.replace(newClaims);
        taintRules.replace(newRules);
      }
      var keys = new ArrayList<String>();
      assumptions.values().forEach(list -> list.forEach(a -> keys.add(a.namespace() + "/" + a.name())));
      for (var key : keys) {
        changed |= dropAssumed(key, claims.get(key));
      }
      if (changed) {
        view = null;
      }
      return changed;
    }
  }

  /**
   * Lays {@code allocations} over the claims they name for pod {@code podUid}, as kube's DynamicResources Reserve
   * does: each claim shows the allocation (when non-null and the claim is not allocated as the watch saw it) and
   * the pod in {@code reservedFor}, until the assumption is dropped (see the class comment). The caller (the
   * scheduling thread) allocated from {@link #dynamicResources()}, so no device is taken twice; a claim the cache
   * has not seen, or sees with another uid, is laid over nothing. What the watch already shows is not assumed.
   *
   * <p>The consumer shown in {@code reservedFor} is the pod by uid, with an empty name: kube compares consumers by
   * uid.
   *
   * @param podUid the pod's uid; an assumption it already holds is replaced
   * @param allocations one per claim of the pod, as {@link io.kubesched.api.Decision.Bind} carries them
   */
  public synchronized void assume(String podUid, List<ClaimAllocation> allocations) {
    boolean changed = assumptions.remove(podUid) != null;
    var pending = new ArrayList<ClaimAllocation>();
    for (var allocation : allocations) {
      var seen = claims.get(allocation.namespace() + "/" + allocation.name());
      if (seen == null || !seen.uid().equals(allocation.uid()) || !shows(seen, podUid, allocation)) {
        pending.add(allocation);
      }
    }
    if (!pending.isEmpty()) {
      assumptions.put(podUid, List.copyOf(pending));
      changed = true;
    }
    if (changed) {
      view = null;
    }
  }

  /**
   * Drops the assumption of pod {@code podUid}, if it holds one: its binding failed or was abandoned, so its
   * claims show again what the watch last showed. Idempotent.
   */
  public synchronized void forget(String podUid) {
    if (assumptions.remove(podUid) != null) {
      view = null;
    }
  }

  /**
   * The claim for pod {@code podUid}'s extended resources that its assumption held to create ({@link
   * ClaimAllocation#toCreate()}, uid {@code placeholderUid}) now exists as {@code name} with {@code uid}, its allocation
   * written: from now the assumption holds it as any claim, until the watch shows it allocated (or it is forgotten),
   * so its devices stay taken in between. A no-op when the pod holds no such assumption.
   */
  public synchronized void created(String podUid, String placeholderUid, String name, String uid) {
    var held = assumptions.get(podUid);
    if (held == null) {
      return;
    }
    var kept = new ArrayList<ClaimAllocation>(held.size());
    for (var allocation : held) {
      if (allocation.toCreate() && allocation.uid().equals(placeholderUid)) {
        var now = allocation.created(name, uid);
        var seen = claims.get(now.namespace() + "/" + name);
        if (seen == null || !seen.uid().equals(uid) || !shows(seen, podUid, now)) {
          kept.add(now);
        }
      } else {
        kept.add(allocation);
      }
    }
    if (kept.isEmpty()) {
      assumptions.remove(podUid);
    } else {
      assumptions.put(podUid, List.copyOf(kept));
    }
    view = null;
  }

  /** @return what pod {@code podUid} still holds assumed, in the order assumed; empty if nothing */
  public synchronized List<ClaimAllocation> assumed(String podUid) {
    return assumptions.getOrDefault(podUid, List.of());
  }

  /** @return the claim {@code namespace/name} as the informers last saw it (no assumption laid over it) */
  public synchronized Optional<ResourceClaim> seenClaim(String namespace, String name) {
    return Optional.ofNullable(claims.get(namespace + "/" + name));
  }

  /**
   * @return the objects with every assumption laid over the claims; the same instance until an object or an
   *     assumption changes
   */
  public synchronized DynamicResources dynamicResources() {
    var current = view;
    if (current == null) {
      view = current = build();
    }
    return current;
  }

  /**
   * The objects with the assumptions laid over their claims in one pass. A claim whose seen object and assumptions
   * did not change since the last view keeps the object laid over it then, so the views differ only by what
   * changed (the allocator counts again only the claims that differ between two views). Laying each pod's
   * assumption over a copy of the whole list in turn cost a pass over every claim per binding in flight.
   */
  private DynamicResources build() {
    var seen = claims.list();
    var claimList = seen;
    if (!assumptions.isEmpty()) {
      var byClaim = new LinkedHashMap<String, List<Map.Entry<String, ClaimAllocation>>>();
      assumptions.forEach((podUid, allocations) -> allocations.forEach(a ->
          byClaim.computeIfAbsent(a.namespace() + "/" + a.name(), k -> new ArrayList<>()).add(Map.entry(podUid, a))));
      var kept = new HashMap<String, Overlay>();
      var laid = new ArrayList<>(seen);
      var positions = claims.positions();
      byClaim.forEach((key, assumed) -> {
        var position = positions.get(key);
        if (position == null) { // not seen (yet, or any more): only a claim the scheduler creates is shown
          for (var entry : assumed) {
            var created = entry.getValue().assumedCreatedClaim(ConsumerRef.pod("", entry.getKey()));
            if (created != null) {
              laid.add(created);
            }
          }
          return;
        }
        var claim = seen.get(position);
        var overlay = overlays.get(key);
        if (overlay == null || overlay.seen != claim || !overlay.assumed.equals(assumed)) {
          overlay = new Overlay(claim, assumed, layOver(claim, assumed));
        }
        kept.put(key, overlay);
        laid.set(position, overlay.claim);
      });
      overlays = kept;
      claimList = laid;
    } else {
      overlays = Map.of();
    }
    return DynamicResources.of(slices.list(), classes.list(), claimList, taintRules.list());
  }

  /** A claim as the watch shows it, the assumptions laid over it ({@code (pod uid, allocation)} in order), the result. */
  private record Overlay(ResourceClaim seen, List<Map.Entry<String, ClaimAllocation>> assumed, ResourceClaim claim) {}

  private static ResourceClaim layOver(ResourceClaim claim, List<Map.Entry<String, ClaimAllocation>> assumed) {
    var laid = claim;
    for (var entry : assumed) {
      if (entry.getValue().uid().equals(claim.uid())) {
        laid = laid.reservedBy(ConsumerRef.pod("", entry.getKey()), entry.getValue());
      }
    }
    return laid;
  }

  /**
   * Drops every assumption of claim {@code key} that {@code seen} (the claim as the watch shows it, {@code null}
   * when gone) makes moot.
   *
   * @return whether any was dropped
   */
  private boolean dropAssumed(String key, @Nullable ResourceClaim seen) {
    boolean dropped = false;
    var pods = assumptions.entrySet().iterator();
    while (pods.hasNext()) {
      var pod = pods.next();
      var kept = new ArrayList<ClaimAllocation>(pod.getValue().size());
      for (var allocation : pod.getValue()) {
        boolean moot =
            (allocation.namespace() + "/" + allocation.name()).equals(key)
                && (seen == null || !seen.uid().equals(allocation.uid()) || shows(seen, pod.getKey(), allocation));
        if (!moot) {
          kept.add(allocation);
        }
      }
      if (kept.size() != pod.getValue().size()) {
        dropped = true;
        if (kept.isEmpty()) {
          pods.remove();
        } else {
          pod.setValue(List.copyOf(kept));
        }
      }
    }
    return dropped;
  }

  /** Whether the watch's {@code seen} claim holds what {@code allocation} assumed for pod {@code podUid}. */
  private static boolean shows(ResourceClaim seen, String podUid, ClaimAllocation allocation) {
    return allocation.allocation() != null ? seen.allocation() != null : reservedFor(seen, podUid);
  }

  private static boolean reservedFor(ResourceClaim claim, String podUid) {
    for (var consumer : claim.reservedFor()) {
      if (consumer.isPod() && consumer.uid().equals(podUid)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The objects of one kind by key, with the immutable list {@link #dynamicResources()} hands out kept until one of
   * them changes: consecutive views share the lists of the kinds that did not change, so the allocator keeps what
   * it indexed from them (the slices by node), and the claims list keeps its order, so it counts again only the
   * claims that changed (see the DynamicResources plugin's allocator cache). Guarded by the cache's lock.
   */
  private static final class Store<V> {
    private final Map<String, V> byKey = new LinkedHashMap<>();
    private @Nullable List<V> list;
    private @Nullable Map<String, Integer> positions;

    @Nullable V get(String key) {
      return byKey.get(key);
    }

    /**
     * Keeps {@code value}, unless an equal object is kept already: that one stays, so what was derived from it
     * (the allocator's selector results per device) stays valid.
     *
     * @return whether the objects changed
     */
    boolean put(String key, V value) {
      var before = byKey.get(key);
      if (value.equals(before)) {
        return false;
      }
      if (byKey.put(key, value) == null) {
        positions = null;
      }
      list = null;
      return true;
    }

    @Nullable V remove(String key) {
      var before = byKey.remove(key);
      if (before != null) {
        list = null;
        positions = null;
      }
      return before;
    }

    void replace(Map<String, V> objects) {
      byKey.clear();
      byKey.putAll(objects);
      list = null;
      positions = null;
    }

    List<V> list() {
      var known = list;
      if (known == null) {
        list = known = List.copyOf(byKey.values());
      }
      return known;
    }

    /** @return each key's position in {@link #list()}, which a replaced value keeps (the map keeps its order) */
    Map<String, Integer> positions() {
      var known = positions;
      if (known == null) {
        known = new HashMap<>();
        int i = 0;
        for (var key : byKey.keySet()) {
          known.put(key, i++);
        }
        positions = known;
      }
      return known;
    }
  }

  private boolean changed(boolean changed) {
    if (changed) {
      view = null;
    }
    return changed;
  }

  private void removed(@Nullable Object before) {
    if (before != null) {
      view = null;
    }
  }
}
