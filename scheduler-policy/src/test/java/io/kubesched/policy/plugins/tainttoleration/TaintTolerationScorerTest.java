package io.kubesched.policy.plugins.tainttoleration;

import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.api.TaintEffect.PREFER_NO_SCHEDULE;
import static io.kubesched.policy.plugins.ScorerFixtures.preferNoSchedule;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static io.kubesched.policy.plugins.ScorerFixtures.taintedNode;
import static io.kubesched.policy.plugins.ScorerFixtures.tolerateEqual;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.Toleration;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestTaintTolerationScore} (tainttoleration/taint_toleration_test.go, 1.37), case by
 * case, after normalisation, and edge cases. Kube's cases for the alpha {@code Gt}/{@code Lt} toleration
 * operators have no counterpart: this model has only {@code Equal} and {@code Exists}.
 */
class TaintTolerationScorerTest {

  static PodInfo podTolerating(Toleration... tolerations) {
    return PodInfo.builder("default", "pod1").tolerations(List.of(tolerations)).build();
  }

  static Stream<Arguments> kubeCases() {
    var armPrefer = preferNoSchedule("cpu-type", "arm64");
    var ssdPrefer = preferNoSchedule("disk-type", "ssd");
    return Stream.of(
        row("node with taints tolerated by the pod, gets a higher score than those node with intolerable "
                + "taints",
            podTolerating(tolerateEqual("foo", "bar", PREFER_NO_SCHEDULE)),
            List.of(
                taintedNode("nodeA", List.of(preferNoSchedule("foo", "bar"))),
                taintedNode("nodeB", List.of(preferNoSchedule("foo", "blah")))),
            100, 0),
        row("the nodes that all of their taints are tolerated by the pod, get the same score, no matter how "
                + "many tolerable taints a node has",
            podTolerating(
                tolerateEqual("cpu-type", "arm64", PREFER_NO_SCHEDULE),
                tolerateEqual("disk-type", "ssd", PREFER_NO_SCHEDULE)),
            List.of(
                taintedNode("nodeA", List.of()),
                taintedNode("nodeB", List.of(armPrefer)),
                taintedNode("nodeC", List.of(armPrefer, ssdPrefer))),
            100, 100, 100),
        row("the more intolerable taints a node has, the lower score it gets.",
            podTolerating(tolerateEqual("foo", "bar", PREFER_NO_SCHEDULE)),
            List.of(
                taintedNode("nodeA", List.of()),
                taintedNode("nodeB", List.of(armPrefer)),
                taintedNode("nodeC", List.of(armPrefer, ssdPrefer))),
            100, 50, 0),
        row("only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations "
                + "priority function",
            podTolerating(
                tolerateEqual("cpu-type", "arm64", NO_SCHEDULE),
                tolerateEqual("disk-type", "ssd", NO_SCHEDULE)),
            List.of(
                taintedNode("nodeA", List.of()),
                taintedNode("nodeB", List.of(new Taint("cpu-type", "arm64", NO_SCHEDULE))),
                taintedNode("nodeC", List.of(armPrefer, ssdPrefer))),
            100, 100, 0),
        row("Default behaviour No taints and tolerations, lands on node with no taints",
            podTolerating(),
            List.of(taintedNode("nodeA", List.of()), taintedNode("nodeB", List.of(armPrefer))),
            100, 0));
  }

  static Arguments row(String name, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(String name, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new TaintTolerationScorer(), pod, nodes));
  }

  @Test
  void a_toleration_without_effect_tolerates_prefer_no_schedule_taints() {
    var pod = podTolerating(new Toleration("foo", Toleration.Operator.EXISTS, "", null));
    assertEquals(0, new TaintTolerationScorer().score(pod, taintedNode("n", List.of(preferNoSchedule("foo", "x")))));
  }

  @Test
  void nodes_without_taints_all_score_100() {
    assertEquals(List.of(100L, 100L),
        scores(new TaintTolerationScorer(), podTolerating(),
            List.of(taintedNode("a", List.of()), taintedNode("b", List.of()))));
  }

  @Test
  void many_untolerated_taints_scale_against_the_worst_node() {
    var many = new ArrayList<Taint>();
    for (int i = 0; i < 1000; i++) {
      many.add(preferNoSchedule("k" + i, "v"));
    }
    var pod = podTolerating();
    // 100 * 3 / 1000 = 0 (rounded down), reversed: 100; the worst node 0
    assertEquals(List.of(100L, 0L, 100L),
        scores(new TaintTolerationScorer(), pod,
            List.of(taintedNode("few", many.subList(0, 3)), taintedNode("many", many), taintedNode("none", List.of()))));
    assertEquals(1000, new TaintTolerationScorer().score(pod, taintedNode("many", many)));
  }
}
