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
 * One workload, shaped like scheduler_perf's {@code SchedulingBasic} and {@code SchedulingNodeAffinity}
 * (test/integration/scheduler_perf in k8s.io/kubernetes): nodes from its {@code node-default.yaml} (4 CPU,
 * 32Gi, 110 pods), pods from its {@code pod-default.yaml} (100m CPU, 500Mi, a container port without a host
 * port) or, for the affinity variant, {@code pod-with-node-affinity.yaml} (required {@code
 * topology.kubernetes.io/zone In [zone1, zone2]}, every node labelled {@code zone1}).
 *
 * @param name how the tables name it
 * @param nodes the number of Node objects
 * @param initialPods pods created already bound (round-robin over the nodes) before a scheduler starts
 * @param streamPods pods created at a steady rate while the scheduler runs (latency)
 * @param pods the backlog: pods created while the scheduler is paused, then placed at once (throughput)
 * @param nodeAffinity whether pods carry the required node affinity and nodes the zone label
 */
record Workload(String name, int nodes, int initialPods, int streamPods, int pods, boolean nodeAffinity) {

  static final String NAMESPACE = "bench";
  /** The label that tells the pods of each phase apart: {@value #WARMUP}, {@value #STREAM}, {@value #BACKLOG}. */
  static final String ROLE_LABEL = "kubesched.io/benchmark";
  static final String WARMUP = "warmup";
  static final String STREAM = "stream";
  static final String BACKLOG = "backlog";
  private static final String ZONE = "topology.kubernetes.io/zone";

  /** The workloads of the published table, in the order they run. */
  static final List<Workload> ALL =
      List.of(
          new Workload("500-nodes", 500, 500, 1_000, 1_000, false),
          new Workload("5000-nodes", 5_000, 1_000, 1_000, 10_000, false),
          new Workload("5000-nodes-affinity", 5_000, 5_000, 1_000, 10_000, true));

  /** A few seconds' run that shows the runner works end to end (CI runs it). */
  static final Workload SMOKE = new Workload("smoke", 20, 20, 50, 100, false);

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
        .withLabels(nodeAffinity ? Map.of(ZONE, "zone1") : Map.of())
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
   * A pod of this workload.
   *
   * @param nodeName the node it is created on (an initial pod), or null for a pending one
   * @param role the value of {@link #ROLE_LABEL}, or null for none
   */
  Pod pod(String name, String schedulerName, @Nullable String nodeName, @Nullable String role) {
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NAMESPACE)
            .withLabels(role == null ? Map.of() : Map.of(ROLE_LABEL, role))
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
    if (nodeAffinity) {
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
    }
    return pod.build();
  }
}
