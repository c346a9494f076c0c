package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kubesched.api.PodInfo;
import io.kubesched.fabric8.Fabric8Compat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A pod's resource lists, read once, and Kubernetes' {@code PodRequests} (k8s.io/component-helpers) over
 * them, with the options kube-scheduler 1.37 uses for the pods it counts ({@code UseStatusResources} and
 * in-place pod-level resize on): the walk over containers, init containers and sidecars, the pod-level
 * requests put over its result, the overhead added. The same walk gives the effective requests and, with
 * per-container defaults, the non-zero requests kube-scheduler's scores count. Immutable.
 *
 * <p><b>In-place resize.</b> A running pod's resources may differ from its spec while the kubelet resizes
 * it. Each resource then counts the largest of three walks: over the spec's requests, over what the kubelet
 * allocated, and over what it actuated ({@code status.containerStatuses[].allocatedResources} and {@code
 * resources.requests}, found by container name among the container and init container statuses; a container
 * without them counts its spec). Where the pod reports pod-level {@code status.allocatedResources} and
 * {@code status.resources.requests}, those two stand for the allocated and actuated walks. When the pod's
 * {@code PodResizePending} condition says {@code Infeasible}, the spec does not count: only what was
 * allocated or actuated (nothing for a container that reports neither). Pod-level requests follow the same
 * rule against the pod-level status. A pod with no status (one not yet placed) counts its spec. An empty
 * resource list counts as absent, as the API server omits it.
 */
final class PodRequests {

  private static final String CPU = "cpu";
  private static final String MEMORY = "memory";
  private static final String RESIZE_PENDING = "PodResizePending";
  private static final String INFEASIBLE = "Infeasible";

  /**
   * What kube-scheduler counts for a container that names no CPU or no memory request (its {@code
   * NonMissingContainerRequests}); a request of zero that is written down is kept.
   */
  private static final ExactResources NON_ZERO_DEFAULTS =
      new ExactResources(
          Map.of(
              CPU, BigDecimal.valueOf(PodInfo.DEFAULT_MILLI_CPU_REQUEST).scaleByPowerOfTen(-3),
              MEMORY, BigDecimal.valueOf(PodInfo.DEFAULT_MEMORY_REQUEST)));

  /** Which of a container's three request lists a walk reads. */
  private enum View {
    SPEC,
    ALLOCATED,
    ACTUATED
  }

  /**
   * A container's requests: in its spec (an unset request is its limit), as allocated and as actuated
   * (Kubernetes' {@code containerAllocatedRequests} / {@code containerActuatedRequests}, with their fallbacks
   * already applied).
   */
  private record ContainerRequests(ExactResources spec, ExactResources allocated, ExactResources actuated) {
    ExactResources in(View view) {
      return switch (view) {
        case SPEC -> spec;
        case ALLOCATED -> allocated;
        case ACTUATED -> actuated;
      };
    }
  }

  private record InitContainer(ContainerRequests requests, boolean sidecar) {}

  /** The pod-level {@code status.allocatedResources} and {@code status.resources.requests}. */
  private record PodStatusRequests(ExactResources allocated, ExactResources actuated) {}

  private final List<ContainerRequests> containers;
  private final List<InitContainer> initContainers;
  /** Whether the pod's {@code PodResizePending} condition says {@code Infeasible}. */
  private final boolean resizeInfeasible;
  /** The pod-level status that replaces the allocated and actuated walks; {@code null} if not reported. */
  private final @Nullable PodStatusRequests podStatus;
  /**
   * The pod-level requests in the spec of the resources Kubernetes manages at pod level; empty if the pod
   * sets none.
   */
  private final ExactResources podLevel;
  /** {@link #podLevel} with the pod-level status taken into account: what is put over the containers' total. */
  private final ExactResources effectivePodLevel;

  private final ExactResources overhead;

  private PodRequests(
      List<ContainerRequests> containers,
      List<InitContainer> initContainers,
      boolean resizeInfeasible,
      @Nullable PodStatusRequests podStatus,
      ExactResources podLevel,
      ExactResources effectivePodLevel,
      ExactResources overhead) {
    this.containers = List.copyOf(containers);
    this.initContainers = List.copyOf(initContainers);
    this.resizeInfeasible = resizeInfeasible;
    this.podStatus = podStatus;
    this.podLevel = podLevel;
    this.effectivePodLevel = effectivePodLevel;
    this.overhead = overhead;
  }

