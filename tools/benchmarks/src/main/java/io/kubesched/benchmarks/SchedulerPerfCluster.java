package io.kubesched.benchmarks;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Snapshots shaped like kube-scheduler's own performance tests ({@code test/integration/scheduler_perf} in
 * k8s.io/kubernetes v1.37.2), for pods that carry inter-pod constraints, and the pending pod to place on each.
 *
 * <p>Nodes are those of {@code templates/node-default.yaml}: 4 CPU, 32 GiB, 110 pods, no taints, no images,
 * and the {@code kubernetes.io/hostname} label scheduler_perf gives every node it creates. Pods request 100m
 * CPU and 500 MiB, as every scheduler_perf pod template does.
 *
 * <ul>
 *   <li>{@link #withPodAntiAffinity}: {@code SchedulingPodAntiAffinity} ({@code affinity/performance-config.yaml},
 *       pods from {@code templates/pod-with-pod-anti-affinity.yaml}): pods labelled {@code color: green},
 *       each with a required anti-affinity to {@code color: green} on {@code kubernetes.io/hostname} in the
 *       namespaces {@code sched-1} and {@code sched-0}; the placed pods are in {@code sched-0}, the pending
 *       one in {@code sched-1}. The placed pods are spread evenly (node {@code i × nodes / placed} gets the
 *       {@code i}-th), one per node at most, so every window of the snapshot has the same share of nodes that
 *       a correct policy must reject.
 *   <li>{@link #withTopologySpreading}: {@code TopologySpreading} ({@code
 *       topology_spreading/performance-config.yaml}): nodes labelled {@code topology.kubernetes.io/zone}
 *       {@code moon-1}, {@code moon-2}, {@code moon-3} round-robin (its {@code labelNodePrepareStrategy}),
 *       plain pods ({@code templates/pod-default.yaml}, no labels) placed round-robin in {@code namespace-1},
 *       and a pending pod from {@code templates/pod-with-topology-spreading.yaml} in {@code namespace-2}:
 *       labelled {@code color: blue}, with {@code maxSkew: 5} over the zone, {@code DoNotSchedule}, selecting
 *       {@code color: blue}. No placed pod matches the selector, so every zone counts 0 and the pod fits every
 *       node.
 * </ul>
 *
 * <p>The snapshot also knows the namespaces, with the {@code kubernetes.io/metadata.name} label the API
 * server gives every namespace, for a policy that reads them.
 *
 * @param snapshot the cluster, nodes named {@code node-00000}, {@code node-00001}, …
 * @param pendingPod the pod to place
 */
public record SchedulerPerfCluster(ClusterSnapshot snapshot, PodInfo pendingPod) {

  /** The topology key of the anti-affinity term. */
  public static final String HOSTNAME = "kubernetes.io/hostname";

  /** The topology key of the spread constraint. */
  public static final String ZONE = "topology.kubernetes.io/zone";

  /** The zones of {@link #withTopologySpreading}, assigned to nodes round-robin. */
  public static final List<String> ZONES = List.of("moon-1", "moon-2", "moon-3");

  /** The namespace of the placed anti-affinity pods. */
  public static final String PLACED_NAMESPACE = "sched-0";

  /** The namespace of the pending anti-affinity pod. */
  public static final String PENDING_NAMESPACE = "sched-1";

  /** The spread constraint's {@code maxSkew}. */
  public static final int MAX_SKEW = 5;

  static final long MI = 1024L * 1024;

  private static final Map<String, String> GREEN = Map.of("color", "green");
  private static final Map<String, String> BLUE = Map.of("color", "blue");

  /** The anti-affinity every pod of {@code pod-with-pod-anti-affinity.yaml} carries. */
  public static final PodAffinity ANTI_AFFINITY =
      new PodAffinity(
          List.of(
              new PodAffinityTerm(
                  LabelSelector.of(GREEN),
                  Set.of(PENDING_NAMESPACE, PLACED_NAMESPACE),
                  null,
                  HOSTNAME,
                  List.of(),
                  List.of())),
          List.of());

  /** The constraint of {@code pod-with-topology-spreading.yaml}. */
  public static final TopologySpreadConstraint SPREAD =
      TopologySpreadConstraint.of(
          MAX_SKEW, ZONE, TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE, LabelSelector.of(BLUE));

