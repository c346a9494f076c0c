package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import org.apiguardian.api.API;

/**
 * An amount of each resource kube-scheduler accounts for: what a pod requests, what a node offers, what the
 * pods on a node already take. Whole units throughout: CPU in millicores, memory and ephemeral storage in
 * bytes, {@code pods} in pods (a pod's own request counts 1), extended resources (for example
 * {@code nvidia.com/gpu} or {@code hugepages-2Mi}) in their own integer unit.
 *
 * <p>Arithmetic saturates at {@link Long#MAX_VALUE} instead of overflowing: an amount that large never fits
 * anywhere, which is the right answer for a scheduler. Amounts are never negative.
 *
 * @param milliCpu CPU in millicores
 * @param memory memory in bytes
 * @param ephemeralStorage ephemeral storage in bytes
 * @param pods number of pods
 * @param extended extended and hugepages resources by name; absent means zero; zero entries are dropped
 */
@API(status = STABLE, since = "0.1.0")
public record Resources(
    long milliCpu, long memory, long ephemeralStorage, long pods, Map<String, Long> extended) {

  /** Nothing of anything. */
  public static final Resources ZERO = new Resources(0, 0, 0, 0, Map.of());

  /**
   * @throws IllegalArgumentException if any amount is negative
   */
  public Resources {
    requireNonNegative("milliCpu", milliCpu);
    requireNonNegative("memory", memory);
    requireNonNegative("ephemeralStorage", ephemeralStorage);
    requireNonNegative("pods", pods);
    var copy = new TreeMap<String, Long>();
    extended.forEach(
        (name, amount) -> {
          requireNonNegative(name, amount);
          if (amount != 0) {
            copy.put(name, amount);
          }
        });
    extended = Map.copyOf(copy);
  }

  /** @return CPU and memory only, as most requests and tests need */
  public static Resources of(long milliCpu, long memory) {
    return new Resources(milliCpu, memory, 0, 0, Map.of());
  }

  /** @return the amount of the extended resource {@code name}, 0 if absent */
  public long extended(String name) {
    return extended.getOrDefault(name, 0L);
  }

  /** @return the sum of both amounts, per resource, saturating at {@link Long#MAX_VALUE} */
  public Resources plus(Resources other) {
    return combine(other, Resources::saturatedAdd);
  }

  /**
   * @return this amount less {@code other}, per resource, never below 0
   */
  public Resources minus(Resources other) {
    return combine(other, (a, b) -> Math.max(0, a - b));
  }

  /** @return the larger of both amounts, per resource */
  public Resources max(Resources other) {
    return combine(other, Math::max);
  }

  private Resources combine(Resources other, LongBinaryOperator op) {
    var merged = new TreeMap<String, Long>();
    for (var name : extended.keySet()) {
      merged.put(name, op.applyAsLong(extended(name), other.extended(name)));
    }
    for (var name : other.extended.keySet()) {
      merged.computeIfAbsent(name, n -> op.applyAsLong(0, other.extended(n)));
    }
    return new Resources(
        op.applyAsLong(milliCpu, other.milliCpu),
        op.applyAsLong(memory, other.memory),
        op.applyAsLong(ephemeralStorage, other.ephemeralStorage),
        op.applyAsLong(pods, other.pods),
        merged);
  }

  static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static void requireNonNegative(String name, long amount) {
    if (amount < 0) {
      throw new IllegalArgumentException("resource " + name + " must not be negative, was " + amount);
    }
  }
}
