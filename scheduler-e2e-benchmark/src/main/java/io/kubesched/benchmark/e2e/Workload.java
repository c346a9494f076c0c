package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One workload, shaped like scheduler_perf's (test/integration/scheduler_perf in k8s.io/kubernetes v1.37.2):
 * nodes from its {@code node-default.yaml} (4 CPU, 32Gi, 110 pods), pods from its {@code pod-default.yaml}
 * (100m CPU, 500Mi, a container port without a host port), with the labels, namespaces and constraints of
 * a {@link PodShape}.
 *
 * <p>Every phase of a run (warm-up, stream, backlog) creates measured-shape pods, so warm-up, stream and
 * backlog together must fit beside the initial pods: {@link #measuredPodLimit()}. That binds only the
 * anti-affinity workload, where a node holds one pod: 5 000 nodes, 1 000 initial pods, so at most 4 000
 * measured pods; its 1 000 stream pods and backlog of 2 000 (scheduler_perf's {@code 5000Nodes_2000Pods})
 * leave room for a warm-up of up to 1 000 (500 by default).
 *
 * @param name how the tables and {@code --workloads} name it
 * @param nodes the number of Node objects
 * @param initialPods pods created already bound (round-robin over the nodes) before a scheduler starts
 * @param streamPods pods created at a steady rate while the scheduler runs (latency)
 * @param pods the backlog: pods created while the scheduler is paused, then placed at once (throughput)
 * @param shape what nodes and pods carry
 * @throws IllegalArgumentException if the initial pods do not fit the nodes round-robin, or the stream and
 *     backlog do not fit beside them
 */
record Workload(String name, int nodes, int initialPods, int streamPods, int pods, PodShape shape) {

  /** The label that tells the pods of each phase apart: {@value #WARMUP}, {@value #STREAM}, {@value #BACKLOG}. */
  static final String ROLE_LABEL = "kubesched.io/benchmark";
  static final String WARMUP = "warmup";
  static final String STREAM = "stream";
  static final String BACKLOG = "backlog";

  /** The workloads of the published table, in the order they run. */
  static final List<Workload> ALL =
      List.of(
          new Workload("500-nodes", 500, 500, 1_000, 1_000, PodShape.PLAIN),
          new Workload("5000-nodes", 5_000, 1_000, 1_000, 10_000, PodShape.PLAIN),
          new Workload("5000-nodes-affinity", 5_000, 5_000, 1_000, 10_000, PodShape.NODE_AFFINITY),
          // SchedulingPodAntiAffinity/5000Nodes_2000Pods: kube's threshold 180 pods/s.
          new Workload("5000-nodes-anti-affinity", 5_000, 1_000, 1_000, 2_000, PodShape.POD_ANTI_AFFINITY),
          // TopologySpreading/5000Nodes_5000Pods: kube's threshold 460 pods/s.
          new Workload("5000-nodes-spreading", 5_000, 5_000, 1_000, 5_000, PodShape.TOPOLOGY_SPREADING));

  /** A few seconds' run that shows the runner works end to end (CI runs it). */
  static final Workload SMOKE = new Workload("smoke", 20, 20, 50, 100, PodShape.PLAIN);

  Workload {
    if (nodes < 1 || initialPods < 0 || streamPods < 0 || pods < 0) {
      throw new IllegalArgumentException(name + ": sizes must not be negative, nor nodes 0");
    }
    long capacity = (long) nodes * shape.podsPerNode();
    if ((initialPods + nodes - 1) / nodes > shape.podsPerNode()) {
      throw new IllegalArgumentException(
          name + ": " + initialPods + " initial pods round-robin over " + nodes + " nodes put more than "
              + shape.podsPerNode() + " on a node");
    }
    if (initialPods + (long) streamPods + pods > capacity) {
      throw new IllegalArgumentException(
          name + ": " + initialPods + " initial, " + streamPods + " stream and " + pods + " backlog pods do not"
              + " fit " + nodes + " nodes of " + shape.podsPerNode() + " pods");
    }
  }

  /**
   * @return how many measured pods (warm-up, stream and backlog together) fit beside the initial pods: {@link
   *     PodShape#podsPerNode()} per node, less the initial pods
   */
  int measuredPodLimit() {
    return (int) Math.min(Integer.MAX_VALUE, (long) nodes * shape.podsPerNode() - initialPods);
  }

  /** @return the namespace of the measured pods, which the runner watches */
  String namespace() {
    return shape.measuredNamespace();
  }

  /** @return the namespaces of the initial and the measured pods (one, or two), to create before the pods */
  List<String> namespaces() {
    return shape.initialNamespace().equals(namespace())
        ? List.of(namespace())
        : List.of(shape.initialNamespace(), namespace());
  }

  static Workload named(String name) {
    if (name.equals(SMOKE.name())) {
      return SMOKE;
    }
    return ALL.stream()
        .filter(w -> w.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown workload '" + name + "'; known: "
                        + String.join(", ", ALL.stream().map(Workload::name).toList()) + ", smoke"));
  }

  static String nodeName(int i) {
    return String.format("node-%05d", i);
  }

  Node node(int i) {
    var resources =
        Map.of("cpu", new Quantity("4"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"));
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
        shape.podLabels(false, Map.of()), false);
  }

  /**
   * A measured pod, pending.
   *
   * @param role the value of {@link #ROLE_LABEL}: the phase
   */
  Pod measuredPod(String name, String schedulerName, String role) {
    return pod(name, namespace(), schedulerName, null, shape.podLabels(true, Map.of(ROLE_LABEL, role)), true);
  }

  private Pod pod(
      String name,
      String namespace,
      String schedulerName,
      @Nullable String nodeName,
      Map<String, String> labels,
      boolean measured) {
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
            .addNewContainer()
            .withName("pause")
            .withImage("pause:3.10.2")
            .addNewPort()
            .withContainerPort(80)
            .endPort()
            .withNewResources()
            .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("500Mi")))
            .withLimits(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("500Mi")))
            .endResources()
            .endContainer()
            .endSpec();
    shape.constrain(pod, measured);
    return pod.build();
  }
}
