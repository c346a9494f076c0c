package io.kubesched.samples.josdk.placement;

import static io.kubesched.policy.framework.Scorer.MAX_SCORE;
import static io.kubesched.samples.josdk.placement.TeamPacking.TEAM_LABEL;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link TeamPacking} and {@link TeamPacking#policy()} over generated nodes of one size, each holding up to four
 * pods of three teams or none (a full node rejects the pod), and a pod of one team. The generators are shown to
 * reach every case the scorer tells apart, the penalised nodes of other teams and the rejected full nodes
 * included, and the policy to choose each kind of node.
 */
class TeamPackingProperties {

  private static final List<String> TEAMS = List.of("red", "blue", "green");
  /** A pod of no team, as the generators draw it. */
  private static final String NO_TEAM = "";
  private static final long CPU = 1000;
  private static final long GI = 1L << 30;
  /** Four pods of one CPU fill a node. */
  private static final int PODS_PER_NODE = 4;

  private final TeamPacking scorer = new TeamPacking();

  @Property(tries = 500)
  void a_score_lies_in_range_falls_with_another_teams_pod_and_rises_with_the_pods_own(
      @ForAll("nodes") NodeInfo node, @ForAll("teams") String team, @ForAll("teams") String added) {
    var pod = pod("new", team);
    long score = scorer.score(pod, node);
    Statistics.label("node").collect(kind(team, node));
    assertTrue(score >= 0 && score <= MAX_SCORE, "score " + score);
    var more = node.withPod(pod("added", added).toBuilder().nodeName(node.name()).build());
    long after = scorer.score(pod, more);
    if (added.equals(team)) {
      assertTrue(after >= score, "a pod of the same team lowered the score: " + score + " -> " + after);
    } else {
      assertTrue(after <= score, "another team's pod raised the score: " + score + " -> " + after);
    }
    Statistics.label("node").coverage(coverage -> {
      coverage.check(Kind.TEAM_ONLY).percentage(p -> p > 5);
      coverage.check(Kind.OTHER_TEAMS_ONLY).percentage(p -> p > 10);
      coverage.check(Kind.MIXED).percentage(p -> p > 10);
      coverage.check(Kind.NO_TEAM).percentage(p -> p > 10);
    });
  }

  /**
   * The policy's other scorers can tell nodes of one size apart by at most {@code
   * NodeResourcesBalancedAllocation}'s {@link io.kubesched.policy.framework.Scorer#MAX_SCORE} × 1, so the chosen
   * node's team score is within {@code MAX_SCORE / WEIGHT} of the best fitting node's: a team goes to its own
   * nodes while one has room, to a node of no team next, and to another team's node only when nothing else fits.
   */
  @Property(tries = 300)
  void the_policy_chooses_the_teams_node_then_a_teamless_one_and_another_teams_only_when_nothing_else_fits(
      @ForAll("clusters") List<NodeInfo> nodes, @ForAll("teams") String team) {
    var pod = pod("new", team);
    var fitting = nodes.stream().filter(n -> n.pods().size() < PODS_PER_NODE).toList();
    boolean penalised = fitting.stream().anyMatch(n -> kind(team, n) == Kind.OTHER_TEAMS_ONLY);
    boolean rejected = fitting.size() < nodes.size();
    Statistics.label("a fitting node of other teams only (penalised)").collect(penalised);
    Statistics.label("a full node (rejected)").collect(rejected);
    var decision = TeamPacking.policy().find(pod, nodes);
    if (fitting.isEmpty()) {
      assertInstanceOf(Decision.Unschedulable.class, decision, "every node is full");
      Statistics.label("chosen").collect("none: every node full");
    } else {
      var chosen = assertInstanceOf(Decision.Bind.class, decision);
      var node = nodes.stream().filter(n -> n.name().equals(chosen.nodeName())).findFirst().orElseThrow();
      assertTrue(fitting.contains(node), "chose the full node " + node.name());
      long best = fitting.stream().mapToLong(n -> scorer.score(pod, n)).max().orElseThrow();
      long got = scorer.score(pod, node);
      assertTrue(got >= best - MAX_SCORE / TeamPacking.WEIGHT,
          "chose " + node.name() + " (team score " + got + ") over a node scoring " + best + ": " + nodes);
      if (fitting.stream().anyMatch(n -> kind(team, n) == Kind.TEAM_ONLY)) {
        assertTrue(kind(team, node) == Kind.TEAM_ONLY || kind(team, node) == Kind.MIXED, node.toString());
      }
      if (fitting.stream().anyMatch(n -> kind(team, n) != Kind.OTHER_TEAMS_ONLY)) {
        assertTrue(kind(team, node) != Kind.OTHER_TEAMS_ONLY, "penalised node chosen: " + node);
      }
      Statistics.label("chosen").collect(kind(team, node).toString());
    }
    Statistics.label("a fitting node of other teams only (penalised)")
        .coverage(coverage -> coverage.check(true).percentage(p -> p > 20));
    Statistics.label("a full node (rejected)").coverage(coverage -> coverage.check(true).percentage(p -> p > 20));
    Statistics.label("chosen").coverage(coverage -> {
      coverage.check("none: every node full").count(c -> c >= 3);
      coverage.check(Kind.TEAM_ONLY.toString()).percentage(p -> p > 10);
      coverage.check(Kind.MIXED.toString()).count(c -> c >= 3);
      coverage.check(Kind.NO_TEAM.toString()).percentage(p -> p > 5);
      coverage.check(Kind.OTHER_TEAMS_ONLY.toString()).count(c -> c >= 3);
    });
  }

  /** What a node holds, seen from a pod of {@code team}. */
  enum Kind {
    TEAM_ONLY,
    MIXED,
    OTHER_TEAMS_ONLY,
    NO_TEAM
  }

  static Kind kind(String team, NodeInfo node) {
    boolean same = false;
    boolean other = false;
    for (var pod : node.pods()) {
      var podTeam = pod.labels().get(TEAM_LABEL);
      if (podTeam != null) {
        same |= podTeam.equals(team);
        other |= !podTeam.equals(team);
      }
    }
    return same ? (other ? Kind.MIXED : Kind.TEAM_ONLY) : (other ? Kind.OTHER_TEAMS_ONLY : Kind.NO_TEAM);
  }

  @Provide
  Arbitrary<String> teams() {
    return Arbitraries.of(TEAMS);
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    return podTeams().map(teams -> node("node-0", teams));
  }

  @Provide
  Arbitrary<List<NodeInfo>> clusters() {
    return podTeams().list().ofMinSize(1).ofMaxSize(6).map(nodes -> {
      var cluster = new ArrayList<NodeInfo>();
      for (int i = 0; i < nodes.size(); i++) {
        cluster.add(node("node-" + i, nodes.get(i)));
      }
      return cluster;
    });
  }

  /** The teams of a node's pods: 0 to 4 pods, each of a team or of none; four fill the node. */
  private static Arbitrary<List<String>> podTeams() {
    return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.of(TEAMS)), Tuple.of(1, Arbitraries.just(NO_TEAM)))
        .list()
        .ofMaxSize(PODS_PER_NODE);
  }

  private static NodeInfo node(String name, List<String> teams) {
    var pods = new ArrayList<PodInfo>();
    for (int i = 0; i < teams.size(); i++) {
      pods.add(pod(name + "-pod-" + i, teams.get(i)).toBuilder().nodeName(name).build());
    }
    return NodeInfo.builder(name).allocatable(PODS_PER_NODE * CPU, 8 * GI, 110).pods(pods).build();
  }

  private static PodInfo pod(String name, String team) {
    return PodInfo.builder("batch", name)
        .uid("uid-" + name)
        .labels(team.equals(NO_TEAM) ? Map.of() : Map.of(TEAM_LABEL, team))
        .requests(CPU, GI)
        .build();
  }
}
