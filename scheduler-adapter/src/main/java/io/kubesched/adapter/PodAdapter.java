package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kubesched.api.HostPort;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** {@code Pod} to {@link PodInfo}, as pure functions. */
public final class PodAdapter {

  private PodAdapter() {}

  /**
   * @return what a placement policy needs of {@code pod}
   * @throws MalformedObjectException naming the pod, field and value, if a quantity, toleration or port
   *     cannot be read
   */
  public static PodInfo toPodInfo(Pod pod) {
    var meta = pod.getMetadata();
    var spec = Objects.requireNonNullElseGet(pod.getSpec(), PodSpec::new);
    var object = describe(pod);
    return PodInfo.builder(orEmpty(meta.getNamespace()), orEmpty(meta.getName()))
        .uid(orEmpty(meta.getUid()))
        .schedulerName(schedulerName(pod))
        .priority(spec.getPriority() == null ? 0 : spec.getPriority())
        .labels(orEmpty(meta.getLabels()))
        .nodeName(orEmpty(spec.getNodeName()))
        .requests(effectiveRequests(pod))
        .nodeSelector(orEmpty(spec.getNodeSelector()))
        .tolerations(tolerations(spec, object))
        .hostPorts(hostPorts(spec, object))
        .build();
  }

  /**
   * The resources the scheduler reserves for {@code pod}, as Kubernetes computes them: the sum of the
   * containers; sidecars (init containers with {@code restartPolicy: Always}) added to that sum and to every
   * later init container; the maximum of that with each init container; then the pod overhead. A request
   * left unset where a limit is set counts as the limit, as the API server defaults it. {@code pods} is 1.
   *
   * @throws MalformedObjectException naming the pod, container, field and value of a malformed quantity
   */
  public static Resources effectiveRequests(Pod pod) {
    var spec = Objects.requireNonNullElseGet(pod.getSpec(), PodSpec::new);
    var object = describe(pod);
    var total = ExactResources.NONE;
    for (var container : orEmpty(spec.getContainers())) {
      total = total.plus(requests(container, object, "spec.containers"));
    }
    var sidecars = ExactResources.NONE;
    var initPeak = ExactResources.NONE;
    for (var container : orEmpty(spec.getInitContainers())) {
      var requests = requests(container, object, "spec.initContainers");
      ExactResources whileRunning;
      if ("Always".equals(container.getRestartPolicy())) {
        total = total.plus(requests);
        sidecars = sidecars.plus(requests);
        whileRunning = sidecars;
      } else {
        whileRunning = requests.plus(sidecars);
      }
      initPeak = initPeak.max(whileRunning);
    }
    total = total.max(initPeak).plus(ResourceLists.read(spec.getOverhead(), object, "spec.overhead"));
    return total.toResources(1);
  }

  /** @return the scheduler {@code pod} asks for; Kubernetes' default when it names none */
  public static String schedulerName(Pod pod) {
    var spec = pod.getSpec();
    var name = spec == null ? null : spec.getSchedulerName();
    return name == null || name.isEmpty() ? SchedulingConstants.DEFAULT_SCHEDULER_NAME : name;
  }

  /** @return {@code pod namespace/name}, how errors name a pod */
  public static String describe(Pod pod) {
    var meta = pod.getMetadata();
    return "pod " + orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
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

  private static List<Toleration> tolerations(PodSpec spec, String object) {
    var tolerations = new ArrayList<Toleration>();
    var all = orEmpty(spec.getTolerations());
    for (int i = 0; i < all.size(); i++) {
      var t = all.get(i);
      var field = "spec.tolerations[" + i + "]";
      var operator =
          switch (orEmpty(t.getOperator())) {
            case "", "Equal" -> Toleration.Operator.EQUAL;
            case "Exists" -> Toleration.Operator.EXISTS;
            default -> throw new MalformedObjectException(
                object, field + ".operator", t.getOperator(), "is not Equal or Exists", null);
          };
      var effect =
          orEmpty(t.getEffect()).isEmpty() ? null : taintEffect(t.getEffect(), object, field + ".effect");
      tolerations.add(new Toleration(orEmpty(t.getKey()), operator, orEmpty(t.getValue()), effect));
    }
    return tolerations;
  }

  /** The host ports of the containers and the sidecars: what the pod holds while it runs. */
  private static List<HostPort> hostPorts(PodSpec spec, String object) {
    var ports = new ArrayList<HostPort>();
    var running = new ArrayList<Map.Entry<String, Container>>();
    orEmpty(spec.getContainers()).forEach(c -> running.add(Map.entry("spec.containers", c)));
    for (var init : orEmpty(spec.getInitContainers())) {
      if ("Always".equals(init.getRestartPolicy())) {
        running.add(Map.entry("spec.initContainers", init));
      }
    }
    for (var entry : running) {
      var container = entry.getValue();
      for (var port : orEmpty(container.getPorts())) {
        var hostPort = port.getHostPort();
        if (hostPort == null || hostPort == 0) {
          continue;
        }
        if (hostPort < 0 || hostPort > 65535) {
          throw new MalformedObjectException(
              object,
              entry.getKey() + "[" + orEmpty(container.getName()) + "].ports.hostPort",
              String.valueOf(hostPort),
              "is not a port (1..65535)",
              null);
        }
        var protocol = orEmpty(port.getProtocol());
        var hostIp = orEmpty(port.getHostIP());
        ports.add(
            new HostPort(
                protocol.isEmpty() ? "TCP" : protocol,
                hostIp.isEmpty() ? HostPort.ALL_ADDRESSES : hostIp,
                hostPort));
      }
    }
    return ports;
  }

  /**
   * @throws MalformedObjectException naming {@code object}, {@code field} and the text, if {@code text} is
   *     not an effect's API name
   */
  static TaintEffect taintEffect(@Nullable String text, String object, String field) {
    return TaintEffect.fromApiName(orEmpty(text))
        .orElseThrow(
            () ->
                new MalformedObjectException(
                    object,
                    field,
                    orEmpty(text),
                    "is not NoSchedule, PreferNoSchedule or NoExecute",
                    null));
  }

  static String orEmpty(@Nullable String value) {
    return value == null ? "" : value;
  }

  static <K, V> Map<K, V> orEmpty(@Nullable Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  static <T> List<T> orEmpty(@Nullable List<T> list) {
    return list == null ? List.of() : list;
  }
}
