package io.kubesched.samples.josdk.placement;

import static io.kubesched.samples.josdk.placement.TeamPacking.NEUTRAL;
import static io.kubesched.samples.josdk.placement.TeamPacking.TEAM_LABEL;
import static io.kubesched.policy.framework.Scorer.MAX_SCORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class TeamPackingTest {

  private static final long CPU = 1000;
  private static final long GI = 1L << 30;
  private final TeamPacking scorer = new TeamPacking();

  @Test
  void a_node_with_only_the_pods_team_scores_the_maximum() {
    assertEquals(MAX_SCORE, scorer.score(pod("new", "red"), node("n", pod("a", "red"), pod("b", "red"))));
  }

  @Test
  void a_node_with_only_other_teams_scores_zero() {
    assertEquals(0, scorer.score(pod("new", "red"), node("n", pod("a", "blue"), pod("b", "green"))));
  }

  @Test
  void a_node_without_team_pods_scores_neutral_whatever_unlabelled_pods_it_runs() {
    assertEquals(NEUTRAL, scorer.score(pod("new", "red"), node("empty")));
    assertEquals(NEUTRAL, scorer.score(pod("new", "red"), node("system", pod("dns", null), pod("proxy", null))));
  }

  @Test
  void a_mixed_node_scores_the_share_of_the_pods_team() {
    var node = node("n", pod("a", "red"), pod("b", "red"), pod("c", "red"), pod("d", "blue"), pod("e", null));
    assertEquals(75, scorer.score(pod("new", "red"), node));
    assertEquals(25, scorer.score(pod("new", "blue"), node));
  }

  @Test
  void a_pod_without_a_team_scores_every_node_neutral() {
    assertEquals(NEUTRAL, scorer.score(pod("new", null), node("n", pod("a", "red"))));
    assertEquals(NEUTRAL, scorer.score(pod("new", null), node("m", pod("a", "blue"))));
  }

  @Test
  void the_policy_is_the_default_profile_with_least_allocated_replaced_by_team_packing() {
    var scorers = TeamPacking.policy().scorers().stream().map(WeightedScorer::scorer).map(s -> s.name()).toList();
    assertFalse(scorers.contains(TeamPacking.REPLACED_SCORER), scorers.toString());
    assertTrue(scorers.contains("NodeResourcesBalancedAllocation"), scorers.toString());
    var teamPacking = TeamPacking.policy().scorers().stream()
        .filter(s -> s.scorer().name().equals(TeamPacking.NAME)).findFirst().orElseThrow();
    assertEquals(TeamPacking.WEIGHT, teamPacking.weight());
  }

  /** The end-to-end test's scene, decided pod by pod: two jobs' workers arriving interleaved on four nodes. */
  @Test
  void the_policy_packs_each_team_onto_the_fewest_nodes_and_keeps_the_teams_apart() {
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < 4; i++) {
      nodes.add(NodeInfo.builder("node-" + i).allocatable(4 * CPU, 8 * GI, 110).build());
    }
    var arrivals = new ArrayList<PodInfo>();
    for (int i = 0; i < 6; i++) {
      arrivals.add(pod("red-" + i, "red"));
      if (i < 3) {
        arrivals.add(pod("blue-" + i, "blue"));
      }
    }
    var policy = TeamPacking.policy();
    Map<String, Set<String>> nodesOfTeam = new LinkedHashMap<>();
    for (var pod : arrivals) {
      var decision = assertInstanceOf(Decision.Bind.class, policy.find(pod, nodes), pod.name());
      int index = nodes.stream().map(NodeInfo::name).toList().indexOf(decision.nodeName());
      nodes.set(index, nodes.get(index).withPod(pod.toBuilder().nodeName(decision.nodeName()).build()));
      nodesOfTeam.computeIfAbsent(pod.labels().get(TEAM_LABEL), t -> new HashSet<>()).add(decision.nodeName());
    }
    assertEquals(2, nodesOfTeam.get("red").size(), "red's 6 workers of 1 CPU on 4-CPU nodes: " + nodesOfTeam);
    assertEquals(1, nodesOfTeam.get("blue").size(), "blue's 3 workers: " + nodesOfTeam);
    assertTrue(Collections.disjoint(nodesOfTeam.get("red"), nodesOfTeam.get("blue")), nodesOfTeam.toString());
  }

  @Test
  void a_team_goes_onto_another_teams_node_when_nothing_else_fits() {
    var full = node("full", pod("a", "red"), pod("b", "red"), pod("c", "red"), pod("d", "red"));
    var blue = node("blue", pod("e", "blue"));
    var decision = TeamPacking.policy().find(pod("new", "red"), List.of(full, blue));
    assertEquals(Decision.bind("blue"), decision);
  }

  static PodInfo pod(String name, @Nullable String team) {
    return PodInfo.builder("batch", name)
        .uid("uid-" + name)
        .labels(team == null ? Map.of() : Map.of(TEAM_LABEL, team))
        .requests(CPU, GI)
        .build();
  }

  static NodeInfo node(String name, PodInfo... pods) {
    var placed = new ArrayList<PodInfo>();
    for (var pod : pods) {
      placed.add(pod.toBuilder().nodeName(name).build());
    }
    return NodeInfo.builder(name).allocatable(4 * CPU, 8 * GI, 110).pods(placed).build();
  }
}
