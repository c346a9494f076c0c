package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What was allocated for a claim: kube's {@code AllocationResult}.
 *
 * @param devices one entry per allocated device
 * @param config the class and claim configuration for those devices, classes' first
 * @param nodeSelector the nodes a pod using the claim may run on (terms ORed); {@code null} for every node
 * @param allocationTimestamp when the allocation was made, for devices with binding conditions; {@code null}
 *     otherwise
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record AllocationResult(
    List<DeviceAllocation> devices,
    List<ClaimConfig> config,
    @Nullable List<NodeSelectorTerm> nodeSelector,
    @Nullable Instant allocationTimestamp) {

  public AllocationResult {
    devices = List.copyOf(devices);
    config = List.copyOf(config);
    nodeSelector = nodeSelector == null ? null : List.copyOf(nodeSelector);
  }
}
