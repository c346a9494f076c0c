package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.MalformedObjectException;
import java.util.ArrayList;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@code metav1.LabelSelector} read into {@link LabelSelector}, with the checks of Kubernetes' {@code
 * LabelSelectorAsSelector}: the operator is one of the four, {@code In} and {@code NotIn} list at least one
 * value, {@code Exists} and {@code DoesNotExist} none. Keys and values are not checked for label syntax. Unset
 * strings and lists read as empty, as Go reads them.
 */
final class LabelSelectors {

  private static final String UNKNOWN_OPERATOR = "is not In, NotIn, Exists or DoesNotExist";

  private LabelSelectors() {}

  /**
   * @param selector the selector as the API carries it; {@code null} if unset
   * @param object the owning object, for error messages
   * @param field the selector's path, for error messages, e.g. {@code spec.selector}
   * @return the selector; {@code null} if {@code selector} is {@code null}
   * @throws MalformedObjectException naming {@code object}, the requirement's field and its value, if a
   *     requirement's operator is unknown or its values do not fit the operator
   */
  static @Nullable LabelSelector read(
      io.fabric8.kubernetes.api.model.@Nullable LabelSelector selector, String object, String field) {
    if (selector == null) {
      return null;
    }
    var matchLabels = SharedStrings.labels(selector.getMatchLabels());
    var requirements = new ArrayList<LabelSelectorRequirement>();
    var expressions = orEmpty(selector.getMatchExpressions());
    for (int i = 0; i < expressions.size(); i++) {
      requirements.add(requirement(expressions.get(i), object, field + ".matchExpressions[" + i + "]"));
    }
    return new LabelSelector(matchLabels, requirements);
  }

  private static LabelSelectorRequirement requirement(
      io.fabric8.kubernetes.api.model.@Nullable LabelSelectorRequirement requirement,
      String object,
      String field) {
    if (requirement == null) {
      // Go reads a null entry as an empty requirement, whose empty operator is unknown.
      throw new MalformedObjectException(object, field + ".operator", "", UNKNOWN_OPERATOR, null);
    }
    var operator =
        switch (orEmpty(requirement.getOperator())) {
          case "In" -> Operator.IN;
          case "NotIn" -> Operator.NOT_IN;
          case "Exists" -> Operator.EXISTS;
          case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
          default -> throw new MalformedObjectException(
              object, field + ".operator", orEmpty(requirement.getOperator()), UNKNOWN_OPERATOR, null);
        };
    var values =
        orEmpty(requirement.getValues()).stream()
            .map(v -> SharedStrings.shared(Objects.requireNonNullElse(v, "")))
            .toList();
    var listsValues = operator == Operator.IN || operator == Operator.NOT_IN;
    if (listsValues && values.isEmpty()) {
      throw new MalformedObjectException(
          object, field + ".values", "[]", "must list at least one value for " + requirement.getOperator(), null);
    }
    if (!listsValues && !values.isEmpty()) {
      throw new MalformedObjectException(
          object,
          field + ".values",
          values.toString(),
          "must be empty for " + requirement.getOperator(),
          null);
    }
    return new LabelSelectorRequirement(SharedStrings.shared(orEmpty(requirement.getKey())), operator, values);
  }
}
