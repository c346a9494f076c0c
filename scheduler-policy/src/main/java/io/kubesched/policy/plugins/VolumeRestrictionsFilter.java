package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.Filter;
import io.kubesched.policy.FilterResult;
import io.kubesched.policy.Reason;
import java.util.List;

/**
 * kube-scheduler's {@code VolumeRestrictions} filter plugin (formerly the {@code NoDiskConflict} predicate):
 * a pod cannot join a node whose pods already mount one of its disks in a way the disk does not allow.
 *
 * <p>Two volumes conflict when they are of the same kind and:
 *
 * <ul>
 *   <li>GCE persistent disk: the same {@code pdName}, unless both are read-only;
 *   <li>AWS EBS: the same {@code volumeId}, read-only or not;
 *   <li>Ceph RBD: at least one monitor in common, the same pool and the same image, unless both are
 *       read-only;
 *   <li>iSCSI: the same IQN, unless both are read-only (portal and lun do not count, as in Kubernetes 1.37).
 * </ul>
 *
 * <p>A rejection has kube-scheduler's reason "node(s) had no available disk" ({@link Reason.DiskConflict},
 * describing the pod's volume) and code {@link FilterResult.Code#UNSCHEDULABLE}: evicting the other pod frees
 * the disk. The plugin's check of {@code ReadWriteOncePod} claims is not done here: the domain model carries
 * no persistent volume claims. Stateless and thread-safe.
 */
public final class VolumeRestrictionsFilter implements Filter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "VolumeRestrictions";

  /** Creates the filter; it has no arguments. */
  public VolumeRestrictionsFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    for (var volume : pod.volumes()) {
      for (var other : node.pods()) {
        if (conflictsWithAny(volume, other.volumes())) {
          return FilterResult.unschedulable(new Reason.DiskConflict(describe(volume)));
        }
      }
    }
    return FilterResult.fit();
  }

  private static boolean conflictsWithAny(Volume volume, List<Volume> existing) {
    for (var other : existing) {
      if (conflict(volume, other)) {
        return true;
      }
    }
    return false;
  }

  /** @return whether two pods on one node cannot mount {@code a} and {@code b} together */
  public static boolean conflict(Volume a, Volume b) {
    boolean bothReadOnly = a.readOnly() && b.readOnly();
    if (a instanceof Volume.GcePersistentDisk gce && b instanceof Volume.GcePersistentDisk other) {
      return gce.pdName().equals(other.pdName()) && !bothReadOnly;
    }
    if (a instanceof Volume.AwsElasticBlockStore ebs && b instanceof Volume.AwsElasticBlockStore other) {
      return ebs.volumeId().equals(other.volumeId());
    }
    if (a instanceof Volume.Iscsi iscsi && b instanceof Volume.Iscsi other) {
      return iscsi.iqn().equals(other.iqn()) && !bothReadOnly;
    }
    if (a instanceof Volume.Rbd rbd && b instanceof Volume.Rbd other) {
      return rbd.monitors().stream().anyMatch(other.monitors()::contains)
          && rbd.pool().equals(other.pool())
          && rbd.image().equals(other.image())
          && !bothReadOnly;
    }
    return false;
  }

  private static String describe(Volume volume) {
    if (volume instanceof Volume.GcePersistentDisk gce) {
      return "GCE persistent disk " + gce.pdName();
    }
    if (volume instanceof Volume.AwsElasticBlockStore ebs) {
      return "AWS EBS volume " + ebs.volumeId();
    }
    if (volume instanceof Volume.Iscsi iscsi) {
      return "iSCSI target " + iscsi.iqn();
    }
    var rbd = (Volume.Rbd) volume;
    return "RBD image " + rbd.pool() + "/" + rbd.image();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
