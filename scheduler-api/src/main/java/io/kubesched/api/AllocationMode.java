package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** kube's {@code DeviceAllocationMode}. */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum AllocationMode {
  /** {@code ExactCount}: exactly {@code count} devices. */
  EXACT_COUNT,
  /** {@code All}: every matching device of a complete pool, at least one. */
  ALL
}
