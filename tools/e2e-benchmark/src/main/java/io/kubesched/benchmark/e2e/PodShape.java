package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a workload's nodes and pods carry besides scheduler_perf's {@code node-default.yaml} and {@code
 * pod-default.yaml} (test/integration/scheduler_perf in k8s.io/kubernetes v1.37.2): the node labels, the
 * namespaces, the pods' labels and placement constraints.
 */
enum PodShape {
  /** {@code pod-default.yaml}: no labels, no constraints; nodes unlabelled. */
  PLAIN(""),
  /**
   * {@code pod-with-node-affinity.yaml} ({@code SchedulingNodeAffinity}): every pod, initial ones included,
   * requires {@code topology.kubernetes.io/zone In [zone1, zone2]}; every node is labelled {@code zone1}.
   */
  NODE_AFFINITY(" with required node affinity"),
  /**
   * {@code pod-with-pod-anti-affinity.yaml} ({@code SchedulingPodAntiAffinity}): every pod, initial ones
   * included, is labelled {@code color: green} and has a required anti-affinity to {@code color: green} on
   * {@code kubernetes.io/hostname} in the namespaces {@value #ANTI_AFFINITY_MEASURED} and {@value
   * #ANTI_AFFINITY_INITIAL}; initial pods are in {@value #ANTI_AFFINITY_INITIAL}, measured ones in {@value
   * #ANTI_AFFINITY_MEASURED}. Nodes carry {@code kubernetes.io/hostname}, as scheduler_perf's do. A node holds
   * one such pod at most.
   */
  POD_ANTI_AFFINITY(" with required pod anti-affinity on the hostname"),
  /**
   * {@code TopologySpreading}: initial pods are plain ({@code pod-default.yaml}) in a namespace of their own,
   * as scheduler_perf creates each {@code createPods} step's pods in its own namespace; measured pods ({@code
   * pod-with-topology-spreading.yaml}) are labelled {@code color: blue} and spread over {@code
   * topology.kubernetes.io/zone} with {@code maxSkew: 5}, {@code DoNotSchedule}, selecting {@code color:
   * blue}. Nodes carry {@code kubernetes.io/hostname} and the zone {@code moon-1}, {@code moon-2}, {@code
   * moon-3} round-robin (scheduler_perf's {@code labelNodePrepareStrategy}). No initial pod matches the
   * selector, so the spread is valid (every zone 0) when the measured pods start.
   */
  TOPOLOGY_SPREADING(" with a zone spread constraint (maxSkew 5)"),
  /**
   * {@code PreemptionAsync} (default_preemption/performance-config.yaml): initial pods are {@code
   * pod-low-priority.yaml} (900m CPU, 500Mi, a container port, {@code terminationGracePeriodSeconds: 0}, no
   * priority: 0) in {@value #PREEMPTION_LOW}, four to a node, leaving 400m of its 4 CPU; measured pods are
   * {@code pod-default.yaml} in {@value #NAMESPACE}, always schedulable beside them, but with {@code
   * terminationGracePeriodSeconds: 0}; and while the scheduler runs, one {@linkplain Workload#preemptor
   * preemptor} ({@code pod-high-priority.yaml}: 3970m, 500Mi, priority 9 999 999, {@code
   * terminationGracePeriodSeconds: 0}) is created every {@link #PREEMPTOR_INTERVAL} in {@value
   * #PREEMPTION_HIGH} (scheduler_perf's {@code churn} op), each of which fits a node only once every pod there
   * is evicted. Nodes are unlabelled.
   *
   * <p>The grace period 0 is what makes a victim go: with no kubelet, a pod deleted with a grace period stays
   * terminating for good; with 0 the API server removes it at once. Kube's templates give it to the
   * low-priority pods and the preemptors, not to {@code pod-default.yaml}; but once every node holds a
   * measured pod, measured pods are victims too, and a preemptor whose nominated node keeps a terminating
   * victim is never eligible to preempt again: in a run longer than scheduler_perf's few seconds, hundreds of
   * such preemptors pile up ahead of the measured pods in the queue (their priority puts them first), and the
   * measured pods starve (the benchmark's notes, docs/performance.md#measurement-notes). So the measured pods here
   * have a grace period 0 as well.
   */
  PREEMPTION(" with a high-priority preemptor every 200 ms"),
  /**
   * Gangs: initial and measured pods are plain ({@code pod-default.yaml}) in {@value #NAMESPACE}; the stream's
   * and the backlog's pods are members of {@code scheduling.k8s.io/v1beta1} PodGroups with {@code
   * schedulingPolicy.gang.minCount} equal to the group's size ({@link Workload#podGroup}, {@link
   * Workload#groupMember}), created interleaved across groups ({@link Workload#member}); the warm-up's pods
   * are single. Nodes are unlabelled. Needs the API server and kube-scheduler with the {@code
   * GenericWorkload} feature gate ({@link #apiServerFlags}, {@link #kubeSchedulerFlags}).
   */
  GANG(" in gangs"),
  /**
   * {@code SchedulingDaemonset} (misc/performance-config.yaml): one node of {@value #DAEMONSET_NODE_PODS} pods
   * ({@code node-with-name.yaml}; here node 0, {@code node-00000}, where kube names it {@code scheduler-perf-node})
   * among {@code node-default.yaml} ones; measured pods are {@code daemonset-pod.yaml}: no requests, no port, a
   * required node affinity {@code matchFields metadata.name In [node-00000]}, as a DaemonSet's pods have. Every
   * pod goes to that one node, and a scheduler has to rule out every other: kube-scheduler's NodeAffinity
   * PreFilter narrows the nodes to that name at once, this library's filter checks each node (docs/policy.md).
   * Nodes carry {@code kubernetes.io/hostname}; no initial pods.
   */
  DAEMONSET(" each with required node affinity to node-00000 by metadata.name, as a DaemonSet's"),
  /**
   * {@code SchedulingWithResourceClaimTemplate/5000pods_500nodes} (dra/performance-config.yaml): every node is
   * {@code node-with-dra-test-driver.yaml} (4 CPU, 32Gi, 110 pods, unlabelled here) and publishes one ResourceSlice
   * of {@value #DEVICES_PER_NODE} devices ({@code resourceslice-basic-devices.yaml}, driver {@value #DRA_DRIVER},
   * the pool named after the node, {@link Workload#resourceSlice}); one DeviceClass {@value #DEVICE_CLASS} selects
   * the driver's devices by CEL; half the devices are taken beforehand by ResourceClaims in {@value
   * #DRA_INITIAL} that the runner creates allocated, with no pod ({@code resourceclaim.yaml} and scheduler_perf's
   * {@code allocResourceClaims}; {@link Workload#initialClaim}); no initial pods. Measured pods are {@code
   * pod-with-claim-template.yaml}: no requests, no port, one claim from the ResourceClaimTemplate {@value
   * #CLAIM_TEMPLATE} for one device of the class, which kube-controller-manager's resource claim controller turns
   * into a claim per pod before a scheduler can place it.
   */
  DRA_CLAIM_TEMPLATE(
      " each claiming one of its node's 10 devices through a ResourceClaimTemplate, half the devices allocated"
          + " beforehand"),
  /**
   * {@code SteadyStateClusterResourceClaimTemplate/empty_500nodes} (dra/performance-config.yaml): nodes, slices,
   * class and pods as {@link #DRA_CLAIM_TEMPLATE}'s, with no claim allocated beforehand; and, as scheduler_perf's
   * steady state does, every measured pod is deleted (grace period 0) as soon as the runner sees it bound, so
   * that the cluster stays as empty as it started: the resource claim controller then takes the pod out of its
   * claim's {@code reservedFor} and clears the allocation, which frees the device. scheduler_perf keeps a fixed
   * number of pods pending, creating one each time one is bound; here the stream creates them at its steady rate
   * and the backlog all at once, as for every workload, and only the deletion makes the state steady.
   */
  DRA_STEADY_STATE(
      " each claiming one of 10 devices per node through a ResourceClaimTemplate and deleted once bound (steady"
          + " state)"),
  /**
   * {@code Unschedulable} (default_preemption/performance-config.yaml): initial and measured pods are plain
   * ({@code pod-default.yaml}) in {@value #NAMESPACE}, nodes unlabelled; and while the scheduler runs, one
   * {@linkplain Workload#neverFittingPod pod that fits no node} ({@code pod-high-priority-large-cpu.yaml}: 9 CPU,
   * 500Mi, a container port, priority 10) is created every {@link #UNSCHEDULABLE_INTERVAL} in {@value #CHURN} and
   * left there (scheduler_perf's {@code churn} op in {@code create} mode, no bound): they pile up in the
   * scheduler's queue beside the measured pods, each tried and, with its priority, preemption tried for it.
   */
  UNSCHEDULABLE(" with a pod that fits no node (9 CPU, priority 10) created every 200 ms"),
  /**
   * {@code SchedulingWithMixedChurn} (misc/performance-config.yaml): measured pods plain, no initial pods; and
   * while the scheduler runs, every {@link #MIXED_CHURN_INTERVAL} in turn either three objects are created or
   * the three last created are deleted (the {@code churn} op in {@code recreate} mode, {@code number: 1}): a
   * node of no pod capacity ({@code churn/node-default.yaml}: {@code pods: "0"}, Ready), a {@linkplain
   * Workload#neverFittingPod pod that fits no node} ({@code pod-high-priority-large-cpu.yaml}) and a Service
   * ({@code churn/service-default.yaml}), the pod and the Service in {@value #CHURN}. Each node added or deleted
   * is a cluster event a scheduler may retry pending pods on.
   */
  MIXED_CHURN(" with a node, a pod that fits no node and a service created, then deleted, in turn every second"),
  /**
   * The label-patch flood (no scheduler_perf counterpart): measured and initial pods plain, every node labelled
   * {@value #FLOOD_LABEL}; before the stream, {@link Workload#floodPods} pods that fit no node (9 CPU, a node
   * selector every node matches) are created in {@value #CHURN} and left pending, then one node's labels are
   * patched {@value #FLOOD_PATCHES} times (a label no pod selects). A label change cannot make a pod that is too
   * large fit, so a scheduler that retries pods only on the changes their rejecting filter registers (kube's
   * {@code EventsToRegister} and queueing hints) makes no attempt for them.
   */
  LABEL_PATCH_FLOOD(" beside pods that fit no node (9 CPU), pending, and 5 label-only patches of one node");

