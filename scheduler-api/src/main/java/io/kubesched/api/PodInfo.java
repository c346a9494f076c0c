package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a placement policy knows of a pod.
 *
 * @param namespace the pod's namespace
 * @param name the pod's name
 * @param uid the pod's uid: a pod deleted and created again under the same name has another
 * @param schedulerName the scheduler the pod asks for
 * @param priority the pod's priority (0 when it has none)
 * @param labels the pod's labels
 * @param owner the pod's controller, or {@code null} if it has none
 * @param nodeName {@code spec.nodeName}: the node the pod is bound to or asks for; empty if none
 * @param requests the pod's effective requests as Kubernetes computes them (containers summed, the
 *     maximum with each init container, sidecars added, overhead added), with {@code pods = 1}
 * @param nonZeroRequests {@code requests} as kube-scheduler's scores count them: a container that requests
 *     no CPU counts {@value #DEFAULT_MILLI_CPU_REQUEST}m and one that requests no memory counts {@value
 *     #DEFAULT_MEMORY_REQUEST} bytes, so that pods without requests still spread
 * @param nodeSelector labels a node must carry, all of them
 * @param affinity the pod's node affinity
 * @param tolerations the pod's tolerations
 * @param hostPorts the host ports the pod's containers bind
 * @param volumes the pod's volumes of the kinds that can conflict on a node
 * @param images the images of the pod's containers and init containers, in order
 * @param podAffinity the pod's {@code spec.affinity.podAffinity}
 * @param podAntiAffinity the pod's {@code spec.affinity.podAntiAffinity}
 * @param topologySpreadConstraints the pod's {@code spec.topologySpreadConstraints}
 * @param schedulingGates the names of the pod's {@code spec.schedulingGates}: while there is one, the pod
 *     is not to be scheduled
 * @param persistentVolumeClaims the claims the pod's volumes use: {@code persistentVolumeClaim} volumes by
 *     claim name, and generic {@code ephemeral} volumes by the name of the claim Kubernetes creates for them
 *     ({@code <pod>-<volume>})
 * @param ephemeralVolumeClaims the claims of {@code persistentVolumeClaims} that Kubernetes creates for the
 *     pod's generic {@code ephemeral} volumes (a subset of them)
 * @param resourceClaims the pod's {@code spec.resourceClaims} (dynamic resource allocation), each with the claim it
 *     resolves to
 * @param terminating whether the pod is being deleted ({@code metadata.deletionTimestamp} is set): a pod on a
 *     node that is terminating still holds its resources, but kube-scheduler's topology spreading does not
 *     count it
 * @param preemptionPolicy {@code spec.preemptionPolicy}: whether the pod may have lower-priority pods evicted
 *     to make room for it
 * @param startTime {@code status.startTime}: when the kubelet started the pod; {@code null} while it has not
 *     (preemption spares, among victims of equal priority, the pods that started first)
 * @param nominatedNodeName {@code status.nominatedNodeName}: the node on which room is being made for the pod
 *     by preemption; empty if none
 * @param preemptedByScheduler whether the pod carries the {@code DisruptionTarget} condition with status
 *     {@code True} and reason {@code PreemptionByScheduler}: a scheduler chose it as a preemption victim
 * @param podGroupRef the pod group the pod belongs to ({@code spec.schedulingGroup.podGroupName}, or the label
 *     {@value SchedulingConstants#POD_GROUP_LABEL}); {@code null} if none: see {@link #podGroup()}
 * @param runtime what the pod's spec asks of its node's runtime (host network, user namespaces, container restart
 *     rules, bind mount options): what decides the features its node must declare
 * @param containerRequests the containers (init containers first) that request a scalar resource, each with its own
 *     requests: what the claim kube-scheduler creates for extended resources backed by a DeviceClass is built from;
 *     empty for a pod that requests none
 */
@API(status = STABLE, since = "0.1.0")
public record PodInfo(
    String namespace,
    String name,
    String uid,
    String schedulerName,
    int priority,
    Map<String, String> labels,
    @Nullable Owner owner,
    String nodeName,
    Resources requests,
    Resources nonZeroRequests,
    Map<String, String> nodeSelector,
    NodeAffinity affinity,
    List<Toleration> tolerations,
    List<HostPort> hostPorts,
    List<Volume> volumes,
    List<String> images,
    PodAffinity podAffinity,
    PodAffinity podAntiAffinity,
    List<TopologySpreadConstraint> topologySpreadConstraints,
    List<String> schedulingGates,
    List<String> persistentVolumeClaims,
    List<String> ephemeralVolumeClaims,
    List<PodResourceClaim> resourceClaims,
    boolean terminating,
    PreemptionPolicy preemptionPolicy,
    @Nullable Instant startTime,
    String nominatedNodeName,
    boolean preemptedByScheduler,
    @Nullable PodGroupRef podGroupRef,
    PodRuntime runtime,
    List<ContainerRequests> containerRequests) {

  /** Millicores kube-scheduler's scores count for a container that requests no CPU. */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** Bytes kube-scheduler's scores count for a container that requests no memory (200 MiB). */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  public PodInfo {
    labels = Map.copyOf(labels);
    nodeSelector = Map.copyOf(nodeSelector);
    tolerations = List.copyOf(tolerations);
    hostPorts = List.copyOf(hostPorts);
    volumes = List.copyOf(volumes);
    images = List.copyOf(images);
    topologySpreadConstraints = List.copyOf(topologySpreadConstraints);
    schedulingGates = List.copyOf(schedulingGates);
    persistentVolumeClaims = List.copyOf(persistentVolumeClaims);
    ephemeralVolumeClaims = List.copyOf(ephemeralVolumeClaims);
    resourceClaims = List.copyOf(resourceClaims);
    containerRequests = List.copyOf(containerRequests);
  }

  /**
   * A pod that asks nothing of its node's runtime ({@link PodRuntime#NONE}) and requests no scalar resource per
   * container: the components before those two were added.
   */
  public PodInfo(
      String namespace,
      String name,
      String uid,
      String schedulerName,
      int priority,
      Map<String, String> labels,
      @Nullable Owner owner,
      String nodeName,
      Resources requests,
      Resources nonZeroRequests,
      Map<String, String> nodeSelector,
      NodeAffinity affinity,
      List<Toleration> tolerations,
      List<HostPort> hostPorts,
      List<Volume> volumes,
      List<String> images,
      PodAffinity podAffinity,
      PodAffinity podAntiAffinity,
      List<TopologySpreadConstraint> topologySpreadConstraints,
      List<String> schedulingGates,
      List<String> persistentVolumeClaims,
      List<String> ephemeralVolumeClaims,
      List<PodResourceClaim> resourceClaims,
      boolean terminating,
      PreemptionPolicy preemptionPolicy,
      @Nullable Instant startTime,
      String nominatedNodeName,
      boolean preemptedByScheduler,
      @Nullable PodGroupRef podGroupRef) {
    this(namespace, name, uid, schedulerName, priority, labels, owner, nodeName, requests, nonZeroRequests,
        nodeSelector, affinity, tolerations, hostPorts, volumes, images, podAffinity, podAntiAffinity,
        topologySpreadConstraints, schedulingGates, persistentVolumeClaims, ephemeralVolumeClaims, resourceClaims,
        terminating, preemptionPolicy, startTime, nominatedNodeName, preemptedByScheduler, podGroupRef,
        PodRuntime.NONE, List.of());
  }

  /**
   * @return whether the pod is being deleted because a scheduler preempted it ({@link #terminating()} and
   *     {@link #preemptedByScheduler()}): room is being made on its node for a higher-priority pod
   */
  public boolean terminatingByPreemption() {
    return terminating && preemptedByScheduler;
  }

  /**
   * @return the pod group the pod must be placed with (all together or not at all); empty for a pod scheduled
   *     on its own
   */
  public Optional<PodGroupRef> podGroup() {
    return Optional.ofNullable(podGroupRef);
  }

  /** @return {@code namespace/name}, the pod's key in logs and messages */
  public String key() {
    return namespace + "/" + name;
  }

  /** @return the pod's controller; empty if it has none */
  public Optional<Owner> controller() {
    return Optional.ofNullable(owner);
  }

  /**
   * Starts a pod for tests and examples: uid {@code namespace/name}, scheduler {@value
   * SchedulingConstants#KUBE_SCHEDULER_NAME}, requests of one pod and nothing else, no constraints.
   *
   * @return a builder of a pod named {@code name} in {@code namespace}
   */
  public static Builder builder(String namespace, String name) {
    return new Builder(namespace, name);
  }

  /** @return a builder that starts from this pod */
  public Builder toBuilder() {
    var b = new Builder(namespace, name);
    b.uid = uid;
    b.schedulerName = schedulerName;
    b.priority = priority;
    b.labels = labels;
    b.owner = owner;
    b.nodeName = nodeName;
    b.requests = requests;
    b.nonZeroRequests = nonZeroRequests;
    b.nodeSelector = nodeSelector;
    b.affinity = affinity;
    b.tolerations = tolerations;
    b.hostPorts = hostPorts;
    b.volumes = volumes;
    b.images = images;
    b.podAffinity = podAffinity;
    b.podAntiAffinity = podAntiAffinity;
    b.topologySpreadConstraints = topologySpreadConstraints;
    b.schedulingGates = schedulingGates;
    b.persistentVolumeClaims = persistentVolumeClaims;
    b.ephemeralVolumeClaims = ephemeralVolumeClaims;
    b.resourceClaims = resourceClaims;
    b.terminating = terminating;
    b.preemptionPolicy = preemptionPolicy;
    b.startTime = startTime;
    b.nominatedNodeName = nominatedNodeName;
    b.preemptedByScheduler = preemptedByScheduler;
    b.podGroup = podGroupRef;
    b.runtime = runtime;
    b.containerRequests = containerRequests;
    return b;
  }

  /**
   * Builds a {@link PodInfo}. Not thread-safe; {@link #build()} may be called more than once.
   *
   * <p>Unless set, {@code nonZeroRequests} is derived from {@code requests} as if the pod had one container:
   * a CPU or memory request of zero counts as kube-scheduler's default.
   */
  public static final class Builder {
    private final String namespace;
    private String name;
    private String uid;
    private String schedulerName = SchedulingConstants.KUBE_SCHEDULER_NAME;
    private int priority;
    private Map<String, String> labels = Map.of();
    private @Nullable Owner owner;
    private String nodeName = "";
    private Resources requests = new Resources(0, 0, 0, 1, Map.of());
    private @Nullable Resources nonZeroRequests;
    private Map<String, String> nodeSelector = Map.of();
    private NodeAffinity affinity = NodeAffinity.NONE;
    private List<Toleration> tolerations = List.of();
    private List<HostPort> hostPorts = List.of();
    private List<Volume> volumes = List.of();
    private List<String> images = List.of();
    private PodAffinity podAffinity = PodAffinity.NONE;
    private PodAffinity podAntiAffinity = PodAffinity.NONE;
    private List<TopologySpreadConstraint> topologySpreadConstraints = List.of();
    private List<String> schedulingGates = List.of();
    private List<String> persistentVolumeClaims = List.of();
    private List<String> ephemeralVolumeClaims = List.of();
    private List<PodResourceClaim> resourceClaims = List.of();
    private boolean terminating;
    private PreemptionPolicy preemptionPolicy = PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
    private @Nullable Instant startTime;
    private String nominatedNodeName = "";
    private boolean preemptedByScheduler;
    private @Nullable PodGroupRef podGroup;
    private PodRuntime runtime = PodRuntime.NONE;
    private List<ContainerRequests> containerRequests = List.of();

    private Builder(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
      this.uid = namespace + "/" + name;
    }

    public Builder uid(String uid) {
      this.uid = uid;
      return this;
    }

    /**
     * Renames the pod, in the same namespace and with the same uid (set {@link #uid} too for a pod of its own): a
     * copy of a template, say.
     */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder schedulerName(String schedulerName) {
      this.schedulerName = schedulerName;
      return this;
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    public Builder owner(@Nullable Owner owner) {
      this.owner = owner;
      return this;
    }

    public Builder nodeName(String nodeName) {
      this.nodeName = nodeName;
      return this;
    }

    /** Sets the effective requests; {@code pods} is taken as given (a pod counts 1). */
    public Builder requests(Resources requests) {
      this.requests = requests;
      return this;
    }

    /** Sets CPU (millicores) and memory (bytes) requests of one pod, nothing else. */
    public Builder requests(long milliCpu, long memory) {
      return requests(new Resources(milliCpu, memory, 0, 1, Map.of()));
    }

    public Builder nonZeroRequests(Resources nonZeroRequests) {
      this.nonZeroRequests = nonZeroRequests;
      return this;
    }

    public Builder nodeSelector(Map<String, String> nodeSelector) {
      this.nodeSelector = nodeSelector;
      return this;
    }

    public Builder affinity(NodeAffinity affinity) {
      this.affinity = affinity;
      return this;
    }

    public Builder tolerations(List<Toleration> tolerations) {
      this.tolerations = tolerations;
      return this;
    }

    public Builder hostPorts(List<HostPort> hostPorts) {
      this.hostPorts = hostPorts;
      return this;
    }

    public Builder volumes(List<Volume> volumes) {
      this.volumes = volumes;
      return this;
    }

    public Builder images(List<String> images) {
      this.images = images;
      return this;
    }

    public Builder podAffinity(PodAffinity podAffinity) {
      this.podAffinity = podAffinity;
      return this;
    }

    public Builder podAntiAffinity(PodAffinity podAntiAffinity) {
      this.podAntiAffinity = podAntiAffinity;
      return this;
    }

    public Builder topologySpreadConstraints(List<TopologySpreadConstraint> topologySpreadConstraints) {
      this.topologySpreadConstraints = topologySpreadConstraints;
      return this;
    }

    public Builder schedulingGates(List<String> schedulingGates) {
      this.schedulingGates = schedulingGates;
      return this;
    }

    public Builder persistentVolumeClaims(List<String> persistentVolumeClaims) {
      this.persistentVolumeClaims = persistentVolumeClaims;
      return this;
    }

    public Builder ephemeralVolumeClaims(List<String> ephemeralVolumeClaims) {
      this.ephemeralVolumeClaims = ephemeralVolumeClaims;
      return this;
    }

    public Builder resourceClaims(List<PodResourceClaim> resourceClaims) {
      this.resourceClaims = resourceClaims;
      return this;
    }

    /** Marks the pod as being deleted ({@code metadata.deletionTimestamp} set). */
    public Builder terminating(boolean terminating) {
      this.terminating = terminating;
      return this;
    }

    public Builder preemptionPolicy(PreemptionPolicy preemptionPolicy) {
      this.preemptionPolicy = preemptionPolicy;
      return this;
    }

    public Builder startTime(@Nullable Instant startTime) {
      this.startTime = startTime;
      return this;
    }

    public Builder nominatedNodeName(String nominatedNodeName) {
      this.nominatedNodeName = nominatedNodeName;
      return this;
    }

    public Builder preemptedByScheduler(boolean preemptedByScheduler) {
      this.preemptedByScheduler = preemptedByScheduler;
      return this;
    }

    /** @param podGroup the pod group the pod belongs to; {@code null} for none */
    public Builder podGroup(@Nullable PodGroupRef podGroup) {
      this.podGroup = podGroup;
      return this;
    }

    /** @param runtime what the pod's spec asks of its node's runtime */
    public Builder runtime(PodRuntime runtime) {
      this.runtime = runtime;
      return this;
    }

    /** @param containerRequests the containers that request a scalar resource, with their own requests */
    public Builder containerRequests(List<ContainerRequests> containerRequests) {
      this.containerRequests = containerRequests;
      return this;
    }

    public PodInfo build() {
      var nonZero =
          nonZeroRequests != null
              ? nonZeroRequests
              : new Resources(
                  requests.milliCpu() == 0 ? DEFAULT_MILLI_CPU_REQUEST : requests.milliCpu(),
                  requests.memory() == 0 ? DEFAULT_MEMORY_REQUEST : requests.memory(),
                  requests.ephemeralStorage(),
                  requests.pods(),
                  requests.extended());
      return new PodInfo(
          namespace,
          name,
          uid,
          schedulerName,
          priority,
          labels,
          owner,
          nodeName,
          requests,
          nonZero,
          nodeSelector,
          affinity,
          tolerations,
          hostPorts,
          volumes,
          images,
          podAffinity,
          podAntiAffinity,
          topologySpreadConstraints,
          schedulingGates,
          persistentVolumeClaims,
          ephemeralVolumeClaims,
          resourceClaims,
          terminating,
          preemptionPolicy,
          startTime,
          nominatedNodeName,
          preemptedByScheduler,
          podGroup,
          runtime,
          containerRequests);
    }
  }
}
