package io.kubesched.policy.plugins.serviceaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestServiceAffinityScore} of the former {@code ServiceAffinity} plugin (v1.20), under
 * kube's case names. Kube configured one plugin with several labels and averaged them; its one case with two
 * labels ({@code zone} and {@code rack}) is checked here as the mean of two scorers, one per label, which is
 * what a Policy file with the two priorities at equal weights gives.
 */
class ServiceAntiAffinityScorerTest {

  static final Map<String, String> LABELS1 = Map.of("foo", "bar", "baz", "blah");
  static final Map<String, String> LABELS2 = Map.of("bar", "foo", "baz", "blah");
  static final Map<String, String> ZONE1 = Map.of("zone", "zone1");
  static final Map<String, String> ZONE2 = Map.of("zone", "zone2");
  static final Map<String, String> NOZONE = Map.of("name", "value");
  static final Map<String, Map<String, String>> LABELED_NODES =
      Map.of("machine01", NOZONE, "machine02", NOZONE, "machine11", ZONE1, "machine12", ZONE1, "machine21", ZONE2,
          "machine22", ZONE2);
  static final Map<String, Map<String, String>> NODES_WITH_ZONE_AND_RACK_LABELS =
      Map.of(
          "machine01", NOZONE, "machine02", NOZONE,
          "machine11", Map.of("zone", "zone1", "rack", "rack1"),
          "machine12", Map.of("zone", "zone1", "rack", "rack2"),
          "machine21", Map.of("zone", "zone2", "rack", "rack1"),
          "machine22", Map.of("zone", "zone2", "rack", "rack1"));

  /** A pod placed on a node (kube's {@code zone0Spec}, {@code zone1Spec}, {@code zone2Spec}). */
  record Placed(String node, String namespace, Map<String, String> labels) {}

  static Placed on(String node, Map<String, String> labels) {
    return new Placed(node, "", labels);
  }

  static WorkloadSelector service(String namespace, Map<String, String> selector) {
    return new WorkloadSelector(WorkloadSelector.Kind.SERVICE, namespace, "svc", LabelSelector.of(selector));
  }

