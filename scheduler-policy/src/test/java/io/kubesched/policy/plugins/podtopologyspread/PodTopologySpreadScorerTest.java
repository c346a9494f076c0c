package io.kubesched.policy.plugins.podtopologyspread;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kube-scheduler 1.37's {@code podtopologyspread/scoring_test.go}, ported case by case under kube's case names
 * ({@code TestPreScoreSkip}, {@code TestPreScoreStateEmptyNodes}, {@code TestPodTopologySpreadScore}).
 *
 * <p>Not ported: {@code TestPodTopologySpreadScore}'s "matchLabelKeys ignored when feature gate disabled" (it
 * runs with the MatchLabelKeysInPodTopologySpread gate off; 1.37 has it on by default) and the benchmark. Where
 * a kube case runs with a gate off but sets nothing the gate governs, it is ported: its result is the same with
 * the gate on.
 */
class PodTopologySpreadScorerTest {

  // ---------------------------------------------------------------- TestPreScoreSkip

  @ParameterizedTest(name = "{0}")
  @MethodSource("preScoreSkipCases")
  void TestPreScoreSkip(Case tt) {
    var cluster = tt.cluster();
    var scorer = new PodTopologySpreadScorer(tt.config.args()).prepare(tt.pod(), tt.feasibleNodes(cluster), cluster);
    assertFalse(scorer instanceof PodTopologySpreadScorer.Prepared, "PreScore skips: " + scorer);
    for (var node : tt.feasibleNodes(cluster)) {
      assertEquals(0, scorer.score(tt.pod(), node));
    }
  }

  // ---------------------------------------------------------------- TestPreScoreStateEmptyNodes

  @ParameterizedTest(name = "{0}")
  @MethodSource("preScoreStateEmptyNodesCases")
  void TestPreScoreStateEmptyNodes(Case tt) {
    var cluster = tt.cluster();
    var scorer = new PodTopologySpreadScorer(tt.config.args()).prepare(tt.pod(), tt.feasibleNodes(cluster), cluster);
    var got = assertInstanceOf(PodTopologySpreadScorer.Prepared.class, scorer);
    var want = tt.wantPreScoreState;
    assertNotNull(want);
    assertConstraints(want.constraints, got.constraints());
    assertEquals(want.ignoredNodes, got.state().ignoredNodes(), "IgnoredNodes");
    assertEquals(want.topologyValueToPodCounts, got.state().counts(), "TopologyValueToPodCounts");
    assertEquals(
        want.topologyNormalizingWeight,
        Arrays.stream(got.state().weights()).boxed().toList(),
        "TopologyNormalizingWeight");
  }

  // ---------------------------------------------------------------- TestPodTopologySpreadScore

