package io.kubesched.engine;

import java.util.Objects;

/**
 * A change in the cluster that may let waiting pods fit, as kube-scheduler's {@code framework.ClusterEvent}:
 * what changed ({@link Resource}) and how ({@link ActionType}). The queue moves pods by it; its {@link
 * #label()} names it in logs and metrics.
 *
 * @param resource what kind of object changed
 * @param actionType how it changed
 * @param label the event's name, kube-scheduler's label where it has one ({@code "NodeAdd"}); not blank
 */
public record ClusterEvent(Resource resource, ActionType actionType, String label) {

  /** What kind of object changed. */
  public enum Resource {
    /** A node. */
    NODE,
    /** A pod bound to a node. */
    ASSIGNED_POD,
    /** A namespace (where the policy reads namespaces). */
    NAMESPACE,
    /** A PersistentVolumeClaim (where the policy reads them). */
    PERSISTENT_VOLUME_CLAIM,
    /** A PersistentVolume (where the policy reads them). */
    PERSISTENT_VOLUME,
    /** A StorageClass (where the policy reads them). */
    STORAGE_CLASS,
    /** A CSINode (where the policy reads them). */
    CSI_NODE,
    /** A CSIDriver (where the policy reads them). */
    CSI_DRIVER,
    /** A CSIStorageCapacity (where the policy reads them). */
    CSI_STORAGE_CAPACITY,
    /** A ResourceClaim (where the policy reads them: dynamic resource allocation). */
    RESOURCE_CLAIM,
    /** A ResourceSlice (where the policy reads them). */
    RESOURCE_SLICE,
    /** A DeviceClass (where the policy reads them). */
    DEVICE_CLASS,
    /** A DeviceTaintRule (where the policy reads them). */
    DEVICE_TAINT_RULE,
    /** Anything: the event is not about one kind of object (a relist, a timeout). */
    WILDCARD
  }

  /** How the object changed. */
  public enum ActionType {
    ADD,
    UPDATE,
    DELETE,
    /** Any of them, or not known. */
    ALL
  }

  /** A node was added. */
  public static final ClusterEvent NODE_ADD = new ClusterEvent(Resource.NODE, ActionType.ADD, "NodeAdd");

  /** A node changed in what placement reads (labels, taints, unschedulable, allocatable, declared features). */
  public static final ClusterEvent NODE_UPDATE = new ClusterEvent(Resource.NODE, ActionType.UPDATE, "NodeUpdate");

  /** A node was deleted. */
  public static final ClusterEvent NODE_DELETE = new ClusterEvent(Resource.NODE, ActionType.DELETE, "NodeDelete");

  /** A pod was bound, by anyone. */
  public static final ClusterEvent ASSIGNED_POD_ADD =
      new ClusterEvent(Resource.ASSIGNED_POD, ActionType.ADD, "AssignedPodAdd");

  /** A bound pod was relabelled. */
  public static final ClusterEvent ASSIGNED_POD_UPDATE =
      new ClusterEvent(Resource.ASSIGNED_POD, ActionType.UPDATE, "AssignedPodUpdate");

  /** A bound pod was deleted: its node has room again. */
  public static final ClusterEvent ASSIGNED_POD_DELETE =
      new ClusterEvent(Resource.ASSIGNED_POD, ActionType.DELETE, "AssignedPodDelete");

  /** A bound pod finished ({@code Succeeded} or {@code Failed}): it no longer holds its node's resources. */
  public static final ClusterEvent ASSIGNED_POD_FINISHED =
      new ClusterEvent(Resource.ASSIGNED_POD, ActionType.UPDATE, "AssignedPodFinished");

  /** A namespace was added or relabelled. */
  public static final ClusterEvent NAMESPACE_CHANGE =
      new ClusterEvent(Resource.NAMESPACE, ActionType.ALL, "NamespaceChange");

  // The storage events kube-scheduler's VolumeBinding, VolumeZone, NodeVolumeLimits and VolumeRestrictions
  // plugins register (EventsToRegister), under kube's labels: the resource's name (with its API group for
  // storage.k8s.io) and the action. Deletes are not among them: a storage object gone helps no pod.

