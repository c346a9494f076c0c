package io.kubesched.policy.plugins.dynamicresources.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rest of the environment beyond compile_test.go's table: kube's quantity and semver functions (their cases in
 * {@code k8s.io/apiserver/pkg/cel/library} quantity_test.go and semver_test.go), the extensions kube enables, and
 * the libraries this package does not provide, which must fail to compile naming them.
 */
class EnvironmentTest {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create(100);
  private static final Device DEVICE =
      Device.of("d", Map.of("version", new DeviceAttribute.VersionValue("1.2.3-beta.1+build")), Map.of());

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "quantity(\"50M\").isGreaterThan(quantity(\"50Mi\")) == false",
      "quantity(\"50Mi\").isGreaterThan(quantity(\"50M\"))",
      "quantity(\"50M\").isLessThan(quantity(\"100M\"))",
      "quantity(\"200M\").compareTo(quantity(\"0.2G\")) == 0",
      "quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")",
      "quantity(\"50k\").add(20) == quantity(\"50020\")",
      "quantity(\"50k\").sub(quantity(\"20\")) == quantity(\"49.98k\")",
      "quantity(\"50k\").sub(20).isLessThan(quantity(\"50k\"))",
      "quantity(\"50k\").asInteger() == 50000",
      "quantity(\"50.5\").isInteger() == false",
      "quantity(\"9999999999999999999999999999999999999G\").isInteger() == false",
      "quantity(\"50.703k\").asApproximateFloat() == 50703.0",
      "sign(quantity(\"-50k\")) == -1 && sign(quantity(\"0\")) == 0 && sign(quantity(\"1m\")) == 1",
      "isQuantity(\"20\") && isQuantity(\"1Mi\") && !isQuantity(\"1Mib\") && !isQuantity(\"\")",
      "semver(\"1.2.3\").major() == 1 && semver(\"1.2.3\").minor() == 2 && semver(\"1.2.3\").patch() == 3",
      "semver(\"1.2.3-alpha\").isLessThan(semver(\"1.2.3\"))",
      "semver(\"1.2.3-alpha.2\").isGreaterThan(semver(\"1.2.3-alpha.10\")) == false",
      "semver(\"1.2.3+build\") == semver(\"1.2.3\")",
      "semver(\"v01.02\", true) == semver(\"1.2.0\")",
      "isSemver(\"1.2.3\") && !isSemver(\"v1.2.3\") && isSemver(\"v1.2.3\", true) && !isSemver(\"1.2\")",
      "device.attributes[\"dra.example.com\"].version.isLessThan(semver(\"1.2.3\"))",
      "\"abc\".find(\"[bc]+\") == \"bc\" && \"abc\".find(\"x\") == \"\"",
      "\"a1b22c333\".findAll(\"[0-9]+\") == [\"1\", \"22\", \"333\"]",
      "\"a1b22c333\".findAll(\"[0-9]+\", 2) == [\"1\", \"22\"]",
      "\"hello\".charAt(1) == \"e\" && \"a,b\".split(\",\") == [\"a\", \"b\"] && [\"a\", \"b\"].join(\"-\") == \"a-b\"",
      "sets.contains([1, 2, 3], [2]) && sets.intersects([1], [1, 2])",
      "[3, 1, 2].sort() == [1, 2, 3] && lists.range(3) == [0, 1, 2]",
      "{\"a\": 1}.all(k, v, k == \"a\" && v == 1)",
      "cel.bind(x, 1, x + 1 == 2)",
      "[1, 2, 2].isSorted() && ![2, 1].isSorted() && [\"a\", \"b\"].isSorted() && [false, true].isSorted()",
      "[1, 5, 3].max() == 5 && [1, 5, 3].min() == 1 && [\"b\", \"a\"].min() == \"a\" && [2u, 1u].max() == 2u",
      "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [1u, 2u].sum() == 3u",
      "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(3) == -1",
      "\"abcabc\".indexOf(\"c\") == 2 && \"abcabc\".lastIndexOf(\"c\") == 5",
      "1 < 1.5 && 2u > 1",
      "optional.of(1).orValue(2) == 1",
      "device.attributes[\"dra.example.com\"].?missing.orValue(true)",
  })
  void evaluates_as_kube(String expression) throws SelectorException {
    assertTrue(SELECTORS.compile(expression).matches("dra.example.com", DEVICE), expression);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "quantity(\"1Mib\") == quantity(\"1\")|unable to parse quantity's suffix",
      "quantity(\"abc\") == quantity(\"1\")|quantities must match the regular expression",
      "quantity(\"1.5\").asInteger() == 1|cannot convert value to integer",
      "semver(\"1.2\") == semver(\"1.2.0\")|No Major.Minor.Patch elements found",
      "semver(\"01.2.3\") == semver(\"1.2.3\")|Major number must not contain leading zeroes \"01\"",
      "semver(\"1.2-beta\", true) == semver(\"1.2.0\")|short version cannot contain PreRelease/Build meta data",
      "\"abc\".find(\"[\") == \"\"|Illegal regex: ",
      "[0].filter(x, x > 1).min() == 1|min called on empty list",
      "[9223372036854775807, 1].sum() == 1|integer overflow",
      "9223372036854775807 + 1 > 0|integer overflow",
      "1 / 0 == 1|division by zero",
      "1 % 0 == 1|modulus by zero",
      "18446744073709551615u + 1u > 0u|unsigned integer overflow",
  })
  void fails_to_evaluate_as_kube(String expression, String message) throws SelectorException {
    var selector = SELECTORS.compile(expression);
    var error = assertThrows(SelectorException.class, () -> selector.matches("dra.example.com", DEVICE));
    assertTrue(error.getMessage().contains(message), error.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "\"abc\".reverse() == \"cba\"|found no matching overload for 'reverse' applied to 'string.()'",
      "device.attributes[\"dra.example.com\"]|must evaluate to bool or the unknown type, not map(string, dyn)",
      "device.noSuchField|undefined field 'noSuchField'",
      "device.driver == 1|found no matching overload for '_==_'",
  })
  void does_not_compile(String expression, String message) {
    var error = assertThrows(SelectorException.class, () -> SELECTORS.compile(expression));
    assertTrue(error.getMessage().contains(message), error.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"1.0", "1.0.0.0", "v1.0.0"})
  void a_device_with_an_invalid_version_fails_to_match(String version) throws SelectorException {
    var device = Device.of("d", Map.of("v", new DeviceAttribute.VersionValue(version)), Map.of());
    var error = assertThrows(SelectorException.class, () -> SELECTORS.compile("true").matches("x", device));
    assertTrue(error.getMessage().startsWith("attribute v: parse semantic version: "), error.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "dyn(1)|CEL result of type int could not be converted to bool",
      "device.attributes[\"dra.example.com\"].version|CEL result of type kubernetes.Semver could not be converted",
  })
  void a_result_that_is_not_bool_fails_to_match(String expression, String message) throws SelectorException {
    var error = assertThrows(SelectorException.class,
        () -> SELECTORS.compile(expression).matches("dra.example.com", DEVICE));
    assertEquals(true, error.getMessage().startsWith(message), error.getMessage());
  }
}
