package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * An exact Kubernetes quantity ({@code 1}, {@code 500m}, {@code 80Gi}, {@code 1e3}), as kube's {@code
 * resource.Quantity} reads it: values finer than one nano unit are rounded up to it.
 *
 * @param value the value in base units (bytes, cores, counts), with no trailing zeros
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Quantity(BigDecimal value) implements Comparable<Quantity> {

  /** Zero. */
  public static final Quantity ZERO = new Quantity(BigDecimal.ZERO);

  private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
  private static final Pattern EXPONENT = Pattern.compile("[eE][+-]?[0-9]+");
  private static final int NANO_SCALE = 9;
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("n", BigDecimal.ONE.scaleByPowerOfTen(-9)),
          Map.entry("u", BigDecimal.ONE.scaleByPowerOfTen(-6)),
          Map.entry("m", BigDecimal.ONE.scaleByPowerOfTen(-3)),
          Map.entry("k", BigDecimal.ONE.scaleByPowerOfTen(3)),
          Map.entry("M", BigDecimal.ONE.scaleByPowerOfTen(6)),
          Map.entry("G", BigDecimal.ONE.scaleByPowerOfTen(9)),
          Map.entry("T", BigDecimal.ONE.scaleByPowerOfTen(12)),
          Map.entry("P", BigDecimal.ONE.scaleByPowerOfTen(15)),
          Map.entry("E", BigDecimal.ONE.scaleByPowerOfTen(18)),
          Map.entry("Ki", binary(10)),
          Map.entry("Mi", binary(20)),
          Map.entry("Gi", binary(30)),
          Map.entry("Ti", binary(40)),
          Map.entry("Pi", binary(50)),
          Map.entry("Ei", binary(60)));

  /** Normalizes {@code value}: rounded up to nano units, trailing zeros stripped. */
  public Quantity {
    if (value.scale() > NANO_SCALE) {
      value = value.setScale(NANO_SCALE, RoundingMode.CEILING);
    }
    value = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
  }

  /** @return the quantity of {@code value} base units */
  public static Quantity of(long value) {
    return new Quantity(BigDecimal.valueOf(value));
  }

  /**
   * Reads a quantity as kube's {@code ParseQuantity} does; the text must not have surrounding spaces (kube
   * trims those only when it reads JSON, which the adapter does before calling this).
   *
   * @throws IllegalArgumentException naming the text if it is not a quantity
   */
  public static Quantity parse(String text) {
    int split = text.length();
    while (split > 0 && !Character.isDigit(text.charAt(split - 1)) && text.charAt(split - 1) != '.') {
      split--;
    }
    // An exponent's digits belong to the suffix: find "e"/"E" followed by a signed integer at the end.
    var exponent = EXPONENT.matcher(text);
    String number;
    String suffix;
    int e = Math.max(text.lastIndexOf('e'), text.lastIndexOf('E'));
    if (e > 0 && exponent.region(e, text.length()).matches()) {
      number = text.substring(0, e);
      suffix = text.substring(e);
    } else {
      number = text.substring(0, split);
      suffix = text.substring(split);
    }
    if (number.isEmpty() || !NUMBER.matcher(number).matches()) {
      throw new IllegalArgumentException("quantity \"" + text + "\" is not a valid quantity");
    }
    var amount = new BigDecimal(number.endsWith(".") ? number + "0" : number.startsWith(".") ? "0" + number
        : number.startsWith("+.") || number.startsWith("-.") ? number.charAt(0) + "0" + number.substring(1) : number);
    BigDecimal multiplier = SUFFIXES.get(suffix);
    if (multiplier != null) {
      return new Quantity(amount.multiply(multiplier));
    }
    if (EXPONENT.matcher(suffix).matches()) {
      try {
        return new Quantity(amount.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))));
      } catch (NumberFormatException | ArithmeticException tooLarge) {
        throw new IllegalArgumentException("quantity \"" + text + "\" has an exponent out of range", tooLarge);
      }
    }
    throw new IllegalArgumentException("quantity \"" + text + "\" has an unknown suffix \"" + suffix + "\"");
  }

  /** @return this plus {@code other} */
  public Quantity plus(Quantity other) {
    return new Quantity(value.add(other.value));
  }

  /** @return this minus {@code other} */
  public Quantity minus(Quantity other) {
    return new Quantity(value.subtract(other.value));
  }

  /** @return whether this is zero */
  public boolean isZero() {
    return value.signum() == 0;
  }

  @Override
  public int compareTo(Quantity other) {
    return value.compareTo(other.value);
  }

  /** @return the value as plain decimal text, which Kubernetes reads back as the same quantity */
  @Override
  public String toString() {
    return value.toPlainString();
  }

  private static BigDecimal binary(int bits) {
    return new BigDecimal(BigInteger.ONE.shiftLeft(bits));
  }
}
