package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kubesched.api.PodInfo;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A pod's resource lists, read once, and Kubernetes' {@code PodRequests} (k8s.io/component-helpers) over
 * them: the walk over containers, init containers and sidecars, the pod-level requests put over its result,
 * the overhead added. The same walk gives the effective requests and, with per-container defaults, the
 * non-zero requests kube-scheduler's scores count. Immutable.
 */
final class PodRequests {

  private static final String CPU = "cpu";
  private static final String MEMORY = "memory";

  /**
   * What kube-scheduler counts for a container that names no CPU or no memory request (its {@code
   * NonMissingContainerRequests}); a request of zero that is written down is kept.
   */
  private static final ExactResources NON_ZERO_DEFAULTS =
      new ExactResources(
          Map.of(
              CPU, BigDecimal.valueOf(PodInfo.DEFAULT_MILLI_CPU_REQUEST).scaleByPowerOfTen(-3),
              MEMORY, BigDecimal.valueOf(PodInfo.DEFAULT_MEMORY_REQUEST)));

  private record InitContainer(ExactResources requests, boolean sidecar) {}

  private final List<ExactResources> containers;
  private final List<InitContainer> initContainers;
  /** The pod-level requests of the resources Kubernetes manages at pod level; empty if the pod sets none. */
  private final ExactResources podLevel;

  private final ExactResources overhead;

  private PodRequests(
      List<ExactResources> containers,
      List<InitContainer> initContainers,
      ExactResources podLevel,
      ExactResources overhead) {
    this.containers = List.copyOf(containers);
    this.initContainers = List.copyOf(initContainers);
    this.podLevel = podLevel;
    this.overhead = overhead;
  }

  /**
   * Reads every resource list of {@code spec} once: the containers' and init containers' requests (an unset
   * request is its limit), the pod-level requests and limits, the overhead.
   *
   * @param object the pod, for error messages
   * @throws io.kubesched.api.MalformedObjectException naming {@code object}, field and value of a malformed
   *     or negative quantity
   */
  static PodRequests of(PodSpec spec, String object) {
    var containers = new ArrayList<ExactResources>();
    for (var container : orEmpty(spec.getContainers())) {
      containers.add(requests(container, object, "spec.containers"));
    }
    var initContainers = new ArrayList<InitContainer>();
    for (var container : orEmpty(spec.getInitContainers())) {
      initContainers.add(
          new InitContainer(
              requests(container, object, "spec.initContainers"),
              "Always".equals(container.getRestartPolicy())));
    }
    var podLevelRequests =
        podLevelRequests(
            spec.getResources(), containerTotal(containers, initContainers, ExactResources.NONE), object);
    var overhead = ResourceLists.read(spec.getOverhead(), object, "spec.overhead");
    return new PodRequests(containers, initContainers, podLevelRequests, overhead);
  }

  /** @return the requests the scheduler reserves for the pod (Kubernetes' {@code PodRequests}) */
  ExactResources effective() {
    return total(ExactResources.NONE);
  }

  /**
   * The requests kube-scheduler's scores count ({@code PodInfo.CalculateResource}): each container that names
   * no CPU or memory request counts {@link #NON_ZERO_DEFAULTS} for it, through the same walk. When the pod
   * sets pod-level requests, a default applies only to a resource the pod requests nowhere at all.
   *
   * @param effective this pod's {@link #effective()} requests
   */
  ExactResources nonZero(ExactResources effective) {
    var defaults =
        podLevel.isEmpty() ? NON_ZERO_DEFAULTS : NON_ZERO_DEFAULTS.only(resource -> !effective.names(resource));
    return defaults.isEmpty() ? effective : total(defaults);
  }

  private ExactResources total(ExactResources defaults) {
    return containerTotal(containers, initContainers, defaults).overriddenBy(podLevel).plus(overhead);
  }

  /**
   * The containers summed; each init container with the sidecars started before it; sidecars added to the
   * sum; the larger of both per resource. {@code defaults} fill in what a container does not name.
   */
  private static ExactResources containerTotal(
      List<ExactResources> containers, List<InitContainer> initContainers, ExactResources defaults) {
    var total = ExactResources.NONE;
    for (var container : containers) {
      total = total.plus(container.withMissingFrom(defaults));
    }
    var sidecars = ExactResources.NONE;
    var initPeak = ExactResources.NONE;
    for (var init : initContainers) {
      var requests = init.requests().withMissingFrom(defaults);
      ExactResources whileStarting;
      if (init.sidecar()) {
        total = total.plus(requests);
        sidecars = sidecars.plus(requests);
        whileStarting = sidecars;
      } else {
        whileStarting = requests.plus(sidecars);
      }
      initPeak = initPeak.max(whileStarting);
    }
    return total.max(initPeak);
  }

  /**
   * The pod-level requests as the API server stores them ({@code DefaultPodLevelResources}): once the pod
   * sets any pod-level request or limit, CPU and memory the containers request default to the containers'
   * total, and any other resource with a pod-level limit defaults to that limit. Only CPU, memory and
   * hugepages are managed at pod level; other names are ignored, as Kubernetes does.
   */
  private static ExactResources podLevelRequests(
      @Nullable ResourceRequirements resources, ExactResources containerTotal, String object) {
    if (resources == null) {
      return ExactResources.NONE;
    }
    var requests = ResourceLists.read(resources.getRequests(), object, "spec.resources.requests");
    var limits = ResourceLists.read(resources.getLimits(), object, "spec.resources.limits");
    if (requests.isEmpty() && limits.isEmpty()) {
      return ExactResources.NONE;
    }
    return requests
        .withMissingFrom(containerTotal.only(name -> name.equals(CPU) || name.equals(MEMORY)))
        .withMissingFrom(limits.only(PodRequests::isPodLevelResource))
        .only(PodRequests::isPodLevelResource);
  }

  /** Kubernetes' {@code IsSupportedPodLevelResource}. */
  static boolean isPodLevelResource(String name) {
    return name.equals(CPU) || name.equals(MEMORY) || name.startsWith("hugepages-");
  }

  /** A container's requests as the API server defaults them: an unset request is the limit. */
  private static ExactResources requests(Container container, String object, String list) {
    var resources = container.getResources();
    if (resources == null) {
      return ExactResources.NONE;
    }
    var field = list + "[" + orEmpty(container.getName()) + "].resources.";
    var limits = ResourceLists.read(resources.getLimits(), object, field + "limits");
    var requests = ResourceLists.read(resources.getRequests(), object, field + "requests");
    return limits.overriddenBy(requests);
  }
}
