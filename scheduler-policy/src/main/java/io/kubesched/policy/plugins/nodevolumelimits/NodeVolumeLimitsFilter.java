package io.kubesched.policy.plugins.nodevolumelimits;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.CsiNode;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.api.Volume;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code NodeVolumeLimits} filter plugin (Kubernetes 1.37's {@code nodevolumelimits/csi.go}):
 * a pod cannot join a node where, for some CSI driver, the volumes the node's pods already use plus the pod's
 * new ones would be more than the driver's {@code allocatable.count} in the node's CSINode.
 *
 * <p>What counts, per CSI driver, each volume once (by driver and volume handle):
 *
 * <ul>
 *   <li>a claim bound to a PersistentVolume with a {@linkplain io.kubesched.api.PersistentVolume#csiDriver()
 *       CSI driver} and volume handle (an in-tree volume that Kubernetes migrates to CSI counts for the driver
 *       it migrates to); a claim bound to any other volume does not count;
 *   <li>a claim with no volume, or whose volume does not exist: for its StorageClass's provisioner (the CSI
 *       driver of a migrated in-tree provisioner), one volume per claim; not at all when the claim has no
 *       class or the class does not exist, or the provisioner is an in-tree one whose migration kube's filter
 *       does not consider on (Azure File, vSphere);
 *   <li>a claim of a generic ephemeral volume, as any claim, once the claim is found to be controlled by the
 *       pod;
 *   <li>an inline GCE persistent disk or AWS EBS volume, for the CSI driver it migrates to, with the volume
 *       handle Kubernetes' CSI translation gives it.
 * </ul>
 *
 * Inline CSI volumes ({@link Volume.Csi}) do not count, as in Kubernetes 1.37: kube's filter skips every inline
 * volume that is not a migratable in-tree one. Neither do RBD and iSCSI volumes. Whether the driver's
 * CSIDriver says {@code attachRequired: false} does not matter either: kube 1.37 does not look at it.
 *
 * <p>A node without a CSINode, or whose CSINode gives no driver a count, has no limit, as in Kubernetes.
 * Kubernetes 1.37 does not read the old {@code attachable-volumes-csi-*} node allocatable resources any
 * more, so neither does this filter.
 *
 * <p>Outcomes, with kube's codes and messages:
 *
 * <ul>
 *   <li>a driver over its limit: {@link FilterResult.Code#UNSCHEDULABLE} with {@link MaxVolumeCountExceeded}
 *       ("node(s) exceed max volume count"), one reason whichever driver it is (kube reports no per-driver
 *       message); where several drivers are over, the one first by name;
 *   <li>a claim of the pod that does not exist: {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE} with
 *       {@link ClaimNotFound}, on every node, with or without a CSINode;
 *   <li>a generic ephemeral volume's claim that the pod does not control, the pod's or an existing pod's, or an
 *       inline AWS EBS volume id that is not one ({@code vol-...} or {@code aws://zone/vol-...}), on a node
 *       with a CSINode: an {@linkplain FilterResult#error error}, as kube's Filter fails.
 * </ul>
 *
 * A claim of a pod already on the node that does not exist is not counted (kube cannot tell which volume it
 * was). Where a pod has both a missing claim and an inline volume kube cannot translate, the claim is
 * reported: the domain model does not keep the order of a pod's volumes.
 *
 * <p>Not modelled (the domain model carries neither): VolumeAttachment objects, which kube 1.37 adds to a
 * node's count; the {@code VolumeLimitScaling} check that rejects a node without a driver whose CSIDriver sets
 * {@code preventPodSchedulingIfMissing} ("... CSI driver is not installed on the node"): this filter never
 * gives that rejection; pods whose resize is deferred, which kube skips.
 *
 * <p>Use it through {@link #prepare} (the {@link io.kubesched.policy.Policy} does): it looks up the pod's own
 * claims once, and skips pods with no claim and no migratable inline volume (kube's PreFilter Skip). {@link
 * #filter} on this unprepared filter gives an error: it cannot see the cluster's storage objects. Immutable and
 * thread-safe, as are the filters it prepares; called from the scheduling thread.
 */
public final class NodeVolumeLimitsFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeVolumeLimits";

  /** kube-scheduler's {@code ErrReasonMaxVolumeCountExceeded}, {@value}. */
  public static final String MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count";

  /**
   * The node cannot take the pod's new volumes of one CSI driver.
   *
   * @param driver the CSI driver
   * @param limit the driver's {@code allocatable.count} in the node's CSINode
   * @param attached how many distinct volumes of the driver the node's pods use
   * @param requested how many distinct volumes of the driver the pod adds
   */
  public record MaxVolumeCountExceeded(String driver, int limit, int attached, int requested) implements Reason {
    @Override
    public String message() {
      return MAX_VOLUME_COUNT_EXCEEDED;
    }
  }

  /**
   * A claim the pod uses does not exist: no node can take the pod until it is created.
   *
   * @param namespace the claim's (and pod's) namespace
   * @param name the claim's name
   */
  public record ClaimNotFound(String namespace, String name) implements Reason {
    @Override
    public String message() {
      return "looking up PVC " + namespace + "/" + name + ": persistentvolumeclaim \"" + name + "\" not found";
    }
  }

  /** The in-tree plugins kube's filter counts as migrated to CSI, with the CSI driver each migrates to. */
  static final Map<String, String> MIGRATED_PLUGINS = Map.of(
      "kubernetes.io/aws-ebs", "ebs.csi.aws.com",
      "kubernetes.io/gce-pd", "pd.csi.storage.gke.io",
      "kubernetes.io/azure-disk", "disk.csi.azure.com",
      "kubernetes.io/cinder", "cinder.csi.openstack.org",
      "kubernetes.io/portworx-volume", "pxd.portworx.com");

  /** In-tree plugins that have a CSI migration, but whose migration kube's filter does not consider on. */
  private static final Set<String> MIGRATABLE_NOT_COUNTED =
      Set.of("kubernetes.io/azure-file", "kubernetes.io/vsphere-volume");

  /** The CSI driver inline GCE persistent disks migrate to. */
  static final String GCE_PD_DRIVER = "pd.csi.storage.gke.io";

  /** The CSI driver inline AWS EBS volumes migrate to. */
  static final String AWS_EBS_DRIVER = "ebs.csi.aws.com";

  private static final Pattern EBS_VOLUME_ID = Pattern.compile("^vol-[^/]*$");

  private static final Set<ClusterData> READS = Set.of(
      ClusterData.PERSISTENT_VOLUME_CLAIMS,
      ClusterData.PERSISTENT_VOLUMES,
      ClusterData.STORAGE_CLASSES,
      ClusterData.CSI_NODES,
      ClusterData.CSI_DRIVERS);

  /** Creates the filter; it has no arguments. */
  public NodeVolumeLimitsFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers AssignedPod Delete and no node event (a node's limits come with its CSINode, whose events move such a pod by its own hint); a node added is registered too, as the library may have seen its CSINode first. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.ASSIGNED_POD_DELETED);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a pod's deletion helps if the pod was bound or nominated and had a volume
   * this filter counts: a claim (of a {@code persistentVolumeClaim} or generic ephemeral volume) or an inline GCE
   * persistent disk or AWS EBS volume. Any node added may help (kube registers no node event; its CSINode's
   * addition, which kube registers without a hint, comes with it).
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (!(update instanceof ClusterUpdate.AssignedPodDeleted deleted)) {
      return true;
    }
    var gone = deleted.pod();
    return deleted.heldRoom()
        && (!gone.persistentVolumeClaims().isEmpty()
            || gone.volumes().stream().anyMatch(NodeVolumeLimitsFilter::isInlineMigratable));
  }

  /**
   * @return the storage objects kube's plugin reads: claims, volumes, classes, CSINodes and CSIDrivers (the
   *     last for the {@code VolumeLimitScaling} check, not modelled yet)
   */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  /**
   * Without {@link #prepare} this filter cannot see the cluster's claims, volumes and CSINodes.
   *
   * @return always an {@linkplain FilterResult#error error}
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.error(NAME + " filters only through prepare(pod, cluster)");
  }

  /**
   * Looks up the pod's claims, their volumes and classes in {@code cluster}'s storage once.
   *
   * @return a filter that fits every node when the pod has no claim and no inline GCE PD or AWS EBS volume
   *     (kube's Skip); otherwise the filter of the pod's nodes, which looks at each node's CSINode and pods
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    boolean inlineMigratable = pod.volumes().stream().anyMatch(NodeVolumeLimitsFilter::isInlineMigratable);
    if (pod.persistentVolumeClaims().isEmpty() && !inlineMigratable) {
      return PreFilter.skip(NAME); // no volume this plugin counts
    }
    var storage = cluster.storage();
    var claimVolumes = new LinkedHashMap<VolumeKey, String>();
    var claimFailure = addClaimVolumes(pod, storage, true, claimVolumes);
    var inlineVolumes = new LinkedHashMap<VolumeKey, String>();
    var inlineFailure = addInlineVolumes(pod, inlineVolumes);
    return new Prepared(storage, claimFailure, Map.copyOf(claimVolumes), inlineFailure, Map.copyOf(inlineVolumes));
  }

  @Override
  public String toString() {
    return NAME;
  }

  // ---------------------------------------------------------------- counting

  /**
   * A volume as kube tells attached volumes apart: by driver and volume handle. A claim counted through its
   * class has no handle yet; kube gives it a handle no real volume has (a random prefix and the claim's key),
   * here {@code unbound} marks it.
   */
  private record VolumeKey(String driver, String handle, boolean unbound) {}

  private static boolean isInlineMigratable(Volume volume) {
    return volume instanceof Volume.GcePersistentDisk || volume instanceof Volume.AwsElasticBlockStore;
  }

  /**
   * Adds the volumes of {@code pod}'s claims to {@code into}, as kube counts them on a node that has a CSINode
   * (in-tree migration on).
   *
   * @param newPod whether the pod is the one being placed: then a missing claim rejects it; an existing pod's
   *     missing claim is not counted
   * @return null, or what the filter answers instead of counting
   */
  private static @Nullable FilterResult addClaimVolumes(
      PodInfo pod, Storage storage, boolean newPod, Map<VolumeKey, String> into) {
    for (var claimName : pod.persistentVolumeClaims()) {
      if (claimName.isEmpty()) {
        return FilterResult.error("PersistentVolumeClaim had no name");
      }
      var found = storage.claim(pod.namespace(), claimName);
      if (found.isEmpty()) {
        if (newPod) {
          return FilterResult.unresolvable(new ClaimNotFound(pod.namespace(), claimName));
        }
        continue;
      }
      var claim = found.get();
      if (pod.ephemeralVolumeClaims().contains(claimName) && !claim.ownerPodUid().equals(pod.uid())) {
        return FilterResult.error("PVC " + claim.namespace() + "/" + claim.name() + " was not created for pod "
            + pod.namespace() + "/" + pod.name() + " (pod is not owner)");
      }
      volumeOf(claim, storage).ifPresent(key -> into.put(key, key.driver()));
    }
    return null;
  }

  private static Optional<VolumeKey> volumeOf(PersistentVolumeClaim claim, Storage storage) {
    if (!claim.isBound()) {
      return volumeOfClass(claim, storage);
    }
    var volume = storage.volume(claim.volumeName());
    if (volume.isEmpty()) {
      // deleted, or the claim was pre-bound to a volume not created yet: kube counts it through its class
      return volumeOfClass(claim, storage);
    }
    var pv = volume.get();
    if (pv.csiDriver().isEmpty() || pv.csiVolumeHandle().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new VolumeKey(pv.csiDriver(), pv.csiVolumeHandle(), false));
  }

  private static Optional<VolumeKey> volumeOfClass(PersistentVolumeClaim claim, Storage storage) {
    if (claim.storageClassName().isEmpty()) {
      // without a class the claim binds immediately, so it is bound before its pod is placed
      return Optional.empty();
    }
    var storageClass = storage.storageClass(claim.storageClassName());
    if (storageClass.isEmpty()) {
      return Optional.empty();
    }
    var provisioner = storageClass.get().provisioner();
    if (MIGRATABLE_NOT_COUNTED.contains(provisioner)) {
      return Optional.empty();
    }
    var driver = MIGRATED_PLUGINS.getOrDefault(provisioner, provisioner);
    return Optional.of(new VolumeKey(driver, claim.key(), true));
  }

  /**
   * Adds the pod's inline GCE PD and AWS EBS volumes to {@code into}, with the driver and handle Kubernetes'
   * CSI translation gives them.
   *
   * @return null, or the error kube's translation gives (naming the volume by its EBS id: the domain model does
   *     not keep the names of a pod's volumes)
   */
  private static @Nullable FilterResult addInlineVolumes(PodInfo pod, Map<VolumeKey, String> into) {
    for (var volume : pod.volumes()) {
      if (volume instanceof Volume.GcePersistentDisk gce) {
        var handle = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + gce.pdName();
        into.put(new VolumeKey(GCE_PD_DRIVER, handle, false), GCE_PD_DRIVER);
      } else if (volume instanceof Volume.AwsElasticBlockStore ebs) {
        var handle = ebsVolumeId(ebs.volumeId());
        if (handle == null) {
          return FilterResult.error("converting volume(" + ebs.volumeId() + ") from inline to csi: "
              + "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume ("
              + ebs.volumeId() + ")");
        }
        into.put(new VolumeKey(AWS_EBS_DRIVER, handle, false), AWS_EBS_DRIVER);
      }
    }
    return null;
  }

  /**
   * @return the EBS volume id of a Kubernetes AWS volume id, as Kubernetes' CSI translation finds it: a bare
   *     id as it is, {@code aws://zone/vol-...} its path; null if that path is not a volume id
   */
  static @Nullable String ebsVolumeId(String kubernetesId) {
    var scheme = "aws://";
    if (!kubernetesId.startsWith(scheme)) {
      return kubernetesId;
    }
    var rest = kubernetesId.substring(scheme.length());
    int end = indexOfAny(rest, '?', '#');
    if (end >= 0) {
      rest = rest.substring(0, end);
    }
    int slash = rest.indexOf('/');
    var path = slash < 0 ? "" : unescape(rest.substring(slash));
    if (path == null) {
      return null;
    }
    var id = trimSlashes(path);
    return EBS_VOLUME_ID.matcher(id).matches() ? id : null;
  }

  /** @return a URL path with its {@code %XX} escapes decoded (as a URL parser gives it); null if one is bad */
  private static @Nullable String unescape(String path) {
    if (path.indexOf('%') < 0) {
      return path;
    }
    var bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < path.length()) {
      int escape = path.indexOf('%', i);
      int end = escape < 0 ? path.length() : escape;
      var text = path.substring(i, end).getBytes(StandardCharsets.UTF_8);
      bytes.write(text, 0, text.length);
      if (escape < 0) {
        break;
      }
      if (escape + 2 >= path.length()) {
        return null;
      }
      int high = Character.digit(path.charAt(escape + 1), 16);
      int low = Character.digit(path.charAt(escape + 2), 16);
      if (high < 0 || low < 0) {
        return null;
      }
      bytes.write(high * 16 + low);
      i = escape + 3;
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static int indexOfAny(String s, char a, char b) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == a || s.charAt(i) == b) {
        return i;
      }
    }
    return -1;
  }

  private static String trimSlashes(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && s.charAt(start) == '/') {
      start++;
    }
    while (end > start && s.charAt(end - 1) == '/') {
      end--;
    }
    return s.substring(start, end);
  }

  /** The volumes of the node's pods, each once, as kube counts them; or the error one of them gives. */
  private static @Nullable FilterResult addNodeVolumes(NodeInfo node, Storage storage, Map<VolumeKey, String> into) {
    for (var existing : node.pods()) {
      var failure = addClaimVolumes(existing, storage, false, into);
      if (failure == null) {
        failure = addInlineVolumes(existing, into);
      }
      if (failure != null) {
        return failure;
      }
    }
    return null;
  }

  private static Map<String, Integer> limits(CsiNode csiNode) {
    var limits = new HashMap<String, Integer>();
    for (var driver : csiNode.drivers().values()) {
      if (driver.hasLimit()) {
        limits.put(driver.name(), driver.allocatableCount());
      }
    }
    return limits;
  }

  // ---------------------------------------------------------------- prepared filters

  /**
   * The filter of one pod: its claims' volumes, found once, and its inline volumes.
   *
   * @param claimFailure what to answer on every node, when the pod's claims cannot be counted
   * @param inlineFailure what to answer on a node with a CSINode, when an inline volume cannot be translated
   */
  private record Prepared(
      Storage storage,
      @Nullable FilterResult claimFailure,
      Map<VolumeKey, String> claimVolumes,
      @Nullable FilterResult inlineFailure,
      Map<VolumeKey, String> inlineVolumes) implements Filter {

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
      if (claimFailure != null) {
        return claimFailure;
      }
      var csiNode = storage.csiNode(node.name());
      if (csiNode.isEmpty()) {
        // no CSINode: migration is off for inline volumes and there is no limit
        return FilterResult.fit();
      }
      if (inlineFailure != null) {
        return inlineFailure;
      }
      var newVolumes = new HashMap<VolumeKey, String>(claimVolumes);
      newVolumes.putAll(inlineVolumes);
      if (newVolumes.isEmpty()) {
        return FilterResult.fit();
      }
      var limits = limits(csiNode.get());
      if (limits.isEmpty()) {
        return FilterResult.fit();
      }
      var attached = new HashMap<VolumeKey, String>();
      var failure = addNodeVolumes(node, storage, attached);
      if (failure != null) {
        return failure;
      }
      var attachedCount = new HashMap<String, Integer>();
      for (var entry : attached.entrySet()) {
        newVolumes.remove(entry.getKey());
        attachedCount.merge(entry.getValue(), 1, Integer::sum);
      }
      var newCount = new TreeMap<String, Integer>();
      newVolumes.values().forEach(driver -> newCount.merge(driver, 1, Integer::sum));
      for (var entry : newCount.entrySet()) {
        var limit = limits.get(entry.getKey());
        if (limit == null) {
          continue;
        }
        int current = attachedCount.getOrDefault(entry.getKey(), 0);
        if (current + entry.getValue() > limit) {
          return FilterResult.unschedulable(
              new MaxVolumeCountExceeded(entry.getKey(), limit, current, entry.getValue()));
        }
      }
      return FilterResult.fit();
    }

    @Override
    public String toString() {
      return NAME;
    }
  }
}