  /** Kube's runner: system defaulting; PreScore over {@code nodes}, Score each, NormalizeScore. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("podTopologySpreadScoreCases")
  void TestPodTopologySpreadScore(Case tt) {
    var cluster = tt.cluster();
    var feasible = tt.feasibleNodes(cluster);
    var scorer = new PodTopologySpreadScorer().prepare(tt.pod(), feasible, cluster);
    var scores = new long[feasible.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = scorer.score(tt.pod(), feasible.get(i));
    }
    assertInstanceOf(ScoreNormalizer.class, scorer).normalize(tt.pod(), feasible, scores);
    assertArrayEquals(tt.wantScores.stream().mapToLong(s -> s.score).toArray(), scores,
        () -> "want " + tt.wantScores + ", got " + Arrays.toString(scores));
    assertEquals(tt.wantScores.stream().map(s -> s.name).toList(), feasible.stream().map(n -> n.name()).toList());
  }

  // ---------------------------------------------------------------- beyond kube's tables

  @Test
  void scoresOnlyThroughPrepare() {
    assertThrows(IllegalStateException.class,
        () -> new PodTopologySpreadScorer().score(makePod().obj(), makeNode().obj()));
  }

  @Test
  void aSnapshotWithoutNodesIsSkipped() {
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj();
    var scorer = new PodTopologySpreadScorer().prepare(pod, List.of(), ClusterSnapshot.of(List.of()));
    assertFalse(scorer instanceof PodTopologySpreadScorer.Prepared);
  }

  @Test
  void normalizingAnotherNumberOfScoresThanNodesIsRefused() {
    var node = makeNode().name("node-a").label("zone", "z1").obj();
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj();
    var scorer = new PodTopologySpreadScorer()
        .prepare(pod, List.of(node), ClusterSnapshot.of(List.of(node)));
    var e = assertThrows(IllegalArgumentException.class,
        () -> ((ScoreNormalizer) scorer).normalize(pod, List.of(node), new long[2]));
    assertEquals("PodTopologySpread was asked to normalise 2 scores for 1 nodes", e.getMessage());
  }

  @Test
  void readsWorkloadSelectorsOnlyWithDefaultConstraints() {
    assertEquals(TopologySpreading.WORKLOAD_SELECTORS, new PodTopologySpreadScorer().reads());
    assertEquals(Set.of(), new PodTopologySpreadScorer(PodTopologySpreadArgs.list(List.of())).reads());
  }

  // ---------------------------------------------------------------- the tables

  static Stream<Case> preScoreSkipCases() {
    return Stream.of(
        preScoreSkip0(), preScoreSkip1());
  }

  private static Case preScoreSkip0() {
    return tc()
        .name("the pod doesn't have soft topology spread Constraints")
        .pod(makePod().name("p").namespace("default").obj())
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj()));
  }

  private static Case preScoreSkip1() {
    return tc()
        .name("default constraints and a replicaset that doesn't match")
        .pod(makePod().name("p").namespace("default").label("foo", "bar").label("baz", "sup").ownerReference("rs2", "ReplicaSet").obj())
        .config(podTopologySpreadArgs()
            .defaultConstraints(List.of(defaultConstraint(2, "planet", SCHEDULE_ANYWAY)))
            .defaultingType(LIST))
        .nodes(List.of(makeNode().name("node-a").label("planet", "mars").obj()))
        .objs(List.of(replicaSet()
            .objectMeta(objectMeta().namespace("default").name("rs1"))
            .spec(replicaSetSpec().selector(makeLabelSelector().exists("tar").obj()))));
  }

  static Stream<Case> preScoreStateEmptyNodesCases() {
    return Stream.of(
        preScoreStateEmptyNodes0(), preScoreStateEmptyNodes1(), preScoreStateEmptyNodes2(), preScoreStateEmptyNodes3(), preScoreStateEmptyNodes4(),
        preScoreStateEmptyNodes5(), preScoreStateEmptyNodes6(), preScoreStateEmptyNodes7(), preScoreStateEmptyNodes8(), preScoreStateEmptyNodes9(),
        preScoreStateEmptyNodes10(), preScoreStateEmptyNodes11());
  }

  private static Case preScoreStateEmptyNodes0() {
    return tc()
        .name("normal case")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, HOSTNAME, fooSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L), longs()))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2), topologyNormalizingWeight(3))));
  }

  private static Case preScoreStateEmptyNodes1() {
    return tc()
        .name("null selector")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, null, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", null, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))));
  }

  private static Case preScoreStateEmptyNodes2() {
    return tc()
        .name("node-x doesn't have label zone")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, HOSTNAME, barSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of("node-x"))
            .topologyValueToPodCounts(List.of(longs("zone1", 0L), longs()))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(1), topologyNormalizingWeight(2))));
  }

  private static Case preScoreStateEmptyNodes3() {
    return tc()
        .name("system default constraints and a replicaset")
        .pod(makePod().name("p").namespace("default").label("foo", "tar").label("baz", "sup").ownerReference("rs1", "ReplicaSet").obj())
        .config(podTopologySpreadArgs().defaultingType(SYSTEM))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").label(ZONE, "mars").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").label(ZONE, "mars").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .objs(List.of(replicaSet()
            .objectMeta(objectMeta().namespace("default").name("rs1"))
            .spec(replicaSetSpec().selector(fooSelector))))
        .want(preScoreState()
            .constraints(List.of(
            tsc(3, HOSTNAME, fooSelector, 1, HONOR, IGNORE),
            tsc(5, ZONE, fooSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs(), longs("mars", 0L, "", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(4), topologyNormalizingWeight(2))));
  }

  private static Case preScoreStateEmptyNodes4() {
    return tc()
        .name("default constraints and a replicaset")
        .pod(makePod().name("p").namespace("default").label("foo", "tar").label("baz", "sup").ownerReference("rs1", "ReplicaSet").obj())
        .config(podTopologySpreadArgs()
            .defaultConstraints(List.of(
            defaultConstraint(1, HOSTNAME, SCHEDULE_ANYWAY),
            defaultConstraint(2, "rack", DO_NOT_SCHEDULE),
            defaultConstraint(2, "planet", SCHEDULE_ANYWAY)))
            .defaultingType(LIST))
        .nodes(List.of(makeNode().name("node-a").label("rack", "rack1").label(HOSTNAME, "node-a").label("planet", "mars").obj()))
        .objs(List.of(replicaSet()
            .objectMeta(objectMeta().namespace("default").name("rs1"))
            .spec(replicaSetSpec().selector(fooSelector))))
        .want(preScoreState()
            .constraints(List.of(
            tsc(1, HOSTNAME, fooSelector, 1, HONOR, IGNORE),
            tsc(2, "planet", fooSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs(), longs("mars", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(1), topologyNormalizingWeight(1))));
  }

  private static Case preScoreStateEmptyNodes5() {
    return tc()
        .name("default constraints and a replicaset, but pod has constraints")
        .pod(makePod().name("p").namespace("default").label("foo", "bar").label("baz", "sup").ownerReference("rs1", "ReplicaSet")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, barSelector, null, null, null, null)
            .spreadConstraint(2, "planet", SCHEDULE_ANYWAY, makeLabelSelector().label("baz", "sup").obj(), null, null, null, null).obj())
        .config(podTopologySpreadArgs()
            .defaultConstraints(List.of(defaultConstraint(2, "galaxy", SCHEDULE_ANYWAY)))
            .defaultingType(LIST))
        .nodes(List.of(makeNode().name("node-a").label("planet", "mars").label("galaxy", "andromeda").obj()))
        .objs(List.of(replicaSet()
            .objectMeta(objectMeta().namespace("default").name("rs1"))
            .spec(replicaSetSpec().selector(fooSelector))))
        .want(preScoreState()
            .constraints(List.of(tsc(2, "planet", makeLabelSelector().label("baz", "sup").obj(), 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("mars", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(1))));
  }

  private static Case preScoreStateEmptyNodes6() {
    return tc()
        .name("NodeAffinityPolicy honored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preScoreStateEmptyNodes7() {
    return tc()
        .name("NodeAffinityPolicy ignored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, IGNORE, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preScoreStateEmptyNodes8() {
    return tc()
        .name("NodeAffinityPolicy honored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preScoreStateEmptyNodes9() {
    return tc()
        .name("NodeAffinityPolicy ignored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, IGNORE, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preScoreStateEmptyNodes10() {
    return tc()
        .name("NodeTaintsPolicy honored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").taints(taints).obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, HONOR, HONOR)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preScoreStateEmptyNodes11() {
    return tc()
        .name("NodeTaintsPolicy ignored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("foo", "").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").taints(taints).obj()))
        .config(podTopologySpreadArgs().defaultingType(LIST))
        .want(preScoreState()
            .constraints(List.of(tsc(1, "zone", barSelector, 1, HONOR, IGNORE)))
            .ignoredNodes(Set.of())
            .topologyValueToPodCounts(List.of(longs("zone1", 0L, "zone2", 0L)))
            .topologyNormalizingWeight(List.of(topologyNormalizingWeight(2))))
        .enableNodeInclusionPolicy(true);
  }

  static Stream<Case> podTopologySpreadScoreCases() {
    return Stream.of(
        podTopologySpreadScore0(), podTopologySpreadScore1(), podTopologySpreadScore2(), podTopologySpreadScore3(), podTopologySpreadScore4(),
        podTopologySpreadScore5(), podTopologySpreadScore6(), podTopologySpreadScore7(), podTopologySpreadScore8(), podTopologySpreadScore9(),
        podTopologySpreadScore10(), podTopologySpreadScore11(), podTopologySpreadScore12(), podTopologySpreadScore13(), podTopologySpreadScore14(),
        podTopologySpreadScore15(), podTopologySpreadScore16(), podTopologySpreadScore17(), podTopologySpreadScore18(), podTopologySpreadScore19(),
        podTopologySpreadScore20(), podTopologySpreadScore21(), podTopologySpreadScore22(), podTopologySpreadScore23(), podTopologySpreadScore24(),
        podTopologySpreadScore25(), podTopologySpreadScore26());
  }

  private static Case podTopologySpreadScore0() {
    return tc()
        .name("one constraint on node, no existing pods")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj()))
        .want(List.of(nodeScore().name("node-a").score(100), nodeScore().name("node-b").score(100)));
  }

  private static Case podTopologySpreadScore1() {
    return tc()
        .name("one constraint on node, only one node is candidate")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj()))
        .nodes(List.of(makeNode().name("node-a").label(HOSTNAME, "node-a").obj()))
        .failedNodes(List.of(makeNode().name("node-b").label(HOSTNAME, "node-b").obj()))
        .want(List.of(nodeScore().name("node-a").score(100)));
  }

  private static Case podTopologySpreadScore2() {
    return tc()
        .name("one constraint on node, all nodes have the same number of matching pods")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj()))
        .want(List.of(nodeScore().name("node-a").score(100), nodeScore().name("node-b").score(100)));
  }

  private static Case podTopologySpreadScore3() {
    return tc()
        .name("one constraint on node, all 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-d1").node("node-d").label("foo", "").obj(),
            makePod().name("p-d2").node("node-d").label("foo", "").obj(),
            makePod().name("p-d3").node("node-d").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .failedNodes(List.of())
        .want(List.of(
            nodeScore().name("node-a").score(20),
            nodeScore().name("node-b").score(60),
            nodeScore().name("node-c").score(100),
            nodeScore().name("node-d").score(0)));
  }

  private static Case podTopologySpreadScore4() {
    return tc()
        .name("one constraint on node, null selector")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, null, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-d1").node("node-d").label("foo", "").obj(),
            makePod().name("p-d2").node("node-d").label("foo", "").obj(),
            makePod().name("p-d3").node("node-d").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(100),
            nodeScore().name("node-b").score(100),
            nodeScore().name("node-c").score(100),
            nodeScore().name("node-d").score(100)));
  }

  private static Case podTopologySpreadScore5() {
    return tc()
        .name("one constraint on node, all 4 nodes are candidates, maxSkew=2")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-d1").node("node-d").label("foo", "").obj(),
            makePod().name("p-d2").node("node-d").label("foo", "").obj(),
            makePod().name("p-d3").node("node-d").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .failedNodes(List.of())
        .want(List.of(
            nodeScore().name("node-a").score(33),
            nodeScore().name("node-b").score(66),
            nodeScore().name("node-c").score(100),
            nodeScore().name("node-d").score(16)));
  }

  private static Case podTopologySpreadScore6() {
    return tc()
        .name("one constraint on node, all 4 nodes are candidates, maxSkew=3")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(3, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-a3").node("node-a").label("foo", "").obj(),
            makePod().name("p-a4").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-b3").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj(),
            makePod().name("p-c2").node("node-c").label("foo", "").obj(),
            makePod().name("p-d1").node("node-d").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .failedNodes(List.of())
        .want(List.of(
            nodeScore().name("node-a").score(44),
            nodeScore().name("node-b").score(66),
            nodeScore().name("node-c").score(77),
            nodeScore().name("node-d").score(100)));
  }

  private static Case podTopologySpreadScore7() {
    return tc()
        .name("system defaulting, nodes don't have zone, pods match service")
        .pod(makePod().name("p").label("foo", "").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-a3").node("node-a").label("foo", "").obj(),
            makePod().name("p-a4").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-b3").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj(),
            makePod().name("p-c2").node("node-c").label("foo", "").obj(),
            makePod().name("p-d1").node("node-d").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label(HOSTNAME, "node-d").obj()))
        .failedNodes(List.of())
        .objs(List.of(service().spec(serviceSpec().selector(strs("foo", "")))))
        .want(List.of(
            nodeScore().name("node-a").score(44),
            nodeScore().name("node-b").score(66),
            nodeScore().name("node-c").score(77),
            nodeScore().name("node-d").score(100)));
  }

  private static Case podTopologySpreadScore8() {
    return tc()
        .name("one constraint on node, 3 out of 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-a3").node("node-a").label("foo", "").obj(),
            makePod().name("p-a4").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label(HOSTNAME, "node-x").obj()))
        .failedNodes(List.of(makeNode().name("node-y").label(HOSTNAME, "node-y").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(33),
            nodeScore().name("node-b").score(83),
            nodeScore().name("node-x").score(100)));
  }

  private static Case podTopologySpreadScore9() {
    return tc()
        .name("one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-a3").node("node-a").label("foo", "").obj(),
            makePod().name("p-a4").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("n", "node-b").obj(),
            makeNode().name("node-x").label(HOSTNAME, "node-x").obj()))
        .failedNodes(List.of(makeNode().name("node-y").label(HOSTNAME, "node-y").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(16),
            nodeScore().name("node-b").score(0),
            nodeScore().name("node-x").score(100)));
  }

  private static Case podTopologySpreadScore10() {
    return tc()
        .name("one constraint on zone, 3 out of 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-a3").node("node-a").label("foo", "").obj(),
            makePod().name("p-a4").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .failedNodes(List.of(makeNode().name("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(75),
            nodeScore().name("node-b").score(75),
            nodeScore().name("node-x").score(100)));
  }

  private static Case podTopologySpreadScore11() {
    return tc()
        .name("two Constraints on zone and node, 2 out of 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-x2").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .failedNodes(List.of(
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()))
        .want(List.of(nodeScore().name("node-a").score(100), nodeScore().name("node-x").score(63)));
  }

  private static Case podTopologySpreadScore12() {
    return tc()
        .name("two Constraints on zone, 2 out of 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").obj(),
            makeNode().name("node-x").label("zone", "zone2").obj()))
        .failedNodes(List.of(
            makeNode().name("node-b").label("zone", "zone1").obj(),
            makeNode().name("node-y").label("zone", "zone2").obj()))
        .want(List.of(nodeScore().name("node-a").score(85), nodeScore().name("node-x").score(100)));
  }

  private static Case podTopologySpreadScore13() {
    return tc()
        .name("two Constraints on zone and node, with different labelSelectors")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("bar", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()))
        .failedNodes(List.of())
        .want(List.of(
            nodeScore().name("node-a").score(60),
            nodeScore().name("node-b").score(20),
            nodeScore().name("node-x").score(100),
            nodeScore().name("node-y").score(60)));
  }

  private static Case podTopologySpreadScore14() {
    return tc()
        .name("two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("bar", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").label("bar", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()))
        .failedNodes(List.of())
        .want(List.of(
            nodeScore().name("node-a").score(100),
            nodeScore().name("node-b").score(60),
            nodeScore().name("node-x").score(40),
            nodeScore().name("node-y").score(0)));
  }

  private static Case podTopologySpreadScore15() {
    return tc()
        .name("two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, barSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("bar", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj()))
        .failedNodes(List.of(makeNode().name("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(50),
            nodeScore().name("node-b").score(25),
            nodeScore().name("node-x").score(100)));
  }

  private static Case podTopologySpreadScore16() {
    return tc()
        .name("existing pods in a different namespace do not count")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .existingPods(List.of(
            makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj()))
        .want(List.of(nodeScore().name("node-a").score(100), nodeScore().name("node-b").score(33)));
  }

  private static Case podTopologySpreadScore17() {
    return tc()
        .name("terminating Pods should be excluded")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label(HOSTNAME, "node-b").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
            makePod().name("p-b").node("node-b").label("foo", "").obj()))
        .want(List.of(nodeScore().name("node-a").score(100), nodeScore().name("node-b").score(0)));
  }

  private static Case podTopologySpreadScore18() {
    return tc()
        .name("minDomains has no effect when ScheduleAnyway")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "node", SCHEDULE_ANYWAY, fooSelector, 10, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(75),
            nodeScore().name("node-b").score(75),
            nodeScore().name("node-c").score(100)));
  }

  private static Case podTopologySpreadScore19() {
    return tc()
        .name("NodeAffinityPolicy honoed with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(0),
            nodeScore().name("node-b").score(33),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore20() {
    return tc()
        .name("NodeAffinityPolicy ignored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(66),
            nodeScore().name("node-b").score(100),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore21() {
    return tc()
        .name("NodeAffinityPolicy honoed with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(0),
            nodeScore().name("node-b").score(33),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore22() {
    return tc()
        .name("NodeAffinityPolicy ignored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(66),
            nodeScore().name("node-b").score(100),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore23() {
    return tc()
        .name("NodeTaintsPolicy honored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(0),
            nodeScore().name("node-b").score(33),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore24() {
    return tc()
        .name("NodeTaintsPolicy ignored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(66),
            nodeScore().name("node-b").score(100),
            nodeScore().name("node-c").score(100)))
        .enableNodeInclusionPolicy(true);
  }

  private static Case podTopologySpreadScore25() {
    return tc()
        .name("matchLabelKeys ANDed with LabelSelector when LabelSelector is empty")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, makeLabelSelector().obj(), null, null, null, List.of("foo"))
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, makeLabelSelector().obj(), null, null, null, List.of("bar")).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-c").label("foo", "").obj(),
            makePod().name("p-y2").node("node-c").label("bar", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label("zone", "zone2").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label("zone", "zone2").label(HOSTNAME, "node-d").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(60),
            nodeScore().name("node-b").score(20),
            nodeScore().name("node-c").score(60),
            nodeScore().name("node-d").score(100)))
        .enableMatchLabelKeys(true);
  }

  private static Case podTopologySpreadScore26() {
    return tc()
        .name("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty")
        .pod(makePod().name("p").label("foo", "").label("bar", "").label("baz", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, HOSTNAME, SCHEDULE_ANYWAY, barSelector, null, null, null, List.of("baz")).obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").label("baz", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj(),
            makePod().name("p-c2").node("node-c").label("bar", "").obj(),
            makePod().name("p-d3").node("node-c").label("bar", "").label("baz", "").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            makeNode().name("node-c").label("zone", "zone2").label(HOSTNAME, "node-c").obj(),
            makeNode().name("node-d").label("zone", "zone2").label(HOSTNAME, "node-d").obj()))
        .want(List.of(
            nodeScore().name("node-a").score(60),
            nodeScore().name("node-b").score(20),
            nodeScore().name("node-c").score(60),
            nodeScore().name("node-d").score(100)))
        .enableMatchLabelKeys(true);
  }
}
