package io.kubesched.policy.plugins.dynamicresources;

import io.kubesched.api.AllocationMode;
import io.kubesched.api.ContainerRequests;
import io.kubesched.api.DeviceRequest;
import io.kubesched.api.DeviceRequirements;
import io.kubesched.api.ExtendedResourceClaim.RequestMapping;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The device requests of the claim kube-scheduler creates for a pod's extended resources backed by DRA on one node,
 * and which request serves which container (kube's {@code createRequestsAndMappings}): per resource, one request per
 * long-lived container (a container or a sidecar) for its amount, named {@code container-<index>-request-<n>} where
 * {@code n} is the resource's position among the container's sorted request names; an init container that runs
 * before them first reuses the requests of the long-lived containers from its own position on, and asks for the
 * rest; of those init containers' requests only the largest is kept (they run one after another) and all their
 * mappings name it. Pure.
 *
 * @param requests the claim's requests, sorted by name
 * @param mappings the pod status's request mappings, per resource (by name) the long-lived containers' then the init
 *     containers'
 */
record ExtendedResourceRequests(List<DeviceRequest> requests, List<RequestMapping> mappings) {

  ExtendedResourceRequests {
    requests = List.copyOf(requests);
    mappings = List.copyOf(mappings);
  }

  /**
   * @param containers the pod's containers that request scalar resources ({@code PodInfo.containerRequests()})
   * @param classes the class of each resource to allocate through DRA on the node, by resource name
   */
  static ExtendedResourceRequests build(List<ContainerRequests> containers, Map<String, String> classes) {
    var requests = new ArrayList<DeviceRequest>();
    var mappings = new ArrayList<RequestMapping>();
    for (var entry : new TreeMap<>(classes).entrySet()) {
      var resource = entry.getKey();
      var className = entry.getValue();
      var longLived = new TreeMap<Integer, DeviceRequest>();
      var longLivedMappings = new ArrayList<RequestMapping>();
      for (var container : containers) {
        if (container.longLived()) {
          var request = requestFor(container, resource, className, List.of(), longLivedMappings);
          if (request != null) {
            longLived.put(container.index(), request);
          }
        }
      }
      DeviceRequest largestShortLived = null;
      Set<String> shortLivedNames = new HashSet<>();
      var shortLivedMappings = new ArrayList<RequestMapping>();
      for (var container : containers) {
        if (container.longLived()) {
          continue;
        }
        var reusable = List.copyOf(longLived.tailMap(container.index()).values());
        var request = requestFor(container, resource, className, reusable, shortLivedMappings);
        if (request != null) {
          shortLivedNames.add(request.name());
          if (largestShortLived == null || count(largestShortLived) < count(request)) {
            largestShortLived = request;
          }
        }
      }
      if (largestShortLived != null && shortLivedNames.size() > 1) {
        var kept = largestShortLived.name();
        shortLivedMappings.replaceAll(m -> shortLivedNames.contains(m.requestName()) && !m.requestName().equals(kept)
            ? new RequestMapping(m.containerName(), m.resourceName(), kept)
            : m);
      }
      if (largestShortLived != null) {
        requests.add(largestShortLived);
      }
      requests.addAll(longLived.values());
      mappings.addAll(longLivedMappings);
      mappings.addAll(shortLivedMappings);
    }
    requests.sort(Comparator.comparing(DeviceRequest::name));
    return new ExtendedResourceRequests(requests, mappings);
  }

  /**
   * kube's {@code createResourceRequestAndMappings}: {@code container}'s request of {@code resource}, after what
   * {@code reusable} provides; adds its mappings to {@code mappings}.
   *
   * @return the request for what {@code reusable} does not cover; {@code null} if it asks for none or all is covered
   */
  private static @Nullable DeviceRequest requestFor(
      ContainerRequests container, String resource, String className, List<DeviceRequest> reusable,
      List<RequestMapping> mappings) {
    long wanted = container.scalar().getOrDefault(resource, 0L);
    if (wanted == 0) {
      return null;
    }
    long covered = 0;
    for (var request : reusable) {
      covered += count(request);
      mappings.add(new RequestMapping(container.name(), resource, request.name()));
      if (covered >= wanted) {
        return null;
      }
    }
    int position = Math.max(0, container.resourceNames().indexOf(resource));
    var name = "container-" + container.index() + "-request-" + position;
    mappings.add(new RequestMapping(container.name(), resource, name));
    return DeviceRequest.exactly(name, new DeviceRequirements(
        className, List.of(), AllocationMode.EXACT_COUNT, wanted - covered, false, List.of(), Map.of()));
  }

  private static long count(DeviceRequest request) {
    var exactly = request.exactly();
    return exactly == null ? 0 : exactly.count();
  }
}