  /** The namespace of {@link #PLAIN} and {@link #NODE_AFFINITY} pods, initial and measured. */
  static final String NAMESPACE = "bench";

  static final String ANTI_AFFINITY_INITIAL = "sched-0";
  static final String ANTI_AFFINITY_MEASURED = "sched-1";
  static final String SPREADING_INITIAL = "bench-initial";
  static final String PREEMPTION_LOW = "bench-low";
  static final String PREEMPTION_HIGH = "bench-high";

  /** The PriorityClass of the preemptors: scheduler_perf sets {@code priority: 9999999} in the pod itself. */
  static final String PREEMPTOR_PRIORITY_CLASS = "kubesched-benchmark-high";
  static final int PREEMPTOR_PRIORITY = 9_999_999;
  /** scheduler_perf's {@code churn} interval for {@code PreemptionAsync} ({@code intervalMilliseconds: 200}). */
  static final Duration PREEMPTOR_INTERVAL = Duration.ofMillis(200);
  /** The {@value Workload#ROLE_LABEL} of the preemptors. */
  static final String PREEMPTOR = "preemptor";

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final List<String> SPREAD_ZONES = List.of("moon-1", "moon-2", "moon-3");
  static final int MAX_SKEW = 5;

  /** A node's CPU ({@code node-default.yaml}), in millicores. */
  static final int NODE_MILLI_CPU = 4_000;
  /** A measured pod's CPU request ({@code pod-default.yaml}), in millicores. */
  static final int MEASURED_MILLI_CPU = 100;
  /** {@code pod-low-priority.yaml}'s CPU request, in millicores. */
  static final int LOW_PRIORITY_MILLI_CPU = 900;
  /** {@code pod-high-priority.yaml}'s CPU request, in millicores. */
  static final int PREEMPTOR_MILLI_CPU = 3_970;

