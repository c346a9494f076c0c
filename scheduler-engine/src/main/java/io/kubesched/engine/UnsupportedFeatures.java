package io.kubesched.engine;

import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The features a pod can ask for that the library cannot honour yet, so that such a pod is refused with a
 * message that says why rather than placed as if the feature did not exist: a pod whose volume is not bound
 * could land in a zone its volume cannot reach, and a pod whose device was never allocated would not start.
 *
 * <ul>
 *   <li>PersistentVolumeClaims, whether named by a volume or created for a generic ephemeral volume: volume
 *       binding (kube's VolumeBinding, VolumeZone and the attach limits) is not implemented.
 *   <li>ResourceClaims: dynamic resource allocation (kube's DynamicResources) is not implemented.
 * </ul>
 *
 * <p>Pure; the controller asks before it gives a pod to the policy, reports the message as it reports an
 * unschedulable pod, and parks the pod until it is updated.
 */
public final class UnsupportedFeatures {

  private UnsupportedFeatures() {}

  /**
   * @return why {@code pod} cannot be scheduled by this library, one sentence per unsupported feature it
   *     uses, naming its claims: for example {@code pod default/db-0 uses PersistentVolumeClaim "data":
   *     volume binding is not supported by kubesched yet}; empty if it uses none
   */
  public static Optional<String> refusal(PodInfo pod) {
    var reasons = new ArrayList<String>(2);
    if (!pod.persistentVolumeClaims().isEmpty()) {
      reasons.add(
          uses(pod, "PersistentVolumeClaim", pod.persistentVolumeClaims())
              + ": volume binding is not supported by kubesched yet");
    }
    if (!pod.resourceClaims().isEmpty()) {
      reasons.add(
          uses(pod, "ResourceClaim", pod.resourceClaims())
              + ": dynamic resource allocation is not supported by kubesched yet");
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
  }

  private static String uses(PodInfo pod, String kind, List<String> claims) {
    var quoted = new ArrayList<String>(claims.size());
    claims.forEach(claim -> quoted.add('"' + claim + '"'));
    return "pod " + pod.namespace() + "/" + pod.name() + " uses " + kind + (claims.size() == 1 ? " " : "s ")
        + String.join(", ", quoted);
  }
}
