package io.kubesched.samples.plugins;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@link AvoidDrainingNodes}, read from the configuration's {@code pluginConfig}:
 *
 * <pre>{@code
 * pluginConfig:
 *   - name: AvoidDrainingNodes
 *     args:
 *       label: lifecycle.example.com/state     # default
 *       values: [draining, retiring]           # default
 * }</pre>
 *
 * A field left out gets its default here, in the compact constructor, and a value that makes no sense is refused
 * there with a message that the configuration error repeats. Never null once constructed.
 *
 * @param label the node label the platform's drain tooling sets
 * @param values the values of that label that mean "being drained"
 */
public record DrainingArgs(@Nullable String label, @Nullable List<String> values) {

  /** The label read when the configuration names none. */
  public static final String DEFAULT_LABEL = "lifecycle.example.com/state";

  /** The values read when the configuration names none. */
  public static final List<String> DEFAULT_VALUES = List.of("draining", "retiring");

  /**
   * @throws IllegalArgumentException if {@code label} is blank, or {@code values} is empty or holds a blank value
   */
  public DrainingArgs {
    label = label == null ? DEFAULT_LABEL : label;
    values = values == null ? DEFAULT_VALUES : List.copyOf(values);
    if (label.isBlank()) {
      throw new IllegalArgumentException("label must not be empty; leave it out for " + DEFAULT_LABEL);
    }
    if (values.isEmpty() || values.stream().anyMatch(String::isBlank)) {
      throw new IllegalArgumentException(
          "values must name at least one non-empty value, was " + values + "; leave it out for " + DEFAULT_VALUES);
    }
  }

  /** @return the arguments a configuration without {@code args} gets */
  public static DrainingArgs defaults() {
    return new DrainingArgs(null, null);
  }
}
