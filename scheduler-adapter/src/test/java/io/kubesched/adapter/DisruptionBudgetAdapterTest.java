package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link DisruptionBudgetAdapter#toBudget}: what preemption reads of a policy/v1 PodDisruptionBudget. */
class DisruptionBudgetAdapterTest {

  private static PodDisruptionBudgetBuilder budget(String namespace, String name) {
    return new PodDisruptionBudgetBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata();
  }

  @Test
  void namespace_name_selector_allowed_disruptions_and_disrupted_pods_are_read() {
    var budget =
        budget("shop", "web-pdb")
            .withNewSpec()
            .withNewMinAvailable(2)
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .addNewMatchExpression()
            .withKey("tier")
            .withOperator("In")
            .withValues("front", "edge")
            .endMatchExpression()
            .endSelector()
            .endSpec()
            .withNewStatus()
            .withDisruptionsAllowed(1)
            .withCurrentHealthy(3)
            .withDesiredHealthy(2)
            .withExpectedPods(3)
            .withDisruptedPods(Map.of("web-1", "2026-03-02T10:00:00Z", "web-2", "2026-03-02T10:00:01Z"))
            .endStatus()
            .build();

    var read = DisruptionBudgetAdapter.toBudget(budget);

    assertEquals(
        new io.kubesched.api.PodDisruptionBudget(
            "shop",
            "web-pdb",
            new LabelSelector(
                Map.of("app", "web"),
                List.of(
                    new LabelSelectorRequirement("tier", LabelSelectorRequirement.Operator.IN, List.of("front", "edge")))),
            1,
            Set.of("web-1", "web-2")),
        read);
    var web = PodInfo.builder("shop", "web-3").labels(Map.of("app", "web", "tier", "edge")).build();
    assertTrue(read.protects(web));
    assertFalse(read.protects(PodInfo.builder("other", "web-3").labels(web.labels()).build()));
  }

  @Test
  void a_budget_without_status_allows_no_disruption_and_lists_no_disrupted_pod() {
    var read =
        DisruptionBudgetAdapter.toBudget(
            budget("shop", "web-pdb").withNewSpec().withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec().build());

    assertEquals(0, read.disruptionsAllowed());
    assertEquals(Set.of(), read.disruptedPods());
  }

  @Test
  void a_status_without_the_counts_reads_as_zero_and_empty() {
    var read = DisruptionBudgetAdapter.toBudget(budget("shop", "web-pdb").withNewStatus().endStatus().build());

    assertEquals(0, read.disruptionsAllowed());
    assertEquals(Set.of(), read.disruptedPods());
  }

  @Test
  void an_unset_selector_stays_unset_and_an_empty_one_empty_both_protecting_no_pod() {
    var unset = DisruptionBudgetAdapter.toBudget(budget("shop", "all").withNewSpec().endSpec().build());
    var noSpec = DisruptionBudgetAdapter.toBudget(budget("shop", "all").build());
    var empty =
        DisruptionBudgetAdapter.toBudget(
            budget("shop", "all").withNewSpec().withSelector(new LabelSelectorBuilder().build()).endSpec().build());

    assertNull(unset.selector());
    assertNull(noSpec.selector());
    assertEquals(LabelSelector.of(Map.of()), empty.selector());
    var pod = PodInfo.builder("shop", "web-1").labels(Map.of("app", "web")).build();
    assertFalse(unset.protects(pod));
    assertFalse(empty.protects(pod));
  }

  @Test
  void a_selector_with_an_unknown_operator_is_malformed_naming_budget_field_and_value() {
    var budget =
        budget("shop", "web-pdb")
            .withNewSpec()
            .withNewSelector()
            .withMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey("app").withOperator("Near").withValues("web").build())
            .endSelector()
            .endSpec()
            .build();

    var e = assertThrows(MalformedObjectException.class, () -> DisruptionBudgetAdapter.toBudget(budget));

    assertEquals("PodDisruptionBudget shop/web-pdb", e.object());
    assertEquals("spec.selector.matchExpressions[0].operator", e.field());
    assertEquals("Near", e.value());
    assertEquals(
        "PodDisruptionBudget shop/web-pdb: spec.selector.matchExpressions[0].operator 'Near' is not In, NotIn, Exists"
            + " or DoesNotExist",
        e.getMessage());
  }

  @Test
  void a_selector_whose_values_do_not_fit_the_operator_is_malformed() {
    var budget =
        budget("shop", "web-pdb")
            .withNewSpec()
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .withMatchExpressions(
                new LabelSelectorRequirementBuilder().withKey("tier").withOperator("Exists").build(),
                new LabelSelectorRequirementBuilder().withKey("zone").withOperator("In").build())
            .endSelector()
            .endSpec()
            .build();

    var e = assertThrows(MalformedObjectException.class, () -> DisruptionBudgetAdapter.toBudget(budget));

    assertEquals("spec.selector.matchExpressions[1].values", e.field());
    assertEquals("[]", e.value());
  }

  @Test
  void a_budget_without_metadata_reads_with_empty_names() {
    var read = DisruptionBudgetAdapter.toBudget(new PodDisruptionBudget());

    assertEquals("", read.namespace());
    assertEquals("", read.name());
  }
}
