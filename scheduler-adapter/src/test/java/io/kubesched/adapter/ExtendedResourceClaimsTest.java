package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kubesched.api.AllocationMode;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.ExtendedResourceClaim;
import io.kubesched.api.ExtendedResourceClaim.RequestMapping;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExtendedResourceClaimsTest {

  private static final ExtendedResourceClaim CLAIM = new ExtendedResourceClaim("my-pod", "uid-1",
      List.of(DeviceRequest.exactly("container-0-request-0", new DeviceRequirements(
          "gpu.example.com", List.of(), AllocationMode.EXACT_COUNT, 2, false, List.of(), Map.of()))),
      List.of(new RequestMapping("main", "example.com/gpu", "container-0-request-0")));

  @Test
  void the_claim_is_kube_s_special_claim_without_name_or_status() {
    var claim = ExtendedResourceClaims.toFabric8("ml", CLAIM);

    assertEquals("ml", claim.getMetadata().getNamespace());
    assertNull(claim.getMetadata().getName());
    assertEquals("my-pod-extended-resources-", claim.getMetadata().getGenerateName());
    assertEquals(Map.of("resource.kubernetes.io/extended-resource-claim", "true"), claim.getMetadata().getAnnotations());
    var owner = claim.getMetadata().getOwnerReferences().get(0);
    assertEquals(List.of("v1", "Pod", "my-pod", "uid-1", true),
        List.of(owner.getApiVersion(), owner.getKind(), owner.getName(), owner.getUid(), owner.getController()));
    var request = claim.getSpec().getDevices().getRequests().get(0);
    assertEquals("container-0-request-0", request.getName());
    assertEquals(List.of("gpu.example.com", "ExactCount", 2L),
        List.of(request.getExactly().getDeviceClassName(), request.getExactly().getAllocationMode(),
            request.getExactly().getCount()));
    assertNull(claim.getStatus());
  }

  @Test
  void the_mappings_keep_each_field() {
    var mapping = ExtendedResourceClaims.mappings(CLAIM).get(0);
    assertEquals(List.of("main", "example.com/gpu", "container-0-request-0"),
        List.of(mapping.getContainerName(), mapping.getResourceName(), mapping.getRequestName()));
  }
}
