package io.kubesched.policy.plugins;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ContainerImage;
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
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.args.ScoredResource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Fixtures shared by the scorer tests: pods and nodes built the way kube-scheduler's test wrappers build them,
 * a runner that scores a pod on nodes as the framework does (prepare, score, normalise), and the generators
 * of the property tests.
 */
public final class ScorerFixtures {

  public static final long MIB = 1024L * 1024;
  public static final String NAMESPACE = "default";
  public static final String GPU = "nvidia.com/gpu";
  public static final String EXTENDED = "abc.com/xyz";

  private ScorerFixtures() {}

  // ---- Pods and nodes as kube's tests build them ----

  /** @return millicores of {@code n} whole cores, as kube's quantity {@code "n"} for CPU */
  public static long cores(long n) {
    return n * 1000;
  }

  /**
   * A pod whose containers request what the maps say (resource name to amount, CPU in millicores). As in
   * Kubernetes, a container that does not name CPU or memory requests none of it, but counts {@value
   * PodInfo#DEFAULT_MILLI_CPU_REQUEST}m CPU or 200 MiB memory in the scores' non-zero requests; one that names
   * it with 0 requests 0 in both. A pod with no container requests nothing at all.
   */
  public static PodInfo pod(String name, List<Map<String, Long>> containers) {
    return podBuilder(name, containers).build();
  }

  /** {@link #pod(String, List)} named {@code pod}. */
  public static PodInfo pod(List<Map<String, Long>> containers) {
    return pod("pod", containers);
  }

  public static PodInfo.Builder podBuilder(String name, List<Map<String, Long>> containers) {
    long cpu = 0;
    long memory = 0;
    long nonZeroCpu = 0;
    long nonZeroMemory = 0;
    long storage = 0;
    var extended = new TreeMap<String, Long>();
    for (var container : containers) {
      for (var entry : container.entrySet()) {
        switch (entry.getKey()) {
          case ScoredResource.CPU -> cpu += entry.getValue();
          case ScoredResource.MEMORY -> memory += entry.getValue();
          case ScoredResource.EPHEMERAL_STORAGE -> storage += entry.getValue();
          default -> extended.merge(entry.getKey(), entry.getValue(), Long::sum);
        }
      }
      nonZeroCpu += container.getOrDefault(ScoredResource.CPU, PodInfo.DEFAULT_MILLI_CPU_REQUEST);
      nonZeroMemory += container.getOrDefault(ScoredResource.MEMORY, PodInfo.DEFAULT_MEMORY_REQUEST);
    }
    return PodInfo.builder(NAMESPACE, name)
        .requests(new Resources(cpu, memory, storage, 1, extended))
        .nonZeroRequests(new Resources(nonZeroCpu, nonZeroMemory, storage, 1, extended));
  }

  /** @return a container requesting {@code milliCpu} and {@code memory} */
  public static Map<String, Long> cpuAndMemory(long milliCpu, long memory) {
    return Map.of(ScoredResource.CPU, milliCpu, ScoredResource.MEMORY, memory);
  }

  /** @return a container requesting CPU only (its memory counts the non-zero default in the scores) */
  public static Map<String, Long> cpuOnly(long milliCpu) {
    return Map.of(ScoredResource.CPU, milliCpu);
  }

  /** @return a container requesting memory only (its CPU counts the non-zero default in the scores) */
  public static Map<String, Long> memoryOnly(long memory) {
    return Map.of(ScoredResource.MEMORY, memory);
  }

  /** @return a container with no requests */
  public static Map<String, Long> noRequests() {
    return Map.of();
  }

  /** @return a node offering {@code milliCpu}, {@code memory} and {@code extended}, with {@code pods} on it */
  public static NodeInfo node(
      String name, long milliCpu, long memory, Map<String, Long> extended, List<PodInfo> pods) {
    return NodeInfo.builder(name)
        .allocatable(new Resources(milliCpu, memory, 0, 110, extended))
        .pods(pods)
        .build();
  }

  /** @return a node offering {@code milliCpu} and {@code memory}, with {@code pods} on it */
  public static NodeInfo node(String name, long milliCpu, long memory, List<PodInfo> pods) {
    return node(name, milliCpu, memory, Map.of(), pods);
  }

  /** @return a node offering {@code milliCpu} and {@code memory}, empty */
  public static NodeInfo node(String name, long milliCpu, long memory) {
    return node(name, milliCpu, memory, Map.of(), List.of());
  }

