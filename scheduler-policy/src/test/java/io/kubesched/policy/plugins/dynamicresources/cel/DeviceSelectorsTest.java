package io.kubesched.policy.plugins.dynamicresources.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code compile_test.go} table ({@code TestCEL}), under its case names, as the scheduler runs it: stored
 * expressions with kube 1.37's default features. The cases with list-typed attributes (alpha, not in the DRA
 * model) are left out; each case here fails when its compile error, evaluation error or result differs.
 */
class DeviceSelectorsTest {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create();
  private static final String DRA = "dra.example.com";

  record Case(
      String name,
      String expression,
      String driver,
      Map<String, DeviceAttribute> attributes,
      Map<String, DeviceCapacity> capacity,
      boolean allowMultipleAllocations,
      @Nullable String compileError,
      @Nullable String matchError,
      boolean match) {

    Case driver(String value) {
      return new Case(name, expression, value, attributes, capacity, allowMultipleAllocations, compileError,
          matchError, match);
    }

    Case attribute(String id, DeviceAttribute value) {
      var all = new HashMap<>(attributes);
      all.put(id, value);
      return new Case(name, expression, driver, all, capacity, allowMultipleAllocations, compileError, matchError,
          match);
    }

    Case capacity(String id, String quantity) {
      var all = new HashMap<>(capacity);
      all.put(id, new DeviceCapacity(Quantity.parse(quantity)));
      return new Case(name, expression, driver, attributes, all, allowMultipleAllocations, compileError,
          matchError, match);
    }

    Case multiAlloc(boolean value) {
      return new Case(name, expression, driver, attributes, capacity, value, compileError, matchError, match);
    }

    Case compileError(String text) {
      return new Case(name, expression, driver, attributes, capacity, allowMultipleAllocations, text, matchError,
          match);
    }

    Case matchError(String text) {
      return new Case(name, expression, driver, attributes, capacity, allowMultipleAllocations, compileError, text,
          match);
    }

    Case matches() {
      return new Case(name, expression, driver, attributes, capacity, allowMultipleAllocations, compileError,
          matchError, true);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Case test(String name, String expression) {
    return new Case(name, expression, "", Map.of(), Map.of(), false, null, null, false);
  }

  static DeviceAttribute bool(boolean value) {
    return new DeviceAttribute.BoolValue(value);
  }

  static DeviceAttribute integer(long value) {
    return new DeviceAttribute.IntValue(value);
  }

  static DeviceAttribute string(String value) {
    return new DeviceAttribute.StringValue(value);
  }

  static DeviceAttribute version(String value) {
    return new DeviceAttribute.VersionValue(value);
  }

  static Stream<Case> testcases() {
    return Stream.of(
        test("true", "true").matches(),
        test("false", "false"),
        test("syntax-error", "?!").compileError("Syntax error"),
        test("type-error", "1").compileError("must evaluate to bool or the unknown type, not int"),
        test("runtime-error-lookup-identifier",
            "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))")
            .matchError("no such key: noSuchAttr"),
        test("runtime-error-lookup-map",
            "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))")
            .matchError("no such key: noSuchAttr"),
        test("domain-check-negative", "\"no-such-domain\" in device.attributes"),
        test("domain-check-positive", "\"dra.example.com\" in device.attributes")
            .attribute("dra.example.com/something", bool(true)).matches(),
        test("empty-driver-name", "device.driver == \"\"").matches(),
        test("real-driver-name", "device.driver == \"dra.example.com\"").driver(DRA).matches(),
        test("driver-name-qualifier", "device.attributes[\"dra.example.com\"].name")
            .driver(DRA).attribute("name", bool(true)).matches(),
        test("driver-name-qualifier-map-lookup", "device.attributes[\"dra.example.com\"][\"name\"]")
            .driver(DRA).attribute("name", bool(true)).matches(),
        test("bind", "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)")
            .driver(DRA).attribute("name", bool(true)).matches(),
        test("qualified-attribute-name", "device.attributes[\"other.example.com\"].name")
            .driver(DRA).attribute("other.example.com/name", bool(true)).matches(),
        test("bool", "device.attributes[\"dra.example.com\"].name")
            .driver(DRA).attribute("name", bool(true)).matches(),
        test("int", "device.attributes[\"dra.example.com\"].name > 0")
            .driver(DRA).attribute("name", integer(1)).matches(),
        test("string", "device.attributes[\"dra.example.com\"].name == \"fish\"")
            .driver(DRA).attribute("name", string("fish")).matches(),
        test("version", "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))")
            .driver(DRA).attribute("name", version("1.0.0")).matches(),
        test("version_v", "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", true))"
            + " && isSemver(\"v1.0.0\", true)")
            .driver(DRA).attribute("name", version("1.0.0")).matches(),
        test("quantity", "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))")
            .driver(DRA).capacity("name", "1Mi").matches(),
        test("check-positive", "\"name\" in device.capacity[\"dra.example.com\"]"
            + " && device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))")
            .driver(DRA).capacity("name", "1Mi").matches(),
        test("check-negative", "!(\"name\" in device.capacity[\"dra.example.com\"])"
            + " || device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))").matches(),
        test("all", """
            device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
            device.attributes["dra.example.com"].bool &&
            device.attributes["dra.example.com"].int > 0 &&
            device.attributes["dra.example.com"].string == "fish" &&
            device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
            device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
            device.attributes["dra.example.com"]["bool"] &&
            device.attributes["dra.example.com"]["int"] > 0 &&
            device.attributes["dra.example.com"]["string"] == "fish" &&
            device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
            """)
            .driver(DRA).attribute("bool", bool(true)).attribute("int", integer(1))
            .attribute("string", string("fish")).attribute("version", version("1.0.0"))
            .capacity("quantity", "1Mi").matches(),
        test("many", "device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b"
            + " && device.attributes[\"dra.example.com\"].c")
            .driver(DRA).attribute("a", bool(true)).attribute("b", bool(true)).attribute("c", bool(true))
            .matches(),
        test("check_attribute_domains", "device.attributes.exists_one(x, x == \"dra.example.com\")")
            .driver(DRA).attribute("services", string("some_example_value")).matches(),
        test("check_attribute_ids", "device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")")
            .driver(DRA).attribute("services", string("some_example_value")).matches(),
        test("split_attribute",
            "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2")
            .driver(DRA).attribute("services", string("some_example_value")).matches(),
        test("regexp_attribute", "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")")
            .driver(DRA).attribute("services", string("asymetric")).matches(),
        test("check_capacity_domains", "device.capacity.exists_one(x, x == \"dra.example.com\")")
            .driver(DRA).capacity("memory", "1Mi").matches(),
        test("check_capacity_ids", "device.capacity[\"dra.example.com\"].exists_one(x, x == \"memory\")")
            .driver(DRA).capacity("memory", "1Mi").matches(),
        expensive(),
        test("allow_multiple_allocations", "device.allowMultipleAllocations == true")
            .driver(DRA).multiAlloc(true).matches(),
        test("allow_multiple_allocations_default", "device.allowMultipleAllocations == false")
            .driver(DRA).matches(),
        test("allow_multiple_allocations_false", "device.allowMultipleAllocations == false")
            .driver(DRA).multiAlloc(false).matches(),
        test("macro-exists-on-int", "device.attributes[\"dra.example.com\"].name.exists(x, x > 0)")
            .driver(DRA).attribute("name", integer(1)).matchError("got 'types.Int', expected iterable type"),
        test("macro-exists-on-bool", "device.attributes[\"dra.example.com\"].name.exists(x, x == true)")
            .driver(DRA).attribute("name", bool(true)).matchError("got 'types.Bool', expected iterable type"),
        test("macro-exists-on-string", "device.attributes[\"dra.example.com\"].name.exists(x, x == \"fish\")")
            .driver(DRA).attribute("name", string("fish"))
            .matchError("got 'types.String', expected iterable type"),
        test("macro-exists-on-version",
            "device.attributes[\"dra.example.com\"].name.exists(x, x.isGreaterThan(semver(\"0.0.1\")))")
            .driver(DRA).attribute("name", version("1.0.0"))
            .matchError("got 'cel.Semver', expected iterable type"));
  }

