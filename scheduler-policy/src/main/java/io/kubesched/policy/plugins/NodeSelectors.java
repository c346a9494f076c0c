package io.kubesched.policy.plugins;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Node selector matching with Kubernetes' rules ({@code component-helpers/scheduling/corev1/nodeaffinity}).
 *
 * <p>A term matches when all its label requirements and all its field requirements hold. A term with no
 * requirement is skipped, and a term with an invalid requirement (wrong number of values, a {@code Gt}/{@code
 * Lt} value that is not an integer, a key that is not a qualified name, a value that is not a label value, a
 * field other than {@code metadata.name} or a field operator other than {@code In}/{@code NotIn}) matches no
 * node, as in Kubernetes, where such a term is ignored.
 */
public final class NodeSelectors {

  /** The only node field a {@code matchFields} requirement may name. */
  public static final String NODE_NAME_FIELD = "metadata.name";

  private NodeSelectors() {}

  /**
   * Kubernetes' {@code RequiredNodeAffinity.Match}: the node carries every label of the pod's {@code
   * nodeSelector}, and, if the pod has required node affinity, matches at least one of its terms.
   */
  public static boolean matchesRequired(PodInfo pod, NodeInfo node) {
    for (var entry : pod.nodeSelector().entrySet()) {
      if (!entry.getValue().equals(node.labels().get(entry.getKey()))) {
        return false;
      }
    }
    var required = pod.affinity().required();
    return required.isEmpty() || matchesAny(required, node);
  }

  /** @return whether {@code node} matches at least one non-empty, valid term of {@code terms} */
  public static boolean matchesAny(List<NodeSelectorTerm> terms, NodeInfo node) {
    for (var term : terms) {
      if (matches(term, node)) {
        return true;
      }
    }
    return false;
  }

  /** @return whether {@code node} matches {@code term}; an empty or invalid term matches nothing */
  public static boolean matches(NodeSelectorTerm term, NodeInfo node) {
    if (term.matchExpressions().isEmpty() && term.matchFields().isEmpty()) {
      return false;
    }
    for (var requirement : term.matchExpressions()) {
      if (!isValidLabelRequirement(requirement)) {
        return false;
      }
    }
    for (var requirement : term.matchFields()) {
      if (!isValidFieldRequirement(requirement)) {
        return false;
      }
    }
    for (var requirement : term.matchExpressions()) {
      if (!matchesLabels(requirement, node.labels())) {
        return false;
      }
    }
    // Kubernetes checks fields only when the node has a name (an unnamed node has no fields).
    if (!node.name().isEmpty()) {
      for (var requirement : term.matchFields()) {
        boolean equal = requirement.values().get(0).equals(node.name());
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
          case GT, LT -> values.size() == 1 && parseInteger(values.get(0)).isPresent();
        };
    return countValid
        && isQualifiedName(requirement.key())
        && allLabelValues(values);
  }

  private static boolean allLabelValues(List<String> values) {
    for (int i = 0; i < values.size(); i++) {
      if (!isLabelValue(values.get(i))) {
        return false;
      }
    }
    return true;
  }

  // Hand-written rather than regular expressions: this runs for every node of every decision.

  /** Kubernetes' {@code IsQualifiedName}: an optional DNS subdomain prefix and a slash, then a name. */
  static boolean isQualifiedName(String key) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      return isName(key, 0, key.length());
    }
    if (key.indexOf('/', slash + 1) >= 0 || slash == 0 || slash > 253 || !isDnsSubdomain(key, slash)) {
      return false;
    }
    return isName(key, slash + 1, key.length());
  }

  /** Kubernetes' {@code IsValidLabelValue}: empty, or a name of at most 63 characters. */
  static boolean isLabelValue(String value) {
    return value.isEmpty() || isName(value, 0, value.length());
  }

  /** {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}, at most 63 characters, in {@code text[from, to)}. */
  private static boolean isName(String text, int from, int to) {
    int length = to - from;
    if (length < 1 || length > 63 || !isAlphanumeric(text.charAt(from)) || !isAlphanumeric(text.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = text.charAt(i);
      if (!isAlphanumeric(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  /** Lower-case DNS labels ({@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}) joined by dots, in {@code text[0, to)}. */
  private static boolean isDnsSubdomain(String text, int to) {
    int labelStart = 0;
    for (int i = 0; i <= to; i++) {
      if (i == to || text.charAt(i) == '.') {
        if (i == labelStart || text.charAt(labelStart) == '-' || text.charAt(i - 1) == '-') {
          return false;
        }
        labelStart = i + 1;
        continue;
      }
      char c = text.charAt(i);
      if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
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
        var actual = parseInteger(value);
        if (actual.isEmpty()) {
          yield false;
        }
        long bound = parseInteger(requirement.values().get(0)).orElseThrow();
        yield requirement.operator() == NodeSelectorRequirement.Operator.GT
            ? actual.getAsLong() > bound
            : actual.getAsLong() < bound;
      }
    };
  }

  /**
   * Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign and ASCII digits, within 64 bits. Java's own
   * parser would also take non-ASCII digits.
   */
  static OptionalLong parseInteger(String text) {
    int start = !text.isEmpty() && (text.charAt(0) == '+' || text.charAt(0) == '-') ? 1 : 0;
    if (start == text.length()) {
      return OptionalLong.empty();
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return OptionalLong.empty();
      }
    }
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException outOfRange) {
      return OptionalLong.empty();
    }
  }
}