  /** The name of a DRA shape's pod's claim entry ({@code pod-with-claim-template.yaml}'s). */
  static final String POD_CLAIM = "resource";
  /** The DRA shapes' driver ({@code resourceslice-basic-devices.yaml}). */
  static final String DRA_DRIVER = "test-driver.cdi.k8s.io";
  /** The DRA shapes' DeviceClass ({@code deviceclass.yaml}). */
  static final String DEVICE_CLASS = "test-class";
  /** The DRA shapes' ResourceClaimTemplate, in the measured namespace ({@code resourceclaimtemplate.yaml}). */
  static final String CLAIM_TEMPLATE = "test-claim-template";
  /** The devices each node's ResourceSlice publishes ({@code numDevices: 10}). */
  static final int DEVICES_PER_NODE = 10;
  /** The namespace of {@link #DRA_CLAIM_TEMPLATE}'s claims allocated beforehand (scheduler_perf's {@code init}). */
  static final String DRA_INITIAL = "bench-init";

  /** The namespace of the pods that fit no node ({@link #neverFits}): scheduler_perf's churn namespace. */
  static final String CHURN = "bench-churn";
  /** The {@value Workload#ROLE_LABEL} of the pods that fit no node. */
  static final String NEVER_FITS = "never-fits";
  /** {@code pod-high-priority-large-cpu.yaml}'s CPU request, in millicores: more than any node's 4 CPU. */
  static final int NEVER_FITTING_MILLI_CPU = 9_000;
  /** The PriorityClass of {@link #UNSCHEDULABLE}'s and {@link #MIXED_CHURN}'s pods that fit no node. */
  static final String CHURN_PRIORITY_CLASS = "kubesched-benchmark-churn";
  /** {@code pod-high-priority-large-cpu.yaml}'s {@code priority: 10}. */
  static final int CHURN_PRIORITY = 10;
  /** {@link #UNSCHEDULABLE}'s churn interval ({@code intervalMilliseconds: 200}). */
  static final Duration UNSCHEDULABLE_INTERVAL = Duration.ofMillis(200);
  /** {@link #MIXED_CHURN}'s churn interval ({@code intervalMilliseconds: 1000}). */
  static final Duration MIXED_CHURN_INTERVAL = Duration.ofMillis(1_000);
  /** The label of every {@link #LABEL_PATCH_FLOOD} node, which its pods that fit no node select. */
  static final String FLOOD_LABEL = "kubesched.io/flood";
  /** The label {@link #LABEL_PATCH_FLOOD}'s patches set on one node, to a new value each time; no pod selects it. */
  static final String PATCHED_LABEL = "kubesched.io/patched";
  /** How many times {@link #LABEL_PATCH_FLOOD} patches one node's labels (the 5). */
  static final int FLOOD_PATCHES = 5;

