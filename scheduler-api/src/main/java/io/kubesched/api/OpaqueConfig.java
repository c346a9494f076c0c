package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Configuration for a driver the scheduler passes on without reading it: kube's {@code
 * OpaqueDeviceConfiguration}.
 *
 * @param driver the driver it is for
 * @param parametersJson its {@code parameters} as JSON text, written back unchanged
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record OpaqueConfig(String driver, String parametersJson) {}
