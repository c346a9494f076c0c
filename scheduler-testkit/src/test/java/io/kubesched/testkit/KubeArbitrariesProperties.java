package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The generators hold the model's invariants and reach, often, every edge case they promise: each promised
 * case is a label whose {@code true} must make up at least a minimum share of the tries. Opposite cases
 * (a selector that matches some node, and one that does not) are two labels, so both sides are required.
 */
class KubeArbitrariesProperties {

  private static final long HUGE = Long.MAX_VALUE / 2;

  @Property
  @Label("pods are pending and reach zero, huge and extended requests, selectors and tolerations")
  void pods(@ForAll("pods") PodInfo pod) {
    assertEquals("", pod.nodeName());
    assertEquals(1, pod.requests().pods());

    var requests = pod.requests();
    often("requests nothing", isZero(requests), 8);
    often("requests a huge amount", isHuge(requests), 5);
    often("requests an extended resource", !requests.extended().isEmpty(), 5);
    often("has a node selector", !pod.nodeSelector().isEmpty(), 15);
    often("has tolerations", !pod.tolerations().isEmpty(), 15);
    often("has required node affinity", !pod.affinity().required().isEmpty(), 5);
  }

  @Property
  @Label("nodes sum their pods' requests and reach no labels, many taints, cordons, extended and huge resources")
  void nodes(@ForAll("nodes") NodeInfo node) {
    requireRequestedIsTheSumOfThePods(node);
    for (var pod : node.pods()) {
      assertEquals(node.name(), pod.nodeName(), "a placed pod is bound to its node");
    }
    var keysAndEffects = new HashSet<String>();
    for (var taint : node.taints()) {
      assertTrue(
          keysAndEffects.add(taint.key() + ":" + taint.effect()),
          () -> "taints repeat a key and effect: " + node.taints());
    }

    often("has no labels", node.labels().isEmpty(), 10);
    often("has four or more taints", node.taints().size() >= 4, 8);
    often("is cordoned", node.unschedulable(), 8);
    often("offers an extended resource", !node.allocatable().extended().isEmpty(), 20);
    often("offers a huge amount", isHuge(node.allocatable()), 5);
    often("has pods on it", !node.pods().isEmpty(), 20);
  }

  @Property
  @Label("clusters have unique node and pod names and are empty often")
  void clusters(@ForAll("clusters") Cluster cluster) {
    var names = cluster.nodeNames();
    assertEquals(names.size(), new HashSet<>(names).size(), () -> "node names repeat: " + names);
    var podKeys = cluster.nodes().stream().flatMap(n -> n.pods().stream()).map(PodInfo::key).toList();
    assertEquals(podKeys.size(), new HashSet<>(podKeys).size(), () -> "pod keys repeat: " + podKeys);
    assertTrue(cluster.size() <= 8, () -> "more nodes than the default maximum: " + cluster.size());

    often("is empty", cluster.size() == 0, 4);
    often("has a cordoned node", cluster.nodes().stream().anyMatch(NodeInfo::unschedulable), 15);
  }

  @Property
  @Label("scenarios reach exact fits, matching and mismatching tolerations and selectors, and empty clusters")
  void scenarios(@ForAll("scenarios") Scenario scenario) {
    var pod = scenario.pod();
    var nodes = scenario.nodes();
    assertEquals("", pod.nodeName());

    often("the cluster is empty", nodes.isEmpty(), 4);
    often(
        "the pod requests exactly a node's free capacity",
        nodes.stream().anyMatch(node -> requestsExactlyWhatIsFree(pod, node, 0)),
        10);
    often(
        "the pod requests one millicore more than a node's free cpu",
        nodes.stream().anyMatch(node -> requestsExactlyWhatIsFree(pod, node, 1)),
        4);

    var tainted = nodes.stream().filter(node -> !hardTaints(node).isEmpty()).toList();
    if (!tainted.isEmpty()) {
      often(
          "the pod tolerates every hard taint of a tainted node",
          tainted.stream().anyMatch(node -> toleratesAll(pod, node)),
          10);
      often(
          "the pod leaves a hard taint of a node untolerated",
          tainted.stream().anyMatch(node -> !toleratesAll(pod, node)),
          10);
    }
    if (!pod.nodeSelector().isEmpty() && !nodes.isEmpty()) {
      often(
          "a node matches the pod's node selector", nodes.stream().anyMatch(node -> matchesSelector(pod, node)), 10);
      often(
          "a node does not match the pod's node selector",
          nodes.stream().anyMatch(node -> !matchesSelector(pod, node)),
          10);
    }
  }

