package io.kubesched.engine;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Turns the cluster events that only some waiting pods care about into targeted moves of the {@link
 * SchedulingQueue}, as the queueing hints of kube-scheduler's InterPodAffinity, PodTopologySpread, volume and
 * DynamicResources plugins do; each asks the pods' {@link QueueingHint}s. The events that can help any pod (a node added or
 * changed, a bound pod removed) still move every waiting pod, through {@link
 * SchedulingQueue#moveAllToActiveOrBackoff}.
 *
 * <p>Called from the informers' handler threads; never blocks beyond the queue's lock.
 */
public final class ClusterEventMoves {

  private final SchedulingQueue queue;

  public ClusterEventMoves(SchedulingQueue queue) {
    this.queue = Objects.requireNonNull(queue, "queue");
  }

  /**
   * A pod was bound, by anyone (kube's AssignedPod/Add): it may complete a waiting pod's required pod
   * affinity, or change a spread constraint's counts. Looks only at the waiting pods that have such
   * constraints, so a stream of bindings costs nothing while none waits.
   */
  public void assignedPodAdded(String namespace, Map<String, String> labels) {
    queue.moveWaitingForPods(ClusterEvent.ASSIGNED_POD_ADD, hint -> hint.movedByAssignedPodAdded(namespace, labels));
  }

  /**
   * A bound pod was updated (kube's AssignedPod/UpdatePodLabel): only a change of its labels can help.
   *
   * @param before the pod's labels before the update
   * @param after its labels now
   */
  public void assignedPodUpdated(String namespace, Map<String, String> before, Map<String, String> after) {
    if (before.equals(after)) {
      return;
    }
    queue.moveWaitingForPods(
        ClusterEvent.ASSIGNED_POD_UPDATE, hint -> hint.movedByAssignedPodRelabelled(namespace, before, after));
  }

  /** A node was deleted (kube's PodTopologySpread Node/Delete): a topology domain may be gone. */
  public void nodeDeleted(Map<String, String> labels) {
    queue.moveUnschedulableIf(ClusterEvent.NODE_DELETE, (pod, hint) -> hint.movedByNodeDeleted(labels));
  }

  /**
   * A claim was added or changed in what the volume rules read, where the policy reads claims: it moves the
   * unschedulable pods that use it.
   *
   * @param event {@link ClusterEvent#PERSISTENT_VOLUME_CLAIM_ADD} or {@link
   *     ClusterEvent#PERSISTENT_VOLUME_CLAIM_UPDATE}
   * @throws IllegalArgumentException for another event
   */
  public void claimChanged(ClusterEvent event, String namespace, String name) {
    if (event.resource() != ClusterEvent.Resource.PERSISTENT_VOLUME_CLAIM || !registered(event)) {
      throw new IllegalArgumentException("not a claim added or updated: " + event);
    }
    queue.moveUnschedulableIf(event, (pod, hint) -> hint.movedByClaimChanged(namespace, name));
  }

  /**
   * A PersistentVolume, StorageClass, CSINode, CSIDriver or CSIStorageCapacity was added or changed in what
   * the volume rules read, where the policy reads them. As kube registers: volumes, classes and capacities
   * move the unschedulable pods with claims; CSINodes and CSIDrivers also those with attached inline volumes.
   * A CSIDriver added, and any storage object deleted, moves nothing (kube registers neither).
   *
   * @param event one of the storage constants of {@link ClusterEvent} other than the claims'
   * @throws IllegalArgumentException for another event
   */
  public void storageChanged(ClusterEvent event) {
    if (!registered(event)) {
      throw new IllegalArgumentException("not a storage event kube-scheduler registers: " + event);
    }
    switch (event.resource()) {
      case PERSISTENT_VOLUME, STORAGE_CLASS, CSI_STORAGE_CAPACITY ->
          queue.moveUnschedulableIf(event, (pod, hint) -> hint.movedByVolumeSupplyChanged());
      case CSI_NODE, CSI_DRIVER -> queue.moveUnschedulableIf(event, (pod, hint) -> hint.movedByCsiChanged());
      default -> throw new IllegalArgumentException("not a storage event kube-scheduler registers: " + event);
    }
  }

  /** Whether kube's volume plugins register {@code event}: an add or update, no CSIDriver add. */
  private static boolean registered(ClusterEvent event) {
    return switch (event.resource()) {
      case PERSISTENT_VOLUME_CLAIM, PERSISTENT_VOLUME, STORAGE_CLASS, CSI_NODE, CSI_STORAGE_CAPACITY ->
          event.actionType() == ClusterEvent.ActionType.ADD || event.actionType() == ClusterEvent.ActionType.UPDATE;
      case CSI_DRIVER -> event.actionType() == ClusterEvent.ActionType.UPDATE;
      default -> false;
    };
  }

  /**
   * A ResourceSlice, DeviceClass or DeviceTaintRule changed, where the policy reads them: the events kube's
   * DynamicResources and NodeResourcesFit register (slices and classes added or updated; a taint rule's change,
   * which kube hears as slice updates) move the unschedulable pods that {@linkplain QueueingHint#waitsForDevices()
   * wait for devices}. A slice or class deleted moves nothing, as in kube.
   *
   * @param event a slice, class or taint rule constant of {@link ClusterEvent}
   * @throws IllegalArgumentException for another event
   */
  public void deviceSupplyChanged(ClusterEvent event) {
    boolean registered =
        switch (event.resource()) {
          case DEVICE_TAINT_RULE -> event.actionType() != ClusterEvent.ActionType.ALL;
          case RESOURCE_SLICE, DEVICE_CLASS ->
              event.actionType() == ClusterEvent.ActionType.ADD || event.actionType() == ClusterEvent.ActionType.UPDATE;
          default -> throw new IllegalArgumentException("not a slice, class or taint rule event: " + event);
        };
    if (registered) {
      queue.moveUnschedulableIf(event, (pod, hint) -> hint.movedByDeviceSupplyChanged());
    }
  }

  /**
   * A ResourceClaim was added, its status changed, or it was deleted, where the policy reads claims (kube's
   * DynamicResources {@code isSchedulableAfterClaimChange}): it moves the unschedulable pods whose claim it is,
   * unless deleted, and, when it freed devices, every pod that waits for devices ({@link
   * QueueingHint#movedByDeviceClaimChanged}). An update that changed nothing of the claim's status (a finalizer
   * added) is not an event here: the caller leaves it out.
   *
   * @param event {@link ClusterEvent#RESOURCE_CLAIM_ADD}, {@code _UPDATE} or {@code _DELETE}
   * @param ownerUid the uid of the claim's controller, {@code null} if none
   * @param freesDevices whether the event freed devices: the claim was deallocated, or deleted while allocated, or
   *     deleted in a final state not known
   * @throws IllegalArgumentException for another event
   */
  public void deviceClaimChanged(
      ClusterEvent event, String namespace, String name, @Nullable String ownerUid, boolean freesDevices) {
    if (event.resource() != ClusterEvent.Resource.RESOURCE_CLAIM || event.actionType() == ClusterEvent.ActionType.ALL) {
      throw new IllegalArgumentException("not a claim added, updated or deleted: " + event);
    }
    boolean deleted = event.actionType() == ClusterEvent.ActionType.DELETE;
    queue.moveUnschedulableIf(
        event,
        (pod, hint) -> hint.movedByDeviceClaimChanged(pod.uid(), namespace, name, ownerUid, freesDevices, deleted));
  }

  /** A namespace was added or relabelled, where the policy reads namespaces. */
  public void namespaceChanged(String namespace) {
    queue.moveUnschedulableIf(
        ClusterEvent.NAMESPACE_CHANGE, (pod, hint) -> hint.movedByNamespaceChanged(pod.namespace(), namespace));
  }
}
