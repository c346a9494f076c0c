package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A pod's inline volume of a kind the volume rules read: the kinds whose use by two pods on one node can
 * conflict (kube-scheduler's volume restrictions; GCE PD and AWS EBS ones also count against the node's
 * attach limit of the CSI driver they migrate to) and inline CSI volumes. Other inline volume kinds are not
 * carried; volumes of claims are in {@link PodInfo#persistentVolumeClaims()}.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Volume {

  /** @return whether the pod mounts the volume read-only */
  boolean readOnly();

  /**
   * A GCE persistent disk.
   *
   * @param pdName the disk's name
   * @param readOnly whether it is mounted read-only
   */
  record GcePersistentDisk(String pdName, boolean readOnly) implements Volume {}

  /**
   * An AWS Elastic Block Store volume.
   *
   * @param volumeId the volume's id
   * @param readOnly whether it is mounted read-only
   */
  record AwsElasticBlockStore(String volumeId, boolean readOnly) implements Volume {}

  /**
   * A Ceph RBD image.
   *
   * @param monitors the Ceph monitors
   * @param pool the pool
   * @param image the image
   * @param readOnly whether it is mounted read-only
   */
  record Rbd(List<String> monitors, String pool, String image, boolean readOnly) implements Volume {
    public Rbd {
      monitors = List.copyOf(monitors);
    }
  }

  /**
   * An iSCSI disk.
   *
   * @param targetPortal the target portal
   * @param iqn the target's iSCSI qualified name
   * @param lun the target's lun
   * @param readOnly whether it is mounted read-only
   */
  record Iscsi(String targetPortal, String iqn, int lun, boolean readOnly) implements Volume {}

  /**
   * An inline CSI volume ({@code csi}): never in conflict with another pod's; kube-scheduler 1.37 does not
   * count it against the node's attach limit either (only volumes of claims and migrated in-tree ones).
   *
   * @param driver the CSI driver's name
   * @param volumeName the volume's name in the pod
   * @param readOnly whether it is mounted read-only
   */
  record Csi(String driver, String volumeName, boolean readOnly) implements Volume {}
}
