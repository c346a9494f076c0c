package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the volume rules read of a PersistentVolumeClaim.
 *
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid
 * @param storageClassName the claim's class: {@code spec.storageClassName}, or the legacy {@code
 *     volume.beta.kubernetes.io/storage-class} annotation where that is set (it wins, as in Kubernetes); empty
 *     for none
 * @param volumeName {@code spec.volumeName}: the volume the claim is bound (or pre-bound) to; empty if none
 * @param accessModes {@code spec.accessModes}
 * @param volumeMode {@code spec.volumeMode}, {@link VolumeMode#FILESYSTEM} if absent
 * @param requestedBytes {@code spec.resources.requests.storage} in bytes (rounded up); 0 if absent
 * @param selector {@code spec.selector}, null if absent (an absent selector restricts nothing)
 * @param volumeAttributesClassName {@code spec.volumeAttributesClassName}; empty if absent
 * @param lost whether {@code status.phase} is {@code Lost} (its volume is gone)
 * @param deleting whether the claim has a deletion timestamp
 * @param bindCompleted whether the PersistentVolume controller has finished binding it (annotation {@code
 *     pv.kubernetes.io/bind-completed})
 * @param selectedNode the annotation {@code volume.kubernetes.io/selected-node}: the node a scheduler chose
 *     for a delayed-binding claim; empty if none
 * @param ownerPodUid the uid of the pod that controls the claim (owner reference of kind {@code Pod} with
 *     {@code controller: true}), as for claims of generic ephemeral volumes; empty if none
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PersistentVolumeClaim(
    String namespace,
    String name,
    String uid,
    String storageClassName,
    String volumeName,
    Set<AccessMode> accessModes,
    VolumeMode volumeMode,
    long requestedBytes,
    @Nullable LabelSelector selector,
    String volumeAttributesClassName,
    boolean lost,
    boolean deleting,
    boolean bindCompleted,
    String selectedNode,
    String ownerPodUid) {

  public PersistentVolumeClaim {
    accessModes = Set.copyOf(accessModes);
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }

  /** @return whether the claim names a volume ({@code spec.volumeName} is set) */
  public boolean isBound() {
    return !volumeName.isEmpty();
  }

  /** @return this claim annotated with the node chosen for it ({@code volume.kubernetes.io/selected-node}) */
  public PersistentVolumeClaim withSelectedNode(String selectedNode) {
    return new PersistentVolumeClaim(
        namespace, name, uid, storageClassName, volumeName, accessModes, volumeMode, requestedBytes, selector,
        volumeAttributesClassName, lost, deleting, bindCompleted, selectedNode, ownerPodUid);
  }
}