  /** The pods {@link #DAEMONSET}'s one target node holds ({@code node-with-name.yaml}'s capacity). */
  static final int DAEMONSET_NODE_PODS = 90_000;

  /** Pods of 100m CPU a node of 4 CPU holds (memory and the pod limit allow more). */
  static final int PLAIN_PODS_PER_NODE = NODE_MILLI_CPU / MEASURED_MILLI_CPU;

  private static final Map<String, String> GREEN = Map.of("color", "green");
  private static final Map<String, String> BLUE = Map.of("color", "blue");

  private final String heading;

  PodShape(String heading) {
    this.heading = heading;
  }

  /** What the table's heading adds after the workload's sizes: empty, or " with …". */
  String heading() {
    return heading;
  }

  /** How many of this shape's initial pods one node can hold. */
  int initialPodsPerNode() {
    return switch (this) {
      case POD_ANTI_AFFINITY -> 1;
      case PREEMPTION -> NODE_MILLI_CPU / LOW_PRIORITY_MILLI_CPU;
      default -> PLAIN_PODS_PER_NODE;
    };
  }

  /**
   * How many measured pods fit a node beside {@code initialPods} of this shape's initial pods: one per node
   * with pod anti-affinity, else the CPU left over 100m.
   */
  int measuredPodsBeside(int initialPods) {
    return switch (this) {
      case POD_ANTI_AFFINITY -> Math.max(0, 1 - initialPods);
      // Only node 0 takes them (Workload#measuredPodLimit).
      case DAEMONSET -> 0;
      default -> Math.max(0, NODE_MILLI_CPU - initialPods * initialMilliCpu()) / MEASURED_MILLI_CPU;
    };
  }