  /**
   * Reads every resource list of {@code spec} and {@code status} once: the containers' and init containers'
   * requests (an unset request is its limit) and their allocated and actuated requests, the pod-level
   * requests and limits and their status, the overhead.
   *
   * @param status the pod's status; {@code null} if it has none
   * @param object the pod, for error messages
   * @throws io.kubesched.api.MalformedObjectException naming {@code object}, field and value of a malformed
   *     or negative quantity
   */
  static PodRequests of(PodSpec spec, @Nullable PodStatus status, String object) {
    var infeasible = isResizeInfeasible(status);
    var containers = new ArrayList<ContainerRequests>();
    for (var container : orEmpty(spec.getContainers())) {
      containers.add(requests(container, status, infeasible, object, "spec.containers"));
    }
    var initContainers = new ArrayList<InitContainer>();
    for (var container : orEmpty(spec.getInitContainers())) {
      initContainers.add(
          new InitContainer(
              requests(container, status, infeasible, object, "spec.initContainers"),
              "Always".equals(container.getRestartPolicy())));
    }
    var podLevelRequests =
        podLevelRequests(
            spec.getResources(),
            containerTotal(containers, initContainers, View.SPEC, ExactResources.NONE),
            object);
    var effectivePodLevel = podLevelRequests;
    var compat = Fabric8Compat.get();
    var statusResources = status == null ? null : compat.resources(status);
    var statusAllocated =
        status == null
            ? ExactResources.NONE
            : ResourceLists.read(compat.allocatedResources(status), object, "status.allocatedResources");
    var statusActuated =
        statusResources == null
            ? ExactResources.NONE
            : ResourceLists.read(statusResources.getRequests(), object, "status.resources.requests");
    if (!podLevelRequests.isEmpty() && statusResources != null) {
      effectivePodLevel =
          (infeasible ? ExactResources.NONE : podLevelRequests)
              .max(statusActuated)
              .max(statusAllocated)
              .only(PodRequests::isPodLevelResource);
    }
    var podStatus =
        statusAllocated.isEmpty() || statusActuated.isEmpty()
            ? null
            : new PodStatusRequests(statusAllocated, statusActuated);
    var overhead = ResourceLists.read(spec.getOverhead(), object, "spec.overhead");
    return new PodRequests(
        containers, initContainers, infeasible, podStatus, podLevelRequests, effectivePodLevel, overhead);
  }

  /**
   * Kubernetes' {@code IsPodResizeInfeasible}: the first {@code PodResizePending} condition has the reason
   * {@code Infeasible}, whatever its status.
   */
  static boolean isResizeInfeasible(@Nullable PodStatus status) {
    if (status == null) {
      return false;
    }
    for (var condition : orEmpty(status.getConditions())) {
      if (condition != null && RESIZE_PENDING.equals(condition.getType())) {
        return INFEASIBLE.equals(condition.getReason());
      }
    }
    return false;
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
    return containersWhileResizing(defaults).overriddenBy(effectivePodLevel).plus(overhead);
  }

  /**
   * Kubernetes' {@code AggregateContainerRequests} with status resources: per resource, the largest of the
   * spec, allocated and actuated walks, leaving out the spec when a resize is infeasible. {@code defaults}
   * fill in what a container does not name in each walk; the pod-level status is taken as it is.
   */
  private ExactResources containersWhileResizing(ExactResources defaults) {
    ExactResources allocated;
    ExactResources actuated;
    if (podStatus != null) {
      allocated = podStatus.allocated();
      actuated = podStatus.actuated();
    } else {
      allocated = containerTotal(containers, initContainers, View.ALLOCATED, defaults);
      actuated = containerTotal(containers, initContainers, View.ACTUATED, defaults);
    }
    var statusTotal = actuated.max(allocated);
    return resizeInfeasible
        ? statusTotal
        : containerTotal(containers, initContainers, View.SPEC, defaults).max(statusTotal);
  }

