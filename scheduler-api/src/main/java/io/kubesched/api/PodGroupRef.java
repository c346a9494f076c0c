package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Which pod group a pod belongs to: the group object's source, namespace and name. A pod names its group in
 * its own namespace, so two groups of one name in two namespaces are two groups, and so are a Workload API
 * {@code PodGroup} and a coscheduling {@code PodGroup} of one name.
 *
 * @param source the API the group object comes from
 * @param namespace the namespace of the group and of its members
 * @param name the group object's name
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PodGroupRef(Source source, String namespace, String name) {

  /** The two APIs a pod group can come from. */
  public enum Source {
    /**
     * Kubernetes' Workload API (KEP-4671): {@code scheduling.k8s.io/v1beta1} {@code PodGroup} with a gang
     * policy, joined by a pod's {@code spec.schedulingGroup.podGroupName}. Served only where the API server
     * runs with the {@code GenericWorkload} feature gate and that API version enabled.
     */
    WORKLOAD_API("scheduling.k8s.io/v1beta1"),
    /**
     * scheduler-plugins' coscheduling: the custom resource {@code scheduling.x-k8s.io/v1alpha1} {@code
     * PodGroup}, joined by the pod label {@value SchedulingConstants#POD_GROUP_LABEL}.
     */
    COSCHEDULING("scheduling.x-k8s.io/v1alpha1");

    private final String apiVersion;

    Source(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    /** @return the {@code apiVersion} of this source's {@code PodGroup} objects */
    public String apiVersion() {
      return apiVersion;
    }
  }

  /** @throws IllegalArgumentException if the namespace or the name is blank */
  public PodGroupRef {
    if (namespace.isBlank() || name.isBlank()) {
      throw new IllegalArgumentException("a pod group needs a namespace and a name, got '" + namespace + "/" + name + "'");
    }
  }

  /** @return {@code namespace/name}, the group's key in logs and messages */
  public String key() {
    return namespace + "/" + name;
  }

  @Override
  public String toString() {
    return source.apiVersion() + " PodGroup " + key();
  }
}
