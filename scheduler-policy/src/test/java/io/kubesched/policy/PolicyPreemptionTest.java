package io.kubesched.policy;

import static io.kubesched.policy.PreemptionFixtures.HIGH;
import static io.kubesched.policy.PreemptionFixtures.LOW;
import static io.kubesched.policy.PreemptionFixtures.MID;
import static io.kubesched.policy.PreemptionFixtures.SMALL;
import static io.kubesched.policy.PreemptionFixtures.VERY_LARGE;
import static io.kubesched.policy.PreemptionFixtures.names;
import static io.kubesched.policy.PreemptionFixtures.node;
import static io.kubesched.policy.PreemptionFixtures.offsets;
import static io.kubesched.policy.PreemptionFixtures.pod;
import static io.kubesched.policy.PreemptionFixtures.prepare;
import static io.kubesched.policy.PreemptionFixtures.snapshot;
import static io.kubesched.policy.PreemptionFixtures.statuses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.PreemptionFixtures.LabelLimit;
import io.kubesched.policy.PreemptionFixtures.Res;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.Filters;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How a {@link Policy} runs preemption and honours nominations (kube-scheduler's {@code schedule_one.go} and
 * {@code RunFilterPluginsWithNominatedPods}): preemption on or off, the nominated node tried first, nominated
 * pods of equal or higher priority counted on their nodes in both passes, trackers told of victims and
 * nominated pods, the dry run's errors, and the explanation of it all.
 */
class PolicyPreemptionTest {

  private static final Res ONE_POD = new Res(0, 0);

  private static Policy preempting(Filter... filters) {
    return Policy.builder().filters(List.of(filters)).preemption(PreemptionArgs.DEFAULT).seed(7).build();
  }