  public static NodeInfo labelledNode(String name, Map<String, String> labels) {
    return NodeInfo.builder(name).labels(labels).build();
  }

  public static NodeInfo taintedNode(String name, List<Taint> taints) {
    return NodeInfo.builder(name).taints(taints).build();
  }

  public static Taint preferNoSchedule(String key, String value) {
    return new Taint(key, value, TaintEffect.PREFER_NO_SCHEDULE);
  }

  public static Toleration tolerateEqual(String key, String value, TaintEffect effect) {
    return new Toleration(key, Toleration.Operator.EQUAL, value, effect);
  }

  public static PreferredSchedulingTerm preferIn(int weight, String key, String... values) {
    return new PreferredSchedulingTerm(
        weight, NodeSelectorTerm.ofExpressions(
            NodeSelectorRequirement.of(key, NodeSelectorRequirement.Operator.IN, values)));
  }

  public static PodInfo podPreferring(PreferredSchedulingTerm... terms) {
    return PodInfo.builder(NAMESPACE, "pod")
        .affinity(new NodeAffinity(List.of(), List.of(terms)))
        .build();
  }

  public static Owner controller(String uid) {
    return new Owner("ReplicaSet", uid, uid);
  }

  /** @return a pod in {@code namespace} controlled by {@code controllerUid} (none if null) */
  public static PodInfo ownedPod(String namespace, String name, String controllerUid) {
    return PodInfo.builder(namespace, name)
        .owner(controllerUid == null ? null : controller(controllerUid))
        .build();
  }

  public static NodeInfo nodeWithPods(String name, Map<String, String> labels, List<PodInfo> pods) {
    return NodeInfo.builder(name).labels(labels).pods(pods).build();
  }

  public static ContainerImage image(long sizeBytes, String... names) {
    return new ContainerImage(List.of(names), sizeBytes);
  }

  public static NodeInfo imageNode(String name, List<ContainerImage> images) {
    return NodeInfo.builder(name).images(images).build();
  }

  public static PodInfo podWithImages(String... images) {
    return PodInfo.builder(NAMESPACE, "pod").images(List.of(images)).build();
  }

  /** @return {@code scores} as a list, to compare with {@link #scores} */
  public static List<Long> list(long... scores) {
    return Arrays.stream(scores).boxed().toList();
  }

  // ---- Running a scorer as the framework does ----

  /**
   * Scores {@code pod} on {@code nodes} (all of them feasible) as the framework does: prepares the scorer if it
   * is a {@link PreScorer}, scores every node in order, and normalises if the scorer used is a {@link
   * ScoreNormalizer}.
   *
   * @return the final score of each node, in the order of {@code nodes}
   */
  public static List<Long> scores(Scorer scorer, PodInfo pod, List<NodeInfo> nodes) {
    return scores(scorer, pod, nodes, nodes);
  }

