package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The ResourceClaim kube-scheduler creates for a pod's extended resources backed by a DeviceClass (kube's
 * DRAExtendedResource): created before the pod is bound, named {@code <pod>-extended-resources-} plus a suffix the
 * API server generates, controlled by the pod, annotated {@value #ANNOTATION}{@code : "true"}, with the
 * allocation the policy made and the pod in {@code reservedFor}; the pod's {@code
 * status.extendedResourceClaimStatus} then names it with the request mappings. A {@link ClaimAllocation} carries
 * one for such a claim.
 *
 * @param podName the pod's name, the claim's owner
 * @param podUid the pod's uid
 * @param requests the claim's device requests: one per container and resource the node does not offer through a
 *     device plugin ({@code container-<i>-request-<j>}, exact count of the resource's class)
 * @param requestMappings which request serves which container's resource, as written to the pod's status
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ExtendedResourceClaim(
    String podName, String podUid, List<DeviceRequest> requests, List<RequestMapping> requestMappings) {

  /** The annotation marking the claim (kube's {@code resourceapi.ExtendedResourceClaimAnnotation}). */
  public static final String ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

  /** The name the claim has until the API server names it (kube's in-memory name, never a valid object name). */
  public static final String NAME_BEFORE_CREATION = "<extended-resources>";

  public ExtendedResourceClaim {
    requests = List.copyOf(requests);
    requestMappings = List.copyOf(requestMappings);
  }

  /** @return the claim's {@code metadata.generateName} */
  public String generateName() {
    return podName + "-extended-resources-";
  }

  /**
   * One entry of the pod's {@code status.extendedResourceClaimStatus.requestMappings} (kube's {@code
   * ContainerExtendedResourceRequest}).
   *
   * @param containerName the container
   * @param resourceName the extended resource it requests
   * @param requestName the claim's request that provides it
   */
  public record RequestMapping(String containerName, String resourceName, String requestName) {}
}
