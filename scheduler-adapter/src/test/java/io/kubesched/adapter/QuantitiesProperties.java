package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

class QuantitiesProperties {

  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** The suffixes of Kubernetes' quantities and their multipliers, from the API reference. */
  private static final Map<String, BigDecimal> MULTIPLIERS =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("n", new BigDecimal("0.000000001")),
          Map.entry("u", new BigDecimal("0.000001")),
          Map.entry("m", new BigDecimal("0.001")),
          Map.entry("k", new BigDecimal("1000")),
          Map.entry("M", new BigDecimal("1000000")),
          Map.entry("G", new BigDecimal("1000000000")),
          Map.entry("T", new BigDecimal("1000000000000")),
          Map.entry("Ki", new BigDecimal(1024)),
          Map.entry("Mi", new BigDecimal(1024 * 1024)),
          Map.entry("Gi", new BigDecimal(1024L * 1024 * 1024)),
          Map.entry("Ti", new BigDecimal(1024L * 1024 * 1024 * 1024)),
          Map.entry("e3", new BigDecimal("1000")),
          Map.entry("e-2", new BigDecimal("0.01")),
          Map.entry("E+1", BigDecimal.TEN));

  @Property
  @Label("a whole number with a suffix is its exact multiple when that fits in a long, else Long.MAX_VALUE")
  void wholeNumberWithSuffix(
      @ForAll("naturals") long n, @ForAll("wholeSuffixes") String suffix) {
    var exact = BigInteger.valueOf(n).multiply(MULTIPLIERS.get(suffix).toBigIntegerExact());
    boolean fits = exact.compareTo(LONG_MAX) <= 0;
    var exactMillis = exact.multiply(BigInteger.valueOf(1000));

    var text = n + suffix;
    assertEquals(fits ? exact.longValueExact() : Long.MAX_VALUE, Quantities.value(text), text);
    assertEquals(
        exactMillis.compareTo(LONG_MAX) <= 0 ? exactMillis.longValueExact() : Long.MAX_VALUE,
        Quantities.milliValue(text),
        text);

    Statistics.label("value fits in a long").collect(fits);
    Statistics.label("value fits in a long").coverage(c -> {
      c.check(true).percentage(p -> p > 20);
      c.check(false).percentage(p -> p > 5);
    });
  }

  @Property
  @Label("milliValue of <n>m is n")
  void millisAreMillis(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long n) {
    assertEquals(n, Quantities.milliValue(n + "m"));
  }

  @Property
  @Label("value of a plain whole number is that number")
  void plainNumbers(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long n) {
    assertEquals(n, Quantities.value(Long.toString(n)));
    assertEquals(n, Quantities.value("+" + n));
  }

  @Property
  @Label("a decimal quantity is read exactly, and value and milliValue round it up")
  void decimalsRoundUp(@ForAll("decimals") Tuple.Tuple2<String, BigDecimal> decimal) {
    var text = decimal.get1();
    // Kubernetes keeps nano precision: a finer value is rounded up to whole nano units when read.
    var exact = decimal.get2().scale() > 9 ? decimal.get2().setScale(9, RoundingMode.CEILING) : decimal.get2();
    var exactMillis = exact.multiply(BigDecimal.valueOf(1000));

    assertEquals(0, exact.compareTo(Quantities.exact(text)), () -> text + " read as " + Quantities.exact(text));

    long millis = Quantities.milliValue(text);
    long value = Quantities.value(text);
    assertRoundedUp(exactMillis, millis, text);
    assertRoundedUp(exact, value, text);

    boolean whole = exactMillis.stripTrailingZeros().scale() <= 0;
    Statistics.label("whole number of millis").collect(whole);
    Statistics.label("whole number of millis").coverage(c -> {
      c.check(true).percentage(p -> p > 5);
      c.check(false).percentage(p -> p > 5);
    });
  }

  /** {@code actual} is never less than {@code exact} and less than one above it, or saturated. */
  private static void assertRoundedUp(BigDecimal exact, long actual, String text) {
    var ceiling = exact.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
    if (ceiling.compareTo(LONG_MAX) > 0) {
      assertEquals(Long.MAX_VALUE, actual, text);
      return;
    }
    var got = new BigDecimal(actual);
    assertTrue(got.compareTo(exact) >= 0, () -> text + ": " + actual + " is less than " + exact);
    assertTrue(
        got.compareTo(exact.add(BigDecimal.ONE)) < 0,
        () -> text + ": " + actual + " is one or more above " + exact);
  }

  @Property
  @Label("a quantity followed by an unknown letter is rejected")
  void trailingGarbageIsRejected(
      @ForAll("decimals") Tuple.Tuple2<String, BigDecimal> decimal, @ForAll("garbage") char garbage) {
    var text = decimal.get1() + garbage;

    assertThrows(IllegalArgumentException.class, () -> Quantities.value(text), text);
  }

  @Property
  @Label("a positive quantity with a minus sign is rejected as negative")
  void negativesAreRejected(@ForAll("decimals") Tuple.Tuple2<String, BigDecimal> decimal) {
    var text = "-" + decimal.get1().replaceFirst("^\\+", "");
    if (decimal.get2().signum() == 0) {
      assertEquals(0, Quantities.value(text), text);
    } else {
      var e = assertThrows(IllegalArgumentException.class, () -> Quantities.value(text), text);
      assertEquals("must not be negative", e.getMessage());
    }
  }

  @Provide
  Arbitrary<Long> naturals() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.longs().between(0, 1_000_000)),
        Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE)),
        Tuple.of(1, Arbitraries.longs().between(1L << 40, 1L << 54)));
  }

  @Provide
  Arbitrary<String> wholeSuffixes() {
    return Arbitraries.of("", "k", "M", "G", "Ki", "Mi", "Gi");
  }

  /** A decimal text such as {@code "12.0305Mi"} and its exact value, computed apart from the code under test. */
  @Provide
  Arbitrary<Tuple.Tuple2<String, BigDecimal>> decimals() {
    var wholePart =
        Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.longs().between(0, 10_000)),
                Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE)))
            .map(Object::toString);
    var fraction = Arbitraries.strings().numeric().ofMaxLength(12);
    var sign = Arbitraries.of("", "", "", "+");
    return Combinators.combine(sign, wholePart, fraction, Arbitraries.of(MULTIPLIERS.keySet()))
        .as(
            (s, whole, frac, suffix) -> {
              var number = frac.isEmpty() ? whole : whole + "." + frac;
              var exact = new BigDecimal(number).multiply(MULTIPLIERS.get(suffix));
              return Tuple.of(s + number + suffix, exact);
            });
  }

  /** Characters that make no suffix when appended to one ('i' would: "G" + "i" is "Gi"). */
  @Provide
  Arbitrary<Character> garbage() {
    // Not white space: Kubernetes trims that from a quantity read from JSON (SpacedQuantitiesTest).
    return Arbitraries.of('x', 'q', 'Z', '!', '%', '/', 'j', '\u200B', ',');
  }
}
