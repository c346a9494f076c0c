package io.kubesched.policy.plugins.interpodaffinity;

import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.TEAM_NAMESPACES;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.cluster;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.doesNotExist;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.exists;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.in;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.node;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.notIn;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.pod;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.selector;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.term;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Node;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code interpodaffinity/scoring_test.go}, under kube's names: PreScore over
 * the snapshot, Score of every node, NormalizeScore. A kube PreScore {@code Skip} is a prepared scorer that
 * is {@link InterPodAffinityScorer.Skipped}, which scores every node 0 (what a skipped plugin adds).
 */
class InterPodAffinityScorerTest {

  private static final long MAX = Scorer.MAX_SCORE;

  private static final Map<String, String> RG_CHINA = Map.of("region", "China");
  private static final Map<String, String> RG_INDIA = Map.of("region", "India");
  private static final Map<String, String> AZ_AZ1 = Map.of("az", "az1");
  private static final Map<String, String> AZ_AZ2 = Map.of("az", "az2");
  private static final Map<String, String> RG_CHINA_AZ_AZ1 = Map.of("region", "China", "az", "az1");
  private static final Map<String, String> S1 = Map.of("security", "S1");
  private static final Map<String, String> S2 = Map.of("security", "S2");

  /** The expected result of kube's PreScore. */
  enum PreScore {
    SKIP,
    SUCCESS
  }

