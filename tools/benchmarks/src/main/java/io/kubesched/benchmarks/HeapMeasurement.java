package io.kubesched.benchmarks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.adapter.NodeAdapter;
import io.kubesched.adapter.PodAdapter;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.informer.watch.InformerStores;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How much heap the scheduler's informer caches take for a large cluster, per kind of item store, and how
 * much the scheduler's own {@link PodInfo}s and a {@link NodeInfo} snapshot add. A command-line tool, run on
 * the class path: {@code java -cp benchmarks.jar io.kubesched.benchmarks.HeapMeasurement [--nodes N]
 * [--pods-per-node P] [--deployments D] [--rounds R] [--stores S,...]} (defaults 5000, 10, one Deployment per
 * ten pods, 3, every store), or
 * {@code ./mvnw -q -pl tools/benchmarks -am verify -DskipTests -Pheap}. See {@code docs/performance.md#memory}.
 *
 * <p>For each store it fills an informer cache (fabric8's {@code CacheImpl} with the pod informer's by-node
 * index, exactly what a {@code SharedIndexInformer} holds) with {@link HeapMeasurementCluster}'s nodes and
 * pods, each parsed from the JSON an API server sends, as a watch delivers it; no API server is involved. The
 * retained size is the heap in use after full collections once the cache is filled, minus the heap in use
 * before. Every round fills each store once, in turn; the report gives the median over the rounds, after a
 * warm-up fill that loads the classes and fills the parser's caches. It also times one snapshot read (every
 * node, and the pods on each through the index, as the controller's worker reads them per scheduling
 * cycle) and checks, on every 50th object, that the stored form gives the same {@code PodInfo}/{@code
 * NodeInfo} as the object parsed.
 *
 * <p>The figures depend on the JVM: run with a fixed heap ({@code -Xms} = {@code -Xmx}) below 32 GB
 * (compressed references) and report the JVM line the tool prints.
 */
public final class HeapMeasurement {

  private static final String BY_NODE = "byNode";
  private static final int CHECK_EVERY = 50;
  private static final int READS = 5;
  private static final double MB = 1024.0 * 1024.0;

