package io.kubesched.api;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Kubernetes' syntax rules for label keys and values ({@code apimachinery/pkg/util/validation}), which
 * selectors and policy arguments are checked against: a requirement on a key that is not a qualified name
 * matches nothing, as in Kubernetes. Hand-written rather than regular expressions: node selector terms are
 * checked for every node of every decision. Pure and thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LabelSyntax {

  private LabelSyntax() {}

  /** Kubernetes' {@code IsQualifiedName}: an optional DNS subdomain prefix and a slash, then a name. */
  public static boolean isQualifiedName(String key) {
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
  public static boolean isLabelValue(String value) {
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
