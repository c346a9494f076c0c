package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Affinity;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PreferredSchedulingTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod's {@code spec.affinity.nodeAffinity} read into {@link NodeAffinity}. Keys, values and weights are
 * kept as given, even where the API server would refuse them (a {@code Gt} value that is no integer, a
 * field other than {@code metadata.name}, a weight of 0): the policy treats those as Kubernetes does. Only
 * what the domain model cannot hold is an error. Unset strings and lists read as empty, an unset weight as
 * 0, as Go reads them.
 */
final class Affinities {

  private static final String NODE_AFFINITY = "spec.affinity.nodeAffinity";
  private static final String REQUIRED =
      NODE_AFFINITY + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
  private static final String PREFERRED = NODE_AFFINITY + ".preferredDuringSchedulingIgnoredDuringExecution";

  private static final String UNKNOWN_OPERATOR = "is not In, NotIn, Exists, DoesNotExist, Gt or Lt";

  private Affinities() {}

  /**
   * @param affinity the pod's affinity, {@code null} if unset
   * @param object the pod, for error messages
   * @return its node affinity; {@link NodeAffinity#NONE} if it has none
   * @throws MalformedObjectException naming {@code object}, the field and its value, if a requirement's
   *     operator is not one of Kubernetes' six, or a required node affinity lists no term (which would match
   *     no node, a requirement the model cannot state)
   */
  static NodeAffinity read(@Nullable Affinity affinity, String object) {
    var nodeAffinity = affinity == null ? null : affinity.getNodeAffinity();
    if (nodeAffinity == null) {
      return NodeAffinity.NONE;
    }
    var required = new ArrayList<NodeSelectorTerm>();
    var selector = nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution();
    if (selector != null) {
      var terms = orEmpty(selector.getNodeSelectorTerms());
      if (terms.isEmpty()) {
        throw new MalformedObjectException(object, REQUIRED, "[]", "must list at least one term", null);
      }
      for (int i = 0; i < terms.size(); i++) {
        required.add(term(terms.get(i), object, REQUIRED + "[" + i + "]"));
      }
    }
    var preferred = new ArrayList<PreferredSchedulingTerm>();
    var preferences = orEmpty(nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution());
    for (int i = 0; i < preferences.size(); i++) {
      var p = preferences.get(i);
      var weight = p == null || p.getWeight() == null ? 0 : p.getWeight();
      var preference = p == null ? null : p.getPreference();
      preferred.add(
          new PreferredSchedulingTerm(weight, term(preference, object, PREFERRED + "[" + i + "].preference")));
    }
    return new NodeAffinity(required, preferred);
  }

  static NodeSelectorTerm term(
      io.fabric8.kubernetes.api.model.@Nullable NodeSelectorTerm term, String object, String field) {
    if (term == null) {
      return new NodeSelectorTerm(List.of(), List.of());
    }
    return new NodeSelectorTerm(
        requirements(term.getMatchExpressions(), object, field + ".matchExpressions"),
        requirements(term.getMatchFields(), object, field + ".matchFields"));
  }

  private static List<NodeSelectorRequirement> requirements(
      @Nullable List<io.fabric8.kubernetes.api.model.NodeSelectorRequirement> requirements,
      String object,
      String field) {
    var result = new ArrayList<NodeSelectorRequirement>();
    var all = orEmpty(requirements);
    for (int j = 0; j < all.size(); j++) {
      var r = all.get(j);
      if (r == null) {
        // Go reads a null entry as an empty requirement, whose empty operator is unknown.
        throw new MalformedObjectException(object, field + "[" + j + "].operator", "", UNKNOWN_OPERATOR, null);
      }
      var values = orEmpty(r.getValues()).stream().map(v -> Objects.requireNonNullElse(v, "")).toList();
      result.add(
          new NodeSelectorRequirement(
              orEmpty(r.getKey()), operator(r.getOperator(), object, field + "[" + j + "].operator"), values));
    }
    return result;
  }

  private static NodeSelectorRequirement.Operator operator(@Nullable String text, String object, String field) {
    return switch (orEmpty(text)) {
      case "In" -> NodeSelectorRequirement.Operator.IN;
      case "NotIn" -> NodeSelectorRequirement.Operator.NOT_IN;
      case "Exists" -> NodeSelectorRequirement.Operator.EXISTS;
      case "DoesNotExist" -> NodeSelectorRequirement.Operator.DOES_NOT_EXIST;
      case "Gt" -> NodeSelectorRequirement.Operator.GT;
      case "Lt" -> NodeSelectorRequirement.Operator.LT;
      default -> throw new MalformedObjectException(object, field, orEmpty(text), UNKNOWN_OPERATOR, null);
    };
  }
}
