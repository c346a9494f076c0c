package io.kubesched.policy.plugins.dynamicresources.cel;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.statistics.Statistics;

/**
 * The quantity and semver functions order as the api's {@link Quantity} and semver 2.0.0 precedence do, checked
 * through compiled selectors over generated devices.
 */
class SelectorProperties {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create();
  private static final String DRA = "dra.example.com";

  @Property(tries = 300)
  void quantity_comparisons_agree_with_the_api_ordering(
      @ForAll("quantities") String a, @ForAll("quantities") String b) throws SelectorException {
    Quantity qa = Quantity.parse(a);
    Quantity qb = Quantity.parse(b);
    int expected = Integer.signum(qa.compareTo(qb));
    Statistics.label("order").collect(expected);
    Statistics.label("order").coverage(coverage -> {
      coverage.check(-1).count(n -> n > 10);
      coverage.check(0).count(n -> n > 3);
      coverage.check(1).count(n -> n > 10);
    });
    var device = Device.of("d", Map.of(), Map.of("a", new DeviceCapacity(qa)));
    String capacity = "device.capacity[\"" + DRA + "\"].a";
    check(capacity + ".compareTo(quantity(\"" + b + "\")) == " + expected, device);
    check(capacity + ".isGreaterThan(quantity(\"" + b + "\")) == " + (expected > 0), device);
    check(capacity + ".isLessThan(quantity(\"" + b + "\")) == " + (expected < 0), device);
    check("(" + capacity + " == quantity(\"" + b + "\")) == " + (expected == 0), device);
  }

  @Property(tries = 300)
  void semver_comparisons_follow_semver_precedence(@ForAll("versionPairs") Tuple2<String, String> pair)
      throws SelectorException {
    String a = pair.get1();
    String b = pair.get2();
    int expected = Integer.signum(Semver.parse(a).compareTo(Semver.parse(b)));
    Statistics.label("order").collect(expected);
    Statistics.label("order").coverage(coverage -> {
      coverage.check(-1).count(n -> n > 10);
      coverage.check(0).count(n -> n > 3);
      coverage.check(1).count(n -> n > 10);
    });
    var device = Device.of("d", Map.of("v", new DeviceAttribute.VersionValue(a)), Map.of());
    String version = "device.attributes[\"" + DRA + "\"].v";
    check(version + ".compareTo(semver(\"" + b + "\")) == " + expected, device);
    check(version + ".isGreaterThan(semver(\"" + b + "\")) == " + (expected > 0), device);
    check(version + ".isLessThan(semver(\"" + b + "\")) == " + (expected < 0), device);
    // Precedence is a total preorder: the comparison is antisymmetric.
    check("semver(\"" + b + "\").compareTo(" + version + ") == " + (-expected), device);
  }

  private static void check(String expression, Device device) throws SelectorException {
    if (!SELECTORS.compile(expression).matches(DRA, device)) {
      throw new AssertionError("expected true: " + expression);
    }
  }

  @Provide
  Arbitrary<String> quantities() {
    Arbitrary<String> number = Arbitraries.integers().between(0, 2048).map(String::valueOf);
    Arbitrary<String> suffix = Arbitraries.of("", "m", "k", "Ki", "M", "Mi", "G", "Gi");
    Arbitrary<String> decimal = Arbitraries.bigDecimals().between(BigDecimal.ZERO, BigDecimal.valueOf(5))
        .ofScale(2).map(BigDecimal::toPlainString);
    return Arbitraries.oneOf(
        Combinators.combine(number, suffix).as((n, s) -> n + s),
        Combinators.combine(decimal, suffix).as((n, s) -> n + s),
        Arbitraries.of("1Ki", "1024", "1k", "1000", "1Mi", "1048576", "500m", "0.5"));
  }

  /** Two versions, equal in precedence often enough (the same, or differing only in build metadata). */
  @Provide
  Arbitrary<Tuple2<String, String>> versionPairs() {
    Arbitrary<Tuple2<String, String>> same =
        versions().map(v -> Tuple.of(v, v.contains("+") ? v.substring(0, v.indexOf('+')) : v + "+other"));
    return Arbitraries.frequencyOf(
        Tuple.of(4, Combinators.combine(versions(), versions()).as(Tuple::of)),
        Tuple.of(1, same));
  }

  private static Arbitrary<String> versions() {
    Arbitrary<Integer> part = Arbitraries.integers().between(0, 3);
    Arbitrary<String> pre = Arbitraries.of("", "-alpha", "-alpha.1", "-beta", "-1", "-2", "-rc.1");
    Arbitrary<String> build = Arbitraries.of("", "", "+build.5");
    return Combinators.combine(part, part, part, pre, build)
        .as((major, minor, patch, p, b) -> major + "." + minor + "." + patch + p + b);
  }
}
