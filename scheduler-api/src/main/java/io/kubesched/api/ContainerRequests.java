package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One container's own requests of scalar resources (extended resources such as {@code example.com/gpu}), as its
 * spec writes them: what kube-scheduler builds the ResourceClaim for a pod's extended resources backed by a
 * DeviceClass from, one device request per container and resource. {@link PodInfo#containerRequests()} holds one
 * per container that requests such a resource.
 *
 * @param index the container's position among the pod's init containers followed by its containers (kube's index
 *     in the claim's request names, {@code container-<index>-request-<n>})
 * @param name the container's name
 * @param init whether it is an init container
 * @param sidecar whether it is an init container that keeps running ({@code restartPolicy: Always})
 * @param resourceNames every resource name the container's {@code resources.requests} names, sorted (kube numbers a
 *     resource's request by its position here)
 * @param scalar the whole amounts of the scalar resources it requests, by name; zero amounts left out
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ContainerRequests(
    int index, String name, boolean init, boolean sidecar, List<String> resourceNames, Map<String, Long> scalar) {

  public ContainerRequests {
    resourceNames = List.copyOf(resourceNames);
    scalar = Map.copyOf(scalar);
  }

  /** @return whether it runs beside the pod's containers (a container or a sidecar), not before them */
  public boolean longLived() {
    return !init || sidecar;
  }
}