  /** {@link #scores(Scorer, PodInfo, List)} where only {@code feasible} (a subset of {@code all}) are scored. */
  public static List<Long> scores(Scorer scorer, PodInfo pod, List<NodeInfo> all, List<NodeInfo> feasible) {
    Scorer used = scorer instanceof PreScorer preScorer ? preScorer.prepare(pod, feasible, ClusterSnapshot.of(all)) : scorer;
    var raw = new long[feasible.size()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = used.score(pod, feasible.get(i));
    }
    if (used instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, feasible, raw);
    }
    var result = new ArrayList<Long>(raw.length);
    for (long score : raw) {
      result.add(score);
    }
    return result;
  }

  /**
   * Scores as {@link #scores(Scorer, PodInfo, List)} but without preparing the scorer, as kube's Score does
   * when PreScore did not run: prepared and unprepared scorers must agree.
   */
  public static List<Long> unpreparedScores(Scorer scorer, PodInfo pod, List<NodeInfo> nodes) {
    var raw = new long[nodes.size()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = scorer.score(pod, nodes.get(i));
    }
    if (scorer instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, nodes, raw);
    }
    return list(raw);
  }

  /** @return the final score of the single node {@code node} among {@code nodes} */
  public static long scoreOf(Scorer scorer, PodInfo pod, List<NodeInfo> nodes, NodeInfo node) {
    return scores(scorer, pod, nodes).get(nodes.indexOf(node));
  }

  // ---- Generators for the resource scorers ----

  /**
   * Amounts from a small alphabet so that zero, equal, over-capacity and huge amounts (near {@link
   * Long#MAX_VALUE}) occur often, mixed with ordinary ones.
   */
  public static Arbitrary<Long> amounts() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.of(0L, 1L, 100L, 1000L, 4000L, 10_000L)),
        Tuple.of(1, Arbitraries.of(Long.MAX_VALUE / 3, Long.MAX_VALUE - 1, Long.MAX_VALUE)),
        Tuple.of(3, Arbitraries.longs().between(0, 20_000)));
  }

  /**
   * Requests of a pod over CPU, memory and {@value #GPU}: as one container that leaves CPU and memory out when
   * they are 0 (the non-zero defaults apply) or names them explicitly (they do not); one in five names them as
   * 0 and requests nothing at all.
   */
  public static Arbitrary<PodInfo> resourcePods() {
    var general = Combinators.combine(
            amounts(), amounts(), Arbitraries.of(0L, 0L, 1L, 2L, 4L), Arbitraries.of(true, false))
        .as((cpu, memory, gpu, explicit) -> {
          var pod = PodInfo.builder(NAMESPACE, "pod")
              .requests(new Resources(cpu, memory, 0, 1, Map.of(GPU, gpu)))
              .build();
          // A container that names CPU and memory, even as 0, gets no non-zero defaults.
          return explicit ? withoutDefaults(pod) : pod;
        });
    var explicitlyNothing = Arbitraries.just(withoutDefaults(PodInfo.builder(NAMESPACE, "idle").build()));
    return Arbitraries.frequencyOf(Tuple.of(4, general), Tuple.of(1, explicitlyNothing));
  }

  /** Nodes offering CPU, memory and {@value #GPU} (each sometimes none), with up to three pods on them. */
  public static Arbitrary<NodeInfo> resourceNodes() {
    return Combinators.combine(
            amounts(), amounts(), Arbitraries.of(0L, 1L, 4L, 8L), resourcePods().list().ofMaxSize(3))
        .as((cpu, memory, gpu, pods) ->
            node("node", cpu, memory, gpu == 0 ? Map.of() : Map.of(GPU, gpu), pods));
  }

  /** Resource lists over CPU, memory and {@value #GPU}, each resource at most once, weights 1..100. */
  public static Arbitrary<List<ScoredResource>> weightedResources() {
    var names = Arbitraries.of(ScoredResource.CPU, ScoredResource.MEMORY, GPU);
    return names.set().ofMinSize(1).flatMap(set -> {
      var chosen = List.copyOf(set);
      return Arbitraries.of(1, 1, 2, 3, 100).list().ofSize(chosen.size()).map(weights -> {
        var resources = new ArrayList<ScoredResource>();
        for (int i = 0; i < chosen.size(); i++) {
          resources.add(new ScoredResource(chosen.get(i), weights.get(i)));
        }
        return resources;
      });
    });
  }

  /**
   * Scale factors from 1 up to the largest that keeps quantities of up to 2000 within a long, so that scaled
   * quantities often exceed what kube's int64 arithmetic could multiply by 100.
   */
  public static Arbitrary<Long> scales() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(1, 10),
        Arbitraries.of(1000L, 1_000_000_000L, 1_000_000_000_000_000L, Long.MAX_VALUE / 2000),
        Arbitraries.longs().between(1, Long.MAX_VALUE / 2000));
  }

  /** @return a copy of {@code pod} whose non-zero requests are its plain requests (no defaults apply) */
  public static PodInfo withoutDefaults(PodInfo pod) {
    return pod.toBuilder().nonZeroRequests(pod.requests()).build();
  }

  /** @return labels over the keys a, b and c, each absent or valued x or y: all 27 such maps */
  public static Arbitrary<Map<String, String>> smallLabels() {
    var all = new ArrayList<Map<String, String>>();
    for (var a : List.of("", "x", "y")) {
      for (var b : List.of("", "x", "y")) {
        for (var c : List.of("", "x", "y")) {
          var labels = new TreeMap<String, String>();
          if (!a.isEmpty()) {
            labels.put("a", a);
          }
          if (!b.isEmpty()) {
            labels.put("b", b);
          }
          if (!c.isEmpty()) {
            labels.put("c", c);
          }
          all.add(labels);
        }
      }
    }
    return Arbitraries.of(all);
  }

}
