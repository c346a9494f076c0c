package io.kubesched.policy.plugins.dynamicresources.cel;

import dev.cel.common.exceptions.CelAttributeNotFoundException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-java's error messages reworded as cel-go (and so kube) words them, for the ones a device selector meets:
 * the allocator embeds them in what it reports, where users compare them with kube's. Stateless.
 */
final class KubeMessages {

  private static final Pattern EVALUATION_PREFIX = Pattern.compile("^evaluation error(?: at [^:]*:(\\d+))?: ");
  private static final Pattern MISSING_KEY = Pattern.compile("^key '(.*)' is not present in map\\.$");
  private static final Pattern NOT_ITERABLE =
      Pattern.compile("expected a list or a map for iteration range but got '([^']*)'");
  private static final Pattern LOCATION = Pattern.compile("(ERROR: <input>:\\d+:\\d+: )");

  /** cel-go's Go type names ({@code %T}) of the values a device selector holds, by cel-java's class name. */
  private static final Map<String, String> GO_TYPES = Map.ofEntries(
      Map.entry("Long", "types.Int"),
      Map.entry("Boolean", "types.Bool"),
      Map.entry("String", "types.String"),
      Map.entry("Double", "types.Double"),
      Map.entry("UnsignedLong", "types.Uint"),
      Map.entry("Semver", "cel.Semver"),
      Map.entry("Quantity", "cel.Quantity"),
      Map.entry("NullValue", "types.Null"),
      Map.entry("CelByteString", "types.Bytes"),
      Map.entry("IpAddress", "cel.IP"),
      Map.entry("IpPrefix", "cel.CIDR"));

  private KubeMessages() {}

  /**
   * @param error what cel-java threw evaluating {@code expression}
   * @return the message of the failed evaluation as cel-go words it
   */
  static String evaluation(Throwable error, String expression) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof CelAttributeNotFoundException missing) {
        String message = String.valueOf(missing.getMessage());
        Matcher key = MISSING_KEY.matcher(message);
        return "no such key: " + (key.matches() ? key.group(1) : message);
      }
    }
    String full = String.valueOf(error.getMessage());
    Matcher prefix = EVALUATION_PREFIX.matcher(full);
    int offset = -1;
    String message = full;
    if (prefix.find()) {
      offset = prefix.group(1) == null ? -1 : Integer.parseInt(prefix.group(1));
      message = full.substring(prefix.end());
    }
    if (message.equals("/ by zero")) {
      // cel-java reports both / and % so; the position is the operator's.
      boolean modulus = offset >= 0 && offset < expression.length() && expression.charAt(offset) == '%';
      return modulus ? "modulus by zero" : "division by zero";
    }
    if (message.startsWith("range overflow on unsigned")) {
      return "unsigned integer overflow";
    }
    if (message.equals("long overflow") || message.startsWith("range overflow on")) {
      return "integer overflow";
    }
    Matcher notIterable = NOT_ITERABLE.matcher(message);
    if (notIterable.find()) {
      String type = GO_TYPES.getOrDefault(notIterable.group(1), notIterable.group(1));
      return "got '" + type + "', expected iterable type";
    }
    return message;
  }

  /** @return the CEL type name cel-go gives {@code value} in a conversion error */
  static String typeName(Object value) {
    if (value instanceof java.util.List) {
      return "list";
    }
    if (value instanceof Map) {
      return "map";
    }
    if (value instanceof Long) {
      return "int";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Double) {
      return "double";
    }
    if (value instanceof Semver) {
      return "kubernetes.Semver";
    }
    if (value instanceof io.kubesched.api.Quantity) {
      return "kubernetes.Quantity";
    }
    if (value instanceof IpAddress) {
      return "net.IP";
    }
    if (value instanceof IpPrefix) {
      return "net.CIDR";
    }
    return value.getClass().getSimpleName();
  }

  /** @return the issues of an expression that does not parse, each marked as cel-go marks a syntax error */
  static String syntaxErrors(String issues) {
    return LOCATION.matcher(issues).replaceAll("$1Syntax error: ");
  }
}
