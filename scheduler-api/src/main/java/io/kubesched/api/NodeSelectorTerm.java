package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A term of a node selector: a node matches it when it meets every requirement of both lists. A term with
 * no requirement at all matches no node, as in Kubernetes.
 *
 * @param matchExpressions requirements on node labels
 * @param matchFields requirements on node fields ({@code metadata.name} is the only field Kubernetes
 *     supports)
 */
@API(status = STABLE, since = "0.1.0")
public record NodeSelectorTerm(
    List<NodeSelectorRequirement> matchExpressions, List<NodeSelectorRequirement> matchFields) {

  /** The only node field a {@code matchFields} requirement may name. */
  public static final String NODE_NAME_FIELD = "metadata.name";

  public NodeSelectorTerm {
    matchExpressions = List.copyOf(matchExpressions);
    matchFields = List.copyOf(matchFields);
  }

  /** @return a term with label requirements only */
  public static NodeSelectorTerm ofExpressions(NodeSelectorRequirement... matchExpressions) {
    return new NodeSelectorTerm(List.of(matchExpressions), List.of());
  }

  /**
   * Whether a node matches this term, with Kubernetes' rules ({@code component-helpers/scheduling/corev1/
   * nodeaffinity}): every label requirement and every field requirement holds. A term with no requirement,
   * or with an invalid one (wrong number of values, a {@code Gt}/{@code Lt} value that is not an integer, a key
   * that is not a {@linkplain LabelSyntax#isQualifiedName qualified name}, a value that is not a label value, a
   * field other than {@code metadata.name} or a field operator other than {@code In}/{@code NotIn}), matches no
   * node, as Kubernetes ignores such a term. Fields are checked only for a named node.
   *
   * @param nodeLabels the node's labels
   * @param nodeName the node's name; empty for a node without one (its fields are not checked)
   */
  public boolean matches(Map<String, String> nodeLabels, String nodeName) {
    // Indexed loops, not for-each: this runs for every node of every decision, and on C1, which the scheduler's
    // image runs, each for-each over a list allocates its iterator.
    if (matchExpressions.isEmpty() && matchFields.isEmpty()) {
      return false;
    }
    for (int i = 0; i < matchExpressions.size(); i++) {
      if (!isValidLabelRequirement(matchExpressions.get(i))) {
        return false;
      }
    }
    for (int i = 0; i < matchFields.size(); i++) {
      if (!isValidFieldRequirement(matchFields.get(i))) {
        return false;
      }
    }
    for (int i = 0; i < matchExpressions.size(); i++) {
      if (!matchesLabels(matchExpressions.get(i), nodeLabels)) {
        return false;
      }
    }
    if (!nodeName.isEmpty()) {
      for (int i = 0; i < matchFields.size(); i++) {
        var requirement = matchFields.get(i);
        boolean equal = requirement.values().get(0).equals(nodeName);
        if (equal != (requirement.operator() == NodeSelectorRequirement.Operator.IN)) {
          return false;
        }
      }
    }
    return true;
  }

  /** As Kubernetes' {@code labels.NewRequirement}: the operator's number of values, and valid names. */
  private static boolean isValidLabelRequirement(NodeSelectorRequirement requirement) {
    var values = requirement.values();
    boolean countValid =
        switch (requirement.operator()) {
          case IN, NOT_IN -> !values.isEmpty();
          case EXISTS, DOES_NOT_EXIST -> values.isEmpty();
          case GT, LT -> values.size() == 1 && LabelSyntax.parseInteger(values.get(0)).isPresent();
        };
    if (!countValid || !LabelSyntax.isQualifiedName(requirement.key())) {
      return false;
    }
    for (int i = 0; i < values.size(); i++) {
      if (!LabelSyntax.isLabelValue(values.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isValidFieldRequirement(NodeSelectorRequirement requirement) {
    return requirement.key().equals(NODE_NAME_FIELD)
        && (requirement.operator() == NodeSelectorRequirement.Operator.IN
            || requirement.operator() == NodeSelectorRequirement.Operator.NOT_IN)
        && requirement.values().size() == 1;
  }

  private static boolean matchesLabels(NodeSelectorRequirement requirement, Map<String, String> labels) {
    var value = labels.get(requirement.key());
    return switch (requirement.operator()) {
      case IN -> value != null && requirement.values().contains(value);
      case NOT_IN -> value == null || !requirement.values().contains(value);
      case EXISTS -> value != null;
      case DOES_NOT_EXIST -> value == null;
      case GT, LT -> {
        if (value == null) {
          yield false;
        }
        var actual = LabelSyntax.parseInteger(value);
        if (actual.isEmpty()) {
          yield false;
        }
        long bound = LabelSyntax.parseInteger(requirement.values().get(0)).orElseThrow();
        yield requirement.operator() == NodeSelectorRequirement.Operator.GT
            ? actual.getAsLong() > bound
            : actual.getAsLong() < bound;
      }
    };
  }
}
