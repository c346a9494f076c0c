package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a pod's {@code spec.resourceClaims} (dynamic resource allocation), with the claim it resolves to.
 *
 * @param name the entry's name in the pod
 * @param resourceClaimName the existing claim it names; {@code null} when it names a template
 * @param resourceClaimTemplateName the template a claim is made from for the pod; {@code null} when it names a
 *     claim
 * @param generatedClaimName for a template, the claim made for the pod as {@code
 *     status.resourceClaimStatuses} reports it; empty when the controller reported that no claim is needed;
 *     {@code null} while it has reported nothing yet
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PodResourceClaim(
    String name,
    @Nullable String resourceClaimName,
    @Nullable String resourceClaimTemplateName,
    @Nullable String generatedClaimName) {

  /** @return an entry naming an existing claim */
  public static PodResourceClaim ofClaim(String name, String claimName) {
    return new PodResourceClaim(name, claimName, null, null);
  }

  /**
   * @return the name of the claim this entry resolves to: the named claim, or the generated one; {@code null} for a
   *     template whose claim does not exist yet, and for one the controller decided is not needed ({@link
   *     #notNeeded})
   */
  public @Nullable String claimName() {
    if (resourceClaimName != null) {
      return resourceClaimName;
    }
    return generatedClaimName == null || generatedClaimName.isEmpty() ? null : generatedClaimName;
  }

  /**
   * @return whether this entry names a template and the pod's status reports nothing for it yet: the resource claim
   *     controller has not made the pod's claim (kube's DynamicResources PreEnqueue keeps such a pod from being tried)
   */
  public boolean awaitsGeneratedClaim() {
    return resourceClaimName == null && generatedClaimName == null;
  }

  /** @return whether the pod's status says no claim is needed for this template entry (kube skips such an entry) */
  public boolean notNeeded() {
    return resourceClaimName == null && generatedClaimName != null && generatedClaimName.isEmpty();
  }
}
