package io.kubesched.policy.plugins.volumebinding;

import io.kubesched.api.CsiStorageCapacity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The volume planning of kube-scheduler's VolumeBinding plugin for one pod, shared by {@link
 * VolumeBindingFilter} and {@link VolumeBindingScorer}: what kube's {@code podHasPVCs} and the binder's {@code
 * GetPodVolumeClaims} find once per pod ({@link #of}), and what its {@code FindPodVolumes} finds per node
 * ({@link #plan}).
 *
 * <p>Immutable and thread-safe: {@link #plan} is a pure function of the pod's claims, the storage and the node.
 */
final class VolumePlanner {

  /** The planner of a pod without claims: every node fits, with nothing to bind. */
  static final VolumePlanner NO_CLAIMS = new VolumePlanner(null, List.of(), List.of(), Map.of(), Storage.empty());

  private final @Nullable String rejection;
  private final List<PersistentVolumeClaim> boundClaims;
  private final List<PersistentVolumeClaim> delayedClaims;
  private final Map<String, List<PersistentVolume>> volumesByClass;
  private final Storage storage;

  private VolumePlanner(
      @Nullable String rejection,
      List<PersistentVolumeClaim> boundClaims,
      List<PersistentVolumeClaim> delayedClaims,
      Map<String, List<PersistentVolume>> volumesByClass,
      Storage storage) {
    this.rejection = rejection;
    this.boundClaims = boundClaims;
    this.delayedClaims = delayedClaims;
    this.volumesByClass = volumesByClass;
    this.storage = storage;
  }

  private static VolumePlanner rejecting(String message) {
    return new VolumePlanner(message, List.of(), List.of(), Map.of(), Storage.empty());
  }

  /**
   * kube's PreFilter: checks each claim of the pod, in the pod's order, and sorts them into bound claims and
   * unbound claims whose binding waits for a node.
   *
   * @return the pod's planner; {@link #NO_CLAIMS} for a pod without claims; one that {@linkplain #rejection()
   *     rejects} every node when a claim is missing, lost, being deleted, not the pod's own ephemeral claim, or
   *     unbound with immediate binding
   */
  static VolumePlanner of(PodInfo pod, Storage storage) {
    if (pod.persistentVolumeClaims().isEmpty()) {
      return NO_CLAIMS;
    }
    var ephemeral = Set.copyOf(pod.ephemeralVolumeClaims());
    var claims = new ArrayList<PersistentVolumeClaim>();
    for (var name : pod.persistentVolumeClaims()) {
      var found = storage.claim(pod.namespace(), name);
      boolean isEphemeral = ephemeral.contains(name);
      if (found.isEmpty()) {
        return rejecting(isEphemeral
            ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" + name + "\""
            : "persistentvolumeclaim \"" + name + "\" not found");
      }
      var claim = found.get();
      if (claim.lost()) {
        return rejecting("persistentvolumeclaim \"" + claim.name() + "\" bound to non-existent persistentvolume \""
            + claim.volumeName() + "\"");
      }
      if (claim.deleting()) {
        return rejecting("persistentvolumeclaim \"" + claim.name() + "\" is being deleted");
      }
      if (isEphemeral && (claim.ownerPodUid().isEmpty() || !claim.ownerPodUid().equals(pod.uid()))) {
        return rejecting("PVC " + claim.namespace() + "/" + claim.name() + " was not created for pod "
            + pod.namespace() + "/" + pod.name() + " (pod is not owner)");
      }
      claims.add(claim);
    }
    var bound = new ArrayList<PersistentVolumeClaim>();
    var delayed = new ArrayList<PersistentVolumeClaim>();
    boolean unboundImmediate = false;
    for (var claim : claims) {
      if (claim.isBound() && claim.bindCompleted()) {
        bound.add(claim);
      } else if (isDelayBinding(claim, storage) && !claim.isBound()) {
        delayed.add(claim);
      } else {
        // An unbound claim of an Immediate class (or of no or a missing class), or one pre-bound by name: the
        // PersistentVolume controller, not the scheduler, binds it.
        unboundImmediate = true;
      }
    }
    if (unboundImmediate) {
      return rejecting(VolumeBindingFilter.UNBOUND_IMMEDIATE_CLAIMS);
    }
    var volumes = new HashMap<String, List<PersistentVolume>>();
    for (var claim : delayed) {
      volumes.computeIfAbsent(claim.storageClassName(), c -> byName(storage.volumesOfClass(c)));
    }
    return new VolumePlanner(null, List.copyOf(bound), List.copyOf(delayed), Map.copyOf(volumes), storage);
  }

  /** Kube lists a class's volumes in no defined order; this planner scans them by name, so ties break alike. */
  private static List<PersistentVolume> byName(List<PersistentVolume> volumes) {
    var sorted = new ArrayList<>(volumes);
    sorted.sort(Comparator.comparing(PersistentVolume::name));
    return List.copyOf(sorted);
  }

  /** component-helpers' {@code IsDelayBindingMode}: the claim's class exists and waits for the first consumer. */
  private static boolean isDelayBinding(PersistentVolumeClaim claim, Storage storage) {
    return !claim.storageClassName().isEmpty()
        && storage.storageClass(claim.storageClassName()).map(StorageClass::waitForFirstConsumer).orElse(false);
  }

  /** @return kube's PreFilter message when every node is rejected; empty when nodes are to be planned */
  Optional<String> rejection() {
    return Optional.ofNullable(rejection);
  }

  /** @return whether the pod has a claim (and passed PreFilter): there is something to plan per node */
  boolean hasClaims() {
    return rejection == null && (!boundClaims.isEmpty() || !delayedClaims.isEmpty());
  }

  /**
   * A planned static binding: {@code volume} for {@code claim}.
   *
   * @param claim the claim
   * @param volume the available volume chosen for it
   */
  record StaticBinding(PersistentVolumeClaim claim, PersistentVolume volume) {}

  /**
   * A planned dynamic provisioning.
   *
   * @param claim the claim to provision a volume for
   * @param nodeCapacity the CSIStorageCapacity that showed room on the node; null when capacity is not checked
   */
  record Provision(PersistentVolumeClaim claim, @Nullable CsiStorageCapacity nodeCapacity) {}

  /**
   * What kube's {@code FindPodVolumes} finds for one node.
   *
   * @param reasons why the node does not fit, in kube's order; empty when it fits
   * @param staticBindings the volumes chosen for the unbound claims (when the node fits)
   * @param provisions the unbound claims to provision (when the node fits)
   */
  record Plan(List<Reason> reasons, List<StaticBinding> staticBindings, List<Provision> provisions) {
    static final Plan EMPTY = new Plan(List.of(), List.of(), List.of());

    Plan {
      reasons = List.copyOf(reasons);
      staticBindings = List.copyOf(staticBindings);
      provisions = List.copyOf(provisions);
    }

    boolean fits() {
      return reasons.isEmpty();
    }

    /** @return the bindings the policy hands to the controller: static ones first, then provisions */
    List<VolumeBinding> bindings() {
      var bindings = new ArrayList<VolumeBinding>(staticBindings.size() + provisions.size());
      for (var b : staticBindings) {
        bindings.add(new VolumeBinding.Static(
            b.claim().namespace(), b.claim().name(), b.claim().uid(), b.volume().name()));
      }
      for (var p : provisions) {
        bindings.add(new VolumeBinding.Provision(p.claim().namespace(), p.claim().name(), p.claim().uid()));
      }
      return List.copyOf(bindings);
    }
  }

  /**
   * kube's {@code FindPodVolumes} for one node: the bound claims' volumes must exist and admit the node; each
   * unbound claim gets the smallest fitting available volume the node can reach (claims taken by increasing
   * request, no volume twice), or else a volume its class can provision for the node.
   *
   * @param node the node
   * @return the node's plan; {@link Plan#EMPTY} for a pod without claims; not for a rejecting planner
   */
  Plan plan(NodeInfo node) {
    if (!hasClaims()) {
      return Plan.EMPTY;
    }
    // kube matches volume node affinity against the node's labels alone: a matchFields term sees no name.
    var labelsOnly = NodeInfo.builder("").labels(node.labels()).build();
    boolean boundSatisfied = true;
    boolean boundFound = true;
    boolean unboundSatisfied = true;
    boolean sufficientStorage = true;
    var statics = new ArrayList<StaticBinding>();
    var provisions = new ArrayList<Provision>();
    for (var claim : boundClaims) {
      var volume = storage.volume(claim.volumeName());
      if (volume.isEmpty()) {
        boundFound = false;
        break;
      }
      if (!admits(volume.get(), labelsOnly)) {
        boundSatisfied = false;
        break;
      }
    }
    planUnbound:
    if (!delayedClaims.isEmpty()) {
      var toMatch = new ArrayList<PersistentVolumeClaim>();
      var toProvision = new ArrayList<PersistentVolumeClaim>();
      for (var claim : delayedClaims) {
        if (!claim.selectedNode().isEmpty()) {
          if (!claim.selectedNode().equals(node.name())) {
            unboundSatisfied = false;
            break planUnbound;
          }
          toProvision.add(claim);
        } else {
          toMatch.add(claim);
        }
      }
      if (!toMatch.isEmpty()) {
        toMatch.sort(Comparator.comparingLong(PersistentVolumeClaim::requestedBytes)); // stable, as kube's
        var chosen = new HashSet<String>();
        for (var claim : toMatch) {
          var volume = findMatchingVolume(
              claim, volumesByClass.getOrDefault(claim.storageClassName(), List.of()), labelsOnly, chosen);
          if (volume == null) {
            toProvision.add(claim);
            unboundSatisfied = false;
          } else {
            chosen.add(volume.name());
            statics.add(new StaticBinding(claim, volume));
          }
        }
      }
      if (!toProvision.isEmpty()) {
        unboundSatisfied = true;
        for (var claim : toProvision) {
          var outcome = checkProvision(claim, node);
          if (outcome == ProvisionCheck.UNSUPPORTED) {
            unboundSatisfied = false;
            provisions.clear();
            break;
          }
          if (outcome == ProvisionCheck.NO_CAPACITY) {
            sufficientStorage = false;
            provisions.clear();
            break;
          }
          provisions.add(new Provision(claim, outcome.capacity));
        }
      }
    }
    var reasons = new ArrayList<Reason>(4);
    if (!boundSatisfied) {
      reasons.add(VolumeBindingFilter.Conflict.NODE_AFFINITY);
    }
    if (!unboundSatisfied) {
      reasons.add(VolumeBindingFilter.Conflict.NO_MATCHING_VOLUME);
    }
    if (!sufficientStorage) {
      reasons.add(VolumeBindingFilter.Conflict.NOT_ENOUGH_SPACE);
    }
    if (!boundFound) {
      reasons.add(VolumeBindingFilter.Conflict.VOLUME_NOT_FOUND);
    }
    return new Plan(reasons, statics, provisions);
  }

  /** The outcome of kube's {@code checkVolumeProvisions} for one claim. */
  private static final class ProvisionCheck {
    static final ProvisionCheck UNSUPPORTED = new ProvisionCheck(null);
    static final ProvisionCheck NO_CAPACITY = new ProvisionCheck(null);
    static final ProvisionCheck UNCHECKED = new ProvisionCheck(null);

    final @Nullable CsiStorageCapacity capacity;

    ProvisionCheck(@Nullable CsiStorageCapacity capacity) {
      this.capacity = capacity;
    }
  }

  private ProvisionCheck checkProvision(PersistentVolumeClaim claim, NodeInfo node) {
    // A delayed claim's class exists (see isDelayBinding), so kube's "no class" and "failed to find" errors
    // cannot occur here.
    var storageClass = storage.storageClass(claim.storageClassName()).orElseThrow();
    var provisioner = storageClass.provisioner();
    if (provisioner.isEmpty() || provisioner.equals(StorageClass.NO_PROVISIONER)) {
      return ProvisionCheck.UNSUPPORTED;
    }
    if (!matchesTopology(storageClass.allowedTopologies(), node.labels())) {
      return ProvisionCheck.UNSUPPORTED;
    }
    // The model reads an absent request as 0 bytes: kube then checks no capacity.
    if (claim.requestedBytes() == 0) {
      return ProvisionCheck.UNCHECKED;
    }
    var driver = storage.csiDriver(provisioner);
    if (driver.isEmpty() || !driver.get().storageCapacity()) {
      return ProvisionCheck.UNCHECKED;
    }
    for (var capacity : storage.capacitiesOfClass(storageClass.name())) {
      if (volumeLimit(capacity) >= claim.requestedBytes()
          && capacity.nodeTopology() != null
          && capacity.nodeTopology().matches(node.labels())) {
        return new ProvisionCheck(capacity);
      }
    }
    return ProvisionCheck.NO_CAPACITY;
  }

  /** kube's {@code volumeLimit}: the maximum volume size where given, else the capacity; -1 when neither is. */
  private static long volumeLimit(CsiStorageCapacity capacity) {
    return capacity.maximumVolumeSizeBytes() >= 0 ? capacity.maximumVolumeSizeBytes() : capacity.capacityBytes();
  }

  /**
   * kube's {@code MatchTopologySelectorTerms}: no term admits every node; otherwise a non-empty term whose
   * requirements all hold.
   */
  static boolean matchesTopology(List<NodeSelectorTerm> terms, Map<String, String> labels) {
    if (terms.isEmpty()) {
      return true;
    }
    for (var term : terms) {
      if (term.matchExpressions().isEmpty()) {
        continue;
      }
      boolean all = true;
      for (var requirement : term.matchExpressions()) {
        var value = labels.get(requirement.key());
        if (value == null || !requirement.values().contains(value)) {
          all = false;
          break;
        }
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  /** component-helpers' {@code CheckNodeAffinity}: a volume without node affinity admits every node. */
  static boolean admits(PersistentVolume volume, NodeInfo labelsOnly) {
    return volume.nodeAffinity().isEmpty() || NodeSelectors.matchesAny(volume.nodeAffinity(), labelsOnly);
  }

  /**
   * component-helpers' {@code FindMatchingVolume} on the scheduler's path: the volume pre-bound to the claim if
   * there is one (and it admits the node), else the smallest available volume of the claim's class, access
   * modes, volume mode, attributes class and size whose labels match the claim's selector and that admits the
   * node.
   *
   * @param excluded the names of volumes already chosen for the pod's other claims
   * @return the volume, or null if none fits
   */
  static @Nullable PersistentVolume findMatchingVolume(
      PersistentVolumeClaim claim, List<PersistentVolume> volumes, NodeInfo labelsOnly, Set<String> excluded) {
    PersistentVolume smallest = null;
    for (var volume : volumes) {
      if (excluded.contains(volume.name())) {
        continue;
      }
      var claimRef = volume.claimRef();
      if (claimRef != null && !claimRef.refersTo(claim)) {
        continue;
      }
      if (volume.capacityBytes() < claim.requestedBytes()
          || volume.volumeMode() != claim.volumeMode()
          || !volume.volumeAttributesClassName().equals(claim.volumeAttributesClassName())
          || volume.deleting()) {
        continue;
      }
      boolean admitsNode = admits(volume, labelsOnly);
      if (claimRef != null) {
        // Pre-bound to this claim: it is this volume or none.
        return admitsNode ? volume : null;
      }
      if (volume.phase() != PersistentVolume.Phase.AVAILABLE) {
        continue;
      }
      var selector = claim.selector();
      if (selector != null && !selector.matches(volume.labels())) {
        continue;
      }
      if (!volume.storageClassName().equals(claim.storageClassName())
          || !admitsNode
          || !volume.accessModes().containsAll(claim.accessModes())) {
        continue;
      }
      if (smallest == null || smallest.capacityBytes() > volume.capacityBytes()) {
        smallest = volume;
      }
    }
    return smallest;
  }
}
