package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What must be done for one of a pod's unbound claims before the pod is bound to the node chosen for it:
 * kube-scheduler's volume binding, which a {@link Decision.Bind} carries from the policy to the controller.
 * The controller reserves each binding (no other pod is given the volume), writes it to the API server
 * before binding the pod, and waits until the PersistentVolume controller reports the claims bound.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface VolumeBinding {

  /** @return the claim's namespace */
  String claimNamespace();

  /** @return the claim's name */
  String claimName();

  /**
   * Bind an existing, available volume to the claim (the volume's {@code spec.claimRef} is set).
   *
   * @param claimNamespace the claim's namespace
   * @param claimName the claim's name
   * @param claimUid the claim's uid
   * @param volumeName the volume chosen for it
   */
  record Static(String claimNamespace, String claimName, String claimUid, String volumeName)
      implements VolumeBinding {}

  /**
   * Have the claim's volume provisioned for the chosen node (the claim is annotated with {@code
   * volume.kubernetes.io/selected-node}).
   *
   * @param claimNamespace the claim's namespace
   * @param claimName the claim's name
   * @param claimUid the claim's uid
   */
  record Provision(String claimNamespace, String claimName, String claimUid) implements VolumeBinding {}
}
