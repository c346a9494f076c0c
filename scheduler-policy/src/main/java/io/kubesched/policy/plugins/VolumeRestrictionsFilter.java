package io.kubesched.policy.plugins;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.Filter;
import io.kubesched.policy.FilterResult;
import io.kubesched.policy.PreFilter;
import io.kubesched.policy.Reason;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-scheduler's {@code VolumeRestrictions} filter plugin (PreFilter and Filter; formerly the {@code
 * NoDiskConflict} predicate), as of 1.37: a pod cannot join a node whose pods already mount one of its disks in
 * a way the disk does not allow, nor use a {@code ReadWriteOncePod} claim another pod of the cluster uses.
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
 * <p>Inline CSI volumes ({@link Volume.Csi}) never conflict. A rejection has kube-scheduler's reason "node(s) had
 * no available disk" ({@link Reason.DiskConflict}, describing the pod's volume) and code {@link
 * FilterResult.Code#UNSCHEDULABLE}: evicting the other pod frees the disk.
 *
 * <p>{@link #prepare} (kube's PreFilter) looks up, in the snapshot's {@link io.kubesched.api.Storage}, each
 * claim the pod names in a {@code persistentVolumeClaim} volume (not those of its generic ephemeral volumes,
 * as in kube). A claim that does not exist rejects every node, {@link
 * FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}, with {@link StorageObjectNotFound}. When a claim with
 * access mode {@code ReadWriteOncePod} is named by a {@code persistentVolumeClaim} volume of any pod on any
 * node of the snapshot, every node is rejected, {@link FilterResult.Code#UNSCHEDULABLE} (preempting that pod
 * frees the claim), with {@link ReadWriteOncePodConflict}; a disk conflict on the node is reported first.
 *
 * <p>{@link #filter} on this unprepared filter checks only the disk conflicts with the node's pods: the
 * {@code ReadWriteOncePod} check needs the whole snapshot. Stateless and thread-safe, as are the filters it
 * prepares.
 */
public final class VolumeRestrictionsFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "VolumeRestrictions";

  private static final Set<ClusterData> READS = Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS);

  /**
   * A {@code ReadWriteOncePod} claim of the pod is already used by another pod of the cluster.
   *
   * @param claims the pod's claims (names in its namespace) that other pods use, in the pod's order
   */
  public record ReadWriteOncePodConflict(List<String> claims) implements Reason {
    public ReadWriteOncePodConflict {
      claims = List.copyOf(claims);
    }

    @Override
    public String message() {
      return "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already "
          + "in-use by another pod";
    }
  }

  /** Creates the filter; it has no arguments. */
  public VolumeRestrictionsFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** @return the claims: their access modes decide the {@code ReadWriteOncePod} check */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Checks only the disk conflicts between the pod's volumes and those of the node's pods; use {@link
   * #prepare} for kube's whole check.
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return diskConflicts(pod, node);
  }

  /**
   * Finds the pod's {@code ReadWriteOncePod} claims and whether another pod of {@code cluster} uses one. Costs
   * one lookup per claim of the pod and, when it has a {@code ReadWriteOncePod} claim, one pass over every pod
   * of the cluster.
   *
   * @return the filter of {@code pod}'s nodes: one that rejects every node when a claim is missing; one that
   *     fits every node when the pod has neither a volume that can conflict nor a claim in use (kube's Skip)
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var storage = cluster.storage();
    var readWriteOncePod = new LinkedHashSet<String>();
    for (var claimName : PodVolumeClaims.direct(pod)) {
      var claim = storage.claim(pod.namespace(), claimName);
      if (claim.isEmpty()) {
        return PreFilter.rejectPod(NAME, FilterResult.unresolvable(StorageObjectNotFound.claim(claimName)));
      }
      if (claim.get().accessModes().contains(AccessMode.READ_WRITE_ONCE_POD)) {
        readWriteOncePod.add(claimName);
      }
    }
    var inUse = readWriteOncePod.isEmpty() ? List.<String>of() : usedByOtherPods(pod, readWriteOncePod, cluster);
    boolean needsCheck = pod.volumes().stream().anyMatch(VolumeRestrictionsFilter::canConflict);
    if (!needsCheck && inUse.isEmpty()) {
      return new Prepared(FilterResult.fit(), false);
    }
    var rejection =
        inUse.isEmpty() ? FilterResult.fit() : FilterResult.unschedulable(new ReadWriteOncePodConflict(inUse));
    return new Prepared(rejection, needsCheck);
  }

  /** @return the claims of {@code claims} that a {@code persistentVolumeClaim} volume of a placed pod names */
  private static List<String> usedByOtherPods(PodInfo pod, Set<String> claims, ClusterSnapshot cluster) {
    var used = new HashSet<String>();
    for (var node : cluster.nodes()) {
      for (var other : node.pods()) {
        if (other.namespace().equals(pod.namespace())) {
          for (var claim : PodVolumeClaims.direct(other)) {
            if (claims.contains(claim)) {
              used.add(claim);
            }
          }
        }
      }
    }
    var inOrder = new ArrayList<String>(used.size());
    claims.forEach(claim -> {
      if (used.contains(claim)) {
        inOrder.add(claim);
      }
    });
    return inOrder;
  }

  private static boolean canConflict(Volume volume) {
    return volume instanceof Volume.GcePersistentDisk
        || volume instanceof Volume.AwsElasticBlockStore
        || volume instanceof Volume.Rbd
        || volume instanceof Volume.Iscsi;
  }

  private static FilterResult diskConflicts(PodInfo pod, NodeInfo node) {
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
    if (volume instanceof Volume.Rbd rbd) {
      return "RBD image " + rbd.pool() + "/" + rbd.image();
    }
    var csi = (Volume.Csi) volume;
    return "CSI volume " + csi.volumeName() + " of " + csi.driver();
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * One pod's filter: kube's {@code preFilterState}, already resolved to the verdict it gives every node.
   *
   * @param everyNode the result for every node once its disks are checked: a fit, the {@code
   *     ReadWriteOncePod} conflict, or the PreFilter's rejection
   * @param checkDisks whether the pod has a volume that can conflict with a node's pods' volumes
   */
  record Prepared(FilterResult everyNode, boolean checkDisks) implements Filter {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return READS;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      if (checkDisks) {
        var disks = diskConflicts(pod, node);
        if (!disks.fits()) {
          return disks;
        }
      }
      return everyNode;
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }
}