  /** A PersistentVolumeClaim was added. */
  public static final ClusterEvent PERSISTENT_VOLUME_CLAIM_ADD =
      new ClusterEvent(Resource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, "PersistentVolumeClaimAdd");

  /** A PersistentVolumeClaim changed in what the volume rules read. */
  public static final ClusterEvent PERSISTENT_VOLUME_CLAIM_UPDATE =
      new ClusterEvent(Resource.PERSISTENT_VOLUME_CLAIM, ActionType.UPDATE, "PersistentVolumeClaimUpdate");

  /** A PersistentVolume was added. */
  public static final ClusterEvent PERSISTENT_VOLUME_ADD =
      new ClusterEvent(Resource.PERSISTENT_VOLUME, ActionType.ADD, "PersistentVolumeAdd");

  /** A PersistentVolume changed in what the volume rules read. */
  public static final ClusterEvent PERSISTENT_VOLUME_UPDATE =
      new ClusterEvent(Resource.PERSISTENT_VOLUME, ActionType.UPDATE, "PersistentVolumeUpdate");

  /** A StorageClass was added. */
  public static final ClusterEvent STORAGE_CLASS_ADD =
      new ClusterEvent(Resource.STORAGE_CLASS, ActionType.ADD, "storage.k8s.io/StorageClassAdd");

  /** A StorageClass changed in what the volume rules read. */
  public static final ClusterEvent STORAGE_CLASS_UPDATE =
      new ClusterEvent(Resource.STORAGE_CLASS, ActionType.UPDATE, "storage.k8s.io/StorageClassUpdate");

  /** A CSINode was added. */
  public static final ClusterEvent CSI_NODE_ADD =
      new ClusterEvent(Resource.CSI_NODE, ActionType.ADD, "storage.k8s.io/CSINodeAdd");

  /** A CSINode changed in what the volume rules read (its drivers, their limits or topology keys). */
  public static final ClusterEvent CSI_NODE_UPDATE =
      new ClusterEvent(Resource.CSI_NODE, ActionType.UPDATE, "storage.k8s.io/CSINodeUpdate");

  /** A CSIDriver changed in what the volume rules read (kube registers no CSIDriver add). */
  public static final ClusterEvent CSI_DRIVER_UPDATE =
      new ClusterEvent(Resource.CSI_DRIVER, ActionType.UPDATE, "storage.k8s.io/CSIDriverUpdate");

  /** A CSIStorageCapacity was added. */
  public static final ClusterEvent CSI_STORAGE_CAPACITY_ADD =
      new ClusterEvent(Resource.CSI_STORAGE_CAPACITY, ActionType.ADD, "storage.k8s.io/CSIStorageCapacityAdd");

  /** A CSIStorageCapacity changed in what the volume rules read. */
  public static final ClusterEvent CSI_STORAGE_CAPACITY_UPDATE =
      new ClusterEvent(Resource.CSI_STORAGE_CAPACITY, ActionType.UPDATE, "storage.k8s.io/CSIStorageCapacityUpdate");

  // The dynamic resource allocation events, under kube's labels (kube-scheduler's EventResource names with the
  // action). kube's DynamicResources plugin registers ResourceClaim add, update and delete, DeviceClass add and
  // update, and ResourceSlice add and update; it hears a DeviceTaintRule change as an update of the slices whose
  // devices it taints (its slice tracker), which the DeviceTaintRule events here stand for.

  /** A ResourceClaim was added. */
  public static final ClusterEvent RESOURCE_CLAIM_ADD =
      new ClusterEvent(Resource.RESOURCE_CLAIM, ActionType.ADD, "resource.k8s.io/ResourceClaimAdd");

  /** A ResourceClaim changed in what the allocator reads. */
  public static final ClusterEvent RESOURCE_CLAIM_UPDATE =
      new ClusterEvent(Resource.RESOURCE_CLAIM, ActionType.UPDATE, "resource.k8s.io/ResourceClaimUpdate");

