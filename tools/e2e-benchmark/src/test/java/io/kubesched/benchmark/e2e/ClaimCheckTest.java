package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The claims check of a DRA run, fed the events its watches would see. */
class ClaimCheckTest {

  private final ClaimCheck check = new ClaimCheck();

  @Test
  void a_pod_whose_claim_was_allocated_on_its_node_keeps_its_claim() {
    check.claimEvent(false, claim("backlog-0-resource", "node-1", "basic-device-0"));
    check.podEvent(pod("backlog-0", "node-1", "backlog-0-resource"));

    assertEquals(new RunResult.Claims(1, 1, 0, 0, 0), check.result());
    assertTrue(check.result().kept());
  }

  @Test
  void a_claim_on_another_node_or_never_allocated_is_counted() {
    check.claimEvent(false, claim("a-resource", "node-2", "basic-device-0"));
    check.claimEvent(false, claim("b-resource", null, "basic-device-0"));
    check.podEvent(pod("a", "node-1", "a-resource"));
    check.podEvent(pod("b", "node-1", "b-resource"));

    var claims = check.result();
    assertEquals(new RunResult.Claims(2, 2, 1, 1, 0), claims);
    assertFalse(claims.kept());
  }

  @Test
  void a_list_after_a_resumed_watch_drops_the_claims_deleted_meanwhile_and_frees_their_devices() {
    check.claimEvent(false, claim("a", "node-1", "basic-device-0"));
    check.claimEvent(false, claim("b", "node-1", "basic-device-1"));

    check.claimsListed(List.of(claim("b", "node-1", "basic-device-1"), claim("c", "node-1", "basic-device-0")));

    assertEquals(0, check.result().sharedDevices(), "a's device went with a, so c holds it alone");
    check.claimEvent(false, claim("d", "node-1", "basic-device-1"));
    assertEquals(1, check.result().sharedDevices(), "b, listed, still holds its device");
  }

  @Test
  void a_pod_bound_before_its_claim_was_made_counts_as_unallocated() {
    // The bind ceiling binds pods as it sees them, before the resource claim controller names their claims.
    check.podEvent(pod("a", "node-1", null));

    assertEquals(new RunResult.Claims(1, 0, 1, 0, 0), check.result());
  }

  @Test
  void a_device_taken_by_a_second_claim_while_the_first_holds_it_is_shared_but_not_once_the_first_let_it_go() {
    check.claimEvent(false, claim("a", "node-1", "basic-device-0"));
    check.claimEvent(false, claim("b", "node-1", "basic-device-0"));
    assertEquals(1, check.result().sharedDevices());

    check.claimEvent(false, claim("c", "node-2", "basic-device-0"));
    check.claimEvent(false, claim("c", null, "basic-device-0")); // deallocated: the steady state's pod is gone
    check.claimEvent(false, claim("d", "node-2", "basic-device-0"));
    check.claimEvent(true, claim("d", "node-2", "basic-device-0"));
    check.claimEvent(false, claim("e", "node-2", "basic-device-0"));
    assertEquals(1, check.result().sharedDevices(), "c and d gave the device back before d and e took it");
  }

  @Test
  void a_claim_seen_again_with_the_same_allocation_does_not_share_with_itself_and_a_deleted_pod_stays_checked() {
    var events = new ArrayList<Pod>();
    var watcher = check.pods(events::add);
    check.claimEvent(false, claim("a-resource", "node-1", "basic-device-3"));
    check.claimEvent(false, claim("a-resource", "node-1", "basic-device-3"));
    watcher.eventReceived(io.fabric8.kubernetes.client.Watcher.Action.ADDED, pod("a", "", null));
    watcher.eventReceived(io.fabric8.kubernetes.client.Watcher.Action.MODIFIED, pod("a", "node-1", "a-resource"));
    watcher.eventReceived(io.fabric8.kubernetes.client.Watcher.Action.DELETED, pod("a", "node-1", "a-resource"));
    check.claimEvent(false, claim("a-resource", null, "basic-device-3"));

    assertEquals(1, events.size(), "the bound pod is handed on once");
    assertEquals(new RunResult.Claims(1, 1, 0, 0, 0), check.result());
  }

  @Test
  void a_pods_claims_are_those_it_names_and_those_made_from_its_templates() {
    var pod =
        new PodBuilder(pod("a", "node-1", "a-resource-x7"))
            .editSpec()
            .addNewResourceClaim()
            .withName("shared")
            .withResourceClaimName("shared-claim")
            .endResourceClaim()
            .endSpec()
            .build();

    assertEquals(List.of("shared-claim", "a-resource-x7"), ClaimCheck.claimNames(pod));
  }

  /** A claim of {@code bench}, allocated device {@code device} of node {@code node}'s pool, or unallocated if null. */
  private static ResourceClaim claim(String name, @Nullable String node, String device) {
    var claim = new ResourceClaimBuilder().withNewMetadata().withName(name).withNamespace("bench").endMetadata();
    if (node != null) {
      claim
          .withNewStatus()
          .withAllocation(
              new AllocationResultBuilder()
                  .withNewDevices()
                  .addNewResult()
                  .withRequest("req-0")
                  .withDriver(PodShape.DRA_DRIVER)
                  .withPool(node)
                  .withDevice(device)
                  .endResult()
                  .endDevices()
                  .build())
          .endStatus();
    }
    return claim.build();
  }

  /** A measured pod of {@code bench} with a template entry, bound to {@code node} (unless empty), its claim named. */
  private static Pod pod(String name, String node, @Nullable String claim) {
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("bench")
            .endMetadata()
            .withNewSpec()
            .withNodeName(node.isEmpty() ? null : node)
            .addNewResourceClaim()
            .withName("resource")
            .withResourceClaimTemplateName(PodShape.CLAIM_TEMPLATE)
            .endResourceClaim()
            .endSpec();
    if (claim != null) {
      pod.withNewStatus().addNewResourceClaimStatus().withName("resource").withResourceClaimName(claim)
          .endResourceClaimStatus().endStatus();
    }
    return pod.build();
  }
}