  /**
   * Collects {@code value} under {@code label} and requires {@code true} to make up at least {@code
   * minPercent} of the tries that collected the label.
   */
  private static void often(String label, boolean value, double minPercent) {
    var collector = Statistics.label(label);
    collector.collect(value);
    collector.coverage(coverage -> coverage.check(true).percentage(p -> p >= minPercent));
  }

  private static boolean isZero(Resources r) {
    return r.milliCpu() == 0 && r.memory() == 0 && r.ephemeralStorage() == 0 && r.extended().isEmpty();
  }

  private static boolean isHuge(Resources r) {
    return r.milliCpu() >= HUGE
        || r.memory() >= HUGE
        || r.ephemeralStorage() >= HUGE
        || r.pods() >= HUGE
        || r.extended().values().stream().anyMatch(amount -> amount >= HUGE);
  }

  /** What is left on the node, computed here without the testkit's own helper. */
  private static boolean requestsExactlyWhatIsFree(PodInfo pod, NodeInfo node, long extraCpu) {
    var want = pod.requests();
    var have = node.allocatable();
    var used = node.requested();
    if (want.milliCpu() != Math.max(0, have.milliCpu() - used.milliCpu()) + extraCpu
        || want.memory() != Math.max(0, have.memory() - used.memory())
        || want.ephemeralStorage() != Math.max(0, have.ephemeralStorage() - used.ephemeralStorage())) {
      return false;
    }
    var names = new TreeSet<>(have.extended().keySet());
    names.addAll(want.extended().keySet());
    return names.stream().allMatch(n -> want.extended(n) == Math.max(0, have.extended(n) - used.extended(n)));
  }

  private static List<Taint> hardTaints(NodeInfo node) {
    return node.taints().stream().filter(t -> t.effect() != TaintEffect.PREFER_NO_SCHEDULE).toList();
  }

  private static boolean toleratesAll(PodInfo pod, NodeInfo node) {
    return hardTaints(node).stream().allMatch(t -> pod.tolerations().stream().anyMatch(tol -> tol.tolerates(t)));
  }

  private static boolean matchesSelector(PodInfo pod, NodeInfo node) {
    return pod.nodeSelector().entrySet().stream().allMatch(e -> e.getValue().equals(node.labels().get(e.getKey())));
  }

  private static void requireRequestedIsTheSumOfThePods(NodeInfo node) {
    requireSum(node, "cpu", Resources::milliCpu);
    requireSum(node, "memory", Resources::memory);
    requireSum(node, "ephemeral storage", Resources::ephemeralStorage);
    requireSum(node, "pods", Resources::pods);
    var names = new TreeSet<String>();
    node.pods().forEach(pod -> names.addAll(pod.requests().extended().keySet()));
    names.addAll(node.requested().extended().keySet());
    for (var name : names) {
      requireSum(node, name, r -> r.extended(name));
    }
    assertEquals(node.pods().size(), node.requested().pods(), "each placed pod counts one pod");
  }

  private static void requireSum(NodeInfo node, String resource, ToLongFunction<Resources> amount) {
    var exact = BigInteger.ZERO;
    for (var pod : node.pods()) {
      exact = exact.add(BigInteger.valueOf(amount.applyAsLong(pod.requests())));
    }
    long capped = exact.min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
    assertEquals(capped, amount.applyAsLong(node.requested()), () -> resource + " requested on " + node.name());
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return KubeArbitraries.pods();
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return KubeArbitraries.nodes();
  }

  @Provide
  Arbitrary<Cluster> clusters() {
    return KubeArbitraries.clusters();
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    return KubeArbitraries.scenarios();
  }
}
