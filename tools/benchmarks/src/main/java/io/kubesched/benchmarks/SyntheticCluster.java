package io.kubesched.benchmarks;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.HostPort;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A reproducible cluster snapshot of the shape a production cluster has, and two pending pods to place on it.
 *
 * <p>Every node offers 32 CPU, 128 GiB of memory, 200 GiB of ephemeral storage and 110 pods; carries the
 * well-known labels (hostname, os, arch, one of three zones) and one of four node-pool label sets; holds the
 * images of its system pods and, on most nodes, of the applications; and already runs {@value #PODS_PER_NODE}
 * pods: two daemon-set pods (one binding host port 9100) and eight application pods whose CPU and memory
 * requests are drawn from a small menu, so nodes differ in how full they are. One node in ten belongs to the
 * batch pool, tainted {@code dedicated=batch:NoSchedule}; one in twenty of the others is a spot node tainted
 * {@code PreferNoSchedule}; one in a hundred is cordoned.
 *
 * <p>{@link #fittingPod()} (500m CPU, 1 GiB, a node selector on the OS, a preferred zone, one image) fits
 * 89% of the nodes (all but the batch pool and the cordoned ones); {@link #unfitPod()} (16 CPU, 124 GiB,
 * tolerating the batch taint) fits none, because every node's pods already take more than 4 GiB of its
 * memory, so the policy has to examine every node.
 *
 * @param nodes the snapshot, nodes named {@code node-00000}, {@code node-00001}, …
 * @param fittingPod a pending web pod that fits most nodes
 * @param unfitPod a pending batch pod that fits no node
 */
public record SyntheticCluster(List<NodeInfo> nodes, PodInfo fittingPod, PodInfo unfitPod) {

  /** How many pods each node already runs. */
  public static final int PODS_PER_NODE = 10;

  /** The zones nodes are spread over, round robin. */
  public static final List<String> ZONES = List.of("eu-west-1a", "eu-west-1b", "eu-west-1c");

  /** The key of the batch pool's {@code NoSchedule} taint. */
  public static final String BATCH_TAINT_KEY = "dedicated";

  static final long MI = 1024L * 1024;
  static final long GI = 1024 * MI;

  private static final long SEED = 0x5EED_2026L;
  private static final String ZONE_LABEL = "topology.kubernetes.io/zone";
  private static final String POOL_LABEL = "node.kubernetes.io/pool";

  private static final Taint BATCH_TAINT = new Taint(BATCH_TAINT_KEY, "batch", TaintEffect.NO_SCHEDULE);
  private static final Taint SPOT_TAINT = new Taint("spot", "true", TaintEffect.PREFER_NO_SCHEDULE);

  private static final List<String> POOLS = List.of("general", "general", "frontend", "services");

  private static final long[] APP_MILLI_CPU = {250, 500, 1000, 2000};
  private static final long[] APP_MEMORY = {512 * MI, GI, 2 * GI, 4 * GI};
  private static final List<String> APPS = List.of("web", "api", "checkout", "search", "cache", "worker");

  private static final String WEB_IMAGE = "registry.example.com/shop/web:1.4.2";

  public SyntheticCluster {
    nodes = List.copyOf(nodes);
  }

  /**
   * Generates the same cluster for the same {@code nodeCount}: the first nodes of a larger cluster are those
   * of a smaller one.
   *
   * @param nodeCount how many nodes, at least 1
   * @throws IllegalArgumentException if {@code nodeCount} is less than 1
   */
  public static SyntheticCluster generate(int nodeCount) {
    if (nodeCount < 1) {
      throw new IllegalArgumentException("nodeCount must be at least 1, was " + nodeCount);
    }
    var random = new SplittableRandom(SEED);
    var nodes = new ArrayList<NodeInfo>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(i, random));
    }
    return new SyntheticCluster(nodes, pendingWebPod(), pendingBatchPod());
  }

  private static NodeInfo node(int index, SplittableRandom random) {
    var name = String.format("node-%05d", index);
    boolean batch = index % 10 == 9;
    boolean spot = !batch && index % 20 == 4;
    String pool = batch ? "batch" : POOLS.get(index % POOLS.size());
    var pods = new ArrayList<PodInfo>(PODS_PER_NODE);
    pods.add(daemonPod("kube-proxy", name, 100, 128 * MI, List.of()));
    pods.add(daemonPod("node-exporter", name, 100, 64 * MI, List.of(new HostPort("TCP", "0.0.0.0", 9100))));
    for (int p = 2; p < PODS_PER_NODE; p++) {
      pods.add(appPod(name, p, random));
    }
    return NodeInfo.builder(name)
        .labels(
            Map.of(
                "kubernetes.io/hostname", name,
                "kubernetes.io/os", "linux",
                "kubernetes.io/arch", "amd64",
                ZONE_LABEL, ZONES.get(index % ZONES.size()),
                POOL_LABEL, pool,
                "node.kubernetes.io/instance-type", batch ? "c6i.8xlarge" : "m6i.8xlarge"))
        .taints(batch ? List.of(BATCH_TAINT) : spot ? List.of(SPOT_TAINT) : List.of())
        .unschedulable(index % 100 == 50)
        .allocatable(new Resources(32_000, 128 * GI, 200 * GI, 110, Map.of()))
        .images(images(index))
        .pods(pods)
        .build();
  }

  /** System images everywhere; the web image on two nodes in three, the API image on every other node. */
  private static List<ContainerImage> images(int index) {
    var images = new ArrayList<ContainerImage>();
    images.add(image("registry.k8s.io/pause:3.10", 736 * 1024L));
    images.add(image("registry.k8s.io/kube-proxy:v1.37.2", 31 * MI));
    images.add(image("quay.io/prometheus/node-exporter:v1.9.1", 25 * MI));
    images.add(image("cr.fluentbit.io/fluent/fluent-bit:4.0.3", 92 * MI));
    if (index % 3 != 0) {
      images.add(image(WEB_IMAGE, 240 * MI));
    }
    if (index % 2 == 0) {
      images.add(image("registry.example.com/shop/api:2.11.0", 410 * MI));
    }
    return images;
  }

  /** An image known by its tag and by its digest, as a kubelet reports it. */
  private static ContainerImage image(String tagged, long size) {
    var repository = tagged.substring(0, tagged.lastIndexOf(':'));
    var digest = String.format("%s@sha256:%064x", repository, tagged.hashCode() & 0xFFFF_FFFFL);
    return new ContainerImage(List.of(tagged, digest), size);
  }

  private static PodInfo daemonPod(
      String daemon, String nodeName, long milliCpu, long memory, List<HostPort> hostPorts) {
    return PodInfo.builder("kube-system", daemon + "-" + nodeName)
        .labels(Map.of("app", daemon))
        .owner(new Owner("DaemonSet", daemon, "ds-" + daemon))
        .nodeName(nodeName)
        .requests(milliCpu, memory)
        .hostPorts(hostPorts)
        .tolerations(List.of(new Toleration("", Toleration.Operator.EXISTS, "", null)))
        .build();
  }

  private static PodInfo appPod(String nodeName, int slot, SplittableRandom random) {
    var app = APPS.get(random.nextInt(APPS.size()));
    var replicaSet = app + "-5d8c7b9f4";
    return PodInfo.builder("shop", replicaSet + "-" + nodeName.substring(5) + slot)
        .labels(Map.of("app", app, "pod-template-hash", "5d8c7b9f4"))
        .owner(new Owner("ReplicaSet", replicaSet, "rs-" + app))
        .nodeName(nodeName)
        .requests(
            new Resources(
                APP_MILLI_CPU[random.nextInt(APP_MILLI_CPU.length)],
                APP_MEMORY[random.nextInt(APP_MEMORY.length)],
                random.nextInt(4) * GI,
                1,
                Map.of()))
        .images(List.of("registry.example.com/shop/" + app + ":latest"))
        .build();
  }

  private static PodInfo pendingWebPod() {
    var preferredZone =
        NodeSelectorTerm.ofExpressions(
            NodeSelectorRequirement.of(ZONE_LABEL, NodeSelectorRequirement.Operator.IN, ZONES.get(0)));
    return PodInfo.builder("shop", "web-5d8c7b9f4-x7k2p")
        .uid("0b6c1f3e-8a44-4d0e-9d5e-2f1a7c9b3e10")
        .labels(Map.of("app", "web", "pod-template-hash", "5d8c7b9f4"))
        .owner(new Owner("ReplicaSet", "web-5d8c7b9f4", "rs-web"))
        .requests(500, GI)
        .nodeSelector(Map.of("kubernetes.io/os", "linux"))
        .affinity(new NodeAffinity(List.of(), List.of(new PreferredSchedulingTerm(50, preferredZone))))
        .images(List.of(WEB_IMAGE))
        .build();
  }

  private static PodInfo pendingBatchPod() {
    return PodInfo.builder("batch", "train-model-0")
        .uid("7e2d9a41-3c5b-4f8e-a0d6-91b4c2e8f7a3")
        .labels(Map.of("job-name", "train-model"))
        .owner(new Owner("Job", "train-model", "job-train-model"))
        .requests(16_000, 124 * GI)
        .tolerations(
            List.of(
                new Toleration(
                    BATCH_TAINT_KEY, Toleration.Operator.EQUAL, "batch", TaintEffect.NO_SCHEDULE)))
        .images(List.of("registry.example.com/ml/trainer:0.9.0"))
        .build();
  }
}
