package io.kubesched.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.DynamicResourceAdapter;
import org.junit.jupiter.api.Test;

/** {@link DeviceHeapMeasurement}'s objects are the shapes its report names. */
class DeviceHeapMeasurementTest {

  private final DeviceHeapMeasurement tool = new DeviceHeapMeasurement();
  private final KubernetesSerialization json = new KubernetesSerialization();

  @Test
  void a_slice_has_eight_devices_of_four_attributes_and_two_capacities() {
    var slice = DynamicResourceAdapter.slice(json.unmarshal(tool.sliceJson(7), ResourceSlice.class));

    assertEquals(8, slice.devices().size());
    slice.devices().forEach(d -> {
      assertEquals(4, d.attributes().size());
      assertEquals(2, d.capacity().size());
    });
  }

  @Test
  void a_claim_is_allocated_one_device_and_reserved_for_its_pod() {
    var claim = DynamicResourceAdapter.claim(json.unmarshal(tool.claimJson(9), ResourceClaim.class));

    assertEquals(1, claim.requests().size());
    assertNotNull(claim.allocation());
    assertEquals("gpu-1", claim.allocation().devices().get(0).device());
    assertEquals(1, claim.reservedFor().size());
  }
}
