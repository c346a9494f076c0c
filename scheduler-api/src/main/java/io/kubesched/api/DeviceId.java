package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A device's identity across the cluster: kube's {@code DeviceID}.
 *
 * @param driver its driver
 * @param pool its pool
 * @param device its name
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record DeviceId(String driver, String pool, String device) {

  /**
   * Compares the three names, the device's first (the one most likely to differ). Written out rather than
   * generated: the allocator asks for every device of every node it searches whether an allocation holds it, and
   * the generated record methods (method handles) were 12 % of the scheduler's CPU under the image's C1-only JIT
   * in the DRA benchmark.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof DeviceId id
        && device.equals(id.device) && pool.equals(id.pool) && driver.equals(id.driver);
  }

  @Override
  public int hashCode() {
    return (driver.hashCode() * 31 + pool.hashCode()) * 31 + device.hashCode();
  }

  /** @return {@code driver/pool/device}, as kube prints it */
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
