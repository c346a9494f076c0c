package io.kubesched.engine;

import io.kubesched.api.ClaimRef;
import io.kubesched.api.CsiDriver;
import io.kubesched.api.CsiNode;
import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeBinding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The storage objects the volume rules read, as the informers last saw them, with the volumes and claims
 * reserved for pods being bound laid over them: kube-scheduler's assume cache of volume binding. A volume
 * reserved for a claim ({@link VolumeBinding.Static}) shows that claim in its {@code claimRef}; a claim whose
 * volume is to be provisioned ({@link VolumeBinding.Provision}) shows the chosen node as its selected node.
 * So the next decision, made before the API server has heard of either, never gives the volume to another
 * claim, and two pods never take the same volume.
 *
 * <p>{@link #storage()} hands every decision the same immutable {@link Storage} until an object or a
 * reservation changes.
 *
 * <p>Thread-safe: the informers' handlers write the objects, the scheduling thread reserves, the binding
 * threads release.
 */
public final class StorageCache {

  private final Map<String, PersistentVolumeClaim> claims = new HashMap<>();
  private final Map<String, PersistentVolume> volumes = new HashMap<>();
  private final Map<String, StorageClass> classes = new HashMap<>();
  private final Map<String, CsiNode> csiNodes = new HashMap<>();
  private final Map<String, CsiDriver> csiDrivers = new HashMap<>();
  private final Map<String, CsiStorageCapacity> capacities = new HashMap<>();
  /** Each pod's reservation, by pod uid. */
  private final Map<String, Reservation> reservations = new HashMap<>();
  private @Nullable Storage view = Storage.empty();

  private record Reservation(String nodeName, List<VolumeBinding> bindings) {}

  /**
   * Records a claim seen added or updated.
   *
   * @return whether it changed what the rules read (a claim not known before, or different)
   */
  public synchronized boolean putClaim(PersistentVolumeClaim claim) {
    return changed(claims.put(claim.key(), claim), claim);
  }

  /** Forgets a deleted claim. */
  public synchronized void removeClaim(String namespace, String name) {
    removed(claims.remove(namespace + "/" + name));
  }

  /** Records a volume seen added or updated; returns whether it changed what the rules read. */
  public synchronized boolean putVolume(PersistentVolume volume) {
    return changed(volumes.put(volume.name(), volume), volume);
  }

  /** Forgets a deleted volume. */
  public synchronized void removeVolume(String name) {
    removed(volumes.remove(name));
  }

  /** Records a storage class seen added or updated; returns whether it changed what the rules read. */
  public synchronized boolean putStorageClass(StorageClass storageClass) {
    return changed(classes.put(storageClass.name(), storageClass), storageClass);
  }

  /** Forgets a deleted storage class. */
  public synchronized void removeStorageClass(String name) {
    removed(classes.remove(name));
  }

  /** Records a CSINode seen added or updated; returns whether it changed what the rules read. */
  public synchronized boolean putCsiNode(CsiNode csiNode) {
    return changed(csiNodes.put(csiNode.nodeName(), csiNode), csiNode);
  }

  /** Forgets a deleted CSINode. */
  public synchronized void removeCsiNode(String nodeName) {
    removed(csiNodes.remove(nodeName));
  }

  /** Records a CSIDriver seen added or updated; returns whether it changed what the rules read. */
  public synchronized boolean putCsiDriver(CsiDriver csiDriver) {
    return changed(csiDrivers.put(csiDriver.name(), csiDriver), csiDriver);
  }

  /** Forgets a deleted CSIDriver. */
  public synchronized void removeCsiDriver(String name) {
    removed(csiDrivers.remove(name));
  }

  /** Records a CSIStorageCapacity seen added or updated; returns whether it changed what the rules read. */
  public synchronized boolean putCapacity(CsiStorageCapacity capacity) {
    return changed(capacities.put(capacity.namespace() + "/" + capacity.name(), capacity), capacity);
  }

  /** Forgets a deleted CSIStorageCapacity. */
  public synchronized void removeCapacity(String namespace, String name) {
    removed(capacities.remove(namespace + "/" + name));
  }

  /**
   * Replaces every storage object with those {@code source} holds, keeping this cache's reservations: what a
   * relist does, listing everything again into a fresh cache and handing it over once synced, so that what
   * was deleted while unwatched is gone while the volumes reserved for pods being bound stay reserved. A
   * reservation whose claim or volume is gone is kept and lays over nothing until it is released.
   *
   * @param source the cache the relist filled; its reservations are ignored, and it is not changed
   * @return whether any object changed
   */
  public boolean replaceObjects(StorageCache source) {
    if (source == this) {
      return false;
    }
    ObjectMaps objects;
    synchronized (source) { // never both locks at once: two caches could be replaced into each other
      objects = new ObjectMaps(source);
    }
    synchronized (this) {
      boolean changed =
          !claims.equals(objects.claims)
              || !volumes.equals(objects.volumes)
              || !classes.equals(objects.classes)
              || !csiNodes.equals(objects.csiNodes)
              || !csiDrivers.equals(objects.csiDrivers)
              || !capacities.equals(objects.capacities);
      if (changed) {
        replace(claims, objects.claims);
        replace(volumes, objects.volumes);
        replace(classes, objects.classes);
        replace(csiNodes, objects.csiNodes);
        replace(csiDrivers, objects.csiDrivers);
        replace(capacities, objects.capacities);
        view = null;
      }
      return changed;
    }
  }

  private static <V> void replace(Map<String, V> target, Map<String, V> source) {
    target.clear();
    target.putAll(source);
  }

  /** Copies of a cache's object maps, taken under its lock. */
  private static final class ObjectMaps {
    final Map<String, PersistentVolumeClaim> claims;
    final Map<String, PersistentVolume> volumes;
    final Map<String, StorageClass> classes;
    final Map<String, CsiNode> csiNodes;
    final Map<String, CsiDriver> csiDrivers;
    final Map<String, CsiStorageCapacity> capacities;

    ObjectMaps(StorageCache cache) {
      claims = new HashMap<>(cache.claims);
      volumes = new HashMap<>(cache.volumes);
      classes = new HashMap<>(cache.classes);
      csiNodes = new HashMap<>(cache.csiNodes);
      csiDrivers = new HashMap<>(cache.csiDrivers);
      capacities = new HashMap<>(cache.capacities);
    }
  }

  private boolean changed(@Nullable Object before, Object after) {
    if (after.equals(before)) {
      return false;
    }
    view = null;
    return true;
  }

  private void removed(@Nullable Object before) {
    if (before != null) {
      view = null;
    }
  }

  /**
   * Reserves the volumes and claims of {@code bindings} for a pod about to be bound to {@code nodeName}, as
   * kube's VolumeBinding Reserve assumes them. Nothing is reserved if any binding cannot be: a volume that
   * is gone or already bound or reserved to another claim, or a claim that is gone.
   *
   * @param podUid the pod's uid; a reservation it already holds is replaced
   * @return why the bindings cannot be reserved (kube-scheduler then retries the pod); empty if they are
   */
  public synchronized Optional<String> reserve(String podUid, String nodeName, List<VolumeBinding> bindings) {
    release(podUid);
    // The claim each volume is taken for by this call, so that one call cannot give a volume to two claims.
    var taking = new HashMap<String, String>();
    for (var binding : bindings) {
      var claimKey = binding.claimNamespace() + "/" + binding.claimName();
      var claim = claims.get(claimKey);
      if (claim == null) {
        return Optional.of("persistentvolumeclaim \"" + binding.claimName() + "\" not found");
      }
      if (binding instanceof VolumeBinding.Static bound) {
        var volume = volumes.get(bound.volumeName());
        if (volume == null) {
          return Optional.of("persistentvolume \"" + bound.volumeName() + "\" not found");
        }
        var ref = volume.claimRef();
        var taker = taking.putIfAbsent(bound.volumeName(), claimOf(bound));
        if ((ref != null && !ref.refersTo(claim))
            || (taker != null && !taker.equals(claimOf(bound)))
            || reservedToAnotherClaim(bound)) {
          return Optional.of(
              "persistentvolume \"" + bound.volumeName() + "\" is already bound or reserved to another claim");
        }
      }
    }
    if (!bindings.isEmpty()) {
      reservations.put(podUid, new Reservation(nodeName, List.copyOf(bindings)));
      view = null;
    }
    return Optional.empty();
  }

  /**
   * Whether another pod holds {@code binding}'s volume reserved for another claim. Pods sharing a claim may
   * each hold its volume reserved: the volume stays reserved until the last of them releases it.
   */
  private boolean reservedToAnotherClaim(VolumeBinding.Static binding) {
    for (var reservation : reservations.values()) {
      for (var held : reservation.bindings) {
        if (held instanceof VolumeBinding.Static s
            && s.volumeName().equals(binding.volumeName())
            && !claimOf(s).equals(claimOf(binding))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String claimOf(VolumeBinding.Static binding) {
    return binding.claimNamespace() + "/" + binding.claimName() + "/" + binding.claimUid();
  }

  /** Drops the reservation of pod {@code podUid}, if it holds one: its pod was bound, failed or is gone. */
  public synchronized void release(String podUid) {
    if (reservations.remove(podUid) != null) {
      view = null;
    }
  }

  /** @return the bindings pod {@code podUid} holds reserved, empty if none */
  public synchronized List<VolumeBinding> reserved(String podUid) {
    var reservation = reservations.get(podUid);
    return reservation == null ? List.of() : reservation.bindings;
  }

  /** @return the claim {@code namespace/name} as the informers last saw it (no reservation laid over it) */
  public synchronized Optional<PersistentVolumeClaim> seenClaim(String namespace, String name) {
    return Optional.ofNullable(claims.get(namespace + "/" + name));
  }

  /** @return the volume {@code name} as the informers last saw it (no reservation laid over it) */
  public synchronized Optional<PersistentVolume> seenVolume(String name) {
    return Optional.ofNullable(volumes.get(name));
  }

  /**
   * @return the storage objects with every reservation laid over them; the same instance until an object
   *     or a reservation changes
   */
  public synchronized Storage storage() {
    var current = view;
    if (current == null) {
      view = current = build();
    }
    return current;
  }

  private Storage build() {
    Map<String, PersistentVolume> shownVolumes = volumes;
    Map<String, PersistentVolumeClaim> shownClaims = claims;
    if (!reservations.isEmpty()) {
      shownVolumes = new HashMap<>(volumes);
      shownClaims = new HashMap<>(claims);
      for (var reservation : reservations.values()) {
        for (var binding : reservation.bindings) {
          var claimKey = binding.claimNamespace() + "/" + binding.claimName();
          if (binding instanceof VolumeBinding.Static bound) {
            var volume = shownVolumes.get(bound.volumeName());
            if (volume != null) {
              var ref = new ClaimRef(bound.claimNamespace(), bound.claimName(), bound.claimUid());
              shownVolumes.put(bound.volumeName(), volume.withClaimRef(ref));
            }
          } else {
            var claim = shownClaims.get(claimKey);
            if (claim != null) {
              shownClaims.put(claimKey, claim.withSelectedNode(reservation.nodeName));
            }
          }
        }
      }
    }
    return Storage.of(
        shownClaims.values(),
        shownVolumes.values(),
        classes.values(),
        csiNodes.values(),
        csiDrivers.values(),
        capacities.values());
  }
}
