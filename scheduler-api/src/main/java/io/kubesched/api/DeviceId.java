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

  /** @return {@code driver/pool/device}, as kube prints it */
  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
