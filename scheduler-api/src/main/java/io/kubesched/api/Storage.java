package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The storage objects of the cluster the volume rules read: PersistentVolumeClaims, PersistentVolumes,
 * StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities, as one {@link ClusterSnapshot} sees them.
 * What a scheduler has reserved for a pod being bound appears as reserved, as kube-scheduler's assume cache
 * shows it: a volume chosen for a claim with that claim in its {@code claimRef} ({@link
 * PersistentVolume#withClaimRef}), a claim to be provisioned with its selected node ({@link
 * PersistentVolumeClaim#withSelectedNode}); so no two pods are given the same volume.
 *
 * <p>Immutable; the lookups are indexed on first use (from immutable data, published through volatile
 * fields), so one instance can be shared by many snapshots and threads.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Storage {

  private static final Storage EMPTY = new Storage(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());

  private final List<PersistentVolumeClaim> claims;
  private final List<PersistentVolume> volumes;
  private final List<StorageClass> classes;
  private final List<CsiNode> csiNodes;
  private final List<CsiDriver> csiDrivers;
  private final List<CsiStorageCapacity> capacities;
  private volatile @Nullable Indexes indexes;

  private record Indexes(
      Map<String, PersistentVolumeClaim> claims,
      Map<String, PersistentVolume> volumes,
      Map<String, List<PersistentVolume>> volumesByClass,
      Map<String, StorageClass> classes,
      Map<String, CsiNode> csiNodes,
      Map<String, CsiDriver> csiDrivers,
      Map<String, List<CsiStorageCapacity>> capacitiesByClass) {}

  private Storage(
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> volumes,
      List<StorageClass> classes,
      List<CsiNode> csiNodes,
      List<CsiDriver> csiDrivers,
      List<CsiStorageCapacity> capacities) {
    this.claims = claims;
    this.volumes = volumes;
    this.classes = classes;
    this.csiNodes = csiNodes;
    this.csiDrivers = csiDrivers;
    this.capacities = capacities;
  }

  /** @return storage with no object at all */
  public static Storage empty() {
    return EMPTY;
  }

  /**
   * @return storage made of these objects (each collection copied); where two objects have the same key
   *     (claims by namespace and name, the others by name), the later one is kept
   */
  public static Storage of(
      Collection<PersistentVolumeClaim> claims,
      Collection<PersistentVolume> volumes,
      Collection<StorageClass> classes,
      Collection<CsiNode> csiNodes,
      Collection<CsiDriver> csiDrivers,
      Collection<CsiStorageCapacity> capacities) {
    return new Storage(
        List.copyOf(claims),
        List.copyOf(volumes),
        List.copyOf(classes),
        List.copyOf(csiNodes),
        List.copyOf(csiDrivers),
        List.copyOf(capacities));
  }

  /** @return every claim, in no particular order */
  public List<PersistentVolumeClaim> claims() {
    return claims;
  }

  /** @return every volume, in no particular order */
  public List<PersistentVolume> volumes() {
    return volumes;
  }

  /** @return every storage class, in no particular order */
  public List<StorageClass> storageClasses() {
    return classes;
  }

  /** @return every CSINode, in no particular order */
  public List<CsiNode> csiNodes() {
    return csiNodes;
  }

  /** @return every CSIDriver, in no particular order */
  public List<CsiDriver> csiDrivers() {
    return csiDrivers;
  }

  /** @return every CSIStorageCapacity, in no particular order */
  public List<CsiStorageCapacity> capacities() {
    return capacities;
  }

  /** @return the claim {@code namespace/name}, if it exists */
  public Optional<PersistentVolumeClaim> claim(String namespace, String name) {
    return Optional.ofNullable(indexes().claims.get(namespace + "/" + name));
  }

  /** @return the volume named {@code name}, if it exists */
  public Optional<PersistentVolume> volume(String name) {
    return Optional.ofNullable(indexes().volumes.get(name));
  }

  /** @return the volumes of storage class {@code className} ({@code ""} for those without one) */
  public List<PersistentVolume> volumesOfClass(String className) {
    return indexes().volumesByClass.getOrDefault(className, List.of());
  }

  /** @return the storage class named {@code name}, if it exists */
  public Optional<StorageClass> storageClass(String name) {
    return Optional.ofNullable(indexes().classes.get(name));
  }

  /** @return the CSINode of the node named {@code nodeName}, if it exists */
  public Optional<CsiNode> csiNode(String nodeName) {
    return Optional.ofNullable(indexes().csiNodes.get(nodeName));
  }

  /** @return the CSIDriver object named {@code name}, if it exists */
  public Optional<CsiDriver> csiDriver(String name) {
    return Optional.ofNullable(indexes().csiDrivers.get(name));
  }

  /** @return the CSIStorageCapacity objects of storage class {@code className} */
  public List<CsiStorageCapacity> capacitiesOfClass(String className) {
    return indexes().capacitiesByClass.getOrDefault(className, List.of());
  }

  private Indexes indexes() {
    var built = indexes;
    if (built == null) {
      indexes = built = index();
    }
    return built;
  }

  private Indexes index() {
    var claimsByKey = new HashMap<String, PersistentVolumeClaim>();
    claims.forEach(claim -> claimsByKey.put(claim.key(), claim));
    var volumesByName = new HashMap<String, PersistentVolume>();
    volumes.forEach(volume -> volumesByName.put(volume.name(), volume));
    var byClass = new HashMap<String, List<PersistentVolume>>();
    volumesByName.values().forEach(v -> byClass.computeIfAbsent(v.storageClassName(), c -> new ArrayList<>()).add(v));
    var classesByName = new HashMap<String, StorageClass>();
    classes.forEach(c -> classesByName.put(c.name(), c));
    var nodes = new HashMap<String, CsiNode>();
    csiNodes.forEach(n -> nodes.put(n.nodeName(), n));
    var drivers = new HashMap<String, CsiDriver>();
    csiDrivers.forEach(d -> drivers.put(d.name(), d));
    var capacitiesByKey = new HashMap<String, CsiStorageCapacity>();
    capacities.forEach(c -> capacitiesByKey.put(c.namespace() + "/" + c.name(), c));
    var capacityByClass = new HashMap<String, List<CsiStorageCapacity>>();
    capacitiesByKey.values()
        .forEach(c -> capacityByClass.computeIfAbsent(c.storageClassName(), k -> new ArrayList<>()).add(c));
    return new Indexes(
        Map.copyOf(claimsByKey),
        Map.copyOf(volumesByName),
        copyOfLists(byClass),
        Map.copyOf(classesByName),
        Map.copyOf(nodes),
        Map.copyOf(drivers),
        copyOfLists(capacityByClass));
  }

  private static <T> Map<String, List<T>> copyOfLists(Map<String, List<T>> lists) {
    var copy = new HashMap<String, List<T>>(lists.size() * 4 / 3 + 1);
    lists.forEach((key, list) -> copy.put(key, List.copyOf(list)));
    return Map.copyOf(copy);
  }
}