  record Case(
      String name,
      PodInfo pod,
      List<Placed> pods,
      Map<String, Map<String, String>> nodes,
      List<WorkloadSelector> services,
      List<String> labels,
      Map<String, Long> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodInfo pod(String namespace, Map<String, String> labels) {
    return PodInfo.builder(namespace, "pod").labels(labels).build();
  }

  static Map<String, Long> scores(long m11, long m12, long m21, long m22, long m01, long m02) {
    return new TreeMap<>(
        Map.of("machine11", m11, "machine12", m12, "machine21", m21, "machine22", m22, "machine01", m01,
            "machine02", m02));
  }

  static Stream<Case> testServiceAffinityScore() {
    var zone = List.of("zone");
    return Stream.of(
        new Case("nothing scheduled", pod("", Map.of()), List.of(), LABELED_NODES, List.of(), zone,
            scores(100, 100, 100, 100, 0, 0)),
        new Case("no services", pod("", LABELS1), List.of(on("machine11", Map.of())), LABELED_NODES, List.of(),
            zone, scores(100, 100, 100, 100, 0, 0)),
        new Case("different services", pod("", LABELS1), List.of(on("machine11", LABELS2)), LABELED_NODES,
            List.of(service("", Map.of("key", "value"))), zone, scores(100, 100, 100, 100, 0, 0)),
        new Case("three pods, one service pod", pod("", LABELS1),
            List.of(on("machine01", LABELS2), on("machine11", LABELS2), on("machine21", LABELS1)),
            LABELED_NODES, List.of(service("", LABELS1)), zone, scores(100, 100, 0, 0, 0, 0)),
        new Case("three pods, two service pods on different machines", pod("", LABELS1),
            List.of(on("machine11", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            LABELED_NODES, List.of(service("", LABELS1)), zone, scores(50, 50, 50, 50, 0, 0)),
        new Case("three service label match pods in different namespaces", pod("default", LABELS1),
            List.of(
                on("machine11", LABELS1),
                new Placed("machine11", "default", LABELS1),
                on("machine21", LABELS1),
                new Placed("machine21", "ns1", LABELS1)),
            LABELED_NODES, List.of(service("default", LABELS1)), zone, scores(0, 0, 100, 100, 0, 0)),
        new Case("four pods, three service pods", pod("", LABELS1),
            List.of(
                on("machine11", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1),
                on("machine21", LABELS1)),
            LABELED_NODES, List.of(service("", LABELS1)), zone, scores(66, 66, 33, 33, 0, 0)),
        new Case("service with partial pod label matches", pod("", LABELS1),
            List.of(on("machine11", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            LABELED_NODES, List.of(service("", Map.of("baz", "blah"))), zone, scores(33, 33, 66, 66, 0, 0)),
        new Case("service pod on non-zoned node", pod("", LABELS1),
            List.of(
                on("machine01", LABELS1), on("machine11", LABELS1), on("machine21", LABELS1),
                on("machine21", LABELS1)),
            LABELED_NODES, List.of(service("", LABELS1)), zone, scores(75, 75, 50, 50, 0, 0)),
        new Case("three pods, two service pods, with rack label", pod("", LABELS1),
            List.of(on("machine01", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            NODES_WITH_ZONE_AND_RACK_LABELS, List.of(service("", LABELS1)), List.of("zone", "rack"),
            scores(25, 75, 25, 25, 0, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testServiceAffinityScore(Case c) {
    var nodes = new ArrayList<NodeInfo>();
    int i = 0;
    for (var entry : new TreeMap<>(c.nodes()).entrySet()) {
      var node = NodeInfo.builder(entry.getKey()).labels(entry.getValue()).build();
      for (var p : c.pods()) {
        if (p.node().equals(entry.getKey())) {
          node = node.withPod(PodInfo.builder(p.namespace(), "p" + i++).labels(p.labels()).nodeName(p.node()).build());
        }
      }
      nodes.add(node);
    }
    var cluster = ClusterSnapshot.of(nodes, Map.of(), c.services());

    // Kube's one plugin with n labels scored the mean of the per-label scores, in floating point, truncated.
    var sums = new double[nodes.size()];
    for (var label : c.labels()) {
      var scores = score(new ServiceAntiAffinityScorer(label), c.pod(), nodes, cluster);
      for (int n = 0; n < nodes.size(); n++) {
        sums[n] += (double) scores[n] / c.labels().size();
      }
    }
    var got = new TreeMap<String, Long>();
    for (int n = 0; n < nodes.size(); n++) {
      got.put(nodes.get(n).name(), (long) sums[n]);
    }
    assertEquals(c.expected(), got);
  }

  static long[] score(Scorer scorer, PodInfo pod, List<NodeInfo> nodes, ClusterSnapshot cluster) {
    var prepared = ((ServiceAntiAffinityScorer) scorer).prepare(pod, nodes, cluster);
    var scores = new long[nodes.size()];
    for (int n = 0; n < scores.length; n++) {
      scores[n] = prepared.score(pod, nodes.get(n));
    }
    ((ScoreNormalizer) prepared).normalize(pod, nodes, scores);
    return scores;
  }

  @Test
  void the_first_service_that_selects_the_pod_gives_the_selector() {
    var a = NodeInfo.builder("a").labels(Map.of("rack", "r1"))
        .build().withPod(PodInfo.builder("ns", "x").labels(Map.of("app", "web", "v", "1")).build());
    var b = NodeInfo.builder("b").labels(Map.of("rack", "r2"))
        .build().withPod(PodInfo.builder("ns", "y").labels(Map.of("app", "web", "v", "2")).build());
    var pod = pod("ns", Map.of("app", "web", "v", "1"));
    var byVersion = service("ns", Map.of("v", "1"));
    var byApp = service("ns", Map.of("app", "web"));

    // Only x is of the first Service (v=1): rack r1 is avoided. With app=web first, both racks hold one.
    assertEquals(
        List.of(0L, 100L),
        toList(score(new ServiceAntiAffinityScorer("rack"), pod, List.of(a, b),
            ClusterSnapshot.of(List.of(a, b), Map.of(), List.of(byVersion, byApp)))));
    assertEquals(
        List.of(50L, 50L),
        toList(score(new ServiceAntiAffinityScorer("rack"), pod, List.of(a, b),
            ClusterSnapshot.of(List.of(a, b), Map.of(), List.of(byApp, byVersion)))));
  }

  @Test
  void a_service_of_another_kind_or_namespace_is_not_the_pods() {
    var a = NodeInfo.builder("a").labels(Map.of("rack", "r1"))
        .build().withPod(PodInfo.builder("ns", "x").labels(Map.of("app", "web")).build());
    var b = NodeInfo.builder("b").labels(Map.of("rack", "r2")).build();
    var pod = pod("ns", Map.of("app", "web"));
    var replicaSet =
        new WorkloadSelector(WorkloadSelector.Kind.REPLICA_SET, "ns", "rs", LabelSelector.of(Map.of("app", "web")));

    assertEquals(
        List.of(100L, 100L),
        toList(score(new ServiceAntiAffinityScorer("rack"), pod, List.of(a, b),
            ClusterSnapshot.of(List.of(a, b), Map.of(), List.of(replicaSet, service("other", Map.of("app", "web")))))));
  }

  @Test
  void scoring_without_prepare_is_a_programming_error_and_the_label_must_be_named() {
    var scorer = new ServiceAntiAffinityScorer("rack");
    assertThrows(IllegalStateException.class, () -> scorer.score(pod("", Map.of()), NodeInfo.builder("n").build()));
    assertThrows(IllegalArgumentException.class, () -> new ServiceAntiAffinityScorer(""));
  }

  static List<Long> toList(long[] scores) {
    var list = new ArrayList<Long>();
    for (long s : scores) {
      list.add(s);
    }
    return list;
  }
}
