package io.kubesched.policy.plugins.helper;

import io.kubesched.api.PodInfo;
import java.util.List;

/** The claims a pod names in its {@code persistentVolumeClaim} volumes, as kube's volume plugins read them. */
public final class PodVolumeClaims {

  private PodVolumeClaims() {}

  /**
   * @return the pod's claims without those Kubernetes creates for its generic ephemeral volumes: kube's
   *     VolumeZone and VolumeRestrictions (and the snapshot's count of claims in use) look only at volumes of
   *     kind {@code persistentVolumeClaim}; in the pod's order, a claim named by two volumes twice
   */
  public static List<String> direct(PodInfo pod) {
    var ephemeral = pod.ephemeralVolumeClaims();
    if (ephemeral.isEmpty()) {
      return pod.persistentVolumeClaims();
    }
    return pod.persistentVolumeClaims().stream().filter(claim -> !ephemeral.contains(claim)).toList();
  }
}
