package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which updates of a pending pod retry it: not those of its status, which the scheduler itself writes. */
class PodUpdatesTest {

  private static Pod pod(String cpu) {
    return new PodBuilder()
        .withNewMetadata().withName("web").withNamespace("default").withUid("u1").withResourceVersion("1")
        .withLabels(Map.of("app", "web")).endMetadata()
        .withNewSpec().addNewContainer().withName("app").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer().endSpec()
        .build();
  }

  @Test
  void a_status_and_resource_version_change_alone_does_not_count() {
    var before = pod("500m");
    var after =
        new PodBuilder(before)
            .editMetadata().withResourceVersion("2").endMetadata()
            .withNewStatus()
            .addToConditions(new PodConditionBuilder().withType("PodScheduled").withStatus("False").build())
            .endStatus()
            .build();

    assertFalse(EventHandlers.changedBeyondStatus(before, after));
  }

  @Test
  void a_change_of_what_the_scheduler_reads_counts() {
    var before = pod("500m");

    assertTrue(EventHandlers.changedBeyondStatus(before, pod("250m")));
    assertTrue(
        EventHandlers.changedBeyondStatus(
            before, new PodBuilder(before).editMetadata().addToLabels("tier", "front").endMetadata().build()));
  }

  @Test
  void a_change_the_scheduler_does_not_read_does_not_count_even_against_the_stored_form() {
    var before = pod("500m");
    var stored = InformerStores.kept(before); // what the informer hands out as the old object
    var after = new PodBuilder(before).editMetadata().addToAnnotations("a", "b").endMetadata().build();

    assertFalse(EventHandlers.changedBeyondStatus(stored, after));
    assertFalse(EventHandlers.changedBeyondStatus(stored, before));
  }

  @Test
  void the_claim_a_template_made_named_in_the_status_counts_as_kube_s_generated_resource_claim_update() {
    var before = new PodBuilder(pod("500m")).editSpec().addNewResourceClaim().withName("gpu")
        .withResourceClaimTemplateName("one-gpu").endResourceClaim().endSpec().build();
    var after = new PodBuilder(before).withNewStatus().addNewResourceClaimStatus().withName("gpu")
        .withResourceClaimName("p-gpu-x7k2p").endResourceClaimStatus().endStatus().build();

    assertTrue(EventHandlers.changedBeyondStatus(InformerStores.kept(before), after));
    assertFalse(EventHandlers.changedBeyondStatus(InformerStores.kept(after), after));
  }

  @Test
  void a_malformed_quantity_counts_as_a_change_instead_of_throwing() {
    assertTrue(EventHandlers.changedBeyondStatus(pod("12x"), pod("12x")));
  }
}