  @Test
  void a_policy_does_not_preempt_unless_asked_and_then_clears_the_nomination() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).filter(Filters.nodeUnschedulable()).build();
    var cluster = snapshot(
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1).unschedulable(true)),
        List.of(pod("p1").node("node1").obj()));

    var decision = (Decision.Unschedulable) policy.find(pod("p").priority(HIGH).obj(), cluster);

    assertEquals(Optional.empty(), policy.preemption());
    assertFalse(policy.reads().contains(ClusterData.POD_DISRUPTION_BUDGETS));
    assertEquals(Nomination.CLEAR, decision.nomination());
    assertEquals("", decision.postFilterMessage());
    assertEquals(Set.of("node2"), decision.unresolvableNodes());
  }

  @Test
  void the_default_policy_preempts_with_kubes_arguments_and_reads_disruption_budgets() {
    var policy = DefaultPolicy.create();

    assertEquals(Optional.of(PreemptionArgs.DEFAULT), policy.preemption());
    assertTrue(policy.reads().contains(ClusterData.POD_DISRUPTION_BUDGETS));
    assertEquals(Optional.of(PreemptionArgs.DEFAULT), policy.toBuilder().build().preemption());
    assertEquals(Optional.empty(), policy.toBuilder().noPreemption().build().preemption());
    assertEquals(
        Optional.of(new PreemptionArgs(40, 2)),
        policy.toBuilder().preemption(new PreemptionArgs(40, 2)).build().preemption());
  }

  @Test
  void without_pods_of_lower_priority_every_potential_node_has_no_victims() {
    var policy = preempting(Filters.nodeUnschedulable(), Filters.resourcesFit());
    var cluster = snapshot(
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1), node("node3", ONE_POD, 1).unschedulable(true)),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").priority(HIGH).obj()));

    var decision = (Decision.Unschedulable) policy.find(pod("p").obj(), cluster);

    assertEquals(Nomination.CLEAR, decision.nomination());
    assertEquals(
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 Too many pods. preemption: 0/3 nodes are"
            + " available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming"
            + " pod.",
        decision.message(3));
  }

  @Test
  void a_pod_turned_away_before_any_node_is_preempted_for_only_if_its_rejection_is_resolvable() {
    var rejection = FilterResult.unschedulable(Reason.of("waiting for a quota"));
    var quota = new PreFilter() {
      @Override
      public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
        return PreFilter.rejectPod("Quota", rejection);
      }
    };
    var policy = Policy.builder().filter(new NamedPreFilter("Quota", quota)).preemption(PreemptionArgs.DEFAULT).build();
    var cluster = snapshot(
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1)), List.of(pod("p1").node("node1").obj()));

    var decision = (Decision.Unschedulable) policy.find(pod("p").priority(HIGH).obj(), cluster);

    // Every node is a potential one; only node1 has a victim, and the rejection stays without it.
    assertEquals(Nomination.CLEAR, decision.nomination());
    assertEquals(
        "0/2 nodes are available: waiting for a quota. preemption: 0/2 nodes are available: 1 No preemption"
            + " victims found for incoming pod, 1 waiting for a quota.",
        decision.message(2));
  }

  /** A filter that is only a {@link PreFilter}, under a name. */
  private record NamedPreFilter(String name, PreFilter preFilter) implements Filter, PreFilter {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return FilterResult.fit();
    }

    @Override
    public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
      return preFilter.prepare(pod, cluster);
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // The nominated node first (1.24) and nominated pods (1.23)

  /** Scores node3 highest, so that a decision by score would not choose node1. */
  private static final Scorer PREFERS_NODE3 = new Scorer() {
    @Override
    public String name() {
      return "PrefersNode3";
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return node.name().equals("node3") ? 100 : 0;
    }
  };

  @Test
  void a_pod_whose_nominated_node_fits_takes_it_without_scoring() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).scorer(PREFERS_NODE3, 1).seed(1).build();
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE), node("node3", VERY_LARGE)), List.of());
    var nominated = pod("p").nominatedNodeName("node1").obj();

    var explanation = policy.explain(nominated, cluster);

    assertEquals(Decision.bind("node1"), policy.find(nominated, cluster));
    assertEquals(Decision.bind("node3"), policy.find(pod("q").obj(), cluster));
    assertEquals(Decision.bind("node1"), explanation.decision());
    assertEquals(List.of("node1"), explanation.nodes().stream().map(Explanation.NodeExplanation::node).toList());
    assertTrue(explanation.note().contains("nominated node fits"), explanation.note());
  }

  @Test
  void a_pod_whose_nominated_node_does_not_fit_is_placed_by_the_search() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).scorer(PREFERS_NODE3, 1).seed(1).build();
    var cluster = snapshot(
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1), node("node3", ONE_POD, 1)),
        List.of(pod("p1").node("node1").obj()));

    assertEquals(Decision.bind("node3"), policy.find(pod("p").nominatedNodeName("node1").obj(), cluster));
    assertEquals(Decision.bind("node3"), policy.find(pod("q").nominatedNodeName("gone").obj(), cluster));
  }

  @Test
  void nominated_pods_of_equal_or_higher_priority_hold_their_room_and_lower_ones_do_not() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).build();
    var held = pod("held").priority(MID).nominatedNodeName("node1").obj();
    var cluster = snapshot(List.of(node("node1", ONE_POD, 1)), List.of())
        .withNominations(Nominations.of(List.of(held)));

    var lower = (Decision.Unschedulable) policy.find(pod("p").priority(LOW).obj(), cluster);
    var equal = (Decision.Unschedulable) policy.find(pod("p").priority(MID).obj(), cluster);

    assertEquals("0/1 nodes are available: 1 Too many pods.", lower.message(1));
    assertEquals("0/1 nodes are available: 1 Too many pods.", equal.message(1));
    assertEquals(Decision.bind("node1"), policy.find(pod("p").priority(HIGH).obj(), cluster));
    assertEquals(Decision.bind("node1"), policy.find(held, cluster));
  }

  /** Fits a node only if it holds a pod labelled {@code app=db}: it reads the node alone. */
  private static final Filter NEEDS_DB = new Filter() {
    @Override
    public String name() {
      return "NeedsDb";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return node.pods().stream().anyMatch(p -> "db".equals(p.labels().get("app")))
          ? FilterResult.fit()
          : FilterResult.unschedulable(Reason.of("no db"));
    }
  };

  @Test
  void a_node_with_nominated_pods_must_fit_with_them_and_without_them() {
    var policy = Policy.builder().filter(NEEDS_DB).build();
    var db = pod("db").label("app", "db").priority(HIGH).nominatedNodeName("node1").obj();
    var cluster = snapshot(List.of(node("node1", VERY_LARGE)), List.of())
        .withNominations(Nominations.of(List.of(db)));

    var explanation = policy.explain(pod("p").obj(), cluster);

    assertEquals("0/1 nodes are available: 1 no db.", ((Decision.Unschedulable) explanation.decision()).message(1));
    // The pass without the nominated pod decided; the pass with it is not shown.
    assertEquals(1, explanation.node("node1").orElseThrow().filters().size());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Trackers

  @Test
  void trackers_are_told_of_the_victims_removed_and_of_those_added_back() {
    var log = new ArrayList<String>();
    var policy = preempting(new LabelLimit("x", "y", 2, log));
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)),
        List.of(
            pod("a").node("node1").label("x", "y").priority(LOW).obj(),
            pod("b").node("node1").priority(LOW).obj(),
            pod("c").node("node2").label("x", "y").priority(HIGH).obj()));

    var decision = (Decision.Unschedulable) policy.find(pod("p").priority(MID).obj(), cluster);

    var to = assertInstanceOf(Nomination.To.class, decision.nomination());
    assertEquals("node1", to.nodeName());
    assertEquals(List.of("a"), names(to.victims()));
    // Both removed (the node without them), then each added back in turn (the node with it), a sent off again.
    assertEquals(
        List.of(
            "remove a@node1 false", "remove b@node1 false",
            "add a@node1 true", "remove a@node1 false",
            "add b@node1 true"),
        log);
  }

  @Test
  void nominated_pods_are_added_to_a_copy_of_the_trackers_for_the_first_pass() {
    var log = new ArrayList<String>();
    var policy = Policy.builder().filter(new LabelLimit("x", "y", 2, log)).build();
    var nominated = pod("n").label("x", "y").priority(HIGH).nominatedNodeName("node1").obj();
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)),
        List.of(pod("a").node("node1").label("x", "y").obj()))
        .withNominations(Nominations.of(List.of(nominated)));

    var explanation = policy.explain(pod("p").obj(), cluster);

    // On node1 the copy told of n counts two; node2 is filtered by the prepared filter, which still counts one.
    assertEquals(Decision.bind("node2"), explanation.decision());
    assertEquals(
        FilterResult.unschedulable(Reason.of("too many x=y")),
        explanation.node("node1").orElseThrow().filters().get(0).result());
    assertEquals(List.of("add n@node1 true"), log);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The dry run's errors (kube's Error status: the nomination is kept)

  @Test
  void a_potential_node_where_the_pod_fits_with_every_pod_is_an_error() {
    var cluster = snapshot(List.of(node("node1", VERY_LARGE)), List.of(pod("p1").node("node1").obj()));
    var pod = pod("p").priority(HIGH).obj();
    var prepared = prepare(List.of(Filters.resourcesFit()), pod, cluster);

    var result = new Preemption(PreemptionArgs.DEFAULT)
        .evaluate(pod, cluster, prepared, statuses(Map.of("node1", Code.UNSCHEDULABLE)), offsets(0));

    assertEquals("preemption: expected at least one victim pod on node \"node1\"", result.message());
    assertEquals(Nomination.KEEP, result.nomination());
  }

  @Test
  void a_filter_failing_in_the_dry_run_is_an_error_unless_another_node_is_a_candidate() {
    var failing = new PreemptionFixtures.FakeFilter(Map.of("node1", Code.ERROR));
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)),
        List.of(pod("p1").node("node1").req(VERY_LARGE).obj(), pod("p2").node("node2").req(VERY_LARGE).obj()));
    var pod = pod("p").priority(HIGH).req(SMALL).obj();
    var preemption = new Preemption(PreemptionArgs.DEFAULT);
    var both = statuses(Map.of("node1", Code.UNSCHEDULABLE, "node2", Code.UNSCHEDULABLE));
    var onlyNode1 = statuses(Map.of("node1", Code.UNSCHEDULABLE));
    var prepared = prepare(List.of(failing, Filters.resourcesFit()), pod, cluster);

    var error = preemption.evaluate(pod, cluster, prepared, onlyNode1, offsets(0));
    var candidate = preemption.evaluate(pod, cluster, prepared, both, offsets(0));

    assertEquals(
        "preemption: running \"FakeFilter\" filter plugin: injecting failure for pod p", error.message());
    assertEquals(Nomination.KEEP, error.nomination());
    assertEquals(new Nomination.To("node2", List.of(cluster.nodes().get(1).pods().get(0))), candidate.nomination());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Explanations

  @Test
  void an_explanation_shows_the_candidates_their_victims_and_the_criterion_that_chose() {
    var policy = preempting(Filters.resourcesFit());
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE)),
        List.of(
            pod("p1").node("node1").priority(MID).req(VERY_LARGE).obj(),
            pod("p2").node("node2").priority(LOW).req(VERY_LARGE).obj()));

    var explanation = policy.explain(pod("p").priority(HIGH).req(SMALL).obj(), cluster);

    var preemption = explanation.preemption().orElseThrow();
    assertEquals("", preemption.eligibility());
    assertEquals(List.of("node1", "node2"), preemption.candidates().stream()
        .map(Explanation.PreemptionCandidate::node).sorted().toList());
    assertEquals("node2", preemption.chosenNode());
    assertEquals("lowest priority of the most important victim", preemption.decidedBy());
    assertEquals("preemption: found a potential placement for pod on node node2, preempting 1 victims",
        preemption.message());
    var table = explanation.toTable();
    assertTrue(table.contains("* node2: victims default/p2 (priority 0); PDB violations 0"), table);
    assertTrue(table.contains("  node1: victims default/p1 (priority 100); PDB violations 0"), table);
    assertTrue(table.contains("preemption chose node2 by lowest priority of the most important victim"), table);
  }

  @Test
  void an_explanation_shows_why_a_pod_may_not_preempt() {
    var policy = preempting(Filters.resourcesFit());
    var cluster = snapshot(List.of(node("node1", ONE_POD, 1)), List.of(pod("p1").node("node1").obj()));

    var explanation = policy.explain(pod("p").priority(HIGH).preemptNever().obj(), cluster);

    assertEquals(Preemption.NOT_ELIGIBLE_NEVER, explanation.preemption().orElseThrow().eligibility());
    assertTrue(explanation.toTable().contains("preemption: not eligible due to preemptionPolicy=Never."));
    assertEquals(Optional.empty(), Policy.builder().filter(Filters.resourcesFit()).build()
        .explain(pod("p").obj(), cluster).preemption());
  }

  @Test
  void an_explanation_draws_the_offset_the_next_decision_draws() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).preemption(new PreemptionArgs(20, 1)).seed(3)
        .build();
    var nodes = new ArrayList<NodeInfo.Builder>();
    var pods = new ArrayList<PodInfo>();
    for (int i = 0; i < 10; i++) {
      nodes.add(node("node" + i, VERY_LARGE));
      pods.add(pod("v" + i).node("node" + i).req(VERY_LARGE).obj());
    }
    var cluster = snapshot(nodes, pods);
    var preemptor = pod("p").priority(HIGH).req(SMALL).obj();
    var chosen = new HashSet<String>();

    for (int attempt = 0; attempt < 8; attempt++) {
      var explained = policy.explain(preemptor, cluster).preemption().orElseThrow().chosenNode();
      var decided = (Decision.Unschedulable) policy.find(preemptor, cluster);
      assertEquals(explained, ((Nomination.To) decided.nomination()).nodeName());
      chosen.add(explained);
    }
    // The offset is drawn afresh for each attempt.
    assertTrue(chosen.size() > 1, chosen.toString());
  }
}