  static long[] scoresOf(InterPodAffinityScorer scorer, PodInfo pod, ClusterSnapshot cluster, PreScore preScore) {
    var prepared = scorer.prepare(pod, cluster.nodes(), cluster);
    assertEquals(preScore == PreScore.SKIP, prepared instanceof InterPodAffinityScorer.Skipped, "PreScore skipped");
    var scores = cluster.nodes().stream().mapToLong(node -> prepared.score(pod, node)).toArray();
    if (prepared instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, cluster.nodes(), scores);
    }
    return scores;
  }

  // ---------------------------------------------------------------- the affinities of TestPreferredAffinity

  private static Pod stayWithS1InRegion(Pod pod) {
    return pod.preferredAffinity(weighted(5, term(selector(in("security", "S1")), "region")));
  }

  private static Pod stayWithS2InRegion(Pod pod) {
    return pod.preferredAffinity(weighted(6, term(selector(in("security", "S2")), "region")));
  }

  private static Pod affinity3(Pod pod) {
    return pod.preferredAffinity(
        weighted(8, term(selector(notIn("security", "S1"), in("security", "S2")), "region")),
        weighted(2, term(selector(exists("security"), doesNotExist("wrongkey")), "region")));
  }

  private static Pod hardAffinity(Pod pod) {
    return pod.affinity(
        term(selector(in("security", "S1", "value2")), "region"),
        term(selector(exists("security"), doesNotExist("wrongkey")), "region"));
  }

  private static Pod awayFromS1InAz(Pod pod) {
    return pod.preferredAntiAffinity(weighted(5, term(selector(in("security", "S1")), "az")));
  }

  private static Pod awayFromS2InAz(Pod pod) {
    return pod.preferredAntiAffinity(weighted(5, term(selector(in("security", "S2")), "az")));
  }

  private static Pod stayWithS1InRegionAwayFromS2InAz(Pod pod) {
    return pod.preferredAffinity(weighted(8, term(selector(in("security", "S1")), "region")))
        .preferredAntiAffinity(weighted(5, term(selector(in("security", "S2")), "az")));
  }

  private static Pod affinityNamespaceSelector(Pod pod) {
    return pod.preferredAffinity(weighted(5, term(selector(in("security", "S1")), "region",
        Set.of("subteam2.team2"), selector(in("team", "team1")))));
  }

  private static Pod antiAffinityNamespaceSelector(Pod pod) {
    return pod.preferredAntiAffinity(weighted(5, term(selector(in("security", "S1")), "region",
        Set.of("subteam2.team2"), selector(in("team", "team1")))));
  }

  private static Pod affinityNegativeNamespaceSelector(Pod pod) {
    return pod.preferredAffinity(weighted(5, term(selector(in("security", "S1")), "region",
        Set.of(), selector(notIn("team", "team1")))));
  }

  private static Pod antiAffinityNegativeNamespaceSelector(Pod pod) {
    return pod.preferredAntiAffinity(weighted(5, term(selector(in("security", "S1")), "region",
        Set.of(), selector(notIn("team", "team1")))));
  }

  private static Pod on(String node, Map<String, String> labels) {
    return pod().node(node).labels(labels);
  }

  private static Pod on(String node, String namespace, Map<String, String> labels) {
    return pod().node(node).namespace(namespace).labels(labels);
  }

  @SafeVarargs
  private static List<Node> nodes(Map<String, String>... labels) {
    var nodes = new ArrayList<Node>();
    for (int i = 0; i < labels.length; i++) {
      nodes.add(node("node" + (i + 1), labels[i]));
    }
    return nodes;
  }

  private static Arguments preferred(
      String name, Pod pod, List<Pod> pods, List<Node> nodes, boolean ignore, PreScore preScore, long... expected) {
    return argumentSet(name, pod, pods, nodes, ignore, preScore, expected);
  }

  private static Arguments preferred(String name, Pod pod, List<Pod> pods, List<Node> nodes, long... expected) {
    return preferred(name, pod, pods, nodes, false, PreScore.SUCCESS, expected);
  }

  static Stream<Arguments> preferredAffinity() {
    var chinaIndiaAz1 = nodes(RG_CHINA, RG_INDIA, AZ_AZ1);
    var chinaIndia = nodes(RG_CHINA, RG_INDIA);
    var namespacePods = List.of(
        on("node1", "subteam1.team1", S1), on("node1", "subteam1.team1", S1), on("node1", "subteam1.team2", S1),
        on("node2", "subteam2.team1", S1));
    var bothFieldsPods = List.of(
        on("node1", "subteam1.team1", S1), on("node1", "subteam1.team1", S1), on("node1", "subteam2.team2", S1),
        on("node2", "subteam2.team1", S1));
    var negativePods = List.of(
        on("node1", "subteam1.team1", S1), on("node1", "subteam1.team1", S1), on("node2", "subteam1.team2", S1));
    return Stream.of(
        preferred(
            "all nodes are same priority as Affinity is nil",
            pod().labels(S1), List.of(), chinaIndiaAz1, false, PreScore.SKIP, 0, 0, 0),
        preferred(
            "Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
                + "which doesn't match either pods in nodes or in topology key",
            stayWithS1InRegion(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S2), on("node3", S1)),
            chinaIndiaAz1, MAX, 0, 0),
        preferred(
            "All the nodes that have the same topology key & label value with one of them has an existing pod"
                + " that match the affinity rules, have the same score",
            stayWithS1InRegion(pod()),
            List.of(on("node1", S1)),
            nodes(RG_CHINA, RG_CHINA_AZ_AZ1, RG_INDIA), MAX, MAX, 0),
        preferred(
            "Affinity: nodes in one region has more matching pods comparing to other region, so the region which"
                + " has more matches will get high score",
            stayWithS2InRegion(pod().labels(S1)),
            List.of(on("node1", S2), on("node1", S2), on("node2", S2), on("node3", S2), on("node4", S2),
                on("node5", S2)),
            nodes(RG_CHINA, RG_INDIA, RG_CHINA, RG_CHINA, RG_INDIA), MAX, 0, MAX, MAX, 0),
        preferred(
            "Affinity: different Label operators and values for pod affinity scheduling preference, including"
                + " some match failures ",
            affinity3(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S2), on("node3", S1)),
            chinaIndiaAz1, 20, MAX, 0),
        preferred(
            "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod"
                + " affinity symmetry",
            pod().labels(S2),
            List.of(stayWithS1InRegion(on("node1", S1)), stayWithS2InRegion(on("node2", S2))),
            chinaIndiaAz1, 0, MAX, 0),
        preferred(
            "Affinity symmetry with namespace selector",
            pod().namespace("subteam1.team1").labels(S1),
            List.of(affinityNamespaceSelector(on("node1", S1)), stayWithS2InRegion(on("node2", S2))),
            chinaIndiaAz1, MAX, 0, 0),
        preferred(
            "AntiAffinity symmetry with namespace selector",
            pod().namespace("subteam1.team1").labels(S1),
            List.of(antiAffinityNamespaceSelector(on("node1", S1)), stayWithS2InRegion(on("node2", S2))),
            chinaIndiaAz1, 0, MAX, MAX),
        preferred(
            "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity"
                + " symmetry",
            pod().labels(S1),
            List.of(hardAffinity(on("node1", S1)), hardAffinity(on("node2", S2))),
            chinaIndiaAz1, MAX, MAX, 0),
        preferred(
            "Anti Affinity: pod that does not match existing pods in node will get high score ",
            awayFromS1InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S2)),
            nodes(AZ_AZ1, RG_CHINA), 0, MAX),
        preferred(
            "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score"
                + " comparing to others ",
            awayFromS1InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S1)),
            nodes(AZ_AZ1, RG_CHINA), 0, MAX),
        preferred(
            "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more"
                + " unmatches will get high score",
            awayFromS1InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node1", S1), on("node2", S2)),
            nodes(AZ_AZ1, RG_INDIA), 0, MAX),
        preferred(
            "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
            pod().labels(S2),
            List.of(awayFromS2InAz(on("node1", S1)), awayFromS1InAz(on("node2", S2))),
            nodes(AZ_AZ1, AZ_AZ2), 0, MAX),
        preferred(
            "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both"
                + " pod affinity & anti affinity",
            stayWithS1InRegionAwayFromS2InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S1)),
            nodes(RG_CHINA, AZ_AZ1), MAX, 0),
        preferred(
            "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and"
                + " existing pods have the same labels",
            stayWithS1InRegionAwayFromS2InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node1", S1), on("node2", S1), on("node3", S1), on("node3", S1),
                on("node4", S1), on("node5", S1)),
            nodes(RG_CHINA_AZ_AZ1, RG_INDIA, RG_CHINA, RG_CHINA, RG_INDIA), MAX, 0, MAX, MAX, 0),
        preferred(
            "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution"
                + " in both pod affinity & anti affinity & symmetry",
            stayWithS1InRegionAwayFromS2InAz(pod().labels(S1)),
            List.of(on("node1", S1), on("node2", S2), stayWithS1InRegionAwayFromS2InAz(pod().node("node3")),
                awayFromS1InAz(pod().node("node4"))),
            nodes(RG_CHINA, AZ_AZ1, RG_INDIA, AZ_AZ2), MAX, 0, MAX, 0),
        preferred(
            "Avoid panic when partial nodes in a topology don't have pods with affinity",
            pod().labels(S1),
            List.of(on("node1", S1), stayWithS1InRegionAwayFromS2InAz(pod().node("node2"))),
            nodes(RG_CHINA, RG_CHINA), 0, 0),
        preferred(
            "Affinity with pods matching NamespaceSelector",
            affinityNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            namespacePods, chinaIndia, MAX, 0),
        preferred(
            "Affinity with pods matching both NamespaceSelector and Namespaces fields",
            affinityNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            bothFieldsPods, chinaIndia, MAX, 0),
        preferred(
            "Affinity with pods matching NamespaceSelector",
            antiAffinityNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            namespacePods, chinaIndia, 0, MAX),
        preferred(
            "Affinity with pods matching both NamespaceSelector and Namespaces fields",
            antiAffinityNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            bothFieldsPods, chinaIndia, 0, MAX),
        preferred(
            "Affinity with pods correctly enforcing negative NamespaceSelector",
            affinityNegativeNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            negativePods, chinaIndia, 0, MAX),
        preferred(
            "AntiAffinity with pods correctly enforcing negative NamespaceSelector",
            antiAffinityNegativeNamespaceSelector(pod().namespace("subteam1.team1").labels(S1)),
            negativePods, chinaIndia, MAX, 0),
        preferred(
            "Ignore preferred terms of existing pods",
            pod().labels(S2),
            List.of(stayWithS1InRegionAwayFromS2InAz(on("node1", S1)), stayWithS2InRegion(on("node2", S2))),
            chinaIndia, true, PreScore.SKIP, 0, 0),
        preferred(
            "Do not ignore preferred terms of existing pods",
            pod().labels(S2),
            List.of(stayWithS1InRegionAwayFromS2InAz(on("node1", S1)), stayWithS2InRegion(on("node2", S2))),
            chinaIndia, false, PreScore.SUCCESS, 0, MAX),
        preferred("No nodes to score", pod().labels(S2), List.of(), List.of(), false, PreScore.SKIP));
  }

  @ParameterizedTest
  @MethodSource
  void preferredAffinity(
      Pod pod, List<Pod> pods, List<Node> nodes, boolean ignore, PreScore preScore, long[] expected) {
    var scorer = new InterPodAffinityScorer(1, ignore);
    assertArrayEquals(expected, scoresOf(scorer, pod.build(), cluster(nodes, pods, TEAM_NAMESPACES), preScore));
  }

  // ------------------------------------------------ TestPreferredAffinityWithHardPodAffinitySymmetricWeight

  private static Pod hardPodAffinity(Pod pod) {
    return pod.affinity(term(selector(in("service", "S1")), "region", Set.of("", "subteam2.team2"),
        selector(in("team", "team1"))));
  }

  private static Arguments hard(String name, String namespace, int weight, PreScore preScore, long... expected) {
    return argumentSet(name, namespace, weight, preScore, expected);
  }

  static Stream<Arguments> preferredAffinityWithHardPodAffinitySymmetricWeight() {
    return Stream.of(
        hard("with default weight", "", 1, PreScore.SUCCESS, MAX, MAX, 0),
        hard("with zero weight", "", 0, PreScore.SKIP, 0, 0, 0),
        hard("with no matching namespace", "subteam1.team2", 1, PreScore.SKIP, 0, 0, 0),
        hard("with matching NamespaceSelector", "subteam1.team1", 1, PreScore.SUCCESS, MAX, MAX, 0),
        hard("with matching Namespaces", "subteam2.team2", 1, PreScore.SUCCESS, MAX, MAX, 0));
  }

  @ParameterizedTest
  @MethodSource
  void preferredAffinityWithHardPodAffinitySymmetricWeight(
      String namespace, int weight, PreScore preScore, long[] expected) {
    var pod = pod().namespace(namespace).labels(Map.of("service", "S1")).build();
    var cluster = cluster(
        nodes(RG_CHINA, RG_INDIA, AZ_AZ1),
        List.of(hardPodAffinity(pod().node("node1")), hardPodAffinity(pod().node("node2"))),
        TEAM_NAMESPACES);
    assertArrayEquals(expected, scoresOf(new InterPodAffinityScorer(weight, false), pod, cluster, preScore));
  }

  // ---------------------------------------------------------------- beyond kube's tables

  @Test
  @DisplayName("the raw score sums the weights of the node's domains: +preferred, -anti, +hard weight")
  void rawScoresAreWeightSums() {
    var pod = stayWithS1InRegionAwayFromS2InAz(pod().labels(Map.of("app", "web"))).build();
    var cluster = cluster(
        nodes(RG_CHINA_AZ_AZ1, RG_CHINA, Map.of()),
        List.of(on("node1", S1), on("node1", S2), on("node2", S1),
            pod().node("node2").affinity(term(selector(exists("app")), "region")),
            on("node3", S1)),
        Map.of());
    var prepared = assertInstanceOf(
        InterPodAffinityScorer.Prepared.class, new InterPodAffinityScorer(7, false).prepare(pod, List.of(), cluster));

    // region China: 8 + 8 (two S1 pods) + 7 (a required term selecting the pod); az1: -5 (the S2 pod).
    // node3 has no labels: its pods count nothing.
    assertEquals(Map.of("region", Map.of("China", 23L), "az", Map.of("az1", -5L)), prepared.weights());
    var nodes = cluster.nodes();
    assertEquals(18, prepared.score(pod, nodes.get(0)));
    assertEquals(23, prepared.score(pod, nodes.get(1)));
    assertEquals(0, prepared.score(pod, nodes.get(2)));
  }

  @Test
  @DisplayName("normalisation maps the lowest raw score to 0 and the highest to 100, truncating")
  void normalisation() {
    long[] scores = {-5, 0, 10, 25};
    InterPodAffinityScorer.normalizeScores(scores);
    assertArrayEquals(new long[] {0, 16, 50, 100}, scores);
    long[] equal = {7, 7};
    InterPodAffinityScorer.normalizeScores(equal);
    assertArrayEquals(new long[] {0, 0}, equal);
    long[] none = {};
    InterPodAffinityScorer.normalizeScores(none);
    assertEquals(0, none.length);
  }

  @Test
  @DisplayName("the arguments are kube's, validated as kube validates them")
  void arguments() {
    var defaults = new InterPodAffinityScorer();
    assertEquals(1, defaults.hardPodAffinityWeight());
    assertFalse(defaults.ignorePreferredTermsOfExistingPods());
    var custom = new InterPodAffinityScorer(100, true);
    assertEquals(100, custom.hardPodAffinityWeight());
    assertTrue(custom.ignorePreferredTermsOfExistingPods());
    assertEquals(0, new InterPodAffinityScorer(0, false).hardPodAffinityWeight());

    var tooHigh = assertThrows(IllegalArgumentException.class, () -> new InterPodAffinityScorer(101, false));
    assertEquals("hardPodAffinityWeight must be 0 to 100, was 101", tooHigh.getMessage());
    var negative = assertThrows(IllegalArgumentException.class, () -> new InterPodAffinityScorer(-1, false));
    assertEquals("hardPodAffinityWeight must be 0 to 100, was -1", negative.getMessage());
  }

  @Test
  @DisplayName("the plugin's name, what it reads, and that it scores only once prepared")
  void nameReadsAndUnprepared() {
    var scorer = new InterPodAffinityScorer();
    assertEquals("InterPodAffinity", scorer.name());
    assertEquals(Set.of(ClusterData.NAMESPACES), scorer.reads());
    var pod = pod().build();
    var node = NodeInfo.builder("n").build();
    assertThrows(IllegalStateException.class, () -> scorer.score(pod, node));
    var prepared = scorer.prepare(pod, List.of(node), ClusterSnapshot.of(List.of(node)));
    assertEquals("InterPodAffinity", prepared.name());
    assertEquals(Set.of(ClusterData.NAMESPACES), prepared.reads());
  }

  @Test
  @DisplayName("a Policy with the scorer places the pod beside the pods it prefers")
  void policyPrefersAffineDomain() {
    var pod = stayWithS1InRegion(pod().name("web")).build();
    var cluster = cluster(
        nodes(RG_INDIA, RG_CHINA, RG_INDIA, RG_CHINA_AZ_AZ1),
        List.of(on("node4", S1)),
        Map.of());
    var policy = Policy.builder().scorer(new InterPodAffinityScorer(), 2).seed(1).build();

    // node2 and node4 are in region China with the S1 pod; ties between them are broken at random.
    for (int i = 0; i < 20; i++) {
      var placed = pod.toBuilder().uid("web-" + i).build();
      var decision = assertInstanceOf(Decision.Bind.class, policy.find(placed, cluster));
      assertTrue(Set.of("node2", "node4").contains(decision.nodeName()), decision.nodeName());
    }
    assertEquals(Set.of(ClusterData.NAMESPACES), policy.reads());
  }
}
