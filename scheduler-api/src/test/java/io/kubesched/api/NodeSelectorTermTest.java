package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeSelectorRequirement.Operator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NodeSelectorTerm#matches} with Kubernetes' rules; the policy's node affinity and the loop's check of a
 * provisioned volume's node affinity both use it (NodeSelectorsProperties in the policy holds the properties).
 */
class NodeSelectorTermTest {

  private static final Map<String, String> LABELS = Map.of("zone", "a", "gpus", "4");

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a term without requirements matches nothing", new NodeSelectorTerm(List.of(), List.of()), "n1", false),
        Arguments.of("In on a label", term(NodeSelectorRequirement.of("zone", Operator.IN, "a", "b")), "n1", true),
        Arguments.of("NotIn on an absent label", term(NodeSelectorRequirement.of("rack", Operator.NOT_IN, "r1")), "n1", true),
        Arguments.of("Gt on an integer label", term(NodeSelectorRequirement.of("gpus", Operator.GT, "3")), "n1", true),
        Arguments.of("Lt whose bound is not an integer makes the term invalid",
            term(NodeSelectorRequirement.of("gpus", Operator.LT, "x")), "n1", false),
        Arguments.of("a key that is not a qualified name makes the term invalid",
            term(NodeSelectorRequirement.of("bad key", Operator.EXISTS)), "n1", false),
        Arguments.of("a metadata.name field In the node's name",
            fields(NodeSelectorRequirement.of("metadata.name", Operator.IN, "n1")), "n1", true),
        Arguments.of("a metadata.name field of another node",
            fields(NodeSelectorRequirement.of("metadata.name", Operator.IN, "n2")), "n1", false),
        Arguments.of("fields are not checked for an unnamed node",
            fields(NodeSelectorRequirement.of("metadata.name", Operator.IN, "n2")), "", true),
        Arguments.of("a field other than metadata.name makes the term invalid",
            fields(NodeSelectorRequirement.of("spec.unschedulable", Operator.IN, "true")), "n1", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String description, NodeSelectorTerm term, String nodeName, boolean expected) {
    assertEquals(expected, term.matches(LABELS, nodeName));
  }

  private static NodeSelectorTerm term(NodeSelectorRequirement requirement) {
    return NodeSelectorTerm.ofExpressions(requirement);
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement requirement) {
    return new NodeSelectorTerm(List.of(), List.of(requirement));
  }
}
