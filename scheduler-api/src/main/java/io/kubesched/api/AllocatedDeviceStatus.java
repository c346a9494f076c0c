package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a driver reports about one allocated device in the claim's {@code status.devices}: kube's {@code
 * AllocatedDeviceStatus}, with the fields the scheduler reads (the conditions, for devices with binding conditions).
 *
 * @param driver the device's driver
 * @param pool the device's pool
 * @param device the device's name
 * @param shareId the allocation's share of a device allocated to several claims; {@code null} otherwise
 * @param conditions the device's conditions, in the order written
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record AllocatedDeviceStatus(
    String driver, String pool, String device, @Nullable String shareId, List<Condition> conditions) {

  public AllocatedDeviceStatus {
    conditions = List.copyOf(conditions);
  }

  /** @return whether this entry reports on {@code allocated} (same driver, pool and device, as kube matches them) */
  public boolean reportsOn(DeviceAllocation allocated) {
    return driver.equals(allocated.driver()) && pool.equals(allocated.pool()) && device.equals(allocated.device());
  }

  /** @return the condition of type {@code type}, the first if several (as kube's {@code FindStatusCondition}) */
  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  /**
   * One condition: kube's {@code metav1.Condition}.
   *
   * @param type its type
   * @param status {@code True}, {@code False} or {@code Unknown}
   * @param reason its reason, empty if none
   * @param message its message, empty if none
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  public record Condition(String type, String status, String reason, String message) {

    /** @return whether the status is {@code True} */
    public boolean isTrue() {
      return "True".equals(status);
    }
  }
}