  /**
   * Whether the measured pods request CPU and memory and have a container port: all but {@link #DAEMONSET}'s and
   * the DRA shapes' ({@code daemonset-pod.yaml} and {@code pod-with-claim-template.yaml} have neither).
   */
  boolean requests() {
    return this != DAEMONSET && !claims();
  }

  /**
   * Whether nodes publish devices and measured pods claim them through {@value #CLAIM_TEMPLATE}: {@link
   * #DRA_CLAIM_TEMPLATE} and {@link #DRA_STEADY_STATE}. The run then needs kube-controller-manager's resource claim
   * controller, and checks the claims ({@link ClaimCheck}).
   */
  boolean claims() {
    return this == DRA_CLAIM_TEMPLATE || this == DRA_STEADY_STATE;
  }

  /** Whether the runner deletes each measured pod once it sees it bound: {@link #DRA_STEADY_STATE}. */
  boolean deletesBound() {
    return this == DRA_STEADY_STATE;
  }

  /**
   * @return how many claims the runner creates allocated before a scheduler starts, on {@code nodes} nodes: half
   *     the devices for {@link #DRA_CLAIM_TEMPLATE} (scheduler_perf's {@code initClaims} 2 500 on 500 nodes), else 0
   */
  int initialClaims(int nodes) {
    return this == DRA_CLAIM_TEMPLATE ? nodes * DEVICES_PER_NODE / 2 : 0;
  }

  /** An initial pod's CPU request, in millicores: 900 for {@link #PREEMPTION}, else 100. */
  int initialMilliCpu() {
    return this == PREEMPTION ? LOW_PRIORITY_MILLI_CPU : MEASURED_MILLI_CPU;
  }

  /** Whether the stream's and the backlog's pods of this shape are members of pod groups. */
  boolean gangs() {
    return this == GANG;
  }

  /**
   * kube-apiserver flags this shape needs besides the runner's own: for {@link #GANG}, the {@code
   * GenericWorkload} gate (beta in 1.37 and off by default; without it the API server drops {@code
   * spec.schedulingGroup} from a pod it creates) and {@code scheduling.k8s.io/v1beta1} (a beta API off by
   * default) for the PodGroups; none for the others, so that their figures stay as they were measured.
   */
  List<String> apiServerFlags() {
    return this == GANG
        ? List.of("--feature-gates=GenericWorkload=true", "--runtime-config=scheduling.k8s.io/v1beta1=true")
        : List.of();
  }

  /**
   * kube-scheduler flags this shape needs: for {@link #GANG}, the {@code GenericWorkload} gate, with which its
   * default profile gains the GangScheduling plugin and its queue holds a group's members together.
   */
  List<String> kubeSchedulerFlags() {
    return this == GANG ? List.of("--feature-gates=GenericWorkload=true") : List.of();
  }

  /**
   * Whether a run of this shape creates pods that fit no node ({@link Workload#neverFittingPod}), counts the
   * contestant's scheduling attempts, and checks that no such pod is bound: {@link #UNSCHEDULABLE}, {@link
   * #MIXED_CHURN}, {@link #LABEL_PATCH_FLOOD}.
   */
  boolean neverFits() {
    return this == UNSCHEDULABLE || this == MIXED_CHURN || this == LABEL_PATCH_FLOOD;
  }

  /**
   * How often a churn shape's ticker acts while the scheduler runs ({@link Churn}): {@link
   * #UNSCHEDULABLE_INTERVAL} or {@link #MIXED_CHURN_INTERVAL}; empty for a shape without churn.
   */
  Optional<Duration> churnInterval() {
    return switch (this) {
      case UNSCHEDULABLE -> Optional.of(UNSCHEDULABLE_INTERVAL);
      case MIXED_CHURN -> Optional.of(MIXED_CHURN_INTERVAL);
      default -> Optional.empty();
    };
  }

