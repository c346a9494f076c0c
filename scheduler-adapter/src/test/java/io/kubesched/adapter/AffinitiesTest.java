package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.expressions;
import static io.kubesched.adapter.Fixtures.nodeAffinity;
import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.Fixtures.preferred;
import static io.kubesched.adapter.Fixtures.requirement;
import static io.kubesched.adapter.Fixtures.term;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorRequirement.Operator;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PreferredSchedulingTerm;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link PodAdapter#toPodInfo}: {@code spec.affinity.nodeAffinity} into {@link NodeAffinity}. */
class AffinitiesTest {

  private static NodeAffinity affinityOf(io.fabric8.kubernetes.api.model.NodeAffinity nodeAffinity) {
    return PodAdapter.toPodInfo(pod().affinity(nodeAffinity).build()).affinity();
  }

  @Test
  void a_pod_without_affinity_has_none() {
    assertEquals(NodeAffinity.NONE, PodAdapter.toPodInfo(pod().build()).affinity());
  }

  @Test
  void an_affinity_without_node_affinity_has_none() {
    var pod = pod().build();
    pod.getSpec().setAffinity(new io.fabric8.kubernetes.api.model.Affinity());

    assertEquals(NodeAffinity.NONE, PodAdapter.toPodInfo(pod).affinity());
  }

  @Test
  void required_terms_keep_their_order_keys_operators_and_values() {
    var affinity =
        affinityOf(
            nodeAffinity(
                List.of(
                    expressions(
                        requirement("zone", "In", "a", "b"), requirement("disk", "Exists")),
                    term(
                        List.of(requirement("gpu", "DoesNotExist")),
                        List.of(requirement("metadata.name", "NotIn", "n1")))),
                List.of()));

    assertEquals(
        new NodeAffinity(
            List.of(
                new NodeSelectorTerm(
                    List.of(
                        NodeSelectorRequirement.of("zone", Operator.IN, "a", "b"),
                        NodeSelectorRequirement.of("disk", Operator.EXISTS)),
                    List.of()),
                new NodeSelectorTerm(
                    List.of(NodeSelectorRequirement.of("gpu", Operator.DOES_NOT_EXIST)),
                    List.of(NodeSelectorRequirement.of("metadata.name", Operator.NOT_IN, "n1")))),
            List.of()),
        affinity);
  }

  @Test
  void preferred_terms_keep_their_weights_and_preferences() {
    var affinity =
        affinityOf(
            nodeAffinity(
                null,
                List.of(
                    preferred(80, expressions(requirement("zone", "In", "a"))),
                    preferred(1, term(List.of(), List.of(requirement("metadata.name", "In", "n2")))))));

    assertEquals(
        new NodeAffinity(
            List.of(),
            List.of(
                new PreferredSchedulingTerm(
                    80, NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of("zone", Operator.IN, "a"))),
                new PreferredSchedulingTerm(
                    1,
                    new NodeSelectorTerm(
                        List.of(), List.of(NodeSelectorRequirement.of("metadata.name", Operator.IN, "n2")))))),
        affinity);
  }

  @Test
  void gt_and_lt_values_are_kept_as_given_even_when_they_are_no_integers() {
    var affinity =
        affinityOf(
            nodeAffinity(
                List.of(expressions(requirement("cores", "Gt", "4"), requirement("cores", "Lt", "x", "1"))),
                List.of()));

    assertEquals(
        List.of(
            NodeSelectorRequirement.of("cores", Operator.GT, "4"),
            NodeSelectorRequirement.of("cores", Operator.LT, "x", "1")),
        affinity.required().get(0).matchExpressions());
  }

  @Test
  void unset_key_values_weight_and_preference_read_as_go_reads_them() {
    var affinity =
        affinityOf(
            nodeAffinity(
                List.of(term(List.of(requirement(null, "Exists")), List.of())), List.of(preferred(null, null))));

    assertEquals(List.of(NodeSelectorRequirement.of("", Operator.EXISTS)), affinity.required().get(0).matchExpressions());
    assertEquals(
        List.of(new PreferredSchedulingTerm(0, new NodeSelectorTerm(List.of(), List.of()))), affinity.preferred());
  }

  @Test
  void a_term_without_requirements_is_kept_empty() {
    var affinity = affinityOf(nodeAffinity(List.of(term(List.of(), List.of())), List.of()));

    assertEquals(List.of(new NodeSelectorTerm(List.of(), List.of())), affinity.required());
  }

  static Stream<Arguments> operators() {
    return Stream.of(
        Arguments.of(Named.of("In", "In"), Operator.IN),
        Arguments.of(Named.of("NotIn", "NotIn"), Operator.NOT_IN),
        Arguments.of(Named.of("Exists", "Exists"), Operator.EXISTS),
        Arguments.of(Named.of("DoesNotExist", "DoesNotExist"), Operator.DOES_NOT_EXIST),
        Arguments.of(Named.of("Gt", "Gt"), Operator.GT),
        Arguments.of(Named.of("Lt", "Lt"), Operator.LT));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("operators")
  void each_kubernetes_operator_is_read_in_expressions_and_fields(String text, Operator operator) {
    var affinity =
        affinityOf(
            nodeAffinity(
                List.of(term(List.of(requirement("k", text, "1")), List.of(requirement("metadata.name", text, "1")))),
                List.of()));

    var term = affinity.required().get(0);
    assertEquals(operator, term.matchExpressions().get(0).operator());
    assertEquals(operator, term.matchFields().get(0).operator());
  }
}
