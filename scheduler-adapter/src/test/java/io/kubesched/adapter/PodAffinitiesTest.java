package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinityBuilder;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTermBuilder;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link PodAdapter#toPodInfo}: {@code spec.affinity.podAffinity} and {@code podAntiAffinity} into {@link
 * PodAffinity}, and the label selectors in them.
 */
class PodAffinitiesTest {

  static io.fabric8.kubernetes.api.model.LabelSelectorRequirement expression(
      @Nullable String key, @Nullable String operator, String... values) {
    return new LabelSelectorRequirementBuilder().withKey(key).withOperator(operator).withValues(values).build();
  }

  static io.fabric8.kubernetes.api.model.LabelSelector selector(
      Map<String, String> matchLabels, io.fabric8.kubernetes.api.model.LabelSelectorRequirement... expressions) {
    return new LabelSelectorBuilder().withMatchLabels(matchLabels).withMatchExpressions(expressions).build();
  }

  /** A term with every field set. */
  static io.fabric8.kubernetes.api.model.PodAffinityTerm fullTerm() {
    return new PodAffinityTermBuilder()
        .withLabelSelector(selector(Map.of("app", "web"), expression("tier", "In", "front", "back")))
        .withNamespaces("a", "b")
        .withNamespaceSelector(selector(Map.of("team", "x"), expression("env", "Exists")))
        .withTopologyKey("zone")
        .withMatchLabelKeys("pod-template-hash")
        .withMismatchLabelKeys("tenant")
        .build();
  }

  static final PodAffinityTerm FULL_TERM =
      new PodAffinityTerm(
          new LabelSelector(
              Map.of("app", "web"), List.of(LabelSelectorRequirement.of("tier", Operator.IN, "front", "back"))),
          Set.of("a", "b"),
          new LabelSelector(Map.of("team", "x"), List.of(LabelSelectorRequirement.of("env", Operator.EXISTS))),
          "zone",
          List.of("pod-template-hash"),
          List.of("tenant"));

  /** A term of a selector over {@code topologyKey}, nothing else set. */
  static io.fabric8.kubernetes.api.model.PodAffinityTerm term(
      io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector, String topologyKey) {
    return new PodAffinityTermBuilder().withLabelSelector(selector).withTopologyKey(topologyKey).build();
  }

  static io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm weighted(
      @Nullable Integer weight, io.fabric8.kubernetes.api.model.@Nullable PodAffinityTerm term) {
    return new WeightedPodAffinityTermBuilder().withWeight(weight).withPodAffinityTerm(term).build();
  }

  static io.fabric8.kubernetes.api.model.PodAntiAffinity antiAffinity(
      List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
      List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferred) {
    return new PodAntiAffinityBuilder()
        .withRequiredDuringSchedulingIgnoredDuringExecution(required)
        .withPreferredDuringSchedulingIgnoredDuringExecution(preferred)
        .build();
  }

  static io.fabric8.kubernetes.api.model.PodAffinity affinity(
      List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
      List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferred) {
    return new PodAffinityBuilder()
        .withRequiredDuringSchedulingIgnoredDuringExecution(required)
        .withPreferredDuringSchedulingIgnoredDuringExecution(preferred)
        .build();
  }