  /**
   * The containers summed; each init container with the sidecars started before it; sidecars added to the
   * sum; the larger of both per resource; each container's requests as {@code view} sees them. {@code
   * defaults} fill in what a container does not name.
   */
  private static ExactResources containerTotal(
      List<ContainerRequests> containers,
      List<InitContainer> initContainers,
      View view,
      ExactResources defaults) {
    var total = ExactResources.NONE;
    for (var container : containers) {
      total = total.plus(container.in(view).withMissingFrom(defaults));
    }
    var sidecars = ExactResources.NONE;
    var initPeak = ExactResources.NONE;
    for (var init : initContainers) {
      var requests = init.requests().in(view).withMissingFrom(defaults);
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

  /**
   * A container's requests: in the spec as the API server defaults them (an unset request is the limit);
   * allocated: the status's {@code allocatedResources}, else none if the resize is infeasible, else the
   * spec; actuated: the status's {@code resources.requests}, else its {@code allocatedResources}, else none if
   * the resize is infeasible, else the spec.
   */
  private static ContainerRequests requests(
      Container container, @Nullable PodStatus status, boolean infeasible, String object, String list) {
    var spec = specRequests(container, object, list);
    var containerStatus = findStatus(status, container.getName());
    var allocated = ExactResources.NONE;
    var actuated = ExactResources.NONE;
    if (containerStatus != null) {
      var field = containerStatus.getKey() + "[" + orEmpty(container.getName()) + "].";
      var statusOf = containerStatus.getValue();
      allocated = ResourceLists.read(statusOf.getAllocatedResources(), object, field + "allocatedResources");
      var resources = statusOf.getResources();
      if (resources != null) {
        actuated = ResourceLists.read(resources.getRequests(), object, field + "resources.requests");
      }
    }
    var fallback = infeasible ? ExactResources.NONE : spec;
    var allocatedOrFallback = allocated.isEmpty() ? fallback : allocated;
    return new ContainerRequests(spec, allocatedOrFallback, actuated.isEmpty() ? allocatedOrFallback : actuated);
  }

  /**
   * Kubernetes' {@code findContainerStatus}: the first status of that name among the container statuses,
   * then among the init container statuses; with its list's path.
   */
  private static Map.@Nullable Entry<String, ContainerStatus> findStatus(
      @Nullable PodStatus status, @Nullable String name) {
    if (status == null) {
      return null;
    }
    var wanted = orEmpty(name);
    for (var s : orEmpty(status.getContainerStatuses())) {
      if (s != null && wanted.equals(orEmpty(s.getName()))) {
        return Map.entry("status.containerStatuses", s);
      }
    }
    for (var s : orEmpty(status.getInitContainerStatuses())) {
      if (s != null && wanted.equals(orEmpty(s.getName()))) {
        return Map.entry("status.initContainerStatuses", s);
      }
    }
    return null;
  }

  /**
   * The containers (init containers first, numbered as kube numbers them) whose requests name a scalar resource,
   * each with its own requests: what kube-scheduler builds the claim for extended resources backed by DRA from.
   */
  static List<io.kubesched.api.ContainerRequests> containerRequests(PodSpec spec, String object) {
    var found = new ArrayList<io.kubesched.api.ContainerRequests>();
    var init = orEmpty(spec.getInitContainers());
    for (int i = 0; i < init.size(); i++) {
      var container = init.get(i);
      addScalar(found, i, container, true, "Always".equals(container.getRestartPolicy()),
          specRequests(container, object, "spec.initContainers"));
    }
    var containers = orEmpty(spec.getContainers());
    for (int i = 0; i < containers.size(); i++) {
      addScalar(found, init.size() + i, containers.get(i), false, false,
          specRequests(containers.get(i), object, "spec.containers"));
    }
    return found;
  }

  private static void addScalar(
      List<io.kubesched.api.ContainerRequests> found, int index, Container container, boolean init, boolean sidecar,
      ExactResources requests) {
    var scalar = requests.toResources(0).extended();
    if (!scalar.isEmpty()) {
      found.add(new io.kubesched.api.ContainerRequests(index, orEmpty(container.getName()), init, sidecar,
          new ArrayList<>(new java.util.TreeSet<>(requests.names())), scalar));
    }
  }

  /** A container's requests as the API server defaults them: an unset request is the limit. */
  private static ExactResources specRequests(Container container, String object, String list) {
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
