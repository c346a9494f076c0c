package io.kubesched.policy.plugins.selectorspread;

import static io.kubesched.policy.plugins.ScorerFixtures.nodeWithPods;
import static io.kubesched.policy.plugins.ScorerFixtures.ownedPod;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The former kube-scheduler {@code TestSelectorSpreadScore} and {@code TestZoneSelectorSpreadPriority}
 * (framework/plugins/selectorspread/selector_spread_test.go, last in 1.25), case by case after normalisation,
 * and edge cases. Kube selected the pods to spread with Service and controller selectors; here they are the
 * pods of the same controller, so each case gives the pods kube's selectors matched the pod's controller
 * ({@code rc1}) and the others another one ({@code other}) or none. Cases that only vary which object's
 * selector matched repeat count patterns already here and are left out.
 */
class SelectorSpreadScorerTest {

  static final String NS = "default";

  static PodInfo pod(String namespace) {
    return ownedPod(namespace, "pod", "rc1");
  }

  static PodInfo matching(String name) {
    return ownedPod(NS, name, "rc1");
  }

  static PodInfo matchingIn(String namespace, String name) {
    return ownedPod(namespace, name, "rc1");
  }

  static PodInfo other(String name) {
    return ownedPod(NS, name, "other");
  }

  static NodeInfo plain(String name, PodInfo... pods) {
    return nodeWithPods(name, Map.of(), List.of(pods));
  }

  static Stream<Arguments> nodeCases() {
    return Stream.of(
        row("nothing scheduled", ownedPod(NS, "pod", null), List.of(plain("node1"), plain("node2")), 100, 100),
        row("no services", ownedPod(NS, "pod", null),
            List.of(plain("node1", ownedPod(NS, "p1", null)), plain("node2")), 100, 100),
        row("different services", pod(NS), List.of(plain("node1", other("p1")), plain("node2")), 100, 100),
        row("two pods, one service pod", pod(NS),
            List.of(plain("node1", other("p1")), plain("node2", matching("p2"))), 100, 0),
        row("five pods, one service pod in no namespace", pod(NS),
            List.of(
                plain("node1", other("p1"), matchingIn("ns0", "p2"), matchingIn("ns1", "p3")),
                plain("node2", matching("p4"), other("p5"))),
            100, 0),
        row("five pods, one service pod in specific namespace", pod("ns1"),
            List.of(
                plain("node1", other("p1"), matchingIn(NS, "p2"), matchingIn("ns2", "p3")),
                plain("node2", matchingIn("ns1", "p4"), other("p5"))),
            100, 0),
        row("three pods, two service pods on different nodes", pod(NS),
            List.of(plain("node1", other("p1"), matching("p2")), plain("node2", matching("p3"))), 0, 0),
        row("four pods, three service pods", pod(NS),
            List.of(plain("node1", other("p1"), matching("p2")), plain("node2", matching("p3"), matching("p4"))),
            50, 0),
        row("service with partial pod label matches", pod(NS),
            List.of(plain("node1", matching("p1"), matching("p2")), plain("node2", matching("p3"))), 0, 50),
        row("disjoined service and replication controller matches no pods", pod(NS),
            List.of(plain("node1", other("p1"), other("p2")), plain("node2", other("p3"))), 100, 100));
  }

  static final String Z1 = "node1.zone1";
  static final String Z2A = "node1.zone2";
  static final String Z2B = "node2.zone2";
  static final String Z3A = "node1.zone3";
  static final String Z3B = "node2.zone3";
  static final String Z3C = "node3.zone3";

  /** kube's six zoned nodes, in a fixed order, with the given pods placed by node name. */
  static List<NodeInfo> zonedNodes(Map<String, List<PodInfo>> podsByNode) {
    var nodes = new ArrayList<NodeInfo>();
    for (var name : List.of(Z1, Z2A, Z2B, Z3A, Z3B, Z3C)) {
      String zone = name.substring(name.indexOf('.') + 1);
      nodes.add(nodeWithPods(name, Map.of(SelectorSpreadScorer.ZONE_LABEL, zone),
          podsByNode.getOrDefault(name, List.of())));
    }
    return nodes;
  }

