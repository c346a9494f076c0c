package io.kubesched.adapter;

import io.kubesched.api.PodResourceClaim;
import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PodAdapter#toPodInfo}: whether the pod is terminating, scheduling gates, the claims a pod's volumes use, and its resource claims.
 */
class PodClaimsTest {

  @Test
  void a_bare_pod_has_no_gates_and_no_claims() {
    var info = PodAdapter.toPodInfo(pod().build());

    assertEquals(List.of(), info.schedulingGates());
    assertEquals(List.of(), info.persistentVolumeClaims());
    assertEquals(List.of(), info.resourceClaims());
  }

  @Test
  void a_pod_with_a_deletion_timestamp_is_terminating() {
    var live = pod().build();
    var deleted = new io.fabric8.kubernetes.api.model.PodBuilder(live)
        .editMetadata().withDeletionTimestamp("2026-11-26T10:00:00Z").endMetadata().build();

    assertEquals(false, PodAdapter.toPodInfo(live).terminating());
    assertEquals(true, PodAdapter.toPodInfo(deleted).terminating());
  }

  @Test
  void scheduling_gates_are_read_by_name_in_order() {
    var pod = pod().schedulingGate("example.com/quota").schedulingGate("example.com/gang").build();

    assertEquals(List.of("example.com/quota", "example.com/gang"), PodAdapter.toPodInfo(pod).schedulingGates());
  }

  @Test
  void persistent_volume_claims_by_claim_name_and_ephemeral_volumes_by_the_claim_kubernetes_creates() {
    var pod =
        pod("ns", "web-0")
            .volume(
                new VolumeBuilder()
                    .withName("data")
                    .withNewPersistentVolumeClaim()
                    .withClaimName("data-web-0")
                    .endPersistentVolumeClaim()
                    .build())
            .volume(new VolumeBuilder().withName("cache").withNewEmptyDir().endEmptyDir().build())
            .volume(
                new VolumeBuilder()
                    .withName("scratch")
                    .withNewEphemeral()
                    .withNewVolumeClaimTemplate()
                    .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .endSpec()
                    .endVolumeClaimTemplate()
                    .endEphemeral()
                    .build())
            .volume(
                new VolumeBuilder()
                    .withName("logs")
                    .withNewPersistentVolumeClaim()
                    .withClaimName("shared-logs")
                    .withReadOnly(true)
                    .endPersistentVolumeClaim()
                    .build())
            .build();

    assertEquals(
        List.of("data-web-0", "web-0-scratch", "shared-logs"), PodAdapter.toPodInfo(pod).persistentVolumeClaims());
    assertEquals(List.of("web-0-scratch"), PodAdapter.toPodInfo(pod).ephemeralVolumeClaims());
  }

  @Test
  void a_pod_without_ephemeral_volumes_has_no_ephemeral_claims() {
    var pod = pod("ns", "web-0")
        .volume(new VolumeBuilder().withName("data").withNewPersistentVolumeClaim().withClaimName("d")
            .endPersistentVolumeClaim().build())
        .build();

    assertEquals(List.of("d"), PodAdapter.toPodInfo(pod).persistentVolumeClaims());
    assertEquals(List.of(), PodAdapter.toPodInfo(pod).ephemeralVolumeClaims());
  }

  @Test
  void resource_claims_are_read_by_name_in_order() {
    var pod = pod().resourceClaim("gpu", "gpu-template").resourceClaim("nic", null).build();

    assertEquals(
        List.of("gpu", "nic"),
        PodAdapter.toPodInfo(pod).resourceClaims().stream().map(PodResourceClaim::name).toList());
  }

  @Test
  void a_template_entry_resolves_to_the_claim_the_status_names_and_to_none_where_no_claim_is_needed() {
    var pod = new io.fabric8.kubernetes.api.model.PodBuilder(
            pod().resourceClaim("gpu", "gpu-template").resourceClaim("nic", "nic-template")
                .resourceClaim("fpga", "fpga-template").build())
        .withNewStatus()
        .addNewResourceClaimStatus().withName("gpu").withResourceClaimName("web-0-gpu-x7k2p").endResourceClaimStatus()
        .addNewResourceClaimStatus().withName("nic").endResourceClaimStatus()
        .endStatus()
        .build();

    var claims = PodAdapter.toPodInfo(pod).resourceClaims();

    assertEquals(new PodResourceClaim("gpu", null, "gpu-template", "web-0-gpu-x7k2p"), claims.get(0));
    assertEquals("web-0-gpu-x7k2p", claims.get(0).claimName());
    assertEquals(true, claims.get(1).notNeeded(), "a status entry without a claim name: no claim is needed");
    assertEquals(null, claims.get(1).claimName());
    assertEquals(new PodResourceClaim("fpga", null, "fpga-template", null), claims.get(2), "not reported yet");
    assertEquals(false, claims.get(2).notNeeded());
  }
}
