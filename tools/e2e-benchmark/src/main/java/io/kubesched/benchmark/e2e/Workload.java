package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroupBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * One workload, shaped like scheduler_perf's (test/integration/scheduler_perf in k8s.io/kubernetes v1.37.2):
 * nodes from its {@code node-default.yaml} (4 CPU, 32Gi, 110 pods), pods from its {@code pod-default.yaml}
 * (100m CPU, 500Mi, a container port without a host port), with the labels, namespaces, constraints and, for
 * {@link PodShape#PREEMPTION}, the initial pods' size and the preemptors of a {@link PodShape}; for the DRA
 * shapes ({@link #DRA}: {@code SchedulingWithResourceClaimTemplate/5000pods_500nodes} and {@code
 * SteadyStateClusterResourceClaimTemplate/empty_500nodes} of its dra/performance-config.yaml), also each node's
 * ResourceSlice, the DeviceClass, the ResourceClaimTemplate and the claims allocated beforehand; for the shapes
 * with pods that fit no node ({@link #NEVER_FITTING}: {@code Unschedulable}, {@code SchedulingWithMixedChurn} and
 * the label-patch flood), those pods ({@link #neverFittingPod}) and the mixed churn's nodes and Services.
 *
 * <p>Every phase of a run (warm-up, stream, backlog) creates measured-shape pods, so warm-up, stream and
 * backlog together must fit beside the initial pods, and beside the preemptors, each of which takes a node
 * of its own: {@link #measuredPodLimit()}. That binds the anti-affinity workload, where a node holds one pod:
 * 5 000 nodes, 1 000 initial pods, so at most 4 000 measured pods; its 1 000 stream pods and backlog of 2 000
 * (scheduler_perf's {@code 5000Nodes_2000Pods}) leave room for a warm-up of up to 1 000 (500 by default).
 *
 * @param name how the tables and {@code --workloads} name it
 * @param nodes the number of Node objects
 * @param initialPods pods created already bound (round-robin over the nodes) before a scheduler starts
 * @param streamPods pods created at a steady rate while the scheduler runs (latency)
 * @param pods the backlog: pods created while the scheduler is paused, then placed at once (throughput)
 * @param preemptors for {@link PodShape#PREEMPTION}, the most preemptors a run creates (one every {@link
 *     PodShape#PREEMPTOR_INTERVAL} while the scheduler runs, from the stream's start to the backlog's end);
 *     scheduler_perf's churn has no such bound, which is here so that the measured pods provably fit; 0 for
 *     the other shapes
 * @param shape what nodes and pods carry
 * @param groupSize for {@link PodShape#GANG}, the members of each pod group (its gang {@code minCount}); the
 *     stream and the backlog are whole groups; 0 for the other shapes
 * @param floodPods for {@link PodShape#LABEL_PATCH_FLOOD}, the pods that fit no node created before the stream
 *     ({@link #neverFittingPod}); 0 for the other shapes
 * @throws IllegalArgumentException if the initial pods do not fit the nodes round-robin, the stream and
 *     backlog do not fit beside them and the preemptors, a shape without preemption is given preemptors, or
 *     the gang shape is not given a group size that divides the stream and the backlog (or another shape is), or
 *     the flood shape is not given flood pods (or another shape is)
 */
record Workload(
    String name,
    int nodes,
    int initialPods,
    int streamPods,
    int pods,
    int preemptors,
    PodShape shape,
    int groupSize,
    int floodPods) {

  /**
   * The label that tells the pods of each phase apart: {@value #COLD}, {@value #WARMUP}, {@value #STREAM},
   * {@value #BACKLOG}, {@value #WARM}.
   */
  static final String ROLE_LABEL = "kubesched.io/benchmark";
  /** Pods created one by one right after the placer started. */
  static final String COLD = "cold";
  /** Pods created one by one at the end of the run. */
  static final String WARM = "warm";
  static final String WARMUP = "warmup";
  static final String STREAM = "stream";
  static final String BACKLOG = "backlog";

  /**
   * How many of the stream's groups are created interleaved at a time: member 0 of each of these groups, then
   * member 1 of each, and so on, then the next groups. At the stream's steady rate, all of the stream's groups
   * at once would complete only in its last seconds, and their latency would measure the queue that piles up
   * then; a window of 8 groups of 8 completes every 1.3 s at 50 pods a second. The backlog interleaves all of
   * its groups.
   */
  static final int STREAM_GROUP_WINDOW = 8;

  /** The workloads of the published table, in the order they run. */
  static final List<Workload> ALL =
      List.of(
          new Workload("500-nodes", 500, 500, 1_000, 1_000, PodShape.PLAIN),
          new Workload("5000-nodes", 5_000, 1_000, 1_000, 10_000, PodShape.PLAIN),
          new Workload("5000-nodes-affinity", 5_000, 5_000, 1_000, 10_000, PodShape.NODE_AFFINITY),
          // SchedulingPodAntiAffinity/5000Nodes_2000Pods: kube's threshold 180 pods/s.
          new Workload("5000-nodes-anti-affinity", 5_000, 1_000, 1_000, 2_000, PodShape.POD_ANTI_AFFINITY),
          // TopologySpreading/5000Nodes_5000Pods: kube's threshold 460 pods/s.
          new Workload("5000-nodes-spreading", 5_000, 5_000, 1_000, 5_000, PodShape.TOPOLOGY_SPREADING),
          // PreemptionAsync/5000Nodes (default_preemption/performance-config.yaml): initNodes 5000, initPods
          // 20000 (pod-low-priority.yaml), measurePods 5000 (pod-default.yaml), a pod-high-priority.yaml
          // preemptor every 200 ms; kube's threshold 570 pods/s.
          new Workload("5000-nodes-preemption", 5_000, 20_000, 1_000, 5_000, 1_000, PodShape.PREEMPTION),
          // No scheduler_perf counterpart: 1 000 groups of 8 (gang minCount 8), members created interleaved
          // across groups, so that a scheduler placing pod by pod would interleave the groups.
          gangs("5000-nodes-gangs", 5_000, 1_000, 125, 1_000, 8));

  /**
   * Larger shapes of scheduler_perf, run only when named ({@code --workloads}): they need a larger machine than
   * the published table's 2 CPUs.
   */
  static final List<Workload> SCALE =
      List.of(
          // SchedulingBasic/5000Nodes_50000Pods (misc/performance-config.yaml): initNodes 5000, initPods 5000,
          // measurePods 50000; kube's threshold 790 pods/s in v1.37.2.
          new Workload("5000-nodes-50000-pods", 5_000, 5_000, 1_000, 50_000, PodShape.PLAIN),
          // SchedulingDaemonset/15000Nodes: one node for the pods and 15000 others, measurePods 30000; kube's
          // threshold 1100 pods/s.
          new Workload("15000-nodes-daemonset", 15_001, 0, 1_000, 30_000, PodShape.DAEMONSET));

  /**
   * scheduler_perf's DRA shapes (dra/performance-config.yaml), run only when named: their figures are a table of
   * their own in docs/performance.md, rendered from the newest run that has them.
   */
  static final List<Workload> DRA =
      List.of(
          // SchedulingWithResourceClaimTemplate/5000pods_500nodes: 500 nodes of 10 devices, 2 500 claims allocated
          // beforehand, measurePods 2 500; kube's threshold 56 pods/s. The stream, the backlog, the warm-up and
          // the pods one by one share the other 2 500 devices: a backlog of 1 400.
          new Workload("500-nodes-dra-template", 500, 0, 500, 1_400, PodShape.DRA_CLAIM_TEMPLATE),
          // SteadyStateClusterResourceClaimTemplate/empty_500nodes: the same nodes, no claim allocated beforehand,
          // each pod deleted once bound; kube's threshold 64 pods/s.
          new Workload("500-nodes-dra-steady-state", 500, 0, 500, 2_500, PodShape.DRA_STEADY_STATE));

  /**
   * Shapes with pods that fit no node ({@link PodShape#neverFits}), run only when named: their figures, with each
   * contestant's scheduling attempts, are a table of their own in docs/performance.md, rendered from the newest
   * run that has them.
   */
  static final List<Workload> NEVER_FITTING =
      List.of(
          // Unschedulable/5kNodes/100Init/10kPods (default_preemption/performance-config.yaml): initNodes 5000,
          // initPods 100, measurePods 10000, a pod-high-priority-large-cpu.yaml every 200 ms; kube's threshold
          // 590 pods/s.
          new Workload("unschedulable", 5_000, 100, 1_000, 10_000, PodShape.UNSCHEDULABLE),
          // SchedulingWithMixedChurn/5000Nodes_10000Pods (misc/performance-config.yaml): initNodes 5000,
          // measurePods 10000, a node, a large pod and a service recreated every 1000 ms; kube's threshold 710.
          new Workload("mixed-churn", 5_000, 0, 1_000, 10_000, PodShape.MIXED_CHURN),
          // The label-patch flood: 1 000 pods that fit no node pending, 5 label patches of one node; the
          // measured pods as 500-nodes'.
          flood("label-patch-flood", 500, 500, 1_000, 1_000, 1_000));

  /** A few seconds' run that shows the runner works end to end (CI runs it). */
  static final Workload SMOKE = new Workload("smoke", 20, 20, 50, 100, PodShape.PLAIN);

  /**
   * {@link PodShape#PREEMPTION} in a few seconds: four low-priority pods on each of 250 nodes, and a preemptor
   * every 200 ms while the scheduler runs (a handful in all; at most 25), room for the default warm-up.
   */
  static final Workload SMOKE_PREEMPTION = new Workload("smoke-preemption", 250, 1_000, 50, 100, 25, PodShape.PREEMPTION);

  /** {@link PodShape#GANG} in a few seconds: 20 nodes; a stream of 5 groups of 4 and a backlog of 10. */
  static final Workload SMOKE_GANGS = gangs("smoke-gangs", 20, 20, 5, 10, 4);

  /**
   * The DRA shapes in a few seconds: 30 nodes of 10 devices (150 allocated beforehand for the template shape), a
   * stream of 40 and a backlog of 60, room for a warm-up of up to 30.
   */
  static final List<Workload> SMOKE_DRA =
      List.of(
          new Workload("smoke-dra-template", 30, 0, 40, 60, PodShape.DRA_CLAIM_TEMPLATE),
          new Workload("smoke-dra-steady-state", 30, 0, 40, 60, PodShape.DRA_STEADY_STATE));

  /**
   * The shapes with pods that fit no node in a few seconds: 50 nodes, a stream of 100 and a backlog of 100; for
   * {@link PodShape#MIXED_CHURN} a stream of 250 (five seconds: its objects created, deleted and created again);
   * 50 pods in the flood.
   */
  static final List<Workload> SMOKE_NEVER_FITTING =
      List.of(
          new Workload("smoke-unschedulable", 50, 5, 100, 100, PodShape.UNSCHEDULABLE),
          new Workload("smoke-mixed-churn", 50, 0, 250, 100, PodShape.MIXED_CHURN),
          flood("smoke-label-patch-flood", 50, 50, 100, 100, 50));

  /** The workloads {@code --workloads} knows besides {@link #ALL}: quick checks, not in the table. */
  static final List<Workload> SMOKES =
      Stream.of(List.of(SMOKE, SMOKE_PREEMPTION, SMOKE_GANGS), SMOKE_DRA, SMOKE_NEVER_FITTING)
          .flatMap(List::stream)
          .toList();

  Workload {
    if (nodes < 1 || initialPods < 0 || streamPods < 0 || pods < 0 || preemptors < 0) {
      throw new IllegalArgumentException(name + ": sizes must not be negative, nor nodes 0");
    }
    if (preemptors > 0 && !shape.preempts()) {
      throw new IllegalArgumentException(name + ": only the preemption shape creates preemptors");
    }
    if (shape.gangs() != groupSize > 0 || groupSize < 0) {
      throw new IllegalArgumentException(name + ": the gang shape, and only it, has a positive group size");
    }
    if (shape == PodShape.LABEL_PATCH_FLOOD != floodPods > 0 || floodPods < 0) {
      throw new IllegalArgumentException(name + ": the flood shape, and only it, has a positive number of flood pods");
    }
    if (groupSize > 0 && (streamPods % groupSize != 0 || pods % groupSize != 0)) {
      throw new IllegalArgumentException(
          name + ": a stream of " + streamPods + " and a backlog of " + pods + " pods are not whole groups of "
              + groupSize);
    }
    if ((initialPods + nodes - 1) / nodes > shape.initialPodsPerNode()) {
      throw new IllegalArgumentException(
          name + ": " + initialPods + " initial pods round-robin over " + nodes + " nodes put more than "
              + shape.initialPodsPerNode() + " on a node");
    }
    if (shape.claims() && initialPods > 0) {
      throw new IllegalArgumentException(name + ": a DRA shape starts with claims, not pods: no initial pods");
    }
    if (preemptors > nodes) {
      throw new IllegalArgumentException(name + ": " + preemptors + " preemptors, one to a node, do not fit " + nodes + " nodes");
    }
    if ((long) streamPods + pods > measuredPodLimit(nodes, initialPods, preemptors, shape)) {
      throw new IllegalArgumentException(
          name + ": " + initialPods + " initial, " + streamPods + " stream and " + pods + " backlog pods do not"
              + " fit " + nodes + " nodes" + (preemptors > 0 ? " beside " + preemptors + " preemptors" : ""));
    }
  }

  /** A workload of a shape without preemptors nor groups. */
  Workload(String name, int nodes, int initialPods, int streamPods, int pods, PodShape shape) {
    this(name, nodes, initialPods, streamPods, pods, 0, shape, 0);
  }

  /** A workload of a shape without groups. */
  Workload(String name, int nodes, int initialPods, int streamPods, int pods, int preemptors, PodShape shape) {
    this(name, nodes, initialPods, streamPods, pods, preemptors, shape, 0);
  }

  /** A workload without flood pods. */
  Workload(
      String name, int nodes, int initialPods, int streamPods, int pods, int preemptors, PodShape shape,
      int groupSize) {
    this(name, nodes, initialPods, streamPods, pods, preemptors, shape, groupSize, 0);
  }

  /** A {@link PodShape#LABEL_PATCH_FLOOD} workload of {@code floodPods} pods that fit no node. */
  static Workload flood(String name, int nodes, int initialPods, int streamPods, int pods, int floodPods) {
    return new Workload(name, nodes, initialPods, streamPods, pods, 0, PodShape.LABEL_PATCH_FLOOD, 0, floodPods);
  }

  /** A {@link PodShape#GANG} workload: a stream of {@code streamGroups} and a backlog of {@code groups}. */
  static Workload gangs(String name, int nodes, int initialPods, int streamGroups, int groups, int groupSize) {
    return new Workload(
        name, nodes, initialPods, streamGroups * groupSize, groups * groupSize, 0, PodShape.GANG, groupSize);
  }

  /**
   * @return how many pod groups a phase creates: the stream's or the backlog's pods over {@link #groupSize};
   *     0 for the warm-up (single pods) and for a shape without groups
   */
  int groups(String role) {
    if (groupSize == 0) {
      return 0;
    }
    return switch (role) {
      case STREAM -> streamPods / groupSize;
      case BACKLOG -> pods / groupSize;
      default -> 0;
    };
  }

  /** The {@code i}-th pod a phase creates is member {@code member} of its group {@code group}. */
  record Member(int group, int member) {}

  /**
   * Which member the {@code i}-th pod of a phase of {@code groups} groups of {@code size} is: the groups are
   * taken {@code window} at a time, and within them member 0 of each group, then member 1 of each, and so on.
   * Every member of every group is created exactly once, and a group's last member comes after every other
   * member of its window.
   *
   * @throws IllegalArgumentException if {@code i} is not in {@code [0, groups × size)} or a size is not positive
   */
  static Member member(int i, int groups, int size, int window) {
    if (groups < 1 || size < 1 || window < 1 || i < 0 || i >= groups * size) {
      throw new IllegalArgumentException(
          "pod " + i + " of " + groups + " groups of " + size + " (window " + window + ")");
    }
    int first = i / (window * size) * window; // the first group of the window
    int inWindow = Math.min(window, groups - first);
    int j = i - first * size;
    return new Member(first + j % inWindow, j / inWindow);
  }

  /** Which member the {@code i}-th pod of phase {@code role} is: the stream windowed, the backlog all at once. */
  Member member(String role, int i) {
    int groups = groups(role);
    return member(i, groups, groupSize, role.equals(STREAM) ? STREAM_GROUP_WINDOW : groups);
  }

  /** The name of group {@code group} of phase {@code role}: {@code backlog-00012}. */
  static String groupName(String role, int group) {
    return String.format("%s-%05d", role, group);
  }

  /**
   * Group {@code group} of phase {@code role}, in the measured namespace: a {@code scheduling.k8s.io/v1beta1}
   * PodGroup whose scheduling policy is a gang of {@code minCount} {@link #groupSize}.
   *
   * @throws IllegalStateException if the shape has no groups
   */
  PodGroup podGroup(String role, int group) {
    if (groupSize == 0) {
      throw new IllegalStateException(name + " has no pod groups");
    }
    return new PodGroupBuilder()
        .withNewMetadata()
        .withName(groupName(role, group))
        .withNamespace(namespace())
        .withLabels(Map.of(ROLE_LABEL, role))
        .endMetadata()
        .withNewSpec()
        .withNewSchedulingPolicy()
        .withNewGang()
        .withMinCount(groupSize)
        .endGang()
        .endSchedulingPolicy()
        .endSpec()
        .build();
  }

  /**
   * The measured pod that is {@code member} of group {@code group} of phase {@code role}, pending: named
   * {@code backlog-00012-3}, with {@code spec.schedulingGroup.podGroupName} naming the group.
   *
   * @throws IllegalStateException if the shape has no groups
   */
  Pod groupMember(String role, Member member, String schedulerName) {
    if (groupSize == 0) {
      throw new IllegalStateException(name + " has no pod groups");
    }
    var group = groupName(role, member.group());
    return new PodBuilder(measuredPod(group + "-" + member.member(), schedulerName, role))
        .editSpec()
        .withNewSchedulingGroup()
        .withPodGroupName(group)
        .endSchedulingGroup()
        .endSpec()
        .build();
  }

  /**
   * @return how many measured pods (warm-up, stream and backlog together) fit beside the initial pods and the
   *     preemptors: per node, {@link PodShape#measuredPodsBeside} its round-robin share of the initial pods;
   *     less, for each preemptor, the measured pods of a node (a preemptor leaves no room beside it)
   */
  int measuredPodLimit() {
    return measuredPodLimit(nodes, initialPods, preemptors, shape);
  }

  private static int measuredPodLimit(int nodes, int initialPods, int preemptors, PodShape shape) {
    if (shape.claims()) {
      // A device a pod: the devices not allocated beforehand, less the pods created one by one at the start and
      // at the end of the run. Pods deleted once bound give theirs back, but the backlog is created at once.
      return Math.max(0, nodes * PodShape.DEVICES_PER_NODE - shape.initialClaims(nodes) - 2 * BenchmarkRun.ONE_BY_ONE);
    }
    if (shape == PodShape.DAEMONSET) {
      return Math.max(0, PodShape.DAEMONSET_NODE_PODS - (initialPods + nodes - 1) / nodes);
    }
    int fewer = initialPods / nodes;
    int more = initialPods % nodes; // nodes with one initial pod more than the others
    long limit =
        (long) more * shape.measuredPodsBeside(fewer + 1)
            + (long) (nodes - more) * shape.measuredPodsBeside(fewer)
            - (long) preemptors * shape.measuredPodsBeside(fewer);
    return (int) Math.max(0, Math.min(Integer.MAX_VALUE, limit));
  }

  /** @return the claims a DRA shape's runner creates allocated before a scheduler starts ({@link PodShape#initialClaims}) */
  int initialClaims() {
    return shape.initialClaims(nodes);
  }

  /** The name of a DRA shape's device {@code device} of a node's slice: {@code basic-device-3}, as kube's. */
  static String deviceName(int device) {
    return "basic-device-" + device;
  }

  /** The DRA shapes' DeviceClass {@value PodShape#DEVICE_CLASS}: the driver's devices, by CEL ({@code deviceclass.yaml}). */
  static DeviceClass deviceClass() {
    return new DeviceClassBuilder()
        .withNewMetadata()
        .withName(PodShape.DEVICE_CLASS)
        .endMetadata()
        .withNewSpec()
        .addNewSelector()
        .withNewCel()
        .withExpression("device.driver == \"" + PodShape.DRA_DRIVER + "\"")
        .endCel()
        .endSelector()
        .endSpec()
        .build();
  }

  /**
   * The ResourceSlice of node {@code i} ({@code resourceslice-basic-devices.yaml} with 10 devices and 2 PCI roots):
   * the whole pool of one slice, named after the node, with kube's attributes and capacity per device.
   */
  static ResourceSlice resourceSlice(int i) {
    var node = nodeName(i);
    var devices = new ArrayList<Device>();
    for (int d = 0; d < PodShape.DEVICES_PER_NODE; d++) {
      int root = d % 2;
      var attributes = new LinkedHashMap<String, DeviceAttribute>();
      attributes.put("driver", stringAttribute("xe"));
      attributes.put("driverVersion", new DeviceAttributeBuilder().withVersion("1.2.3").build());
      attributes.put("resource.k8s.io/pciRoot", stringAttribute(Integer.toString(root)));
      attributes.put("family", stringAttribute("Arc Pro B-Series"));
      attributes.put("health", stringAttribute("Healthy"));
      attributes.put("model", stringAttribute("B60"));
      attributes.put("pciAddress", stringAttribute("0000:0" + d + ":00.0"));
      attributes.put("pciId", stringAttribute("0xe211"));
      attributes.put("pciRoot", stringAttribute("0" + root));
      attributes.put("resource.kubernetes.io/pciBusID", stringAttribute("0000:0" + d + ":00.0"));
      attributes.put("resource.kubernetes.io/pciRoot", stringAttribute("pci0000:0" + root));
      attributes.put("sriov", new DeviceAttributeBuilder().withBool(true).build());
      attributes.put("type", stringAttribute("gpu"));
      devices.add(
          new DeviceBuilder()
              .withName(deviceName(d))
              .withAttributes(attributes)
              .withCapacity(
                  Map.of(
                      "memory", new DeviceCapacityBuilder().withValue(new Quantity("24480Mi")).build(),
                      "millicores", new DeviceCapacityBuilder().withValue(new Quantity("1k")).build()))
              .build());
    }
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName("resourceslice-" + node)
        .endMetadata()
        .withNewSpec()
        .withDriver(PodShape.DRA_DRIVER)
        .withNodeName(node)
        .withNewPool()
        .withName(node)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  private static DeviceAttribute stringAttribute(String value) {
    return new DeviceAttributeBuilder().withString(value).build();
  }

  /**
   * The DRA shapes' ResourceClaimTemplate {@value PodShape#CLAIM_TEMPLATE} in the measured namespace: one request,
   * {@value #REQUEST}, for exactly one device of the class ({@code resourceclaimtemplate.yaml} with its defaults).
   */
  ResourceClaimTemplate claimTemplate() {
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata()
        .withName(PodShape.CLAIM_TEMPLATE)
        .withNamespace(namespace())
        .endMetadata()
        .withNewSpec()
        .withNewSpec()
        .withDevices(oneDevice())
        .endSpec()
        .endSpec()
        .build();
  }

  /** The request of every DRA claim here (kube's {@code req-0}). */
  static final String REQUEST = "req-0";

  /** What every DRA claim here asks for: exactly one device of the class, by request {@value #REQUEST}. */
  private static DeviceClaim oneDevice() {
    return new DeviceClaimBuilder()
        .addNewRequest()
        .withName(REQUEST)
        .withNewExactly()
        .withDeviceClassName(PodShape.DEVICE_CLASS)
        .endExactly()
        .endRequest()
        .build();
  }

  /**
   * Initial claim {@code i} ({@code resourceclaim.yaml}) in {@value PodShape#DRA_INITIAL}, unallocated: to be
   * created, then given {@link #initialAllocation}.
   */
  static ResourceClaim initialClaim(int i) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName(String.format("initial-%05d", i))
        .withNamespace(PodShape.DRA_INITIAL)
        .endMetadata()
        .withNewSpec()
        .withDevices(oneDevice())
        .endSpec()
        .build();
  }

  /**
   * The allocation of initial claim {@code i}, as a scheduler would write it: device {@code i / nodes} of node
   * {@code i % nodes} (the claims fill the nodes' devices in turn, the same share on every node), the node named by
   * its node selector; nothing reserves it, as scheduler_perf's {@code allocResourceClaims} leaves it.
   */
  AllocationResult initialAllocation(int i) {
    var node = nodeName(i % nodes);
    return new AllocationResultBuilder()
        .withNewDevices()
        .addNewResult()
        .withRequest(REQUEST)
        .withDriver(PodShape.DRA_DRIVER)
        .withPool(node)
        .withDevice(deviceName(i / nodes))
        .endResult()
        .endDevices()
        .withNodeSelector(
            new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.name")
                .withOperator("In")
                .withValues(node)
                .endMatchField()
                .endNodeSelectorTerm()
                .build())
        .build();
  }

  /** @return the namespace of the measured pods, which the runner watches */
  String namespace() {
    return shape.measuredNamespace();
  }

  /**
   * @return the namespaces of the initial and the measured pods, of the preemptors and of the pods that fit no
   *     node (one, two or three), to create before the pods
   */
  List<String> namespaces() {
    var all = new ArrayList<String>();
    all.add(shape.initialNamespace());
    if (!all.contains(namespace())) {
      all.add(namespace());
    }
    if (shape.preempts()) {
      all.add(PodShape.PREEMPTION_HIGH);
    }
    if (shape.neverFits()) {
      all.add(PodShape.CHURN);
    }
    return List.copyOf(all);
  }

  /** @throws IllegalArgumentException naming {@code name} and every known workload, if it is none of them */
  static Workload named(String name) {
    return known()
        .filter(w -> w.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown workload '" + name + "'; known: "
                        + String.join(", ", known().map(Workload::name).toList())));
  }

  private static Stream<Workload> known() {
    return Stream.of(ALL, SCALE, DRA, NEVER_FITTING, SMOKES).flatMap(List::stream);
  }

  static String nodeName(int i) {
    return String.format("node-%05d", i);
  }

  /**
   * Node {@code i}: {@code node-default.yaml} (4 CPU, 32Gi, 110 pods), Ready; for {@link PodShape#DAEMONSET},
   * node 0 holds {@value PodShape#DAEMONSET_NODE_PODS} pods ({@code node-with-name.yaml}).
   */
  Node node(int i) {
    var pods = shape == PodShape.DAEMONSET && i == 0 ? PodShape.DAEMONSET_NODE_PODS : 110;
    var resources =
        Map.of("cpu", new Quantity("4"), "memory", new Quantity("32Gi"), "pods", new Quantity(Integer.toString(pods)));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(nodeName(i))
        .withLabels(shape.nodeLabels(i, nodeName(i)))
        .endMetadata()
        .withNewStatus()
        .withCapacity(resources)
        .withAllocatable(resources)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  /**
   * Initial pod {@code i}: created bound, by {@code default-scheduler}, to node {@code i} modulo {@link #nodes}.
   */
  Pod initialPod(int i) {
    return pod(
        "initial-" + i, shape.initialNamespace(), "default-scheduler", nodeName(i % nodes),
        shape.podLabels(false, Map.of()), false, shape.initialMilliCpu());
  }

  /**
   * A measured pod, pending.
   *
   * @param role the value of {@link #ROLE_LABEL}: the phase
   */
  Pod measuredPod(String name, String schedulerName, String role) {
    return pod(
        name, namespace(), schedulerName, null, shape.podLabels(true, Map.of(ROLE_LABEL, role)), true,
        PodShape.MEASURED_MILLI_CPU);
  }

  /**
   * Preemptor {@code i}, pending, in {@value PodShape#PREEMPTION_HIGH}: scheduler_perf's {@code
   * pod-high-priority.yaml} (3970m CPU and 500Mi, requests and limits; no port; {@code
   * terminationGracePeriodSeconds: 0}), its priority 9 999 999 given by the PriorityClass {@link
   * #preemptorPriorityClass()} (the API server's Priority admission refuses a priority set in the pod itself;
   * scheduler_perf turns that plugin off instead).
   *
   * @throws IllegalStateException if the shape does not preempt
   */
  Pod preemptor(int i, String schedulerName) {
    if (!shape.preempts()) {
      throw new IllegalStateException(name + " has no preemptors");
    }
    var cpu = new Quantity(PodShape.PREEMPTOR_MILLI_CPU + "m");
    return new PodBuilder()
        .withNewMetadata()
        .withName(String.format("%s-%05d", PodShape.PREEMPTOR, i))
        .withNamespace(PodShape.PREEMPTION_HIGH)
        .withLabels(Map.of(ROLE_LABEL, PodShape.PREEMPTOR))
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(schedulerName)
        .withPriorityClassName(PodShape.PREEMPTOR_PRIORITY_CLASS)
        .withTerminationGracePeriodSeconds(0L)
        .addNewContainer()
        .withName("pause")
        .withImage("pause:3.10.2")
        .withNewResources()
        .withRequests(Map.of("cpu", cpu, "memory", new Quantity("500Mi")))
        .withLimits(Map.of("cpu", cpu, "memory", new Quantity("500Mi")))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  /** The preemptors' PriorityClass: value 9 999 999, the default preemption policy (PreemptLowerPriority). */
  static PriorityClass preemptorPriorityClass() {
    return new PriorityClassBuilder()
        .withNewMetadata()
        .withName(PodShape.PREEMPTOR_PRIORITY_CLASS)
        .endMetadata()
        .withValue(PodShape.PREEMPTOR_PRIORITY)
        .withGlobalDefault(false)
        .withDescription("scheduler_perf's pod-high-priority.yaml: the end-to-end benchmark's preemptors")
        .build();
  }

  /**
   * Pod {@code i} that fits no node, pending, in {@value PodShape#CHURN}, labelled {@value PodShape#NEVER_FITS}:
   * scheduler_perf's {@code pod-high-priority-large-cpu.yaml} (9 CPU and 500Mi requested, no limits, a container
   * port) with its priority 10 given by {@link #churnPriorityClass()}; for {@link PodShape#LABEL_PATCH_FLOOD},
   * no priority and a node selector every node matches ({@value PodShape#FLOOD_LABEL}), so that the resources
   * alone turn it away.
   *
   * @throws IllegalStateException if the shape has no such pods
   */
  Pod neverFittingPod(int i, String schedulerName) {
    if (!shape.neverFits()) {
      throw new IllegalStateException(name + " has no pods that fit no node");
    }
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(String.format("%s-%05d", PodShape.NEVER_FITS, i))
            .withNamespace(PodShape.CHURN)
            .withLabels(Map.of(ROLE_LABEL, PodShape.NEVER_FITS))
            .endMetadata()
            .withNewSpec()
            .withSchedulerName(schedulerName)
            .addNewContainer()
            .withName("pause")
            .withImage("pause:3.10.2")
            .addNewPort()
            .withContainerPort(80)
            .endPort()
            .withNewResources()
            .withRequests(
                Map.of("cpu", new Quantity(PodShape.NEVER_FITTING_MILLI_CPU + "m"), "memory", new Quantity("500Mi")))
            .endResources()
            .endContainer()
            .endSpec();
    if (shape == PodShape.LABEL_PATCH_FLOOD) {
      pod.editSpec().withNodeSelector(Map.of(PodShape.FLOOD_LABEL, "true")).endSpec();
    } else {
      pod.editSpec().withPriorityClassName(PodShape.CHURN_PRIORITY_CLASS).endSpec();
    }
    return pod.build();
  }

  /** The PriorityClass of the churn's pods that fit no node: value {@value PodShape#CHURN_PRIORITY}. */
  static PriorityClass churnPriorityClass() {
    return new PriorityClassBuilder()
        .withNewMetadata()
        .withName(PodShape.CHURN_PRIORITY_CLASS)
        .endMetadata()
        .withValue(PodShape.CHURN_PRIORITY)
        .withGlobalDefault(false)
        .withDescription("scheduler_perf's pod-high-priority-large-cpu.yaml: the end-to-end benchmark's churn")
        .build();
  }

  /**
   * {@link PodShape#MIXED_CHURN}'s node {@code i}: {@code churn/node-default.yaml}, named {@code node-churn-00003},
   * Ready, with a capacity of no pods (and nothing else), so that no pod ever fits it.
   */
  static Node churnNode(int i) {
    var resources = Map.of("pods", new Quantity("0"));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(String.format("node-churn-%05d", i))
        .endMetadata()
        .withNewStatus()
        .withCapacity(resources)
        .withAllocatable(resources)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  /**
   * {@link PodShape#MIXED_CHURN}'s Service {@code i} in {@value PodShape#CHURN}: {@code
   * churn/service-default.yaml}, selecting {@code app: foo}, TCP port 8080 to 8080.
   */
  static Service churnService(int i) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(String.format("service-churn-%05d", i))
        .withNamespace(PodShape.CHURN)
        .endMetadata()
        .withNewSpec()
        .withSelector(Map.of("app", "foo"))
        .addNewPort()
        .withProtocol("TCP")
        .withPort(8080)
        .withTargetPort(new IntOrString(8080))
        .endPort()
        .endSpec()
        .build();
  }

  private Pod pod(
      String name,
      String namespace,
      String schedulerName,
      @Nullable String nodeName,
      Map<String, String> labels,
      boolean measured,
      int milliCpu) {
    var cpu = new Quantity(milliCpu + "m");
    var container = new ContainerBuilder().withName("pause").withImage("pause:3.10.2");
    if (shape.requests()) {
      container
          .addNewPort()
          .withContainerPort(80)
          .endPort()
          .withNewResources()
          .withRequests(Map.of("cpu", cpu, "memory", new Quantity("500Mi")))
          .withLimits(Map.of("cpu", cpu, "memory", new Quantity("500Mi")))
          .endResources();
    }
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withSchedulerName(schedulerName)
            .withNodeName(nodeName)
            .addToContainers(container.build())
            .endSpec();
    shape.constrain(pod, measured);
    return pod.build();
  }
}
