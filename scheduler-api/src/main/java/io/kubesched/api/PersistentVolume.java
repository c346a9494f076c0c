package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the volume rules read of a PersistentVolume.
 *
 * @param name the volume's name
 * @param storageClassName {@code spec.storageClassName} (or the legacy {@code
 *     volume.beta.kubernetes.io/storage-class} annotation, which wins); empty for none
 * @param capacityBytes {@code spec.capacity.storage} in bytes; 0 if absent
 * @param accessModes {@code spec.accessModes}
 * @param volumeMode {@code spec.volumeMode}, {@link VolumeMode#FILESYSTEM} if absent
 * @param volumeAttributesClassName {@code spec.volumeAttributesClassName}; empty if absent
 * @param nodeAffinity the terms of {@code spec.nodeAffinity.required}: a node must match one; empty when the
 *     volume can be reached from every node
 * @param labels the volume's labels (zone and region labels among them)
 * @param claimRef {@code spec.claimRef}: the claim it is bound or reserved to; null if none
 * @param phase {@code status.phase}
 * @param deleting whether the volume has a deletion timestamp
 * @param csiDriver the CSI driver that attaches it: its {@code csi} source's driver, or, for an in-tree source
 *     Kubernetes migrates to CSI (GCE PD, AWS EBS, Azure Disk, Cinder, ...), the driver it migrates to; empty
 *     for a volume no CSI driver attaches (local, hostPath, NFS, ...)
 * @param csiVolumeHandle the volume's handle for that driver (its {@code csi.volumeHandle}, or the in-tree
 *     source's disk id); empty if {@code csiDriver} is
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PersistentVolume(
    String name,
    String storageClassName,
    long capacityBytes,
    Set<AccessMode> accessModes,
    VolumeMode volumeMode,
    String volumeAttributesClassName,
    List<NodeSelectorTerm> nodeAffinity,
    Map<String, String> labels,
    @Nullable ClaimRef claimRef,
    Phase phase,
    boolean deleting,
    String csiDriver,
    String csiVolumeHandle) {

  /** {@code status.phase} of a PersistentVolume. */
  public enum Phase {
    /** Not yet available (an absent phase reads as this). */
    PENDING,
    /** Free to be bound to a claim. */
    AVAILABLE,
    /** Bound to a claim. */
    BOUND,
    /** Its claim was deleted; not yet reclaimed. */
    RELEASED,
    /** Its automatic reclamation failed. */
    FAILED
  }

  public PersistentVolume {
    accessModes = Set.copyOf(accessModes);
    nodeAffinity = List.copyOf(nodeAffinity);
    labels = Map.copyOf(labels);
  }

  /** @return this volume reserved to {@code claim}, as a scheduler's reservation makes it look */
  public PersistentVolume withClaimRef(ClaimRef claim) {
    return new PersistentVolume(
        name, storageClassName, capacityBytes, accessModes, volumeMode, volumeAttributesClassName, nodeAffinity,
        labels, claim, phase, deleting, csiDriver, csiVolumeHandle);
  }
}
