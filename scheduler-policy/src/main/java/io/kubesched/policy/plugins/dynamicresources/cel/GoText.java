package io.kubesched.policy.plugins.dynamicresources.cel;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Go's text conventions that kube's CEL functions print with: {@code strconv.Quote} ({@code %q}) and the shortest
 * decimal form of a float64 ({@code %g}, {@code strconv.FormatFloat(x, 'f', -1, 64)}). Stateless.
 */
final class GoText {

  private GoText() {}

  /**
   * Go's {@code strconv.Quote}: a double-quoted Go string literal, printable runes as they are (Java's Unicode
   * tables stand in for Go's, which may know a few newer code points), the rest escaped.
   */
  static String quote(String text) {
    var quoted = new StringBuilder(text.length() + 2).append('"');
    text.codePoints().forEach(rune -> {
      switch (rune) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case 0x07 -> quoted.append("\\a");
        case '\b' -> quoted.append("\\b");
        case '\f' -> quoted.append("\\f");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        case 0x0b -> quoted.append("\\v");
        default -> {
          if (isPrint(rune)) {
            quoted.appendCodePoint(rune);
          } else if (rune < ' ' || rune == 0x7f) {
            quoted.append(String.format("\\x%02x", rune));
          } else if (rune < 0x10000) {
            quoted.append(String.format("\\u%04x", rune));
          } else {
            quoted.append(String.format("\\U%08x", rune));
          }
        }
      }
    });
    return quoted.append('"').toString();
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
  private static boolean isPrint(int rune) {
    if (rune == ' ') {
      return true;
    }
    return switch (Character.getType(rune)) {
      case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER,
          Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
      default -> false;
    };
  }

  /** Go's {@code %g} of a float64 ({@code strconv.FormatFloat(x, 'g', -1, 64)}): {@code 1e+06}, {@code 0.1}. */
  static String formatG(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    String sign = (Double.doubleToRawLongBits(value) < 0) ? "-" : "";
    if (value == 0) {
      return sign + "0";
    }
    Shortest shortest = Shortest.of(Math.abs(value));
    int exponent = shortest.point - 1;
    if (exponent < -4 || exponent >= 6) {
      String digits = shortest.digits;
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      int magnitude = Math.abs(exponent);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (magnitude < 10 ? "0" : "") + magnitude;
    }
    return sign + shortest.fixed();
  }

  /** Go's {@code strconv.FormatFloat(x, 'f', -1, 64)} of a finite float64: {@code 3601.5}, {@code 0.000000001}. */
  static String formatShortestFixed(double value) {
    if (value == 0) {
      return Double.doubleToRawLongBits(value) < 0 ? "-0" : "0";
    }
    return (value < 0 ? "-" : "") + Shortest.of(Math.abs(value)).fixed();
  }

  /** The fewest significant digits that read back as the same float64, and where the decimal point goes. */
  private record Shortest(String digits, int point) {
    static Shortest of(double positive) {
      BigDecimal exact = new BigDecimal(positive);
      for (int precision = 1; ; precision++) {
        BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
        if (rounded.doubleValue() == positive || precision >= 17) {
          rounded = rounded.stripTrailingZeros();
          String digits = rounded.unscaledValue().toString();
          return new Shortest(digits, digits.length() - rounded.scale());
        }
      }
    }

    String fixed() {
      if (point <= 0) {
        return "0." + "0".repeat(-point) + digits;
      }
      if (point >= digits.length()) {
        return digits + "0".repeat(point - digits.length());
      }
      return digits.substring(0, point) + "." + digits.substring(point);
    }
  }
}
