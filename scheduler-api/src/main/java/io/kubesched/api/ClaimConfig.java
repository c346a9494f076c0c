package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Configuration a claim gives its drivers, or an allocation carries to them: kube's {@code
 * DeviceClaimConfiguration} and {@code DeviceAllocationConfiguration}.
 *
 * @param source {@code FromClass} or {@code FromClaim} in an allocation; {@code FromClaim} in a claim's spec
 * @param requests the requests it applies to; empty for all
 * @param opaque the configuration
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ClaimConfig(String source, List<String> requests, OpaqueConfig opaque) {

  /** kube's {@code AllocationConfigSourceClass}. */
  public static final String FROM_CLASS = "FromClass";

  /** kube's {@code AllocationConfigSourceClaim}. */
  public static final String FROM_CLAIM = "FromClaim";

  public ClaimConfig {
    requests = List.copyOf(requests);
  }
}