  static Stream<Arguments> zoneCases() {
    return Stream.of(
        row("nothing scheduled", ownedPod(NS, "pod", null), zonedNodes(Map.of()), 100, 100, 100, 100, 100, 100),
        row("no services", ownedPod(NS, "pod", null), zonedNodes(Map.of(Z1, List.of(ownedPod(NS, "p", null)))),
            100, 100, 100, 100, 100, 100),
        row("different services", pod(NS), zonedNodes(Map.of(Z1, List.of(other("p")))),
            100, 100, 100, 100, 100, 100),
        row("two pods, 0 matching", pod(NS), zonedNodes(Map.of(Z1, List.of(other("a")), Z2A, List.of(other("b")))),
            100, 100, 100, 100, 100, 100),
        row("two pods, 1 matching (in z2)", pod(NS),
            zonedNodes(Map.of(Z1, List.of(other("a")), Z2A, List.of(matching("b")))),
            100, 0, 33, 100, 100, 100),
        row("five pods, 3 matching (z2=2, z3=1)", pod(NS),
            zonedNodes(Map.of(
                Z1, List.of(other("a")), Z2A, List.of(matching("b")), Z2B, List.of(matching("c")),
                Z3A, List.of(other("d")), Z3B, List.of(matching("e")))),
            100, 0, 0, 66, 33, 66),
        row("four pods, 3 matching (z1=1, z2=1, z3=1)", pod(NS),
            zonedNodes(Map.of(
                Z1, List.of(matching("a")), Z2A, List.of(matching("b")), Z2B, List.of(other("c")),
                Z3A, List.of(matching("d")))),
            0, 0, 33, 0, 33, 33),
        row("five pods, 4 matching (z1=1, z2=2, z3=1)", pod(NS),
            zonedNodes(Map.of(
                Z1, List.of(matching("a")), Z2A, List.of(matching("b")),
                Z2B, List.of(matching("c"), other("d")), Z3A, List.of(matching("e")))),
            33, 0, 0, 33, 66, 66),
        row("Replication controller spreading (z1=0, z2=1, z3=2)", pod(NS),
            zonedNodes(Map.of(Z3A, List.of(matching("a"), matching("c")), Z2A, List.of(matching("b")))),
            100, 50, 66, 0, 33, 33));
  }

  static Arguments row(String name, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void spreads_over_nodes_as_kube_scheduler_did(String name, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new SelectorSpreadScorer(), pod, nodes));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("zoneCases")
  void spreads_over_zones_as_kube_scheduler_did(String name, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new SelectorSpreadScorer(), pod, nodes));
  }

  @Test
  void zones_are_summed_over_the_feasible_nodes_only() {
    var nodes = zonedNodes(Map.of(Z2A, List.of(matching("a")), Z3A, List.of(matching("b"), matching("c"))));
    // zone3's node with two matching pods is not feasible: zone2 now has the most, 1
    var feasible = nodes.stream().filter(n -> !n.name().equals(Z3A)).toList();
    assertEquals(List.of(100L, 0L, 33L, 100L, 100L),
        ScorerFixtures.scores(new SelectorSpreadScorer(), pod(NS), nodes, feasible));
  }

  @Test
  void nodes_without_zones_score_by_node_count_only_even_when_others_have_zones() {
    var zoned = nodeWithPods("zoned", Map.of(SelectorSpreadScorer.ZONE_LABEL, "z"), List.of(matching("a")));
    var bare = plain("bare", matching("b"), matching("c"));
    // bare: 100 * (2 - 2) / 2 = 0; zoned: 50 / 3 + 2/3 * 0 = 16
    assertEquals(List.of(16L, 0L), scores(new SelectorSpreadScorer(), pod(NS), List.of(zoned, bare)));
  }

  @Test
  void the_zone_key_prefers_the_beta_labels_and_includes_the_region() {
    var beta = NodeInfo.builder("n").labels(Map.of(
        SelectorSpreadScorer.BETA_ZONE_LABEL, "b", SelectorSpreadScorer.ZONE_LABEL, "z",
        SelectorSpreadScorer.REGION_LABEL, "r")).build();
    assertEquals("r:\0:b", SelectorSpreadScorer.zoneKey(beta));
    assertEquals("", SelectorSpreadScorer.zoneKey(NodeInfo.builder("bare").build()));
  }

  @Test
  void the_unprepared_scorer_refuses_to_score() {
    var e = assertThrows(IllegalStateException.class,
        () -> new SelectorSpreadScorer().score(pod(NS), plain("node1")));
    assertEquals("SelectorSpread scores only through prepare(pod, feasibleNodes, cluster)", e.getMessage());
  }

  @Test
  void normalising_another_number_of_scores_than_nodes_is_refused() {
    var prepared = new SelectorSpreadScorer().prepare(pod(NS), List.of(plain("node1")), ClusterSnapshot.of(List.of(plain("node1"))));
    var e = assertThrows(IllegalArgumentException.class,
        () -> ((ScoreNormalizer) prepared).normalize(pod(NS), List.of(plain("node1")), new long[2]));
    assertEquals("SelectorSpread was asked to normalise 2 scores for 1 nodes", e.getMessage());
  }
}