  private static MalformedObjectException rejectedAntiAffinity(
      io.fabric8.kubernetes.api.model.LabelSelector selector) {
    var pod = pod("ns", "p").podAntiAffinity(antiAffinity(List.of(term(selector, "zone")), List.of())).build();
    return assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));
  }

  private static void assertRejection(
      MalformedObjectException e, String object, String field, String value) {
    assertAll(
        () -> assertEquals(object, e.object()),
        () -> assertEquals(field, e.field()),
        () -> assertEquals(value, e.value()));
  }

  @Test
  void a_pod_without_affinity_has_neither_pod_affinity_nor_anti_affinity() {
    var info = PodAdapter.toPodInfo(pod().build());

    assertEquals(PodAffinity.NONE, info.podAffinity());
    assertEquals(PodAffinity.NONE, info.podAntiAffinity());
  }

  @Test
  void node_affinity_alone_leaves_pod_affinity_empty() {
    var info = PodAdapter.toPodInfo(pod().affinity(Fixtures.nodeAffinity(null, List.of())).build());

    assertEquals(PodAffinity.NONE, info.podAffinity());
    assertEquals(PodAffinity.NONE, info.podAntiAffinity());
  }

  @Test
  void pod_affinity_keeps_every_field_of_required_and_preferred_terms_in_order() {
    var pod =
        pod()
            .podAffinity(
                affinity(
                    List.of(fullTerm(), term(selector(Map.of("b", "2")), "host")),
                    List.of(weighted(30, fullTerm()), weighted(70, term(selector(Map.of()), "rack")))))
            .build();

    assertEquals(
        new PodAffinity(
            List.of(FULL_TERM, PodAffinityTerm.of(LabelSelector.of(Map.of("b", "2")), "host")),
            List.of(
                new WeightedPodAffinityTerm(30, FULL_TERM),
                new WeightedPodAffinityTerm(70, PodAffinityTerm.of(LabelSelector.EVERYTHING, "rack")))),
        PodAdapter.toPodInfo(pod).podAffinity());
  }

  @Test
  void pod_anti_affinity_keeps_every_field_of_required_and_preferred_terms_in_order() {
    var pod =
        pod()
            .podAntiAffinity(
                antiAffinity(
                    List.of(term(selector(Map.of("b", "2")), "host"), fullTerm()),
                    List.of(weighted(5, fullTerm()))))
            .build();

    var info = PodAdapter.toPodInfo(pod);

    assertEquals(
        new PodAffinity(
            List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("b", "2")), "host"), FULL_TERM),
            List.of(new WeightedPodAffinityTerm(5, FULL_TERM))),
        info.podAntiAffinity());
    assertEquals(PodAffinity.NONE, info.podAffinity());
  }

  @Test
  void both_and_node_affinity_are_read_side_by_side() {
    var pod =
        pod()
            .affinity(Fixtures.nodeAffinity(List.of(Fixtures.expressions(Fixtures.requirement("z", "Exists"))), List.of()))
            .podAffinity(affinity(List.of(term(selector(Map.of("a", "1")), "zone")), List.of()))
            .podAntiAffinity(antiAffinity(List.of(term(selector(Map.of("a", "2")), "host")), List.of()))
            .build();

    var info = PodAdapter.toPodInfo(pod);

    assertEquals(1, info.affinity().required().size());
    assertEquals(
        List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("a", "1")), "zone")), info.podAffinity().required());
    assertEquals(
        List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("a", "2")), "host")),
        info.podAntiAffinity().required());
  }

  @Test
  void a_term_without_label_selector_keeps_null_which_selects_no_pod() {
    var pod = pod().podAffinity(affinity(List.of(term(null, "zone")), List.of())).build();

    var term = PodAdapter.toPodInfo(pod).podAffinity().required().get(0);

    assertNull(term.labelSelector());
    assertNull(term.namespaceSelector());
  }

  @Test
  void an_empty_label_selector_selects_every_pod_and_an_empty_namespace_selector_every_namespace() {
    var empty = new PodAffinityTermBuilder()
        .withLabelSelector(new io.fabric8.kubernetes.api.model.LabelSelector())
        .withNamespaceSelector(new io.fabric8.kubernetes.api.model.LabelSelector())
        .withTopologyKey("zone")
        .build();
    var pod = pod().podAntiAffinity(antiAffinity(List.of(empty), List.of())).build();

    var term = PodAdapter.toPodInfo(pod).podAntiAffinity().required().get(0);

    assertEquals(LabelSelector.EVERYTHING, term.labelSelector());
    assertEquals(LabelSelector.EVERYTHING, term.namespaceSelector());
  }

  @Test
  void all_four_operators_are_read() {
    var pod =
        pod()
            .podAffinity(
                affinity(
                    List.of(
                        term(
                            selector(
                                Map.of(),
                                expression("a", "In", "1"),
                                expression("b", "NotIn", "2", "3"),
                                expression("c", "Exists"),
                                expression("d", "DoesNotExist")),
                            "zone")),
                    List.of()))
            .build();

    assertEquals(
        LabelSelector.of(
            LabelSelectorRequirement.of("a", Operator.IN, "1"),
            LabelSelectorRequirement.of("b", Operator.NOT_IN, "2", "3"),
            LabelSelectorRequirement.of("c", Operator.EXISTS),
            LabelSelectorRequirement.of("d", Operator.DOES_NOT_EXIST)),
        PodAdapter.toPodInfo(pod).podAffinity().required().get(0).labelSelector());
  }

  @Test
  void unset_weights_topology_keys_and_null_terms_read_as_go_reads_them() {
    var pod = pod().podAffinity(affinity(List.of(), List.of(weighted(null, null)))).build();

    assertEquals(
        List.of(
            new WeightedPodAffinityTerm(
                0, new PodAffinityTerm(null, Set.of(), null, "", List.of(), List.of()))),
        PodAdapter.toPodInfo(pod).podAffinity().preferred());
  }

  @Test
  void an_unknown_operator_is_rejected_with_its_exact_path() {
    var e =
        rejectedAntiAffinity(
            selector(Map.of(), expression("a", "In", "1"), expression("b", "Gt", "3")));

    assertRejection(
        e,
        "pod ns/p",
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
            + ".matchExpressions[1].operator",
        "Gt");
  }

  @Test
  void an_unset_operator_is_rejected() {
    var e = rejectedAntiAffinity(selector(Map.of(), expression("a", null)));

    assertEquals("", e.value());
    assertEquals(
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
            + ".matchExpressions[0].operator",
        e.field());
  }

  @Test
  void a_null_expression_is_rejected_as_an_unknown_operator() {
    var expressions = new ArrayList<io.fabric8.kubernetes.api.model.LabelSelectorRequirement>();
    expressions.add(null);
    var selector = new io.fabric8.kubernetes.api.model.LabelSelector(expressions, Map.of());

    var e = rejectedAntiAffinity(selector);

    assertEquals(
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
            + ".matchExpressions[0].operator",
        e.field());
  }

  @Test
  void in_and_not_in_without_values_are_rejected() {
    for (var operator : List.of("In", "NotIn")) {
      var e = rejectedAntiAffinity(selector(Map.of(), expression("a", operator)));

      assertRejection(
          e,
          "pod ns/p",
          "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
              + ".matchExpressions[0].values",
          "[]");
    }
  }

  @Test
  void exists_and_does_not_exist_with_values_are_rejected() {
    for (var operator : List.of("Exists", "DoesNotExist")) {
      var e = rejectedAntiAffinity(selector(Map.of(), expression("a", operator, "x", "y")));

      assertRejection(
          e,
          "pod ns/p",
          "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"
              + ".matchExpressions[0].values",
          "[x, y]");
    }
  }

  @Test
  void a_bad_namespace_selector_of_a_preferred_affinity_term_is_rejected_with_its_path() {
    var bad =
        new PodAffinityTermBuilder()
            .withLabelSelector(selector(Map.of("a", "b")))
            .withNamespaceSelector(selector(Map.of(), expression("team", "Equals", "x")))
            .withTopologyKey("zone")
            .build();
    var pod = pod("ns", "p").podAffinity(affinity(List.of(), List.of(weighted(1, fullTerm()), weighted(2, bad)))).build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertRejection(
        e,
        "pod ns/p",
        "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm"
            + ".namespaceSelector.matchExpressions[0].operator",
        "Equals");
  }

  @Test
  void a_bad_selector_of_a_preferred_anti_affinity_term_is_rejected_with_its_path() {
    var pod =
        pod("ns", "p")
            .podAntiAffinity(
                antiAffinity(
                    List.of(), List.of(weighted(1, term(selector(Map.of(), expression("a", "in", "1")), "z")))))
            .build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertRejection(
        e,
        "pod ns/p",
        "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm"
            + ".labelSelector.matchExpressions[0].operator",
        "in");
  }

  @Test
  void a_bad_selector_of_a_required_affinity_term_is_rejected_with_its_path() {
    var pod =
        pod("ns", "p")
            .podAffinity(
                affinity(List.of(fullTerm(), term(selector(Map.of(), expression("a", "Lt", "1")), "z")), List.of()))
            .build();

    var e = assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));

    assertRejection(
        e,
        "pod ns/p",
        "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector"
            + ".matchExpressions[0].operator",
        "Lt");
  }
}