  private static Case expensive() {
    var c = test("expensive", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y,"
        + " [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2,"
        + " [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4,"
        + " [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))").driver(DRA);
    for (int i = 0; i < 32; i++) {
      String suffix = "-" + i;
      c = c.attribute("dra.example.com/" + "x".repeat(64 - suffix.length()) + suffix, string("abc"));
    }
    return c.matchError("actual cost limit exceeded");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testcases")
  void compiles_and_matches_as_kube(Case scenario) throws SelectorException {
    if (scenario.compileError() != null) {
      var error = assertThrows(SelectorException.class, () -> SELECTORS.compile(scenario.expression()));
      assertContains(scenario.compileError(), error.getMessage());
      return;
    }
    var selector = SELECTORS.compile(scenario.expression());
    assertEquals(scenario.expression(), selector.expression());
    var device = new Device("device", scenario.attributes(), scenario.capacity(), List.of(),
        io.kubesched.api.NodeSelection.NONE, List.of(), false, List.of(), List.of(),
        scenario.allowMultipleAllocations());
    if (scenario.matchError() != null) {
      var error = assertThrows(SelectorException.class, () -> selector.matches(scenario.driver(), device));
      assertContains(scenario.matchError(), error.getMessage());
      return;
    }
    assertEquals(scenario.match(), selector.matches(scenario.driver(), device));
  }

  private static void assertContains(String expected, @Nullable String actual) {
    assertTrue(actual != null && actual.contains(expected),
        () -> "expected the message to contain \"" + expected + "\", got: " + actual);
  }
}
