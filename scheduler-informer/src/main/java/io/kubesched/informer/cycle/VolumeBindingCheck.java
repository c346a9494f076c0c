package io.kubesched.informer.cycle;

import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeBinding;
import io.kubesched.engine.StorageCache;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether the volume bindings written for one pod have been carried out, as kube-scheduler's {@code
 * checkBindings} (VolumeBinding's binder.go) decides it, from the claims and volumes as the informers last saw
 * them ({@link StorageCache#seenClaim}, {@link StorageCache#seenVolume}): every claim bound to its volume
 * ({@code spec.volumeName} set and annotated {@code pv.kubernetes.io/bind-completed}), every statically bound
 * volume referring to its claim, every volume reachable from the node.
 *
 * <p>The informers may not have delivered our own write yet. kube-scheduler compares resource versions to tell
 * a stale object from one undone by the PersistentVolume controller; the storage model has none, so a
 * binding counts as undone only once its write has been seen (this object remembers that): a volume whose
 * {@code claimRef} we saw set and then see reset, a claim whose selected node we saw and then see removed (its
 * provisioner failed). Until then it is pending. A volume seen bound to another claim has been taken: failed
 * at once. One instance per waiting pod; not thread-safe (its caller checks one pod on one thread at a time).
 */
final class VolumeBindingCheck {

  /** What one check found. */
  sealed interface Result {
    /** Every claim is bound: the pod may be bound. */
    record Done() implements Result {}

    /** Not yet: check again later. */
    record Pending() implements Result {}

    /** The binding cannot complete; the pod is to be tried again. @param message kube's words for why */
    record Failed(String message) implements Result {}
  }

  private final String nodeName;
  private final List<VolumeBinding> bindings;
  private final Set<VolumeBinding> seenWritten = new HashSet<>();

  VolumeBindingCheck(String nodeName, List<VolumeBinding> bindings) {
    this.nodeName = nodeName;
    this.bindings = List.copyOf(bindings);
  }

  /**
   * @param nodeLabels the chosen node's labels, as the cache has them
   */
  Result check(StorageCache storage, Map<String, String> nodeLabels) {
    boolean pending = false;
    for (var binding : bindings) {
      Result result =
          binding instanceof VolumeBinding.Static bound
              ? checkStatic(storage, bound, nodeLabels)
              : checkProvision(storage, (VolumeBinding.Provision) binding, nodeLabels);
      if (result instanceof Result.Failed) {
        return result;
      }
      pending |= result instanceof Result.Pending;
    }
    return pending ? new Result.Pending() : new Result.Done();
  }

  private Result checkStatic(StorageCache storage, VolumeBinding.Static binding, Map<String, String> nodeLabels) {
    var volume = storage.seenVolume(binding.volumeName()).orElse(null);
    if (volume == null) {
      return failed("failed to check binding: persistentvolume \"" + binding.volumeName() + "\" not found");
    }
    var claim = storage.seenClaim(binding.claimNamespace(), binding.claimName()).orElse(null);
    if (claim == null || !claim.uid().equals(binding.claimUid())) {
      return failed("failed to check binding: persistentvolumeclaim \"" + binding.claimName() + "\" not found");
    }
    if (!reachable(volume, nodeLabels)) {
      return affinityMismatch(volume);
    }
    var ref = volume.claimRef();
    if (ref != null && !ref.uid().isEmpty() && ref.refersTo(claim)) {
      seenWritten.add(binding);
    } else if (ref != null && !ref.uid().isEmpty()) {
      return failed(
          "pv \"" + volume.name() + "\" was bound to another claim " + ref.namespace() + "/" + ref.name());
    } else if (seenWritten.contains(binding)) {
      return failed("ClaimRef got reset for pv \"" + volume.name() + "\"");
    } else {
      return new Result.Pending(); // our write is not in the informer's view yet
    }
    return fullyBound(claim) ? new Result.Done() : new Result.Pending();
  }

  private Result checkProvision(
      StorageCache storage, VolumeBinding.Provision binding, Map<String, String> nodeLabels) {
    var claim = storage.seenClaim(binding.claimNamespace(), binding.claimName()).orElse(null);
    if (claim == null || !claim.uid().equals(binding.claimUid())) {
      return failed(
          "failed to check provisioning pvc: persistentvolumeclaim \"" + binding.claimName() + "\" not found");
    }
    if (claim.selectedNode().equals(nodeName)) {
      seenWritten.add(binding);
    } else if (seenWritten.contains(binding)) {
      // The provisioner removes the annotation to hand the claim back to the scheduler.
      return failed("provisioning failed for PVC \"" + claim.name() + "\"");
    } else {
      return new Result.Pending();
    }
    if (claim.isBound()) {
      var volume = storage.seenVolume(claim.volumeName()).orElse(null);
      if (volume == null) {
        return new Result.Pending(); // not delivered yet; a deleted one unbinds the claim in time
      }
      if (!reachable(volume, nodeLabels)) {
        return affinityMismatch(volume);
      }
    }
    return fullyBound(claim) ? new Result.Done() : new Result.Pending();
  }

  private static boolean fullyBound(PersistentVolumeClaim claim) {
    return claim.isBound() && claim.bindCompleted();
  }

  private Result affinityMismatch(PersistentVolume volume) {
    return failed(
        "pv \"" + volume.name() + "\" node affinity doesn't match node \"" + nodeName
            + "\": no matching NodeSelectorTerms");
  }

  private static Result failed(String message) {
    return new Result.Failed(message);
  }

  /** Whether the chosen node matches the volume's required node affinity (kube's {@code CheckNodeAffinity}). */
  private boolean reachable(PersistentVolume volume, Map<String, String> labels) {
    var terms = volume.nodeAffinity();
    return terms.isEmpty() || terms.stream().anyMatch(term -> term.matches(labels, nodeName));
  }
}
