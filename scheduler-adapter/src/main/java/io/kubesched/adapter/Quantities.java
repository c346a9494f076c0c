package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Kubernetes quantities to exact numbers, and to whole numbers rounding up as Kubernetes' {@code Value()}
 * and {@code MilliValue()} do. fabric8's {@link Quantity} splits and validates the text; the scaling is done
 * here in {@link BigDecimal} because fabric8 scales the {@code Ei} suffix through a {@code double} and loses
 * digits. As in Kubernetes, a value is rounded up to whole nano units when read, and only ASCII digits are
 * digits. Values past {@link Long#MAX_VALUE} saturate to it: such an amount never fits anywhere.
 */
public final class Quantities {

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

  private static final Pattern EXPONENT = Pattern.compile("[eE][+-]?[0-9]+");
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final int NANO_SCALE = 9;
  private static final BigDecimal NANO = BigDecimal.ONE.scaleByPowerOfTen(-NANO_SCALE);

  /**
   * Values already read, by text: a cluster's pods repeat a few texts ({@code 100m}, {@code 500Mi}) in every
   * watch event, and reading one builds a fabric8 {@code Quantity} and several {@code BigDecimal}s. Bounded: when
   * full it starts again, so that a cluster whose quantities all differ costs what it did without it.
   */
  private static final int EXACT_CACHED = 4096;

  private static final ConcurrentHashMap<String, BigDecimal> EXACT = new ConcurrentHashMap<>();

  private Quantities() {}

  /**
   * @return the value of {@code text} in base units (cores, bytes, …), rounded up to whole nano units; white
   *     space around the text is ignored, as Kubernetes ignores it when it reads a quantity from JSON
   * @throws IllegalArgumentException if {@code text} is not a Kubernetes quantity, or is negative
   */
  public static BigDecimal exact(String text) {
    text = trimSpace(text);
    var known = EXACT.get(text);
    if (known != null) {
      return known;
    }
    var value = read(text);
    if (EXACT.size() >= EXACT_CACHED) {
      EXACT.clear();
    }
    EXACT.put(text, value);
    return value;
  }

  private static BigDecimal read(String text) {
    if (!text.chars().allMatch(c -> c < 128)) {
      throw new IllegalArgumentException("is not a valid quantity (only ASCII digits and suffixes)");
    }
    Quantity quantity;
    try {
      quantity = new Quantity(text);
      quantity.getNumericalAmount(); // validates the digits
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("is not a valid quantity", e);
    }
    var amount = new BigDecimal(quantity.getAmount());
    var format = quantity.getFormat() == null ? "" : quantity.getFormat();
    BigDecimal value;
    if (SUFFIXES.containsKey(format)) {
      value = amount.multiply(SUFFIXES.get(format));
    } else if (EXPONENT.matcher(format).matches()) {
      int exponent;
      try {
        exponent = Integer.parseInt(format.substring(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("has an exponent out of range", e);
      }
      value = amount.scaleByPowerOfTen(exponent);
    } else {
      throw new IllegalArgumentException("has an unknown suffix '" + format + "'");
    }
    if (value.signum() < 0) {
      throw new IllegalArgumentException("must not be negative");
    }
    return roundUpToNanos(value);
  }

  /**
   * Go's {@code strings.TrimSpace}, which Kubernetes' {@code Quantity.UnmarshalJSON} applies to the JSON text
   * before parsing it: the white space of Go's {@code unicode.IsSpace} (ASCII's, U+0085, U+00A0 and Unicode's
   * other {@code White_Space} characters) removed from both ends. Java's {@code strip} differs (it keeps
   * U+00A0 and U+202F, and removes U+001C to U+001F), so it is spelled out here.
   *
   * @return {@code text} without leading and trailing white space
   */
  public static String trimSpace(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isGoSpace(text.charAt(start))) {
      start++;
    }
    while (end > start && isGoSpace(text.charAt(end - 1))) {
      end--;
    }
    return start == 0 && end == text.length() ? text : text.substring(start, end);
  }

  /** Go's {@code unicode.IsSpace}; every such character is in the Basic Multilingual Plane. */
  static boolean isGoSpace(char c) {
    return switch (c) {
      case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u0085', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F',
          '\u205F', '\u3000' -> true;
      default -> c >= '\u2000' && c <= '\u200A';
    };
  }

  /** @return {@code text} in millicores, rounded up (as CPU is accounted) */
  public static long milliValue(String text) {
    return milliValue(exact(text));
  }

  /** @return {@code text} in whole base units, rounded up (as memory, storage and counts are accounted) */
  public static long value(String text) {
    return value(exact(text));
  }

  /** @return {@code exact} (in base units) in millicores, rounded up, saturating */
  static long milliValue(BigDecimal exact) {
    return ceilToLong(exact.multiply(THOUSAND));
  }

  /** @return {@code exact} in whole base units, rounded up, saturating */
  static long value(BigDecimal exact) {
    return ceilToLong(exact);
  }

  /**
   * Rounds a non-negative value up to whole nano units without ever computing a power of ten as large as
   * its exponent (a quantity such as {@code 1e-999999999} is valid text).
   */
  private static BigDecimal roundUpToNanos(BigDecimal value) {
    if (value.signum() == 0 || value.scale() <= NANO_SCALE) {
      return value;
    }
    // value < 10^(precision - scale): below one nano unit it rounds up to exactly one.
    if (value.precision() - value.scale() <= -NANO_SCALE) {
      return NANO;
    }
    return value.setScale(NANO_SCALE, RoundingMode.CEILING);
  }

  private static long ceilToLong(BigDecimal value) {
    if (value.compareTo(LONG_MAX) >= 0) {
      return Long.MAX_VALUE;
    }
    return value.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  private static BigDecimal binary(int bits) {
    return new BigDecimal(BigInteger.ONE.shiftLeft(bits));
  }
}
