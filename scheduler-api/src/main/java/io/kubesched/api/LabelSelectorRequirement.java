package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One requirement of a {@link LabelSelector}'s {@code matchExpressions}.
 *
 * @param key the label it tests
 * @param operator how the label's value is compared
 * @param values the values: one or more for {@link Operator#IN}/{@link Operator#NOT_IN}, none for {@link
 *     Operator#EXISTS}/{@link Operator#DOES_NOT_EXIST}
 */
@API(status = STABLE, since = "0.1.0")
public record LabelSelectorRequirement(String key, Operator operator, List<String> values) {

  /** The operators of a label selector requirement. */
  public enum Operator {
    /** The label is present and its value is one of the values. */
    IN,
    /** The label is absent, or its value is none of the values. */
    NOT_IN,
    /** The label is present. */
    EXISTS,
    /** The label is absent. */
    DOES_NOT_EXIST
  }

  public LabelSelectorRequirement {
    values = List.copyOf(values);
  }

  /** @return a requirement with the given values */
  public static LabelSelectorRequirement of(String key, Operator operator, String... values) {
    return new LabelSelectorRequirement(key, operator, List.of(values));
  }

  /** @return whether {@code labels} meet this requirement */
  public boolean matches(Map<String, String> labels) {
    var value = labels.get(key);
    return switch (operator) {
      case IN -> value != null && values.contains(value);
      case NOT_IN -> value == null || !values.contains(value);
      case EXISTS -> value != null;
      case DOES_NOT_EXIST -> value == null;
    };
  }
}
