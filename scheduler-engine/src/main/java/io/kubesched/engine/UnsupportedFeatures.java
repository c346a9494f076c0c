package io.kubesched.engine;

import io.kubesched.api.ClusterData;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The features a pod can ask for that the library cannot honour yet, so that such a pod is refused with a
 * message that says why rather than placed as if the feature did not exist: a pod whose volume is not bound
 * could land in a zone its volume cannot reach, and a pod whose device was never allocated would not start.
 *
 * <ul>
 *   <li>PersistentVolumeClaims, whether named by a volume or created for a generic ephemeral volume, when the
 *       policy does not read {@link ClusterData#PERSISTENT_VOLUME_CLAIMS}: it has no volume binding rule (kube's
 *       VolumeBinding), so it would place the pod as if it had no claims. A policy that reads them binds the
 *       pod's volumes through the {@code VolumeBinding}s of its decision.
 *   <li>ResourceClaims, when the policy does not read {@link ClusterData#RESOURCE_CLAIMS}: it has no dynamic
 *       resource allocation rule (kube's DynamicResources), so it would place the pod as if it claimed no device. A
 *       policy that reads them allocates the pod's claims through the {@code ClaimAllocation}s of its decision.
 * </ul>
 *
 * <p>Pure; the controller asks before it gives a pod to the policy, reports the message as it reports an
 * unschedulable pod, and parks the pod until it is updated.
 */
public final class UnsupportedFeatures {

  private UnsupportedFeatures() {}

  /**
   * @param reads what the policy of the pod's profile reads ({@code FinderFunc.reads()})
   * @return why {@code pod} cannot be scheduled by this library with that policy, one sentence per unsupported
   *     feature it uses, naming its claims: for example {@code pod default/db-0 uses PersistentVolumeClaim
   *     "data": the scheduling policy has no volume binding rule (it does not read PersistentVolumeClaims)};
   *     empty if it uses none
   */
  public static Optional<String> refusal(PodInfo pod, Set<ClusterData> reads) {
    var reasons = new ArrayList<String>(2);
    if (!pod.persistentVolumeClaims().isEmpty() && !reads.contains(ClusterData.PERSISTENT_VOLUME_CLAIMS)) {
      reasons.add(
          uses(pod, "PersistentVolumeClaim", pod.persistentVolumeClaims())
              + ": the scheduling policy has no volume binding rule (it does not read PersistentVolumeClaims)");
    }
    if (!pod.resourceClaims().isEmpty() && !reads.contains(ClusterData.RESOURCE_CLAIMS)) {
      reasons.add(
          uses(pod, "ResourceClaim", pod.resourceClaims().stream().map(PodResourceClaim::name).toList())
              + ": the scheduling policy has no dynamic resource allocation rule (it does not read ResourceClaims)");
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
