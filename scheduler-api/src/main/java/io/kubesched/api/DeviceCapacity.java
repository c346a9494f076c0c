package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One capacity of a {@link Device} (kube's {@code DeviceCapacity}).
 *
 * @param value the total capacity
 * @param requestPolicy how much one allocation consumes of a device that allows multiple allocations (consumable
 *     capacity); {@code null} when the device sets none
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceCapacity(Quantity value, @Nullable RequestPolicy requestPolicy) {

  /** @param value the total capacity, with no request policy */
  public DeviceCapacity(Quantity value) {
    this(value, null);
  }

  /**
   * kube's {@code CapacityRequestPolicy}.
   *
   * @param defaultValue what a request that names no amount consumes; {@code null} when unset
   * @param validValues the amounts a request may consume, ascending; empty when unset
   * @param validRange the range a request may consume; {@code null} when unset
   */
  public record RequestPolicy(@Nullable Quantity defaultValue, List<Quantity> validValues, @Nullable Range validRange) {
    public RequestPolicy {
      validValues = List.copyOf(validValues);
    }
  }

  /**
   * kube's {@code CapacityRequestPolicyRange}.
   *
   * @param min the least amount
   * @param max the most; {@code null} for no limit but the capacity
   * @param step the granularity above {@code min}; {@code null} for any
   */
  public record Range(Quantity min, @Nullable Quantity max, @Nullable Quantity step) {}
}
