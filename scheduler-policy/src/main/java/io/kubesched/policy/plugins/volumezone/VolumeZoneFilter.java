package io.kubesched.policy.plugins.volumezone;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.StorageObjectNotFound;
import io.kubesched.policy.plugins.helper.PodVolumeClaims;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube-scheduler's {@code VolumeZone} filter (PreFilter and Filter), as of 1.37: a pod whose claims are bound
 * to volumes labelled with a zone or region may only go to a node in one of those zones or regions.
 *
 * <p>{@link #prepare} (kube's PreFilter) looks up each claim the pod names in a {@code persistentVolumeClaim}
 * volume (not those of generic ephemeral volumes, as in kube) in the snapshot's {@link Storage}:
 *
 * <ul>
 *   <li>a claim that does not exist rejects every node ({@link StorageObjectNotFound});
 *   <li>a claim bound to no volume is skipped if its storage class binds {@code WaitForFirstConsumer}
 *       (VolumeBinding picks the volume per node); otherwise it rejects every node: without a class ({@link
 *       UnboundClaimWithoutClass}), with a class that does not exist ({@link StorageObjectNotFound}) or with
 *       an {@code Immediate} class ({@link UnboundImmediateClaim}; kube's "VolumeBindingMode not set" for a
 *       class without a mode cannot occur: the API server defaults the mode, and {@link
 *       io.kubesched.api.StorageClass} reads an absent one as {@code Immediate});
 *   <li>a claim's volume that does not exist rejects every node ({@link StorageObjectNotFound});
 *   <li>otherwise the volume's labels {@value #LABEL_BETA_ZONE}, {@value #LABEL_BETA_REGION}, {@value
 *       #LABEL_ZONE} and {@value #LABEL_REGION} are kept, each value read as a set of zones separated by
 *       {@code __} (a value with an empty member is ignored, as kube ignores a label it cannot parse).
 * </ul>
 *
 * <p>These rejections have code {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}, kube's messages,
 * and reject every node, as kube's PreFilter failing does. A node with none of the four labels fits. On any
 * other node, each kept volume label must be on the node (a deprecated {@code failure-domain.beta} key is also
 * matched by its {@code topology.kubernetes.io} successor on the node, not the other way round) with a value in
 * the label's set; else the node is rejected, {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}, with
 * {@link VolumeZoneConflict} ("node(s) had no available volume zone").
 *
 * <p>{@link #filter} on this unprepared filter fits a pod without claims and errs for any other pod: it cannot
 * see the storage objects. Immutable and thread-safe, as are the filters it prepares.
 */
public final class VolumeZoneFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "VolumeZone";

  /** The deprecated zone label, {@value}. */
  public static final String LABEL_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";

  /** The deprecated region label, {@value}. */
  public static final String LABEL_BETA_REGION = "failure-domain.beta.kubernetes.io/region";

  /** The zone label, {@value}. */
  public static final String LABEL_ZONE = "topology.kubernetes.io/zone";

  /** The region label, {@value}. */
  public static final String LABEL_REGION = "topology.kubernetes.io/region";

  /** The labels read, in kube's order. */
  private static final List<String> TOPOLOGY_LABELS =
      List.of(LABEL_BETA_ZONE, LABEL_BETA_REGION, LABEL_ZONE, LABEL_REGION);

  /** The separator of zones in one label value (kube's {@code LabelMultiZoneDelimiter}), {@value}. */
  private static final String ZONE_DELIMITER = "__";

  /**
   * No volume of the pod's claims allows the node's zone or region.
   *
   * @param volume the first volume whose label the node does not match
   * @param label that label's key
   */
  public record VolumeZoneConflict(String volume, String label) implements Reason {
    @Override
    public String message() {
      return "node(s) had no available volume zone";
    }
  }

  /**
   * A claim of the pod is bound to no volume and has no storage class.
   *
   * @param claim the claim's name
   */
  public record UnboundClaimWithoutClass(String claim) implements Reason {
    @Override
    public String message() {
      return "PersistentVolumeClaim had no pv name and storageClass name";
    }
  }

  /**
   * A claim of the pod is bound to no volume and its class binds immediately (so it should have been bound).
   *
   * @param claim the claim's name
   */
  public record UnboundImmediateClaim(String claim) implements Reason {
    @Override
    public String message() {
      return "PersistentVolume had no name";
    }
  }

  /** A {@code persistentVolumeClaim} volume of the pod names no claim. */
  public record ClaimWithoutName() implements Reason {
    @Override
    public String message() {
      return "PersistentVolumeClaim had no name";
    }
  }

  /**
   * One zone or region label of a volume the pod's claims are bound to.
   *
   * @param volume the volume's name
   * @param key the label's key
   * @param values the zones (or regions) the label's value names
   */
  record Topology(String volume, String key, Set<String> values) {
    Topology {
      values = Set.copyOf(values);
    }
  }

  /** Creates the filter; it has no arguments. */
  public VolumeZoneFilter() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeLabel without a hint, so any such change
   * may help.
   */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS);
  }

  /** @return the claims, volumes and storage classes: the filter reads all three */
  @Override
  public Set<ClusterData> reads() {
    return READS;
  }

  private static final Set<ClusterData> READS =
      Set.of(ClusterData.PERSISTENT_VOLUME_CLAIMS, ClusterData.PERSISTENT_VOLUMES, ClusterData.STORAGE_CLASSES);

  /**
   * Without {@link #prepare} this filter cannot see the pod's claims and volumes.
   *
   * @return a fit for a pod without claims; an {@linkplain FilterResult#error error} for any other pod
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    if (PodVolumeClaims.direct(pod).isEmpty()) {
      return FilterResult.fit();
    }
    return FilterResult.error(NAME + " filters pods with claims only through prepare(pod, cluster)");
  }

  /**
   * Reads the zone and region labels of the volumes the pod's claims are bound to, from {@code
   * cluster.storage()}. Costs one lookup per claim.
   *
   * @return the filter of {@code pod}'s nodes: one that rejects every node when a claim, its class or its
   *     volume is missing or an unbound claim cannot wait for a node; one that fits every node when no
   *     volume has a zone or region label (kube's Skip)
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var topologies = new ArrayList<Topology>();
    var rejection = volumeTopologies(pod, cluster.storage(), topologies);
    if (rejection.isPresent()) {
      return PreFilter.rejectPod(NAME, rejection.get());
    }
    return new Prepared(topologies);
  }

  /**
   * Adds to {@code topologies} the zone labels of the volumes of {@code pod}'s claims.
   *
   * @return why every node is rejected, if one is
   */
  private static Optional<FilterResult.Rejected> volumeTopologies(PodInfo pod, Storage storage, List<Topology> topologies) {
    for (var claimName : PodVolumeClaims.direct(pod)) {
      if (claimName.isEmpty()) {
        return Optional.of(FilterResult.unresolvable(new ClaimWithoutName()));
      }
      var claim = storage.claim(pod.namespace(), claimName);
      if (claim.isEmpty()) {
        return Optional.of(FilterResult.unresolvable(StorageObjectNotFound.claim(claimName)));
      }
      var volumeName = claim.get().volumeName();
      if (volumeName.isEmpty()) {
        var className = claim.get().storageClassName();
        if (className.isEmpty()) {
          return Optional.of(FilterResult.unresolvable(new UnboundClaimWithoutClass(claimName)));
        }
        var storageClass = storage.storageClass(className);
        if (storageClass.isEmpty()) {
          return Optional.of(FilterResult.unresolvable(StorageObjectNotFound.storageClass(className)));
        }
        if (storageClass.get().waitForFirstConsumer()) {
          continue;
        }
        return Optional.of(FilterResult.unresolvable(new UnboundImmediateClaim(claimName)));
      }
      var volume = storage.volume(volumeName);
      if (volume.isEmpty()) {
        return Optional.of(FilterResult.unresolvable(StorageObjectNotFound.volume(volumeName)));
      }
      topologies.addAll(topologies(volume.get()));
    }
    return Optional.empty();
  }

  /** @return the volume's zone and region labels that parse, in kube's order of keys */
  static List<Topology> topologies(PersistentVolume volume) {
    var found = new ArrayList<Topology>(1);
    for (var key : TOPOLOGY_LABELS) {
      var value = volume.labels().get(key);
      if (value != null) {
        zones(value).ifPresent(zones -> found.add(new Topology(volume.name(), key, zones)));
      }
    }
    return found;
  }

  /**
   * kube's {@code LabelZonesToSet}: the value split at {@code __}, each part trimmed of white space.
   *
   * @return the zones, or empty if a part is empty (kube then ignores the label)
   */
  static Optional<Set<String>> zones(String labelValue) {
    var zones = new HashSet<String>();
    int start = 0;
    while (true) {
      int end = labelValue.indexOf(ZONE_DELIMITER, start);
      var zone = trimSpace(end < 0 ? labelValue.substring(start) : labelValue.substring(start, end));
      if (zone.isEmpty()) {
        return Optional.empty();
      }
      zones.add(zone);
      if (end < 0) {
        return Optional.of(zones);
      }
      start = end + ZONE_DELIMITER.length();
    }
  }

  /** Go's {@code strings.TrimSpace}: strips what Go's {@code unicode.IsSpace} calls space at both ends. */
  private static String trimSpace(String s) {
    int begin = 0;
    int end = s.length();
    while (begin < end && isGoSpace(s.charAt(begin))) {
      begin++;
    }
    while (end > begin && isGoSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(begin, end);
  }

  private static boolean isGoSpace(char c) {
    return c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r' || c == '\u0085'
        || Character.isSpaceChar(c);
  }

  /** kube's {@code translateToGALabel}: the successor of a deprecated key, else the key itself. */
  private static String gaLabel(String key) {
    if (key.equals(LABEL_BETA_REGION)) {
      return LABEL_REGION;
    }
    if (key.equals(LABEL_BETA_ZONE)) {
      return LABEL_ZONE;
    }
    return key;
  }

  /** @return whether the node has one of the four zone or region labels */
  private static boolean hasTopologyLabel(Map<String, String> nodeLabels) {
    for (var key : TOPOLOGY_LABELS) {
      if (nodeLabels.containsKey(key)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * One pod's filter: kube's {@code stateData}.
   *
   * @param topologies the zone and region labels of the pod's volumes, in claim order; empty when every node
   *     fits
   */
  record Prepared(List<Topology> topologies) implements Filter {

    Prepared {
      topologies = List.copyOf(topologies);
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
      if (topologies.isEmpty() || !hasTopologyLabel(node.labels())) {
        return FilterResult.fit();
      }
      for (var topology : topologies) {
        var value = node.labels().get(topology.key());
        if (value == null) {
          value = node.labels().get(gaLabel(topology.key()));
        }
        if (value == null || !topology.values().contains(value)) {
          return FilterResult.unresolvable(new VolumeZoneConflict(topology.volume(), topology.key()));
        }
      }
      return FilterResult.fit();
    }

    @Override
    public String toString() {
      return NAME + "{prepared}";
    }
  }
}
