package io.kubesched.api;

import java.util.List;

/**
 * A pod volume of a kind whose use by two pods on one node can conflict: the kinds kube-scheduler's
 * volume restrictions check. Other volume kinds never conflict and are not carried.
 */
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
}
