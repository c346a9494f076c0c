package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * The parts of a {@link ClusterSnapshot} beyond nodes and pods, which the controller watches only when the
 * policy says it reads them ({@link FinderFunc#reads()}) or it is asked to watch them for a later policy (the
 * facade's {@code Options.Builder.watch}): each costs a watch, memory, and a permission.
 */
@API(status = STABLE, since = "0.1.0")
public enum ClusterData {
  /** Namespaces with their labels: pod affinity terms with a {@code namespaceSelector}. */
  NAMESPACES,
  /** The selectors of Services: system default topology spreading, service affinity. */
  SERVICES,
  /** The selectors of ReplicationControllers: system default topology spreading. */
  REPLICATION_CONTROLLERS,
  /** The selectors of ReplicaSets: system default topology spreading. */
  REPLICA_SETS,
  /** The selectors of StatefulSets: system default topology spreading. */
  STATEFUL_SETS,
  /** PersistentVolumeClaims: volume binding, volume zones, attach limits, {@code ReadWriteOncePod}. */
  PERSISTENT_VOLUME_CLAIMS,
  /** PersistentVolumes: volume binding, volume zones, attach limits. */
  PERSISTENT_VOLUMES,
  /** StorageClasses: volume binding (binding mode, provisioner, allowed topologies), volume zones. */
  STORAGE_CLASSES,
  /** CSINodes: attach limits per CSI driver. */
  CSI_NODES,
  /** CSIDrivers: whether a driver's volumes are attached, and whether it tracks storage capacity. */
  CSI_DRIVERS,
  /** CSIStorageCapacities: capacity left for dynamic provisioning, where a CSI driver tracks it. */
  CSI_STORAGE_CAPACITIES,
  /** PodDisruptionBudgets ({@code policy/v1}): preemption prefers victims whose eviction violates none. */
  POD_DISRUPTION_BUDGETS,
  /** ResourceClaims ({@code resource.k8s.io/v1}): dynamic resource allocation. */
  RESOURCE_CLAIMS,
  /** ResourceSlices: the devices drivers publish, for dynamic resource allocation. */
  RESOURCE_SLICES,
  /** DeviceClasses: the classes claims ask for, for dynamic resource allocation. */
  DEVICE_CLASSES,
  /** DeviceTaintRules: taints admins put on devices, for dynamic resource allocation. */
  DEVICE_TAINT_RULES
}