  /** Whether a run of this shape creates preemptors while the scheduler runs. */
  boolean preempts() {
    return this == PREEMPTION;
  }

  /** The namespace of the initial pods. */
  String initialNamespace() {
    return switch (this) {
      case PLAIN, NODE_AFFINITY, GANG, DAEMONSET, DRA_STEADY_STATE, UNSCHEDULABLE, MIXED_CHURN, LABEL_PATCH_FLOOD ->
          NAMESPACE;
      case DRA_CLAIM_TEMPLATE -> DRA_INITIAL;
      case POD_ANTI_AFFINITY -> ANTI_AFFINITY_INITIAL;
      case TOPOLOGY_SPREADING -> SPREADING_INITIAL;
      case PREEMPTION -> PREEMPTION_LOW;
    };
  }

  /** The namespace of the measured pods (warm-up, stream, backlog). */
  String measuredNamespace() {
    return this == POD_ANTI_AFFINITY ? ANTI_AFFINITY_MEASURED : NAMESPACE;
  }

  /** The labels of node {@code index}, named {@code name}. */
  Map<String, String> nodeLabels(int index, String name) {
    return switch (this) {
      case PLAIN, PREEMPTION, GANG, DRA_CLAIM_TEMPLATE, DRA_STEADY_STATE, UNSCHEDULABLE, MIXED_CHURN -> Map.of();
      case LABEL_PATCH_FLOOD -> Map.of(FLOOD_LABEL, "true");
      case NODE_AFFINITY -> Map.of(ZONE, "zone1");
      case POD_ANTI_AFFINITY, DAEMONSET -> Map.of(HOSTNAME, name);
      case TOPOLOGY_SPREADING -> Map.of(HOSTNAME, name, ZONE, SPREAD_ZONES.get(index % SPREAD_ZONES.size()));
    };
  }

  /**
   * The labels of a pod.
   *
   * @param measured whether it is a measured pod rather than an initial one
   * @param extra labels to add (the phase's), possibly none
   */
  Map<String, String> podLabels(boolean measured, Map<String, String> extra) {
    var own =
        switch (this) {
          case PLAIN, NODE_AFFINITY, PREEMPTION, GANG, DAEMONSET, DRA_CLAIM_TEMPLATE, DRA_STEADY_STATE, UNSCHEDULABLE,
              MIXED_CHURN, LABEL_PATCH_FLOOD ->
              Map.<String, String>of();
          case POD_ANTI_AFFINITY -> GREEN;
          case TOPOLOGY_SPREADING -> measured ? BLUE : Map.<String, String>of();
        };
    if (own.isEmpty() || extra.isEmpty()) {
      return own.isEmpty() ? extra : own;
    }
    var all = new HashMap<>(own);
    all.putAll(extra);
    return Map.copyOf(all);
  }

