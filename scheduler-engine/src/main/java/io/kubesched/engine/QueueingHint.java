package io.kubesched.engine;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.RetryHint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.Volume;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which cluster events may make a pod schedulable again after an attempt found no node for it: what the
 * {@link SchedulingQueue} asks before it moves an unschedulable pod. It follows the {@code EventsToRegister}
 * and queueing hints of kube-scheduler's InterPodAffinity and PodTopologySpread plugins
 * ({@code plugins/interpodaffinity/plugin.go}, {@code plugins/podtopologyspread/plugin.go}), so that a bound
 * pod's arrival moves only the pods it can help, never every waiting pod.
 *
 * <ul>
 *   <li>Every pod that is not {@link #POD_UPDATE_ONLY} is moved by the node and bound-pod changes (a node added, its
 *       allocatable, labels, taints or declared features changed, a bound pod removed) that one of the filters that
 *       rejected it registers ({@link #retriedOn()}, kube's {@code EventsToRegister}): a pod only NodeResourcesFit
 *       rejected is not moved by a node's new labels ({@link #movedByClusterChange(Set)}).
 *   <li>A pod with required pod affinity or anti-affinity, or a {@code DoNotSchedule} topology spread
 *       constraint, also {@linkplain #waitsForAssignedPods() waits for bound pods}: one added or relabelled
 *       moves it when the hint says so, and a node deleted moves it if it has spread constraints.
 * </ul>
 *
 * <p>A pod with persistent volume claims or inline volumes a CSI driver attaches also waits for storage
 * objects ({@link #waitsForStorage()}), as kube's VolumeBinding, VolumeZone, NodeVolumeLimits and
 * VolumeRestrictions register: a claim of its own added or updated moves it; a volume, storage class or
 * capacity added or updated moves it if it has claims; a CSINode added or updated, or a CSIDriver updated,
 * moves it if it has claims or such volumes. Kube's finer hints (which class, which driver) are not
 * followed: such an event may move a pod it cannot help, never misses one.
 *
 * <p>A pod with resource claims, or with requests of extended resources (which a DeviceClass may back), waits for
 * dynamic resources ({@link #waitsForDevices()}), as kube's DynamicResources and NodeResourcesFit register and
 * hint: a ResourceSlice, DeviceClass or DeviceTaintRule added or updated moves it; a ResourceClaim event moves it
 * if the claim is one of its own (for a claim made from its template, one the pod owns) and was added or its
 * status changed, or if the event freed devices (a claim deallocated, or deleted while allocated). Kube's finer
 * checks (which class an extended resource maps to; whether the pod's other claims exist yet) are not followed:
 * such an event may move a pod it cannot help, never misses one.
 *
 * <p>Where kube's hint reads a namespace's labels (a term's {@code namespaceSelector}), this one does not
 * look them up and takes the namespace as matching: it may move a pod that could not be helped, never miss
 * one. Immutable.
 *
 * @param clusterChanges whether cluster changes that can let any pod fit move the pod; false for a pod only
 *     an update of its own (or the unschedulable timeout) can help
 * @param namespace the pod's namespace
 * @param requiredAffinity the pod's required pod affinity terms, each with its {@code matchLabelKeys} and
 *     {@code mismatchLabelKeys} merged into its selector
 * @param requiredAntiAffinity the pod's required pod anti-affinity terms, merged likewise
 * @param hardSpread the pod's {@code DoNotSchedule} topology spread constraints, each with its {@code
 *     matchLabelKeys} merged into its selector
 * @param claims the names of the persistent volume claims the pod's volumes use (in its namespace)
 * @param attachedVolumes whether the pod has inline volumes a CSI driver attaches: {@code csi} volumes, and
 *     GCE persistent disks and AWS EBS volumes, which Kubernetes migrates to CSI drivers
 * @param devices whether the pod has resource claims or requests extended resources: whether dynamic resource
 *     events may help it
 * @param namedDeviceClaims the resource claims the pod names ({@code resourceClaimName}, in its namespace)
 * @param generatedDeviceClaims the claims made for the pod from its templates, as its status reports them: each
 *     is the pod's only if the pod owns it
 * @param retriedOn the node and bound-pod changes that move the pod: those the filters that rejected it register
 *     ({@link io.kubesched.api.Decision.Unschedulable#retriedOn()}); every change unless the attempt said otherwise
 * @param retryHint whether a change of those kinds may let the pod fit: what the filters that rejected it answer
 *     ({@link io.kubesched.api.Decision.Unschedulable#retryHint()}); {@link RetryHint#ALWAYS} unless the attempt
 *     said otherwise
 */
public record QueueingHint(
    boolean clusterChanges,
    String namespace,
    List<PodAffinityTerm> requiredAffinity,
    List<PodAffinityTerm> requiredAntiAffinity,
    List<TopologySpreadConstraint> hardSpread,
    List<String> claims,
    boolean attachedVolumes,
    boolean devices,
    List<String> namedDeviceClaims,
    List<String> generatedDeviceClaims,
    Set<ClusterChange> retriedOn,
    RetryHint retryHint) {

  /** A pod that waits for the cluster to change: nodes, or pods removed. What an attempt sets by default. */
  public static final QueueingHint ANY_CHANGE = new QueueingHint(true, "", List.of(), List.of(), List.of());

  /**
   * A pod no cluster event can help (it uses a feature the library refuses): only an update of the pod, a
   * relist or the unschedulable timeout moves it, so it does not retry on every node change.
   */
  public static final QueueingHint POD_UPDATE_ONLY = new QueueingHint(false, "", List.of(), List.of(), List.of());

  public QueueingHint {
    Objects.requireNonNull(namespace, "namespace");
    requiredAffinity = List.copyOf(requiredAffinity);
    requiredAntiAffinity = List.copyOf(requiredAntiAffinity);
    hardSpread = List.copyOf(hardSpread);
    claims = List.copyOf(claims);
    namedDeviceClaims = List.copyOf(namedDeviceClaims);
    generatedDeviceClaims = List.copyOf(generatedDeviceClaims);
    retriedOn = retriedOn.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(retriedOn));
    Objects.requireNonNull(retryHint, "retryHint");
  }

  /** A hint retried on every node and bound-pod change. */
  public QueueingHint(
      boolean clusterChanges,
      String namespace,
      List<PodAffinityTerm> requiredAffinity,
      List<PodAffinityTerm> requiredAntiAffinity,
      List<TopologySpreadConstraint> hardSpread,
      List<String> claims,
      boolean attachedVolumes,
      boolean devices,
      List<String> namedDeviceClaims,
      List<String> generatedDeviceClaims) {
    this(clusterChanges, namespace, requiredAffinity, requiredAntiAffinity, hardSpread, claims, attachedVolumes,
        devices, namedDeviceClaims, generatedDeviceClaims, ClusterChange.ALL, RetryHint.ALWAYS);
  }

  /** A hint without dynamic resources. */
  public QueueingHint(
      boolean clusterChanges,
      String namespace,
      List<PodAffinityTerm> requiredAffinity,
      List<PodAffinityTerm> requiredAntiAffinity,
      List<TopologySpreadConstraint> hardSpread,
      List<String> claims,
      boolean attachedVolumes) {
    this(clusterChanges, namespace, requiredAffinity, requiredAntiAffinity, hardSpread, claims, attachedVolumes, false,
        List.of(), List.of());
  }

  /** A hint without storage: no claims, no attached inline volumes. */
  public QueueingHint(
      boolean clusterChanges,
      String namespace,
      List<PodAffinityTerm> requiredAffinity,
      List<PodAffinityTerm> requiredAntiAffinity,
      List<TopologySpreadConstraint> hardSpread) {
    this(clusterChanges, namespace, requiredAffinity, requiredAntiAffinity, hardSpread, List.of(), false);
  }

  /**
   * @return the hint of a pod that an attempt found no node for: {@link #ANY_CHANGE} unless it has required
   *     pod (anti-)affinity, {@code DoNotSchedule} spread constraints, claims, attached inline volumes, resource
   *     claims or extended resource requests
   */
  public static QueueingHint of(PodInfo pod) {
    var hard = new ArrayList<TopologySpreadConstraint>();
    for (var constraint : pod.topologySpreadConstraints()) {
      if (constraint.whenUnsatisfiable() == WhenUnsatisfiable.DO_NOT_SCHEDULE) {
        hard.add(withMatchLabelKeys(constraint, pod.labels()));
      }
    }
    var affinity = merged(pod.podAffinity().required(), pod.labels());
    var antiAffinity = merged(pod.podAntiAffinity().required(), pod.labels());
    var claims = pod.persistentVolumeClaims();
    boolean attached =
        pod.volumes().stream()
            .anyMatch(v -> v instanceof Volume.Csi
                || v instanceof Volume.GcePersistentDisk
                || v instanceof Volume.AwsElasticBlockStore);
    // containerRequests lists the containers that request a scalar resource: extended resources among them.
    boolean devices = !pod.resourceClaims().isEmpty() || !pod.containerRequests().isEmpty();
    if (hard.isEmpty() && affinity.isEmpty() && antiAffinity.isEmpty() && claims.isEmpty() && !attached
        && !devices) {
      return ANY_CHANGE;
    }
    var named = new ArrayList<String>();
    var generated = new ArrayList<String>();
    for (var claim : pod.resourceClaims()) {
      if (claim.resourceClaimName() != null) {
        named.add(claim.resourceClaimName());
      } else if (claim.claimName() != null) {
        generated.add(claim.claimName());
      }
    }
    return new QueueingHint(
        true, pod.namespace(), affinity, antiAffinity, hard, claims, attached, devices, named, generated);
  }

  /** @return whether dynamic resource events may move the pod: it has resource claims or extended resources */
  public boolean waitsForDevices() {
    return clusterChanges && devices;
  }

  /**
   * A ResourceSlice, DeviceClass or DeviceTaintRule was added or updated (kube's DynamicResources and
   * NodeResourcesFit register them without a finer hint): it may help a pod that {@linkplain #waitsForDevices()
   * waits for devices}.
   */
  public boolean movedByDeviceSupplyChanged() {
    return waitsForDevices();
  }

  /**
   * A ResourceClaim was added, its status changed, or it was deleted (kube's DynamicResources {@code
   * isSchedulableAfterClaimChange}): it helps a pod that waits for devices if it freed devices, or if it is one of
   * the pod's claims and was not deleted.
   *
   * @param podUid the waiting pod's uid
   * @param claimNamespace the claim's namespace
   * @param claimName its name
   * @param claimOwnerUid the uid of the claim's controller, {@code null} if none
   * @param freesDevices whether the event freed devices: the claim was deallocated, or deleted while allocated (or
   *     in a state not known)
   * @param deleted whether the claim was deleted
   */
  public boolean movedByDeviceClaimChanged(
      String podUid,
      String claimNamespace,
      String claimName,
      @Nullable String claimOwnerUid,
      boolean freesDevices,
      boolean deleted) {
    if (!waitsForDevices()) {
      return false;
    }
    if (freesDevices) {
      return true;
    }
    if (deleted || !namespace.equals(claimNamespace)) {
      return false;
    }
    return namedDeviceClaims.contains(claimName)
        || (generatedDeviceClaims.contains(claimName) && podUid.equals(claimOwnerUid));
  }

  /** @return whether storage objects changing may move the pod: it has claims or attached inline volumes */
  public boolean waitsForStorage() {
    return clusterChanges && (!claims.isEmpty() || attachedVolumes);
  }

  /**
   * A claim was added or updated (kube's PersistentVolumeClaim/Add and Update, as VolumeBinding, VolumeZone,
   * NodeVolumeLimits and VolumeRestrictions hint them): it helps a pod that uses it.
   */
  public boolean movedByClaimChanged(String claimNamespace, String claimName) {
    return clusterChanges && namespace.equals(claimNamespace) && claims.contains(claimName);
  }

  /**
   * A PersistentVolume, StorageClass or CSIStorageCapacity was added or updated (kube's VolumeBinding and
   * VolumeZone): it may help a pod with claims.
   */
  public boolean movedByVolumeSupplyChanged() {
    return clusterChanges && !claims.isEmpty();
  }

  /**
   * A CSINode was added or updated, or a CSIDriver updated (kube's VolumeBinding and NodeVolumeLimits): it may
   * help a pod with claims or attached inline volumes.
   */
  public boolean movedByCsiChanged() {
    return waitsForStorage();
  }

  /** @return whether a node added or changed, or a pod removed, may move the pod */
  public boolean movedByClusterChange() {
    return clusterChanges;
  }

  /**
   * @param changes what a node or bound-pod event changed, for an event the hint cannot be asked about
   * @return whether it moves the pod: one of the changes is one the pod is {@linkplain #retriedOn() retried on}
   */
  public boolean movedByClusterChange(Set<ClusterChange> changes) {
    if (!clusterChanges) {
      return false;
    }
    for (var change : changes) {
      if (retriedOn.contains(change)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param update a node or bound-pod change
   * @return whether it moves the pod: one of its changes is one the pod is {@linkplain #retriedOn() retried on},
   *     and the {@linkplain #retryHint() hint} says it may help (or throws: a hint that fails never loses a pod)
   */
  public boolean movedByClusterChange(ClusterUpdate update) {
    if (!movedByClusterChange(update.changes())) {
      return false;
    }
    try {
      return retryHint.mayHelp(update);
    } catch (RuntimeException e) {
      return true;
    }
  }

  /**
   * @param changes the node and bound-pod changes the filters that rejected the pod register
   * @param hint whether a change of those kinds may let the pod fit
   * @return this hint retried on those changes only, when the hint says so
   */
  public QueueingHint withRetriedOn(Set<ClusterChange> changes, RetryHint hint) {
    return changes.equals(retriedOn) && hint.equals(retryHint) ? this
        : new QueueingHint(clusterChanges, namespace, requiredAffinity, requiredAntiAffinity, hardSpread, claims,
            attachedVolumes, devices, namedDeviceClaims, generatedDeviceClaims, changes, hint);
  }

  /**
   * @param decision the decision of the attempt that found no node for the pod
   * @return this hint retried on the changes the decision's rejectors register, when their hints say so
   */
  public QueueingHint withRetriedOn(Decision.Unschedulable decision) {
    return withRetriedOn(decision.retriedOn(), decision.retryHint());
  }

  /**
   * For the members of a pod group none of whose members fitted, each decided alone on the same snapshot: the
   * group may fit only once one of them may, so a change moves the member if it may help one of them.
   *
   * @param decisions the members' decisions; not empty
   * @return this hint retried on a change one of {@code decisions} is retried on and whose hint says may help
   */
  public QueueingHint withRetriedOnAnyOf(Collection<Decision.Unschedulable> decisions) {
    var each = List.copyOf(decisions);
    if (each.isEmpty()) {
      throw new IllegalArgumentException("no decision to retry on");
    }
    var changes = EnumSet.noneOf(ClusterChange.class);
    each.forEach(decision -> changes.addAll(decision.retriedOn()));
    return withRetriedOn(changes, update -> {
      for (var decision : each) {
        if (!Collections.disjoint(decision.retriedOn(), update.changes()) && decision.retryHint().mayHelp(update)) {
          return true;
        }
      }
      return false;
    });
  }

  /** @return whether a pod bound, relabelled on its node, or a node deleted, may move the pod */
  public boolean waitsForAssignedPods() {
    return !requiredAffinity.isEmpty() || !requiredAntiAffinity.isEmpty() || !hardSpread.isEmpty();
  }

  /**
   * A pod was bound (kube's AssignedPod/Add): it helps if it matches all of the pod's required affinity
   * terms, or if it is in the pod's namespace and matches a spread constraint's selector.
   */
  public boolean movedByAssignedPodAdded(String podNamespace, Map<String, String> labels) {
    return matchesAll(requiredAffinity, podNamespace, labels)
        || (namespace.equals(podNamespace) && matchesAnySpreadSelector(labels));
  }

  /**
   * A bound pod's labels changed (kube's AssignedPod/UpdatePodLabel): it helps if it now matches all the
   * required affinity terms and did not before, no longer matches a required anti-affinity term it matched,
   * or is in the pod's namespace and its match of a spread constraint's selector changed.
   */
  public boolean movedByAssignedPodRelabelled(
      String podNamespace, Map<String, String> before, Map<String, String> after) {
    if (!matchesAll(requiredAffinity, podNamespace, before) && matchesAll(requiredAffinity, podNamespace, after)) {
      return true;
    }
    if (matchesAny(requiredAntiAffinity, podNamespace, before)
        && !matchesAny(requiredAntiAffinity, podNamespace, after)) {
      return true;
    }
    if (!namespace.equals(podNamespace) || before.equals(after)) {
      return false;
    }
    for (var constraint : hardSpread) {
      var selector = constraint.labelSelector();
      if (selector != null && selector.matches(before) != selector.matches(after)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A node was deleted (kube's PodTopologySpread Node/Delete): it helps a pod with spread constraints if the
   * node had every constraint's topology key, so that a domain may be gone.
   */
  public boolean movedByNodeDeleted(Map<String, String> nodeLabels) {
    if (hardSpread.isEmpty()) {
      return false;
    }
    for (var constraint : hardSpread) {
      if (!nodeLabels.containsKey(constraint.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  /**
   * A namespace was added or its labels changed: it may help a pod of that namespace (another pod's
   * anti-affinity may select the namespace by its labels no more) or a pod whose required terms select
   * namespaces by label.
   */
  public boolean movedByNamespaceChanged(String podNamespace, String changedNamespace) {
    if (!clusterChanges) {
      return false;
    }
    if (podNamespace.equals(changedNamespace)) {
      return true;
    }
    return selectsByNamespaceLabels(requiredAffinity) || selectsByNamespaceLabels(requiredAntiAffinity);
  }

  private boolean matchesAnySpreadSelector(Map<String, String> labels) {
    for (var constraint : hardSpread) {
      var selector = constraint.labelSelector();
      if (selector != null && selector.matches(labels)) {
        return true;
      }
    }
    return false;
  }

  /** As kube's {@code podMatchesAllAffinityTerms}: false when there are no terms. */
  private boolean matchesAll(List<PodAffinityTerm> terms, String podNamespace, Map<String, String> labels) {
    if (terms.isEmpty()) {
      return false;
    }
    for (var term : terms) {
      if (!matches(term, podNamespace, labels)) {
        return false;
      }
    }
    return true;
  }

  private boolean matchesAny(List<PodAffinityTerm> terms, String podNamespace, Map<String, String> labels) {
    for (var term : terms) {
      if (matches(term, podNamespace, labels)) {
        return true;
      }
    }
    return false;
  }

  private boolean matches(PodAffinityTerm term, String podNamespace, Map<String, String> labels) {
    boolean inNamespace =
        term.namespaces().isEmpty() && term.namespaceSelector() == null
            ? namespace.equals(podNamespace)
            : term.namespaces().contains(podNamespace) || term.namespaceSelector() != null;
    var selector = term.labelSelector();
    return inNamespace && selector != null && selector.matches(labels);
  }

  private static boolean selectsByNamespaceLabels(List<PodAffinityTerm> terms) {
    for (var term : terms) {
      if (term.namespaceSelector() != null) {
        return true;
      }
    }
    return false;
  }

  private static List<PodAffinityTerm> merged(List<PodAffinityTerm> terms, Map<String, String> podLabels) {
    var result = new ArrayList<PodAffinityTerm>(terms.size());
    for (var term : terms) {
      var extra = new ArrayList<LabelSelectorRequirement>();
      for (var key : term.matchLabelKeys()) {
        var value = podLabels.get(key);
        if (value != null) {
          extra.add(LabelSelectorRequirement.of(key, Operator.IN, value));
        }
      }
      for (var key : term.mismatchLabelKeys()) {
        var value = podLabels.get(key);
        if (value != null) {
          extra.add(LabelSelectorRequirement.of(key, Operator.NOT_IN, value));
        }
      }
      result.add(
          extra.isEmpty()
              ? term
              : new PodAffinityTerm(
                  and(term.labelSelector(), extra),
                  term.namespaces(),
                  term.namespaceSelector(),
                  term.topologyKey(),
                  List.of(),
                  List.of()));
    }
    return result;
  }

  private static TopologySpreadConstraint withMatchLabelKeys(
      TopologySpreadConstraint constraint, Map<String, String> podLabels) {
    var extra = new ArrayList<LabelSelectorRequirement>();
    for (var key : constraint.matchLabelKeys()) {
      var value = podLabels.get(key);
      if (value != null) {
        extra.add(LabelSelectorRequirement.of(key, Operator.IN, value));
      }
    }
    if (extra.isEmpty()) {
      return constraint;
    }
    return new TopologySpreadConstraint(
        constraint.maxSkew(),
        constraint.topologyKey(),
        constraint.whenUnsatisfiable(),
        and(constraint.labelSelector(), extra),
        constraint.minDomains(),
        constraint.nodeAffinityPolicy(),
        constraint.nodeTaintsPolicy(),
        List.of());
  }

  /** A missing selector selects nothing, and stays so whatever is added to it. */
  private static @Nullable LabelSelector and(
      @Nullable LabelSelector selector, List<LabelSelectorRequirement> requirements) {
    return selector == null ? null : selector.and(requirements);
  }
}
