package io.kubesched.policy.plugins.volumerestrictions;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.StorageObjectNotFound;
import io.kubesched.policy.plugins.helper.PodVolumeClaims;
import io.kubesched.policy.plugins.helper.Untracked;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 *
 * <p>The prepared filter is {@link PodTracking}, for preemption: its {@linkplain Prepared#track() trackers}
 * count the pods added and removed that use the pod's {@code ReadWriteOncePod} claims, as kube's PreFilter
 * extensions {@code AddPod}/{@code RemovePod} do. Kube keeps one number, the claims in use, and changes it by
 * the number of a pod's volumes that name one of the claims; this filter keeps, per claim, the number of pods
 * of the pod's namespace that use it. The two agree whenever each claim has at most one user in the namespace
 * (what {@code ReadWriteOncePod} ensures for running pods); where they differ kube's count is wrong (removing
 * one of two users frees the claim in kube's count; a pod of another namespace using a claim of the same name
 * counts in kube's), and this filter gives the verdict of a snapshot without (or with) the pod.
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

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and AssignedPod Delete. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a pod's deletion helps if the pod had a volume that conflicts with one of the
   * waiting pod's, or was in its namespace and named one of its claims in a {@code persistentVolumeClaim} volume
   * (whether the claim is {@code ReadWriteOncePod} is not looked up, as in kube). Kube's hint skips a pod of
   * another namespace altogether; this one does not for a disk, which conflicts across namespaces. Any node added
   * may help (kube registers it without a hint).
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (!(update instanceof ClusterUpdate.AssignedPodDeleted deleted)) {
      return true;
    }
    var gone = deleted.pod();
    for (var volume : pod.volumes()) {
      if (conflictsWithAny(volume, gone.volumes())) {
        return true;
      }
    }
    if (!gone.namespace().equals(pod.namespace())) {
      return false;
    }
    var claims = PodVolumeClaims.direct(pod);
    for (var claim : PodVolumeClaims.direct(gone)) {
      if (claims.contains(claim)) {
        return true;
      }
    }
    return false;
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
    var users = new HashMap<String, Integer>();
    if (!readWriteOncePod.isEmpty()) {
      for (var node : cluster.nodes()) {
        for (var other : node.pods()) {
          countUser(other, pod.namespace(), readWriteOncePod, users, 1);
        }
      }
    }
    boolean needsCheck = pod.volumes().stream().anyMatch(VolumeRestrictionsFilter::canConflict);
    return new Prepared(
        !needsCheck && users.isEmpty(), needsCheck, pod.namespace(), List.copyOf(readWriteOncePod), users);
  }

  /**
   * Adds {@code delta} to the users of each of {@code claims} that {@code pod} names in a {@code
   * persistentVolumeClaim} volume, if it is in {@code namespace}; a count reaching 0 is removed.
   */
  private static void countUser(
      PodInfo pod, String namespace, Set<String> claims, Map<String, Integer> users, int delta) {
    if (!pod.namespace().equals(namespace)) {
      return;
    }
    var named = PodVolumeClaims.direct(pod);
    for (int i = 0; i < named.size(); i++) {
      var claim = named.get(i);
      if (claims.contains(claim) && named.indexOf(claim) == i) {
        users.merge(claim, delta, (a, b) -> a + b == 0 ? null : a + b);
      }
    }
  }

  /** @return the {@code ReadWriteOncePod} conflict, if a claim of {@code claims} has users; else a fit */
  private static FilterResult readWriteOncePodConflict(List<String> claims, Map<String, Integer> users) {
    if (users.isEmpty()) {
      return FilterResult.fit();
    }
    var inUse = new ArrayList<String>(users.size());
    for (var claim : claims) {
      if (users.getOrDefault(claim, 0) > 0) {
        inUse.add(claim);
      }
    }
    return inUse.isEmpty() ? FilterResult.fit() : FilterResult.unschedulable(new ReadWriteOncePodConflict(inUse));
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
   * One pod's filter: kube's {@code preFilterState}. Immutable.
   */
  static final class Prepared implements Filter, PodTracking {
    private final boolean skipped;
    private final boolean checkDisks;
    private final String namespace;
    private final List<String> claims;
    private final Map<String, Integer> users;
    private final FilterResult everyNode;

    /**
     * @param skipped whether kube's PreFilter skips the pod: nothing to check, every node fits
     * @param checkDisks whether the pod has a volume that can conflict with a node's pods' volumes
     * @param namespace the pod's namespace
     * @param claims the pod's {@code ReadWriteOncePod} claims, in its order
     * @param users per claim of {@code claims} with users, the number of the namespace's placed pods using it
     */
    Prepared(boolean skipped, boolean checkDisks, String namespace, List<String> claims, Map<String, Integer> users) {
      this.skipped = skipped;
      this.checkDisks = checkDisks;
      this.namespace = namespace;
      this.claims = List.copyOf(claims);
      this.users = Map.copyOf(users);
      this.everyNode = readWriteOncePodConflict(this.claims, this.users);
    }

    /** @return whether kube's PreFilter skips the pod: nothing to check, every node fits */
    boolean skipped() {
      return skipped;
    }

    /** @return whether the pod has a volume that can conflict with a node's pods' volumes */
    boolean checkDisks() {
      return checkDisks;
    }

    /** @return the result for every node once its disks are checked: a fit or the {@code ReadWriteOncePod} conflict */
    FilterResult everyNode() {
      return everyNode;
    }

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
      return disksThen(pod, node, everyNode);
    }

    /**
     * @param claims the {@code ReadWriteOncePod} result for {@code node}
     * @return the node's disk conflicts with {@code pod} if the pod has volumes to check and there are any, else
     *     {@code claims}
     */
    FilterResult disksThen(PodInfo pod, NodeInfo node, FilterResult claims) {
      if (checkDisks) {
        var disks = diskConflicts(pod, node);
        if (!disks.fits()) {
          return disks;
        }
      }
      return claims;
    }

    /**
     * @return a tracker with a copy of the claims' users; one that fits every node and ignores pods when kube's
     *     PreFilter skipped the pod (kube then calls neither {@code AddPod} nor the filter)
     */
    @Override
    public PodTracking.Tracker track() {
      return skipped ? new Untracked(NAME) : new ClaimTracker(this);
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }

  /**
   * A private, mutable copy of a {@link Prepared} filter's count of users per {@code ReadWriteOncePod} claim:
   * a pod added or removed (in the prepared pod's namespace) changes by one the count of each of those claims
   * it names. Confined to the thread that took it.
   */
  static final class ClaimTracker implements PodTracking.Tracker {
    private final Prepared prepared;
    private final Set<String> claims;
    private final Map<String, Integer> users;

    private ClaimTracker(Prepared prepared) {
      this.prepared = prepared;
      this.claims = Set.copyOf(prepared.claims);
      this.users = new HashMap<>(prepared.users);
    }

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
      return prepared.disksThen(pod, node, readWriteOncePodConflict(prepared.claims, users));
    }

    @Override
    public void addPod(PodInfo pod, NodeInfo node) {
      countUser(pod, prepared.namespace, claims, users, 1);
    }

    @Override
    public void removePod(PodInfo pod, NodeInfo node) {
      countUser(pod, prepared.namespace, claims, users, -1);
    }

    @Override
    public String toString() {
      return NAME + "{tracker}";
    }
  }
}
