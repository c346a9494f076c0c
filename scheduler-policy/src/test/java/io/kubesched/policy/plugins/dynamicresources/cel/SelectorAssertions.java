package io.kubesched.policy.plugins.dynamicresources.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import java.util.Map;

/**
 * Assertions on expressions run as kube runs device selectors: compiled through {@link DeviceSelectors} and matched
 * against a device, so that a value is compared inside CEL ({@code expression == "expected"}).
 */
final class SelectorAssertions {

  static final String DRIVER = "dra.example.com";
  private static final DeviceSelectors SELECTORS = DeviceSelectors.create(100);
  private static final Device DEVICE = Device.of("d", Map.of(), Map.of());

  private SelectorAssertions() {}

  /** A CEL string literal of {@code text}. */
  static String literal(String text) {
    var literal = new StringBuilder("\"");
    text.codePoints().forEach(c -> {
      if (c == '"' || c == '\\') {
        literal.append('\\').appendCodePoint(c);
      } else if (c < ' ' || c == 0x7f) {
        literal.append(String.format("\\u%04x", c));
      } else {
        literal.appendCodePoint(c);
      }
    });
    return literal.append('"').toString();
  }

  static boolean matches(String expression) throws SelectorException {
    return SELECTORS.compile(expression).matches(DRIVER, DEVICE);
  }

  static void assertHolds(String expression) throws SelectorException {
    assertTrue(matches(expression), expression);
  }

  static void assertEvaluatesTo(String expression, String expected) throws SelectorException {
    assertHolds("(" + expression + ") == " + literal(expected));
  }

  /** {@code expression}, of any type, fails when evaluated with {@code message}. */
  static void assertFailsToEvaluate(String expression, String message) throws SelectorException {
    var selector = SELECTORS.compile("dyn(" + expression + ") == 0");
    var error = assertThrows(SelectorException.class, () -> selector.matches(DRIVER, DEVICE), expression);
    assertEquals(message, error.getMessage());
  }

  /** The compiler's first issue, as kube words it: {@code ERROR: <input>:1:14: …}. */
  static void assertFailsToCompile(String expression, String firstIssue) {
    var error = assertThrows(SelectorException.class, () -> SELECTORS.compile(expression), expression);
    assertEquals("compilation failed: " + firstIssue, error.getMessage().split("\n", 2)[0]);
  }
}
