package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * One requirement of a node selector term: a key, an operator and values, as in {@code
 * matchExpressions} and {@code matchFields} of a pod's node affinity.
 *
 * @param key the node label (in {@code matchExpressions}) or field (in {@code matchFields}, only {@code
 *     metadata.name}) it tests
 * @param operator how the key's value is compared
 * @param values the values: one or more for {@link Operator#IN}/{@link Operator#NOT_IN}, none for {@link
 *     Operator#EXISTS}/{@link Operator#DOES_NOT_EXIST}, exactly one integer for {@link Operator#GT}/{@link
 *     Operator#LT}; kept as given, so a policy can treat a malformed one as Kubernetes does (no match)
 */
@API(status = STABLE, since = "0.1.0")
public record NodeSelectorRequirement(String key, Operator operator, List<String> values) {

  /** The operators of {@code NodeSelectorRequirement}. */
  public enum Operator {
    /** The label is present and its value is one of the values. */
    IN,
    /** The label is absent, or its value is none of the values. */
    NOT_IN,
    /** The label is present. */
    EXISTS,
    /** The label is absent. */
    DOES_NOT_EXIST,
    /** The label is present and, read as an integer, greater than the single value. */
    GT,
    /** The label is present and, read as an integer, less than the single value. */
    LT
  }

  public NodeSelectorRequirement {
    values = List.copyOf(values);
  }

  /** @return a requirement with the given values */
  public static NodeSelectorRequirement of(String key, Operator operator, String... values) {
    return new NodeSelectorRequirement(key, operator, List.of(values));
  }
}