  /** A ResourceClaim was deleted: its devices are free again. */
  public static final ClusterEvent RESOURCE_CLAIM_DELETE =
      new ClusterEvent(Resource.RESOURCE_CLAIM, ActionType.DELETE, "resource.k8s.io/ResourceClaimDelete");

  /** A ResourceSlice was added. */
  public static final ClusterEvent RESOURCE_SLICE_ADD =
      new ClusterEvent(Resource.RESOURCE_SLICE, ActionType.ADD, "resource.k8s.io/ResourceSliceAdd");

  /** A ResourceSlice changed in what the allocator reads. */
  public static final ClusterEvent RESOURCE_SLICE_UPDATE =
      new ClusterEvent(Resource.RESOURCE_SLICE, ActionType.UPDATE, "resource.k8s.io/ResourceSliceUpdate");

  /** A ResourceSlice was deleted (kube registers no slice delete: fewer devices help no pod). */
  public static final ClusterEvent RESOURCE_SLICE_DELETE =
      new ClusterEvent(Resource.RESOURCE_SLICE, ActionType.DELETE, "resource.k8s.io/ResourceSliceDelete");

  /** A DeviceClass was added. */
  public static final ClusterEvent DEVICE_CLASS_ADD =
      new ClusterEvent(Resource.DEVICE_CLASS, ActionType.ADD, "resource.k8s.io/DeviceClassAdd");

  /** A DeviceClass changed in what the allocator reads. */
  public static final ClusterEvent DEVICE_CLASS_UPDATE =
      new ClusterEvent(Resource.DEVICE_CLASS, ActionType.UPDATE, "resource.k8s.io/DeviceClassUpdate");

  /** A DeviceClass was deleted (kube registers no class delete). */
  public static final ClusterEvent DEVICE_CLASS_DELETE =
      new ClusterEvent(Resource.DEVICE_CLASS, ActionType.DELETE, "resource.k8s.io/DeviceClassDelete");

  /** A DeviceTaintRule was added (kube hears it as an update of the slices it taints). */
  public static final ClusterEvent DEVICE_TAINT_RULE_ADD =
      new ClusterEvent(Resource.DEVICE_TAINT_RULE, ActionType.ADD, "resource.k8s.io/DeviceTaintRuleAdd");

  /** A DeviceTaintRule changed (kube hears it as an update of the slices it taints). */
  public static final ClusterEvent DEVICE_TAINT_RULE_UPDATE =
      new ClusterEvent(Resource.DEVICE_TAINT_RULE, ActionType.UPDATE, "resource.k8s.io/DeviceTaintRuleUpdate");

  /** A DeviceTaintRule was deleted: its taints are gone (kube hears it as an update of the slices). */
  public static final ClusterEvent DEVICE_TAINT_RULE_DELETE =
      new ClusterEvent(Resource.DEVICE_TAINT_RULE, ActionType.DELETE, "resource.k8s.io/DeviceTaintRuleDelete");

  /** A profile's policy was replaced: its pods may fit now where the old policy found no node. */
  public static final ClusterEvent POLICY_CHANGE = new ClusterEvent(Resource.WILDCARD, ActionType.ALL, "PolicyChange");

  /** The informers listed the cluster again after losing their watches: anything may have changed. */
  public static final ClusterEvent RELIST = new ClusterEvent(Resource.WILDCARD, ActionType.ALL, "Relist");

  /** A pod waited as unschedulable longer than the queue's limit (kube's {@code UnschedulableTimeout}). */
  public static final ClusterEvent UNSCHEDULABLE_TIMEOUT =
      new ClusterEvent(Resource.WILDCARD, ActionType.ALL, "UnschedulableTimeout");

  /** @throws IllegalArgumentException if the label is blank */
  public ClusterEvent {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(actionType, "actionType");
    if (label == null || label.isBlank()) {
      throw new IllegalArgumentException("a cluster event needs a label");
    }
  }

  /** @return the {@link #label()} */
  @Override
  public String toString() {
    return label;
  }
}