  /** What a store keeps, and whether objects are trimmed before they reach it. */
  enum Variant {
    DEFAULT(
        "fabric8 default store (whole objects)",
        () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc),
        () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc),
        false),
    TRIMMED(
        "whole objects, pods without managedFields (kube-scheduler's pod informer transform)",
        () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc),
        () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc),
        true),
    REDUCED(
        "fabric8 ReducedStateItemStore, the fields the scheduler reads",
        HeapMeasurement::reducedNodes,
        HeapMeasurement::reducedPods,
        false),
    KEPT(
        "InformerStores (kept fields, typed objects)",
        InformerStores::nodes,
        InformerStores::pods,
        false);

    final String description;
    final Supplier<ItemStore<Node>> nodeStore;
    final Supplier<ItemStore<Pod>> podStore;
    final boolean trimPodManagedFields;

    Variant(
        String description,
        Supplier<ItemStore<Node>> nodeStore,
        Supplier<ItemStore<Pod>> podStore,
        boolean trimPodManagedFields) {
      this.description = description;
      this.nodeStore = nodeStore;
      this.podStore = podStore;
      this.trimPodManagedFields = trimPodManagedFields;
    }
  }

  /** One fill of one store: bytes retained by the node and pod caches, one snapshot read, the check. */
  record Fill(long nodeBytes, long podBytes, long readNanos, int checked, int mismatches) {}

  /**
   * The scheduler's own structures on top of the kept stores, and the heap in use after full collections
   * with all of them in place ({@code heapBytes}): the tool's own baseline (classes, the generator) and the
   * kept stores, {@link PodInfo}s and snapshot.
   */
  record DomainCost(long podInfoBytes, long snapshotBytes, long baselineBytes, long heapBytes) {}

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final int nodes;
  private final int podsPerNode;
  private final int deployments;
  private final List<Variant> stores;

  HeapMeasurement(int nodes, int podsPerNode, int deployments) {
    this(nodes, podsPerNode, deployments, List.of(Variant.values()));
  }

  HeapMeasurement(int nodes, int podsPerNode, int deployments, List<Variant> stores) {
    this.nodes = nodes;
    this.podsPerNode = podsPerNode;
    this.deployments = deployments;
    this.stores = List.copyOf(stores);
  }

  /**
   * Runs the measurement and prints the report (Markdown) to standard output.
   *
   * @param args {@code --nodes N} (5000), {@code --pods-per-node P} (10), {@code --deployments D} (one per
   *     ten pods), {@code --rounds R} (3), {@code --stores} a comma-separated list of {@code default}, {@code
   *     trimmed}, {@code reduced}, {@code kept} (all of them; {@code kept} alone reaches kube's 150 000 pods
   *     in a few GB of heap), each optional
   * @throws IllegalArgumentException naming the option, if an option is unknown or its value is not a
   *     positive integer or, for {@code --stores}, not a list of store names
   */
  public static void main(String[] args) {
    var stores = stores(args);
    var options = options(withoutStores(args));
    int nodes = options.getOrDefault("--nodes", 5000);
    int podsPerNode = options.getOrDefault("--pods-per-node", 10);
    int rounds = options.getOrDefault("--rounds", 3);
    int deployments = options.getOrDefault("--deployments", Math.max(1, nodes * podsPerNode / 10));
    var out = System.out;
    out.println(jvm());
    new HeapMeasurement(Math.max(1, nodes / 25), podsPerNode, Math.max(1, deployments / 25), stores).warmUp(out);
    new HeapMeasurement(nodes, podsPerNode, deployments, stores).run(rounds, out);
  }

  private static final String STORES = "--stores";

  /**
   * @return the stores {@code --stores} names, in the order of {@link Variant}; every store without it
   * @throws IllegalArgumentException if it has no value or names no store or an unknown one
   */
  static List<Variant> stores(String[] args) {
    int at = Arrays.asList(args).indexOf(STORES);
    if (at < 0) {
      return List.of(Variant.values());
    }
    if (at + 1 == args.length) {
      throw new IllegalArgumentException(STORES + " needs a value");
    }
    var valid = Arrays.stream(Variant.values()).map(v -> v.name().toLowerCase(Locale.ROOT)).toList();
    var named = new TreeSet<Variant>();
    for (var name : args[at + 1].split(",", -1)) {
      if (!valid.contains(name)) {
        throw new IllegalArgumentException(
            STORES + " names unknown store '" + name + "' in '" + args[at + 1] + "'; valid: " + valid);
      }
      named.add(Variant.valueOf(name.toUpperCase(Locale.ROOT)));
    }
    return List.copyOf(named);
  }

  /** @return {@code args} without {@code --stores} and its value, for {@link #options} */
  static String[] withoutStores(String[] args) {
    var rest = new ArrayList<>(Arrays.asList(args));
    int at = rest.indexOf(STORES);
    if (at >= 0) {
      rest.subList(at, Math.min(at + 2, rest.size())).clear();
    }
    return rest.toArray(String[]::new);
  }

  static Map<String, Integer> options(String[] args) {
    var known = List.of("--nodes", "--pods-per-node", "--deployments", "--rounds");
    var options = new HashMap<String, Integer>();
    for (int i = 0; i < args.length; i += 2) {
      if (!known.contains(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + known);
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      int value;
      try {
        value = Integer.parseInt(args[i + 1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(args[i] + " must be a positive integer, was " + args[i + 1], e);
      }
      if (value < 1) {
        throw new IllegalArgumentException(args[i] + " must be a positive integer, was " + value);
      }
      options.put(args[i], value);
    }
    return options;
  }

  private void warmUp(PrintStream out) {
    for (var variant : stores) {
      fill(variant);
    }
    domainCost();
    out.println("warm-up done (" + nodes + " nodes)");
  }

  private void run(int rounds, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%d nodes, %d pods (%d per node) of %d Deployments, %d rounds%n",
        nodes, nodes * podsPerNode, podsPerNode, deployments, rounds);
    var fills = new HashMap<Variant, List<Fill>>();
    var domain = new ArrayList<DomainCost>();
    for (int round = 1; round <= rounds; round++) {
      for (var variant : stores) {
        var fill = fill(variant);
        fills.computeIfAbsent(variant, v -> new ArrayList<>()).add(fill);
        out.printf(
            Locale.ROOT,
            "round %d %-8s nodes %8.1f MB  pods %8.1f MB  read %8.1f ms  checked %d, %d differ%n",
            round,
            variant,
            fill.nodeBytes() / MB,
            fill.podBytes() / MB,
            fill.readNanos() / 1e6,
            fill.checked(),
            fill.mismatches());
      }
      var cost = domainCost();
      domain.add(cost);
      out.printf(
          Locale.ROOT,
          "round %d PodInfos %8.1f MB  NodeInfo snapshot %8.1f MB  heap after full GC %8.1f MB (baseline %.1f MB)%n",
          round, cost.podInfoBytes() / MB, cost.snapshotBytes() / MB, cost.heapBytes() / MB,
          cost.baselineBytes() / MB);
    }
    report(fills, domain, out);
  }

  private void report(Map<Variant, List<Fill>> fills, List<DomainCost> domain, PrintStream out) {
    int pods = nodes * podsPerNode;
    out.println();
    out.println(
        "| store | nodes (MB) | pods (MB) | total (MB) | KB per node | MB per 1 000 pods | snapshot read (ms) |");
    out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (var variant : stores) {
      var list = fills.get(variant);
      long nodeBytes = median(list, Fill::nodeBytes);
      long podBytes = median(list, Fill::podBytes);
      out.printf(
          Locale.ROOT,
          "| %s | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f |%n",
          variant.description,
          nodeBytes / MB,
          podBytes / MB,
          (nodeBytes + podBytes) / MB,
          nodeBytes / 1024.0 / nodes,
          podBytes / MB / (pods / 1000.0),
          median(list, Fill::readNanos) / 1e6);
    }
    long podInfos = median(domain, DomainCost::podInfoBytes);
    long snapshot = median(domain, DomainCost::snapshotBytes);
    out.printf(
        Locale.ROOT,
        "| PodInfo per bound pod (the controller's cache) | | %.0f | | | %.1f | |%n",
        podInfos / MB,
        podInfos / MB / (pods / 1000.0));
    out.printf(
        Locale.ROOT, "| one NodeInfo snapshot (pods shared) | %.0f | | | %.1f | | |%n", snapshot / MB,
        snapshot / 1024.0 / nodes);
    out.printf(
        Locale.ROOT,
        "%nHeap in use after full GC with the kept stores, the PodInfos and one snapshot: %.0f MB "
            + "(of which the tool's baseline before filling: %.0f MB)%n",
        median(domain, DomainCost::heapBytes) / MB,
        median(domain, DomainCost::baselineBytes) / MB);
    int mismatches = fills.values().stream().flatMap(List::stream).mapToInt(Fill::mismatches).sum();
    out.println();
    out.println(
        mismatches == 0
            ? "Every checked stored object gave the same PodInfo/NodeInfo as the object parsed."
            : "WARNING: " + mismatches + " checked stored objects gave a different PodInfo/NodeInfo.");
  }

  private static <T> long median(List<T> values, Function<T, Long> of) {
    var sorted = values.stream().map(of).sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  /** Fills a node and a pod cache with {@code variant}'s stores, measures, reads, checks, lets them go. */
  Fill fill(Variant variant) {
    var cluster = new HeapMeasurementCluster(podsPerNode, deployments);
    int checked = 0;
    int mismatches = 0;
    long empty = usedAfterGc();
    var nodeCache = new CacheImpl<Node>();
    nodeCache.setItemStore(variant.nodeStore.get());
    for (int n = 0; n < nodes; n++) {
      var node = serialization.unmarshal(cluster.nodeJson(n), Node.class);
      nodeCache.put(node);
      if (n % CHECK_EVERY == 0) {
        checked++;
        if (!NodeAdapter.toNodeInfo(node, List.of())
            .equals(NodeAdapter.toNodeInfo(nodeCache.getByKey(nodeCache.getKey(node)), List.of()))) {
          mismatches++;
        }
      }
    }
    long withNodes = usedAfterGc();
    var podCache = new CacheImpl<Pod>();
    podCache.setItemStore(variant.podStore.get());
    podCache.addIndexers(Map.of(BY_NODE, pod -> List.of(nodeName(pod))));
    int count = 0;
    for (int n = 0; n < nodes; n++) {
      for (int slot = 0; slot < podsPerNode; slot++) {
        var pod = serialization.unmarshal(cluster.podJson(n, slot), Pod.class);
        if (variant.trimPodManagedFields) {
          pod.getMetadata().setManagedFields(null);
        }
        podCache.put(pod);
        if (count++ % CHECK_EVERY == 0) {
          checked++;
          var stored = podCache.getByKey(podCache.getKey(pod));
          if (!PodAdapter.toPodInfo(pod).equals(PodAdapter.toPodInfo(stored))) {
            mismatches++;
          }
        }
      }
    }
    long withPods = usedAfterGc();
    long readNanos = readNanos(nodeCache, podCache);
    // The generator was counted in the baseline: it must not be collected before the last figure.
    Reference.reachabilityFence(cluster);
    Reference.reachabilityFence(nodeCache);
    Reference.reachabilityFence(podCache);
    return new Fill(withNodes - empty, withPods - withNodes, readNanos, checked, mismatches);
  }

  /** The median time of reading every node and, through the index, the pods on it. */
  private static long readNanos(CacheImpl<Node> nodeCache, CacheImpl<Pod> podCache) {
    var times = new long[READS];
    long seen = 0;
    for (int r = 0; r < READS; r++) {
      long start = System.nanoTime();
      for (var node : nodeCache.list()) {
        seen += podCache.byIndex(BY_NODE, node.getMetadata().getName()).size();
      }
      times[r] = System.nanoTime() - start;
    }
    if (seen == 0) {
      throw new IllegalStateException("the snapshot read found no pods");
    }
    Arrays.sort(times);
    return times[READS / 2];
  }

  /**
   * With the kept stores filled: what the controller's PodInfo per bound pod adds, then what one snapshot of
   * NodeInfos (sharing those PodInfos) adds.
   */
  private DomainCost domainCost() {
    var cluster = new HeapMeasurementCluster(podsPerNode, deployments);
    long baseline = usedAfterGc();
    var nodeCache = new CacheImpl<Node>();
    nodeCache.setItemStore(Variant.KEPT.nodeStore.get());
    var podCache = new CacheImpl<Pod>();
    podCache.setItemStore(Variant.KEPT.podStore.get());
    podCache.addIndexers(Map.of(BY_NODE, pod -> List.of(nodeName(pod))));
    for (int n = 0; n < nodes; n++) {
      nodeCache.put(serialization.unmarshal(cluster.nodeJson(n), Node.class));
      for (int slot = 0; slot < podsPerNode; slot++) {
        podCache.put(serialization.unmarshal(cluster.podJson(n, slot), Pod.class));
      }
    }
    long stores = usedAfterGc();
    var podInfos = new HashMap<String, PodInfo>();
    for (var pod : podCache.list()) {
      podInfos.put(pod.getMetadata().getUid(), PodAdapter.toPodInfo(pod));
    }
    long withPodInfos = usedAfterGc();
    var snapshot = new ArrayList<NodeInfo>(nodes);
    for (var node : nodeCache.list()) {
      var pods =
          podCache.byIndex(BY_NODE, node.getMetadata().getName()).stream()
              .map(pod -> podInfos.get(pod.getMetadata().getUid()))
              .toList();
      snapshot.add(NodeAdapter.toNodeInfo(node, pods));
    }
    long withSnapshot = usedAfterGc();
    Reference.reachabilityFence(cluster);
    Reference.reachabilityFence(snapshot);
    Reference.reachabilityFence(podInfos);
    Reference.reachabilityFence(nodeCache);
    Reference.reachabilityFence(podCache);
    return new DomainCost(withPodInfos - stores, withSnapshot - withPodInfos, baseline, withSnapshot);
  }

  private static String nodeName(Pod pod) {
    var spec = pod.getSpec();
    return spec == null || spec.getNodeName() == null ? "" : spec.getNodeName();
  }

  /** Heap in use after full collections, once it stops shrinking. */
  static long usedAfterGc() {
    var memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long now = memory.getHeapMemoryUsage().getUsed();
      if (now >= used - 64 * 1024) {
        return Math.min(now, used);
      }
      used = now;
    }
    return used;
  }

  private static String jvm() {
    var runtime = ManagementFactory.getRuntimeMXBean();
    var gcs = ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList();
    return String.format(
        Locale.ROOT,
        "JVM %s %s, max heap %.0f MB, %d CPUs, GC %s, arguments %s",
        runtime.getVmName(),
        runtime.getVmVersion(),
        Runtime.getRuntime().maxMemory() / MB,
        Runtime.getRuntime().availableProcessors(),
        gcs,
        runtime.getInputArguments());
  }

  private static ItemStore<Pod> reducedPods() {
    return new ReducedStateItemStore<>(
        ReducedStateItemStore.NAME_KEY_STATE,
        Pod.class,
        new KubernetesSerialization(),
        "metadata.uid",
        "metadata.labels",
        "metadata.ownerReferences",
        "metadata.deletionTimestamp",
        "spec.nodeName",
        "spec.schedulerName",
        "spec.priority",
        "spec.preemptionPolicy",
        "spec.nodeSelector",
        "spec.affinity.nodeAffinity",
        "spec.affinity.podAffinity",
        "spec.affinity.podAntiAffinity",
        "spec.topologySpreadConstraints",
        "spec.schedulingGates",
        "spec.resourceClaims",
        "spec.tolerations",
        "spec.containers",
        "spec.initContainers",
        "spec.overhead",
        "spec.resources",
        "spec.volumes",
        "status.phase",
        "status.startTime",
        "status.nominatedNodeName",
        "status.conditions",
        "status.allocatedResources",
        "status.resources",
        "status.containerStatuses",
        "status.initContainerStatuses");
  }

  private static ItemStore<Node> reducedNodes() {
    return new ReducedStateItemStore<>(
        ReducedStateItemStore.NAME_KEY_STATE,
        Node.class,
        new KubernetesSerialization(),
        "metadata.uid",
        "metadata.labels",
        "spec.unschedulable",
        "spec.taints",
        "status.allocatable",
        "status.images");
  }
}
