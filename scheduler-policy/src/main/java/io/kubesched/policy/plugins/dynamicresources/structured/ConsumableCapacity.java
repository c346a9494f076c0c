package io.kubesched.policy.plugins.dynamicresources.structured;

import io.kubesched.api.DeviceCapacity;
import io.kubesched.api.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Consumable capacity as kube's {@code consumable_capacity.go} (incubating, with FractionalCapacityRange on): what
 * one allocation consumes of a device's capacities under their request policies, and whether the device still
 * has it. Pure; quantities are exact decimals.
 */
final class ConsumableCapacity {

  private static final BigDecimal MILLI = BigDecimal.valueOf(1000);
  private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);

  private ConsumableCapacity() {}

  /** A capacity request that kube rejects with an error (not a mere misfit). */
  static final class CapacityException extends Exception {
    private static final long serialVersionUID = 1L;

    CapacityException(String message) {
      super(message);
    }
  }

  /**
   * kube's {@code CmpRequestOverCapacity}: whether the device can give {@code requests} on top of {@code
   * allocated} (what allocations already consume) and {@code allocating} (what this attempt consumes).
   *
   * @throws CapacityException when a request cannot be computed (negative, not representable)
   */
  static boolean fits(
      Map<String, BigDecimal> allocated,
      Map<String, Quantity> requests,
      Map<String, DeviceCapacity> capacity,
      Map<String, BigDecimal> allocating)
      throws CapacityException {
    for (var name : requests.keySet()) {
      if (!capacity.containsKey(name)) {
        return false;
      }
    }
    var consumed = new HashMap<String, BigDecimal>();
    for (var entry : capacity.entrySet()) {
      var value = consumed(requests.get(entry.getKey()), entry.getValue(), entry.getKey());
      if (value.signum() < 0) {
        throw new CapacityException("capacity \"" + entry.getKey() + "\": capacity value is negative");
      }
      consumed.put(entry.getKey(), value);
    }
    for (var entry : capacity.entrySet()) {
      var name = entry.getKey();
      var value = consumed.get(name);
      if (violatesPolicy(value, entry.getValue().requestPolicy())) {
        return false;
      }
      var total = allocated.getOrDefault(name, BigDecimal.ZERO).add(value).add(allocating.getOrDefault(name, BigDecimal.ZERO));
      if (total.compareTo(entry.getValue().value().value()) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's {@code GetConsumedCapacityFromRequest}: what one allocation consumes of every capacity of the device.
   *
   * @throws CapacityException when a request cannot be computed
   */
  static Map<String, BigDecimal> consumedBy(Map<String, Quantity> requests, Map<String, DeviceCapacity> capacity)
      throws CapacityException {
    var result = new HashMap<String, BigDecimal>();
    for (var entry : capacity.entrySet()) {
      result.put(entry.getKey(), consumed(requests.get(entry.getKey()), entry.getValue(), entry.getKey()));
    }
    return result;
  }

  private static BigDecimal consumed(@Nullable Quantity requested, DeviceCapacity capacity, String name)
      throws CapacityException {
    var policy = capacity.requestPolicy();
    if (requested == null) {
      return policy != null && policy.defaultValue() != null ? policy.defaultValue().value() : capacity.value().value();
    }
    if (policy == null) {
      return requested.value();
    }
    var range = policy.validRange();
    if (range != null) {
      return roundUpRange(requested.value(), range, name);
    }
    if (!policy.validValues().isEmpty()) {
      for (var valid : policy.validValues()) {
        if (requested.value().compareTo(valid.value()) <= 0) {
          return valid.value();
        }
      }
    }
    return requested.value();
  }

  private static BigDecimal roundUpRange(BigDecimal requested, DeviceCapacity.Range range, String name)
      throws CapacityException {
    var min = range.min().value();
    if (requested.compareTo(min) < 0) {
      return min;
    }
    if (range.step() == null) {
      return requested;
    }
    var step = range.step().value();
    if (useMilli(range)) {
      if (!isMilli(requested)) {
        throw notRepresentable(name, "request " + new Quantity(requested) + " is not a representable milli value");
      }
      var n = requested.subtract(min).divide(step, 0, RoundingMode.CEILING);
      var value = min.add(step.multiply(n));
      if (value.multiply(MILLI).compareTo(MAX_LONG) > 0) {
        throw notRepresentable(
            name, "rounding request " + new Quantity(requested) + " up to the next step passes the milli-value range");
      }
      return value;
    }
    if (requested.compareTo(MAX_LONG) > 0) {
      throw notRepresentable(name, "request " + new Quantity(requested) + " exceeds MaxInt64");
    }
    // Without milli units kube rounds each value up to a whole unit first.
    var requestedInt = requested.setScale(0, RoundingMode.CEILING);
    var stepInt = step.setScale(0, RoundingMode.CEILING);
    var minInt = min.setScale(0, RoundingMode.CEILING);
    var n = requestedInt.subtract(minInt).divide(stepInt, 0, RoundingMode.CEILING);
    var value = minInt.add(stepInt.multiply(n));
    if (value.compareTo(MAX_LONG) > 0) {
      throw notRepresentable(name, "rounding request " + new Quantity(requested) + " up to the next step passes MaxInt64");
    }
    return value;
  }

  private static CapacityException notRepresentable(String name, String detail) {
    return new CapacityException(
        "capacity \"" + name + "\": capacity request cannot be represented in the device's range arithmetic: " + detail);
  }

  private static boolean violatesPolicy(BigDecimal requested, DeviceCapacity.@Nullable RequestPolicy policy) {
    if (policy == null) {
      return false;
    }
    if (policy.defaultValue() != null && requested.compareTo(policy.defaultValue().value()) == 0) {
      return false;
    }
    var range = policy.validRange();
    if (range != null) {
      if (range.max() != null && requested.compareTo(range.max().value()) > 0) {
        return true;
      }
      if (range.step() != null) {
        BigDecimal offset;
        BigDecimal step;
        if (useMilli(range)) {
          if (!isMilli(requested)) {
            return true;
          }
          offset = requested.subtract(range.min().value());
          step = range.step().value();
        } else {
          offset = requested.setScale(0, RoundingMode.CEILING).subtract(range.min().value().setScale(0, RoundingMode.CEILING));
          step = range.step().value().setScale(0, RoundingMode.CEILING);
        }
        return offset.remainder(step).signum() != 0;
      }
      return false;
    }
    if (!policy.validValues().isEmpty()) {
      for (var valid : policy.validValues()) {
        if (requested.compareTo(valid.value()) == 0) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** kube's {@code useMilli} with FractionalCapacityRange on: every bound in milli units, a step of at least 1m. */
  private static boolean useMilli(DeviceCapacity.Range range) {
    for (var q : new Quantity[] {range.min(), range.max(), range.step()}) {
      if (q != null && !isMilli(q.value())) {
        return false;
      }
    }
    return range.step() == null || range.step().value().multiply(MILLI).compareTo(BigDecimal.ONE) >= 0;
  }

  private static boolean isMilli(BigDecimal value) {
    var milli = value.multiply(MILLI);
    return milli.stripTrailingZeros().scale() <= 0 && milli.abs().compareTo(MAX_LONG) <= 0;
  }
}
