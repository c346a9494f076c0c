package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.VolumeOutcome;
import io.kubesched.binder.VolumeWriter;

/**
 * Where the {@link BindingCycle} writes a pod's volume bindings before it binds the pod (kube's VolumeBinding
 * PreBind): {@link #toApiServer} in production, a fake in the loop's unit tests. Called on a binding thread,
 * several at once.
 */
public interface VolumePort {

  /**
   * Sets volume {@code volumeName}'s {@code spec.claimRef} to the claim.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  VolumeOutcome bindVolume(String volumeName, String claimNamespace, String claimName, String claimUid)
      throws InterruptedException;

  /**
   * Annotates the claim with {@code volume.kubernetes.io/selected-node: nodeName}.
   *
   * @throws InterruptedException if the binding thread is interrupted (the loop is closing)
   */
  VolumeOutcome selectNode(String claimNamespace, String claimName, String claimUid, String nodeName)
      throws InterruptedException;

  /** @return the port that writes through a {@link VolumeWriter}, each write taking a token of {@code writes} */
  static VolumePort toApiServer(KubernetesClient client, TokenBucket writes) {
    var writer = new VolumeWriter(client, writes);
    return new VolumePort() {
      @Override
      public VolumeOutcome bindVolume(String volumeName, String claimNamespace, String claimName, String claimUid)
          throws InterruptedException {
        return writer.bindVolume(volumeName, claimNamespace, claimName, claimUid);
      }

      @Override
      public VolumeOutcome selectNode(String claimNamespace, String claimName, String claimUid, String nodeName)
          throws InterruptedException {
        return writer.selectNode(claimNamespace, claimName, claimUid, nodeName);
      }
    };
  }
}
