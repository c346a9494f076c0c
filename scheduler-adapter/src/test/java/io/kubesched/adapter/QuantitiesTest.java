package io.kubesched.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

  private static final long MAX = Long.MAX_VALUE;

  @ParameterizedTest(name = "\"{0}\" is {1} millicores")
  @CsvSource(
      delimiter = '|',
      value = {
        "100m   | 100",
        "0.1m   | 1",
        "1      | 1000",
        "1.5    | 1500",
        "+5     | 5000",
        ".5     | 500",
        "250m   | 250",
        "0      | 0",
        "1e3    | 1000000",
        "1E3    | 1000000",
        "1e-3   | 1",
        "1e+2   | 100000",
        "1500u  | 2",
        "1n     | 1",
        "1000n  | 1",
        "1000001n | 2",
        "1k     | 1000000",
      })
  void milli_value_of(String text, long millis) {
    assertEquals(millis, Quantities.milliValue(text.strip()));
  }

  @ParameterizedTest(name = "\"{0}\" is {1} units")
  @CsvSource(
      delimiter = '|',
      value = {
        "1     | 1",
        "1.5   | 2",
        ".5    | 1",
        "+5    | 5",
        "100m  | 1",
        "0     | 0",
        "1Ki   | 1024",
        "1Mi   | 1048576",
        "1Gi   | 1073741824",
        "1Ti   | 1099511627776",
        "1k    | 1000",
        "1M    | 1000000",
        "1G    | 1000000000",
        "1T    | 1000000000000",
        "1P    | 1000000000000000",
        "1E    | 1000000000000000000",
        "1e3   | 1000",
        "1E3   | 1000",
        "12e6  | 12000000",
        "1.5Gi | 1610612736",
        "0.5Ki | 512",
        "129M  | 129000000",
        "123Mi | 128974848",
        "7Ei   | 8070450532247928832",
      })
  void value_of(String text, long units) {
    assertEquals(units, Quantities.value(text.strip()));
  }

  @Test
  void nine_exbibytes_are_exactly_nine_times_two_to_the_sixtieth() {
    var nineEi = new BigDecimal(BigInteger.valueOf(9).shiftLeft(60));

    assertEquals(0, nineEi.compareTo(Quantities.exact("9Ei")), () -> "was " + Quantities.exact("9Ei"));
    assertEquals(new BigInteger("10376293541461622784"), Quantities.exact("9Ei").toBigIntegerExact());
  }

  @Test
  void exact_keeps_fractions() {
    assertEquals(0, new BigDecimal("0.0001").compareTo(Quantities.exact("0.1m")));
    assertEquals(0, new BigDecimal("1536").compareTo(Quantities.exact("1.5Ki")));
  }

  @ParameterizedTest(name = "\"{0}\" saturates to Long.MAX_VALUE")
  @ValueSource(strings = {"8Ei", "9Ei", "16Ei", "1e30", "9223372036854775808", "9223372036854775807.5", "1e999999999"})
  void values_past_long_max_saturate(String text) {
    assertEquals(MAX, Quantities.value(text));
    assertEquals(MAX, Quantities.milliValue(text));
  }

  @Test
  void long_max_itself_is_read_exactly() {
    assertEquals(MAX, Quantities.value("9223372036854775807"));
    assertEquals(MAX - 1, Quantities.value("9223372036854775806"));
  }

  @Test
  void milli_values_saturate_where_the_value_still_fits() {
    assertEquals(9_223_372_036_854_776L, Quantities.value("9223372036854776"));
    assertEquals(MAX, Quantities.milliValue("9223372036854776"));
    assertEquals(9_223_372_036_854_775_000L, Quantities.milliValue("9223372036854775"));
    assertEquals(MAX, Quantities.milliValue("9223372036854775807m"));
    assertEquals(MAX - 1, Quantities.milliValue("9223372036854775806m"));
  }

  @ParameterizedTest(name = "\"{0}\" is not a quantity")
  @ValueSource(
      strings = {"12x", "", "1.5.5", "m", " ", " 1 m", "Ki", "1ki", "1KI", "1e3Mi", "0x10", "1,5", "--1", "1e", "abc",
        "1m5", "1 Gi", "1e1000000000", "∞"})
  void malformed_quantities_are_rejected(String text) {
    assertThrows(IllegalArgumentException.class, () -> Quantities.exact(text));
    assertThrows(IllegalArgumentException.class, () -> Quantities.value(text));
    assertThrows(IllegalArgumentException.class, () -> Quantities.milliValue(text));
  }

  @ParameterizedTest(name = "\"{0}\" is rejected as negative")
  @ValueSource(strings = {"-1", "-100m", "-1Ki", "-0.5", "-1e3"})
  void negative_quantities_are_rejected(String text) {
    var e = assertThrows(IllegalArgumentException.class, () -> Quantities.value(text));

    assertEquals("must not be negative", e.getMessage());
  }

  @Test
  void minus_zero_is_zero() {
    assertEquals(0, Quantities.value("-0"));
  }

  @Test
  void a_tiny_exponent_rounds_up_to_the_smallest_unit_as_kubernetes_does() {
    assertEquals(1, Quantities.value("1e-999999999"));
    assertEquals(1, Quantities.milliValue("1e-999999999"));
  }

  @Test
  void a_tiny_exponent_is_read_quickly() {
    assertEquals(1, assertTimeoutPreemptively(Duration.ofSeconds(2), () -> Quantities.value("1e-100000000")));
  }

  @Test
  void only_ascii_digits_are_digits() {
    assertThrows(IllegalArgumentException.class, () -> Quantities.value("\u0661\u0662"));
  }
}