  /**
   * @param nodeCount how many nodes, at least 1
   * @param placedCount how many anti-affinity pods are already placed, from 0 to {@code nodeCount}
   * @return {@code SchedulingPodAntiAffinity}'s cluster and a pending pod that fits the {@code nodeCount -
   *     placedCount} nodes without one
   * @throws IllegalArgumentException if a count is out of range
   */
  public static SchedulerPerfCluster withPodAntiAffinity(int nodeCount, int placedCount) {
    checkNodeCount(nodeCount);
    if (placedCount < 0 || placedCount > nodeCount) {
      throw new IllegalArgumentException(
          "placedCount must be from 0 to nodeCount (" + nodeCount + "), was " + placedCount);
    }
    var podsByNode = new HashMap<Integer, PodInfo>();
    for (int i = 0; i < placedCount; i++) {
      int node = (int) ((long) i * nodeCount / placedCount);
      podsByNode.put(node, antiAffinityPod(PLACED_NAMESPACE, "anti-affinity-pod-" + i, nodeName(node)));
    }
    var nodes = new ArrayList<NodeInfo>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      var pod = podsByNode.get(i);
      nodes.add(node(i, Map.of(HOSTNAME, nodeName(i)), pod == null ? List.of() : List.of(pod)));
    }
    return new SchedulerPerfCluster(
        snapshot(nodes, PLACED_NAMESPACE, PENDING_NAMESPACE),
        antiAffinityPod(PENDING_NAMESPACE, "anti-affinity-pod-pending", ""));
  }

  /**
   * @param nodeCount how many nodes, at least 1
   * @param placedCount how many plain pods are already placed, round-robin, at least 0
   * @return {@code TopologySpreading}'s cluster and a pending pod with the zone spread constraint
   * @throws IllegalArgumentException if a count is out of range
   */
  public static SchedulerPerfCluster withTopologySpreading(int nodeCount, int placedCount) {
    checkNodeCount(nodeCount);
    if (placedCount < 0) {
      throw new IllegalArgumentException("placedCount must be at least 0, was " + placedCount);
    }
    var podsByNode = new ArrayList<List<PodInfo>>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      podsByNode.add(new ArrayList<>());
    }
    for (int i = 0; i < placedCount; i++) {
      var node = nodeName(i % nodeCount);
      podsByNode
          .get(i % nodeCount)
          .add(PodInfo.builder("namespace-1", "pod-" + i).nodeName(node).requests(100, 500 * MI).build());
    }
    var nodes = new ArrayList<NodeInfo>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(
          node(i, Map.of(HOSTNAME, nodeName(i), ZONE, ZONES.get(i % ZONES.size())), podsByNode.get(i)));
    }
    var pending =
        PodInfo.builder("namespace-2", "spreading-pod-pending")
            .labels(BLUE)
            .requests(100, 500 * MI)
            .topologySpreadConstraints(List.of(SPREAD))
            .build();
    return new SchedulerPerfCluster(snapshot(nodes, "namespace-1", "namespace-2"), pending);
  }

  static String nodeName(int index) {
    return String.format("node-%05d", index);
  }

  private static void checkNodeCount(int nodeCount) {
    if (nodeCount < 1) {
      throw new IllegalArgumentException("nodeCount must be at least 1, was " + nodeCount);
    }
  }

  private static NodeInfo node(int index, Map<String, String> labels, List<PodInfo> pods) {
    return NodeInfo.builder(nodeName(index))
        .labels(labels)
        .allocatable(4_000, 32 * 1024 * MI, 110)
        .pods(pods)
        .build();
  }

  private static PodInfo antiAffinityPod(String namespace, String name, String nodeName) {
    return PodInfo.builder(namespace, name)
        .labels(GREEN)
        .nodeName(nodeName)
        .requests(100, 500 * MI)
        .podAntiAffinity(ANTI_AFFINITY)
        .build();
  }

  private static ClusterSnapshot snapshot(List<NodeInfo> nodes, String... namespaces) {
    var labels = new HashMap<String, Map<String, String>>();
    for (var namespace : namespaces) {
      labels.put(namespace, Map.of("kubernetes.io/metadata.name", namespace));
    }
    return ClusterSnapshot.of(nodes, labels, List.of());
  }
}
