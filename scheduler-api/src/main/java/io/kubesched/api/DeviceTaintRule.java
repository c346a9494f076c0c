package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A taint an admin puts on the devices a selector matches: kube's {@code DeviceTaintRule}.
 *
 * @param name the rule's name
 * @param driver the driver the devices must have; {@code null} for any
 * @param pool the pool they must be in; {@code null} for any
 * @param device the device's name; {@code null} for any
 * @param taint the taint
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceTaintRule(
    String name, @Nullable String driver, @Nullable String pool, @Nullable String device, DeviceTaint taint) {

  /** @return whether the rule applies to the device {@code driver/pool/device} */
  public boolean matches(String driver, String pool, String device) {
    return (this.driver == null || this.driver.equals(driver))
        && (this.pool == null || this.pool.equals(pool))
        && (this.device == null || this.device.equals(device));
  }
}
