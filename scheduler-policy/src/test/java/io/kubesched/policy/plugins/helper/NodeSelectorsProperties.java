package io.kubesched.policy.plugins.helper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.LabelSyntax;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The hand-written name checks agree with the regular expressions Kubernetes' validation uses
 * ({@code apimachinery/pkg/util/validation}).
 */
class NodeSelectorsProperties {

  private static final String NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(NAME);
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** Kubernetes' IsQualifiedName, as its regular expressions say it. */
  static boolean referenceQualifiedName(String key) {
    var parts = key.split("/", -1);
    if (parts.length > 2) {
      return false;
    }
    var name = parts[parts.length - 1];
    if (parts.length == 2
        && (parts[0].isEmpty() || parts[0].length() > 253 || !DNS_SUBDOMAIN.matcher(parts[0]).matches())) {
      return false;
    }
    return !name.isEmpty() && name.length() <= 63 && QUALIFIED_NAME.matcher(name).matches();
  }

  static boolean referenceLabelValue(String value) {
    return value.isEmpty() || (value.length() <= 63 && QUALIFIED_NAME.matcher(value).matches());
  }

  @Provide
  Arbitrary<String> keys() {
    var plain = Arbitraries.strings().withChars("aZ09-_./").ofMaxLength(12);
    var nearValid =
        Arbitraries.strings().withChars("ab.-").ofMinLength(1).ofMaxLength(8)
            .flatMap(prefix -> Arbitraries.strings().withChars("aB9-_.").ofMaxLength(70).map(n -> prefix + "/" + n));
    var long63 = Arbitraries.strings().withChars("ab").ofMinLength(62).ofMaxLength(65);
    var longPrefix = Arbitraries.strings().withChars("a.").ofMinLength(250).ofMaxLength(256).map(p -> p + "/x");
    return Arbitraries.oneOf(plain, nearValid, long63, longPrefix);
  }

  @Property(tries = 3000)
  void qualified_names_are_checked_as_kubernetes_regular_expressions_check_them(@ForAll("keys") String key) {
    boolean expected = referenceQualifiedName(key);
    Statistics.label("valid").collect(expected);
    Statistics.label("valid").coverage(c -> {
      c.check(true).percentage(p -> p > 15);
      c.check(false).percentage(p -> p > 15);
    });
    assertEquals(expected, LabelSyntax.isQualifiedName(key), key);
  }

  @Property(tries = 3000)
  void label_values_are_checked_as_kubernetes_regular_expressions_check_them(@ForAll("keys") String value) {
    boolean expected = referenceLabelValue(value);
    Statistics.label("valid").collect(expected);
    Statistics.label("valid").coverage(c -> {
      c.check(true).percentage(p -> p > 10);
      c.check(false).percentage(p -> p > 10);
    });
    assertEquals(expected, LabelSyntax.isLabelValue(value), value);
  }

  @Example
  void kubernetes_examples_of_qualified_names() {
    for (var valid : new String[] {"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
        "now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple",
        "now-with.dashes-and.dots/simple", "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123",
        "example.com/Uppercase_Is_OK_123", "a".repeat(63)}) {
      assertEquals(true, LabelSyntax.isQualifiedName(valid), valid);
    }
    for (var invalid : new String[] {"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-",
        "only/one/slash", "Example.com/abc", "example_com/abc", "example.com/", "/simple", "a".repeat(64),
        "a".repeat(254) + "/abc", ""}) {
      assertEquals(false, LabelSyntax.isQualifiedName(invalid), invalid);
    }
  }
}
