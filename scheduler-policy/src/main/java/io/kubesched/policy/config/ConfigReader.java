package io.kubesched.policy.config;

import io.kubesched.api.ConfigurationException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Walks a KubeSchedulerConfiguration tree the way kube-scheduler decodes it: strictly (an unknown field is an
 * error), a JSON {@code null} is an absent field, Go's integer widths, durations as Go writes them ({@code
 * "15s"}, {@code "1m30s"}); and says what is wrong in kube's validation words ({@code Invalid value}, {@code
 * Unsupported value}, {@code Required value}, {@code Duplicate value}, {@code Forbidden}). One per file, one thread.
 */
class ConfigReader extends TreeReader {

  private static final Pattern GO_DURATION = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)");
  private static final Map<String, Long> NANOS_PER_UNIT =
      Map.of(
          "ns", 1L, "us", 1_000L, "\u00b5s", 1_000L, "\u03bcs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L,
          "m", 60_000_000_000L, "h", 3_600_000_000_000L);

  private final String prefix;

  /** @param prefix what every message starts with, naming the source: {@code "KubeSchedulerConfiguration c.yaml: "} */
  ConfigReader(String prefix) {
    super(prefix);
    this.prefix = prefix;
  }

  /**
   * @return an error whose {@code relative} message, such as {@code maxSkew: Invalid value: 0: ...}, is about a
   *     field under {@code path}
   */
  ConfigurationException nested(String path, String relative) {
    return new ConfigurationException(prefix + path + "." + relative);
  }

  /** kube's {@code field.Invalid}: {@code path: Invalid value: value: detail}. */
  ConfigurationException invalid(String path, Object value, String detail) {
    return fieldError(path, "Invalid value: " + value + ": " + detail);
  }

  /** kube's {@code field.NotSupported}: {@code path: Unsupported value: "v": supported values: "a", "b"}. */
  ConfigurationException unsupported(String path, String value, Collection<String> supported) {
    return fieldError(path, "Unsupported value: \"" + value + "\": supported values: " + quoted(supported));
  }

  /** kube's {@code field.Required}. */
  ConfigurationException requiredValue(String path, String detail) {
    return fieldError(path, detail.isEmpty() ? "Required value" : "Required value: " + detail);
  }

  /** @return {@code "a", "b"}, as kube lists supported values */
  static String quoted(Collection<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "));
  }

  /** @return the field's value; null when it is absent or {@code null} */
  static @Nullable JsonNode field(JsonNode object, String name) {
    var value = object.get(name);
    return value == null || value.isNull() ? null : value;
  }

  /** @return a string, which may be empty (kube then applies its default) */
  String string(JsonNode node, String path) {
    if (!node.isString()) {
      throw error(path, "must be a string, was " + describe(node));
    }
    return node.stringValue();
  }

  /** @return an {@code int32} */
  int int32(JsonNode node, String path) {
    return integer(node, path);
  }

  /** @return an {@code int64} */
  long int64(JsonNode node, String path) {
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw error(path, "must be an integer, was " + describe(node));
    }
    return node.longValue();
  }

  /** @return a {@code float32}: any finite number a 32-bit float holds */
  float float32(JsonNode node, String path) {
    if (!node.isNumber()) {
      throw error(path, "must be a number, was " + describe(node));
    }
    double value = node.asDouble();
    if (!Double.isFinite(value) || Math.abs(value) > Float.MAX_VALUE) {
      throw error(path, "must be a finite 32-bit float (at most " + Float.MAX_VALUE + "), was " + describe(node));
    }
    return (float) value;
  }

  /** @return a list of strings, each possibly empty */
  List<String> strings(JsonNode node, String path) {
    return list(node, path).stream().map(e -> string(e.node(), e.path())).toList();
  }

  /** @return a {@code metav1.Duration}: a string Go's {@code time.ParseDuration} reads, such as {@code "1m30s"} */
  Duration duration(JsonNode node, String path) {
    var text = string(node, path);
    var parsed = goDuration(text);
    if (parsed == null) {
      throw error(path, "must be a duration such as \"15s\", \"1m30s\" or \"300ms\", was " + describe(node));
    }
    return parsed;
  }

  /** Go's {@code time.ParseDuration}: a sign, then numbers with units; {@code "0"} alone. Null if malformed. */
  static @Nullable Duration goDuration(String text) {
    var rest = text;
    boolean negative = false;
    if (rest.startsWith("-") || rest.startsWith("+")) {
      negative = rest.startsWith("-");
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    if (rest.isEmpty()) {
      return null;
    }
    var matcher = GO_DURATION.matcher(rest);
    var nanos = BigDecimal.ZERO;
    int at = 0;
    while (at < rest.length()) {
      if (!matcher.find(at) || matcher.start() != at) {
        return null;
      }
      var number = matcher.group(1);
      if (number.isEmpty() || number.equals(".")) {
        return null;
      }
      nanos = nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(matcher.group(2)))));
      at = matcher.end();
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return null;
    }
    long whole = nanos.longValue();
    return Duration.ofNanos(negative ? -whole : whole);
  }

  /** @return how a duration reads in messages, as Go prints it ({@code 15s}, {@code 1m30s}) */
  static String goString(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    var text = new StringBuilder(duration.isNegative() ? "-" : "");
    var d = duration.abs();
    if (d.toHours() > 0) {
      text.append(d.toHours()).append('h');
    }
    if (d.toMinutesPart() > 0 || d.toHours() > 0) {
      text.append(d.toMinutesPart()).append('m');
    }
    var seconds = BigDecimal.valueOf(d.toSecondsPart()).add(BigDecimal.valueOf(d.toNanosPart(), 9));
    text.append(seconds.stripTrailingZeros().toPlainString()).append('s');
    return text.toString();
  }
}
