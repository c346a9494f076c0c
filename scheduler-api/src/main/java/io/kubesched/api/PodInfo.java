package io.kubesched.api;

import java.util.List;
import java.util.Map;

/**
 * What a placement policy knows of a pod.
 *
 * @param namespace the pod's namespace
 * @param name the pod's name
 * @param uid the pod's uid: a pod deleted and created again under the same name has another
 * @param schedulerName the scheduler the pod asks for
 * @param priority the pod's priority (0 when it has none)
 * @param labels the pod's labels
 * @param requests the pod's effective requests as Kubernetes computes them (containers summed, the
 *     maximum with each init container, sidecars added, overhead added), with {@code pods = 1}
 * @param nodeSelector labels a node must carry, all of them
 * @param tolerations the pod's tolerations
 * @param hostPorts the host ports the pod's containers bind
 */
public record PodInfo(
    String namespace,
    String name,
    String uid,
    String schedulerName,
    int priority,
    Map<String, String> labels,
    Resources requests,
    Map<String, String> nodeSelector,
    List<Toleration> tolerations,
    List<HostPort> hostPorts) {

  public PodInfo {
    labels = Map.copyOf(labels);
    nodeSelector = Map.copyOf(nodeSelector);
    tolerations = List.copyOf(tolerations);
    hostPorts = List.copyOf(hostPorts);
  }

  /** @return {@code namespace/name}, the pod's key in logs and messages */
  public String key() {
    return namespace + "/" + name;
  }
}