  /**
   * Whether a placement kept this shape's inter-pod constraint, for the run's log: the scheduler under test
   * may not honour it (the bind ceiling never does).
   *
   * @param zoneByNode each node's {@value #ZONE} label, where it has one
   * @param pods the bound and pending pods of the workload's namespaces
   * @return for {@link #POD_ANTI_AFFINITY}, how many green pods share a node with another; for {@link
   *     #TOPOLOGY_SPREADING}, the blue pods per zone and their skew; empty for the other shapes
   */
  Optional<String> placementCheck(Map<String, String> zoneByNode, List<Pod> pods) {
    switch (this) {
      case POD_ANTI_AFFINITY -> {
        var byNode = new HashMap<String, Integer>();
        for (var pod : pods) {
          var node = pod.getSpec().getNodeName();
          if (node != null && !node.isEmpty() && hasLabels(pod, GREEN)) {
            byNode.merge(node, 1, Integer::sum);
          }
        }
        int sharing = byNode.values().stream().filter(n -> n > 1).mapToInt(Integer::intValue).sum();
        return Optional.of(sharing + " anti-affinity pods share a node with another (0 honours the constraint)");
      }
      case TOPOLOGY_SPREADING -> {
        var byZone = new TreeMap<String, Integer>();
        SPREAD_ZONES.forEach(zone -> byZone.put(zone, 0));
        for (var pod : pods) {
          var zone = zoneByNode.get(String.valueOf(pod.getSpec().getNodeName()));
          if (zone != null && hasLabels(pod, BLUE) && pod.getMetadata().getNamespace().equals(NAMESPACE)) {
            byZone.merge(zone, 1, Integer::sum);
          }
        }
        int skew = byZone.values().stream().mapToInt(Integer::intValue).max().orElse(0)
            - byZone.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        return Optional.of(
            "spread pods per zone " + byZone + ", skew " + skew + " (at most " + MAX_SKEW + " honours the constraint)");
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static boolean hasLabels(Pod pod, Map<String, String> wanted) {
    var labels = pod.getMetadata().getLabels();
    return labels != null && labels.entrySet().containsAll(wanted.entrySet());
  }

  /**
   * Adds this shape's placement constraints to {@code pod}.
   *
   * @param measured whether it is a measured pod rather than an initial one
   */
  void constrain(PodBuilder pod, boolean measured) {
    switch (this) {
      case PLAIN, GANG, UNSCHEDULABLE, MIXED_CHURN, LABEL_PATCH_FLOOD -> {}
      case DRA_CLAIM_TEMPLATE, DRA_STEADY_STATE -> {
        if (measured) {
          pod.editSpec()
              .addNewResourceClaim()
              .withName(POD_CLAIM)
              .withResourceClaimTemplateName(CLAIM_TEMPLATE)
              .endResourceClaim()
              .editFirstContainer()
              .withNewResources()
              .addNewClaim()
              .withName(POD_CLAIM)
              .endClaim()
              .endResources()
              .endContainer()
              .endSpec();
        }
      }
      case PREEMPTION -> pod.editSpec().withTerminationGracePeriodSeconds(0L).endSpec();
      case NODE_AFFINITY ->
          pod.editSpec()
              .withNewAffinity()
              .withNewNodeAffinity()
              .withNewRequiredDuringSchedulingIgnoredDuringExecution()
              .addNewNodeSelectorTerm()
              .addNewMatchExpression()
              .withKey(ZONE)
              .withOperator("In")
              .withValues("zone1", "zone2")
              .endMatchExpression()
              .endNodeSelectorTerm()
              .endRequiredDuringSchedulingIgnoredDuringExecution()
              .endNodeAffinity()
              .endAffinity()
              .endSpec();
      case POD_ANTI_AFFINITY ->
          pod.editSpec()
              .withNewAffinity()
              .withNewPodAntiAffinity()
              .addNewRequiredDuringSchedulingIgnoredDuringExecution()
              .withNewLabelSelector()
              .withMatchLabels(GREEN)
              .endLabelSelector()
              .withTopologyKey(HOSTNAME)
              .withNamespaces(ANTI_AFFINITY_MEASURED, ANTI_AFFINITY_INITIAL)
              .endRequiredDuringSchedulingIgnoredDuringExecution()
              .endPodAntiAffinity()
              .endAffinity()
              .endSpec();
      case DAEMONSET ->
          pod.editSpec()
              .withNewAffinity()
              .withNewNodeAffinity()
              .withNewRequiredDuringSchedulingIgnoredDuringExecution()
              .addNewNodeSelectorTerm()
              .addNewMatchField()
              .withKey("metadata.name")
              .withOperator("In")
              .withValues(Workload.nodeName(0))
              .endMatchField()
              .endNodeSelectorTerm()
              .endRequiredDuringSchedulingIgnoredDuringExecution()
              .endNodeAffinity()
              .endAffinity()
              .endSpec();
      case TOPOLOGY_SPREADING -> {
        if (measured) {
          pod.editSpec()
              .addNewTopologySpreadConstraint()
              .withMaxSkew(MAX_SKEW)
              .withTopologyKey(ZONE)
              .withWhenUnsatisfiable("DoNotSchedule")
              .withNewLabelSelector()
              .withMatchLabels(BLUE)
              .endLabelSelector()
              .endTopologySpreadConstraint()
              .endSpec();
        }
      }
    }
  }
}
