package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequest;
import io.fabric8.kubernetes.api.model.ContainerExtendedResourceRequestBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.kubesched.api.ExtendedResourceClaim;
import java.util.List;
import java.util.Objects;

/**
 * The api's {@link ExtendedResourceClaim} as fabric8's objects: the ResourceClaim to create (kube's special claim,
 * as its {@code preFilterExtendedResources} and {@code filterExtendedResources} make it) and the pod status's request
 * mappings.
 */
public final class ExtendedResourceClaims {

  private ExtendedResourceClaims() {}

  /**
   * @return the claim to create in {@code namespace}: {@code generateName}, the pod as controlling owner, the
   *     annotation, its exact-count requests; no name, uid or status
   */
  public static ResourceClaim toFabric8(String namespace, ExtendedResourceClaim claim) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withGenerateName(claim.generateName())
        .addToAnnotations(ExtendedResourceClaim.ANNOTATION, "true")
        .withOwnerReferences(new OwnerReferenceBuilder()
            .withApiVersion("v1").withKind("Pod").withName(claim.podName()).withUid(claim.podUid())
            .withController(true).build())
        .endMetadata()
        .withNewSpec().withNewDevices()
        .withRequests(claim.requests().stream().map(ExtendedResourceClaims::request).toList())
        .endDevices().endSpec()
        .build();
  }

  /** @return the pod status's {@code requestMappings} */
  public static List<ContainerExtendedResourceRequest> mappings(ExtendedResourceClaim claim) {
    return claim.requestMappings().stream()
        .map(m -> new ContainerExtendedResourceRequestBuilder().withContainerName(m.containerName())
            .withResourceName(m.resourceName()).withRequestName(m.requestName()).build())
        .toList();
  }

  private static DeviceRequest request(io.kubesched.api.DeviceRequest request) {
    var exactly = Objects.requireNonNull(request.exactly(), "the claim for extended resources has exact requests");
    return new DeviceRequestBuilder().withName(request.name()).withNewExactly()
        .withDeviceClassName(exactly.deviceClassName())
        .withAllocationMode("ExactCount")
        .withCount(exactly.count())
        .endExactly()
        .build();
  }
}
