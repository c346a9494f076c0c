package io.kubesched.adapter;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.kubesched.api.HostPort;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Owner;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import io.kubesched.api.PodRuntime;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.Resources;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.fabric8.Fabric8Compat;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** {@code Pod} to {@link PodInfo}, as pure functions. */
public final class PodAdapter {

  /** The condition a scheduler sets on the pods it preempts ({@code v1.DisruptionTarget}). */
  static final String DISRUPTION_TARGET = "DisruptionTarget";

  /** The reason of {@link #DISRUPTION_TARGET} when a scheduler preempted the pod. */
  static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";

  /**
   * Go's {@code time.RFC3339} as {@code metav1.Time} parses it: date, {@code T}, time with seconds, an
   * optional fraction of up to nine digits, then {@code Z} or a {@code +hh:mm} offset.
   */
  static final DateTimeFormatter RFC_3339 =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral('T')
          .appendValue(ChronoField.HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .appendOffset("+HH:MM", "Z")
          .toFormatter()
          .withResolverStyle(ResolverStyle.STRICT);

  private PodAdapter() {}

  /**
   * @return what a placement policy needs of {@code pod}: besides names and scheduling constraints, its
   *     controller (the owner reference with {@code controller: true}; the first, should there be several),
   *     its {@link #effectiveRequests effective} and {@link #nonZeroRequests non-zero} requests, node
   *     affinity, the volumes that can conflict on a node, its containers' and init containers' images, its
   *     pod affinity and anti-affinity, topology spread constraints, scheduling gates, the persistent volume
   *     claims its volumes use and its resource claims; and what preemption reads: {@code
   *     spec.preemptionPolicy}, {@code status.startTime}, {@code status.nominatedNodeName} and whether its
   *     first {@code DisruptionTarget} condition has status {@code True} and reason {@code
   *     PreemptionByScheduler} (as kube-scheduler's {@code PodTerminatingByPreemption} reads it); and the
   *     {@link PodInfo#podGroup() pod group} it joins: {@code spec.schedulingGroup.podGroupName} names a
   *     Workload API group, else the label {@value SchedulingConstants#POD_GROUP_LABEL} a coscheduling
   *     group, both in the pod's namespace; a pod that names both joins the Workload API group. Whether a
   *     source is watched is the caller's concern: the group is read either way. And what it asks of its node's
   *     runtime ({@link PodRuntime}), from which the features its node must declare are inferred.
   * @throws MalformedObjectException naming the pod, field and value, if a quantity, toleration, port, node
   *     affinity operator, volume, label selector of a pod affinity term or spread constraint, {@code
   *     whenUnsatisfiable}, inclusion policy, preemption policy (neither {@code Never} nor {@code
   *     PreemptLowerPriority}), start time (not RFC 3339) or pod group (a {@code schedulingGroup} that is not
   *     an object or whose {@code podGroupName} is not a string; a group named by a pod without a namespace)
   *     cannot be read
   */
  public static PodInfo toPodInfo(Pod pod) {
    var meta = pod.getMetadata();
    var spec = Objects.requireNonNullElseGet(pod.getSpec(), PodSpec::new);
    var object = describe(pod);
    var resources = PodRequests.of(spec, pod.getStatus(), object);
    var requests = resources.effective();
    var podRequests = requests.toResources(1);
    var status = pod.getStatus();
    return PodInfo.builder(SharedStrings.shared(orEmpty(meta.getNamespace())), orEmpty(meta.getName()))
        .uid(orEmpty(meta.getUid()))
        .schedulerName(schedulerName(pod))
        .priority(spec.getPriority() == null ? 0 : spec.getPriority())
        .labels(SharedStrings.labels(meta.getLabels()))
        .owner(controller(meta.getOwnerReferences()))
        .nodeName(orEmpty(spec.getNodeName()))
        .requests(podRequests)
        .nonZeroRequests(resources.nonZero(requests).toResources(1))
        .nodeSelector(orEmpty(spec.getNodeSelector()))
        .affinity(Affinities.read(spec.getAffinity(), object))
        .tolerations(tolerations(spec, object))
        .hostPorts(hostPorts(spec, object))
        .volumes(PodVolumes.read(spec, object))
        .images(images(spec))
        .terminating(meta.getDeletionTimestamp() != null)
        .podAffinity(PodAffinities.affinity(spec.getAffinity(), object))
        .podAntiAffinity(PodAffinities.antiAffinity(spec.getAffinity(), object))
        .topologySpreadConstraints(SpreadConstraints.read(spec, object))
        .schedulingGates(schedulingGates(spec))
        .persistentVolumeClaims(PodVolumes.claims(spec, orEmpty(meta.getName())))
        .ephemeralVolumeClaims(PodVolumes.ephemeralClaims(spec, orEmpty(meta.getName())))
        .resourceClaims(resourceClaims(spec, status))
        .preemptionPolicy(preemptionPolicy(spec, object))
        .startTime(startTime(status, object))
        .nominatedNodeName(status == null ? "" : orEmpty(status.getNominatedNodeName()))
        .preemptedByScheduler(preemptedByScheduler(status))
        .podGroup(podGroup(pod, spec, object))
        .runtime(runtime(spec))
        .containerRequests(
            podRequests.extended().isEmpty() ? List.of() : PodRequests.containerRequests(spec, object))
        .build();
  }

  /**
   * What the spec asks of the node's runtime, as kube's declared-feature rules read it: {@code hostNetwork}, {@code
   * hostUsers}, the actions of the containers' and init containers' {@code restartPolicyRules}, and whether any
   * volume mount of a container, init container or ephemeral container sets {@code bindMountOptions}. {@link
   * PodRuntime#NONE}, shared, for a pod that sets none of them.
   */
  static PodRuntime runtime(PodSpec spec) {
    var compat = Fabric8Compat.get();
    boolean hostNetwork = Boolean.TRUE.equals(spec.getHostNetwork());
    var hostUsers = spec.getHostUsers();
    var actions = new LinkedHashSet<String>();
    boolean bindMountOptions = false;
    for (var containers : List.of(orEmpty(spec.getContainers()), orEmpty(spec.getInitContainers()))) {
      for (var container : containers) {
        if (container == null) {
          continue;
        }
        for (var action : compat.restartRuleActions(container)) {
          if (action != null) {
            actions.add(action);
          }
        }
        bindMountOptions |= anyBindMountOptions(container.getVolumeMounts());
      }
    }
    for (var container : orEmpty(spec.getEphemeralContainers())) {
      bindMountOptions |= container != null && anyBindMountOptions(container.getVolumeMounts());
    }
    if (!hostNetwork && hostUsers == null && actions.isEmpty() && !bindMountOptions) {
      return PodRuntime.NONE;
    }
    return new PodRuntime(hostNetwork, hostUsers, actions, bindMountOptions);
  }

  private static boolean anyBindMountOptions(@Nullable List<VolumeMount> mounts) {
    for (var mount : orEmpty(mounts)) {
      if (mount != null && !orEmpty(Fabric8Compat.get().bindMountOptions(mount)).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The resources the scheduler reserves for {@code pod}, as Kubernetes computes them ({@code PodRequests}):
   * the sum of the containers; sidecars (init containers with {@code restartPolicy: Always}) added to that sum
   * and to every later init container; the maximum of that with each init container; pod-level requests
   * ({@code spec.resources}, for CPU, memory and hugepages) in place of that result where the pod sets them;
   * then the pod overhead. A request left unset where a limit is set counts as the limit, as the API server
   * defaults it, at container and at pod level. {@code pods} is 1.
   *
   * <p>A pod resized in place counts as kube-scheduler 1.37 counts it: per resource, the larger of what its
   * spec requests and what its status says the kubelet allocated and actuated ({@code
   * status.containerStatuses[].allocatedResources} and {@code resources.requests}, or the pod-level {@code
   * status.allocatedResources} and {@code status.resources.requests} where reported), the spec left out while
   * its {@code PodResizePending} condition says {@code Infeasible}. A pod that reports no such status counts
   * its spec.
   *
   * @throws MalformedObjectException naming the pod, container, field and value of a malformed quantity, in
   *     its spec or status
   */
  public static Resources effectiveRequests(Pod pod) {
    var spec = Objects.requireNonNullElseGet(pod.getSpec(), PodSpec::new);
    return PodRequests.of(spec, pod.getStatus(), describe(pod)).effective().toResources(1);
  }

  /**
   * The requests kube-scheduler's scores count for {@code pod} ({@code PodInfo.CalculateResource}): the
   * {@link #effectiveRequests effective requests} computed with the same rules, but with every container or
   * init container that names no CPU request counting {@value PodInfo#DEFAULT_MILLI_CPU_REQUEST} millicores,
   * and every one that names no memory request counting {@value PodInfo#DEFAULT_MEMORY_REQUEST} bytes. A
   * request written as zero stays zero. When the pod sets pod-level requests, a default applies only to a
   * resource the pod requests nowhere (containers, pod level, overhead). Other resources are as in the
   * effective requests, so this is never below them.
   *
   * @throws MalformedObjectException naming the pod, container, field and value of a malformed quantity
   */
  public static Resources nonZeroRequests(Pod pod) {
    var spec = Objects.requireNonNullElseGet(pod.getSpec(), PodSpec::new);
    var resources = PodRequests.of(spec, pod.getStatus(), describe(pod));
    return resources.nonZero(resources.effective()).toResources(1);
  }

  /** @return the scheduler {@code pod} asks for; Kubernetes' default when it names none */
  public static String schedulerName(Pod pod) {
    var spec = pod.getSpec();
    var name = spec == null ? null : spec.getSchedulerName();
    return name == null || name.isEmpty() ? SchedulingConstants.KUBE_SCHEDULER_NAME : name;
  }

  /** @return {@code pod namespace/name}, how errors name a pod */
  public static String describe(Pod pod) {
    var meta = pod.getMetadata();
    return "pod " + orEmpty(meta.getNamespace()) + "/" + orEmpty(meta.getName());
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
   * {@code spec.preemptionPolicy}: unset is Kubernetes' default, {@code PreemptLowerPriority}; any value the
   * API server's validation would refuse (the empty string included) is malformed.
   */
  private static PreemptionPolicy preemptionPolicy(PodSpec spec, String object) {
    var policy = spec.getPreemptionPolicy();
    if (policy == null) {
      return PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
    }
    return switch (policy) {
      case "PreemptLowerPriority" -> PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
      case "Never" -> PreemptionPolicy.NEVER;
      default -> throw new MalformedObjectException(
          object, "spec.preemptionPolicy", policy, "is not PreemptLowerPriority or Never", null);
    };
  }

  /** {@code status.startTime}; {@code null} while unset (the kubelet has not started the pod). */
  private static @Nullable Instant startTime(@Nullable PodStatus status, String object) {
    var text = status == null ? null : status.getStartTime();
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text, RFC_3339).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedObjectException(object, "status.startTime", text, "is not an RFC 3339 time", e);
    }
  }

  /**
   * Whether the first {@code DisruptionTarget} condition says a scheduler preempted the pod: status {@code
   * True}, reason {@code PreemptionByScheduler}. Later conditions of the type are not read, as in kube.
   */
  private static boolean preemptedByScheduler(@Nullable PodStatus status) {
    if (status == null) {
      return false;
    }
    for (PodCondition condition : orEmpty(status.getConditions())) {
      if (condition != null && DISRUPTION_TARGET.equals(condition.getType())) {
        return "True".equals(condition.getStatus()) && PREEMPTION_BY_SCHEDULER.equals(condition.getReason());
      }
    }
    return false;
  }

  /**
   * The group {@code pod} joins: {@code spec.schedulingGroup.podGroupName}, which fabric8 reads into {@link
   * PodSpec#getSchedulingGroup()} or, for a spec built with it as an additional property, leaves in {@link
   * PodSpec#getAdditionalProperties()}; else the coscheduling label. An empty name joins no group.
   */
  private static @Nullable PodGroupRef podGroup(Pod pod, PodSpec spec, String object) {
    var workload = schedulingGroupName(spec, object);
    var source = PodGroupRef.Source.WORKLOAD_API;
    var field = "spec.schedulingGroup.podGroupName";
    var name = workload;
    if (name.isEmpty()) {
      source = PodGroupRef.Source.COSCHEDULING;
      field = "metadata.labels[" + SchedulingConstants.POD_GROUP_LABEL + "]";
      name = orEmpty(orEmpty(pod.getMetadata().getLabels()).get(SchedulingConstants.POD_GROUP_LABEL));
    }
    if (name.isEmpty()) {
      return null;
    }
    var namespace = orEmpty(pod.getMetadata().getNamespace());
    if (namespace.isBlank()) {
      throw new MalformedObjectException(
          object, field, name, "names a pod group, but the pod has no namespace to find it in", null);
    }
    return new PodGroupRef(source, namespace, name);
  }

  private static String schedulingGroupName(PodSpec spec, String object) {
    var typed = Fabric8Compat.get().typedSchedulingGroupName(spec);
    if (typed.isPresent()) {
      return typed.get();
    }
    var extra = spec.getAdditionalProperties() == null ? null : spec.getAdditionalProperties().get("schedulingGroup");
    if (extra == null) {
      return "";
    }
    if (!(extra instanceof Map<?, ?> group)) {
      throw new MalformedObjectException(object, "spec.schedulingGroup", String.valueOf(extra), "is not an object", null);
    }
    var name = group.get("podGroupName");
    if (name == null) {
      return "";
    }
    if (!(name instanceof String text)) {
      throw new MalformedObjectException(
          object, "spec.schedulingGroup.podGroupName", String.valueOf(name), "is not a string", null);
    }
    return text;
  }

  /** The names of the scheduling gates, in order; an unset name reads as empty. */
  private static List<String> schedulingGates(PodSpec spec) {
    var gates = new ArrayList<String>();
    for (var gate : orEmpty(spec.getSchedulingGates())) {
      gates.add(gate == null ? "" : orEmpty(gate.getName()));
    }
    return gates;
  }

  /**
   * {@code spec.resourceClaims}, in order, each with the claim {@code status.resourceClaimStatuses} reports for it
   * (for a template); an unset name reads as empty.
   */
  private static List<PodResourceClaim> resourceClaims(PodSpec spec, @Nullable PodStatus status) {
    var specClaims = orEmpty(spec.getResourceClaims());
    if (specClaims.isEmpty()) {
      return List.of();
    }
    var generated = new HashMap<String, String>();
    if (status != null) {
      for (var claimStatus : orEmpty(status.getResourceClaimStatuses())) {
        if (claimStatus != null && claimStatus.getName() != null) {
          // An entry without a claim name: the controller decided no claim is needed (kube skips the entry).
          generated.put(claimStatus.getName(), orEmpty(claimStatus.getResourceClaimName()));
        }
      }
    }
    var claims = new ArrayList<PodResourceClaim>(specClaims.size());
    for (var claim : specClaims) {
      if (claim == null) {
        continue;
      }
      var name = orEmpty(claim.getName());
      claims.add(
          new PodResourceClaim(
              name, claim.getResourceClaimName(), claim.getResourceClaimTemplateName(), generated.get(name)));
    }
    return claims;
  }

  /** Kubernetes' {@code GetControllerOf}: the first owner reference marked as the controller. */
  private static @Nullable Owner controller(@Nullable List<OwnerReference> references) {
    for (var reference : orEmpty(references)) {
      if (reference != null && Boolean.TRUE.equals(reference.getController())) {
        return new Owner(orEmpty(reference.getKind()), orEmpty(reference.getName()), orEmpty(reference.getUid()));
      }
    }
    return null;
  }

  /** The containers' images, then the init containers', as kube-scheduler's image locality lists them. */
  private static List<String> images(PodSpec spec) {
    var images = new ArrayList<String>();
    for (var container : orEmpty(spec.getContainers())) {
      images.add(orEmpty(container.getImage()));
    }
    for (var container : orEmpty(spec.getInitContainers())) {
      images.add(orEmpty(container.getImage()));
    }
    return images;
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
