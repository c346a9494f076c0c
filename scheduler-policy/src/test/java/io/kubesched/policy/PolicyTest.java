package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.policy.plugins.Filters;
import io.kubesched.api.Resources;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Taint;
import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.framework.Scorer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The engine: filters, early stop, scores, weights, ties, round robin, explanations. */
class PolicyTest {

  private static final PodInfo POD = PodInfo.builder("default", "web").build();

  static NodeInfo node(String name) {
    return NodeInfo.builder(name).build();
  }

  static List<NodeInfo> nodes(int count) {
    return IntStream.range(0, count).mapToObj(i -> node("n" + i)).toList();
  }

  /** A filter that rejects the named nodes, and counts its calls. */
  static final class Rejecting implements Filter {
    final String name;
    final Set<String> rejected;
    final String reason;
    final List<String> calls = new ArrayList<>();

    Rejecting(String name, String reason, String... rejected) {
      this.name = name;
      this.reason = reason;
      this.rejected = Set.of(rejected);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      calls.add(node.name());
      return rejected.contains(node.name())
          ? FilterResult.unschedulable(Reason.of(reason))
          : FilterResult.fit();
    }
  }

  /** A scorer giving fixed scores by node name (0 for others). */
  static Scorer fixed(String name, Map<String, Long> scores) {
    return new Scorer() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long score(PodInfo pod, NodeInfo node) {
        return scores.getOrDefault(node.name(), 0L);
      }
    };
  }

  static Stream<Arguments> kube_scheduler_cases() {
    return Stream.of(
        Arguments.of("not set percentageOfNodesToScore and nodes number not more than 50", 0, 10, 10),
        Arguments.of("set profile percentageOfNodesToScore and nodes number not more than 50", 40, 10, 10),
        Arguments.of("not set percentageOfNodesToScore and nodes number more than 50", 0, 1000, 420),
        Arguments.of("set profile percentageOfNodesToScore and nodes number more than 50", 40, 1000, 400),
        Arguments.of("not set profile percentageOfNodesToScore and nodes number more than 50*125", 0, 6000, 300),
        Arguments.of("set profile percentageOfNodesToScore and nodes number more than 50*125", 40, 6000, 2400),
        Arguments.of("below 100 nodes every node is searched", 1, 99, 99),
        Arguments.of("never fewer than 100 nodes", 1, 5000, 100),
        Arguments.of("the adaptive percentage stops at 5%", 0, 100_000, 5000),
        Arguments.of("100% searches every node", 100, 5000, 5000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kube_scheduler_cases")
  void the_number_of_feasible_nodes_to_find_is_kube_schedulers(
      String name, int percentage, int nodeCount, int expected) {
    assertEquals(expected, Policy.numFeasibleNodesToFind(percentage, nodeCount));
  }

  @Test
  void its_string_names_the_filters_the_weighted_scorers_the_percentage_and_preemption() {
    var policy =
        Policy.builder()
            .filter(new Rejecting("Cpu", "Insufficient cpu"))
            .scorer(fixed("Spread", Map.of()), 3)
            .percentageOfNodesToScore(40)
            .build();

    assertEquals(
        "Policy[filters=[Cpu], scorers=[Spread:3], percentageOfNodesToScore=40, preemption=off]",
        policy.toString());
    assertEquals(
        "Policy[filters=[Cpu], scorers=[Spread:3], percentageOfNodesToScore=40, preemption="
            + PreemptionArgs.DEFAULT
            + "]",
        policy.toBuilder().preemption(PreemptionArgs.DEFAULT).build().toString());
  }

  @Test
  void with_no_nodes_the_pod_is_unschedulable_without_reasons() {
    var decision = Policy.builder().build().find(POD, List.of());

    assertEquals(Decision.unschedulable(Map.of()), decision);
  }

  @Test
  void when_every_node_is_rejected_each_node_keeps_the_reasons_of_its_first_rejecting_filter() {
    var cpu = new Rejecting("Cpu", "Insufficient cpu", "n0", "n1");
    var taint = new Rejecting("Taint", "node(s) had untolerated taint(s)", "n0", "n2");
    var policy = Policy.builder().filter(cpu).filter(taint).scorer(fixed("s", Map.of()), 1).build();

    var decision = assertInstanceOf(Decision.Unschedulable.class, policy.find(POD, nodes(3)));

    assertEquals(
        Map.of(
            "n0", List.of("Insufficient cpu"),
            "n1", List.of("Insufficient cpu"),
            "n2", List.of("node(s) had untolerated taint(s)")),
        decision.reasonsByNode());
    assertEquals(
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.",
        decision.message(3));
    assertEquals(List.of("n2"), taint.calls, "a rejected node is not shown to later filters");
  }

  /** A PreFilter that turns the pod away before any node, as VolumeBinding does for a missing claim. */
  record TurningAway(String name, String message) implements Filter, PreFilter {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      throw new AssertionError("only the prepared filter runs");
    }

    @Override
    public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
      return PreFilter.rejectPod(name, FilterResult.unresolvable(Reason.of(message)));
    }
  }

  @Test
  void a_pod_turned_away_by_a_pre_filter_is_told_once_and_no_node_is_filtered() {
    var later = new Rejecting("Later", "never asked");
    var policy =
        Policy.builder()
            .filter(new TurningAway("Claims", "persistentvolumeclaim \"data\" not found"))
            .filter(later)
            .build();

    var decision = (Decision.Unschedulable) policy.find(POD, nodes(3));
    var next = (Decision.Unschedulable) policy.find(POD, nodes(3));

    assertEquals("0/3 nodes are available: persistentvolumeclaim \"data\" not found.", decision.message(3));
    assertEquals(Set.of("n0", "n1", "n2"), decision.reasonsByNode().keySet(), "every node has the reason");
    assertEquals(List.of("persistentvolumeclaim \"data\" not found"), decision.reasonsByNode().get("n1"));
    assertEquals(List.of(), later.calls, "no node is filtered");
    assertEquals(decision, next);
    var explanation = policy.explain(POD, nodes(3));
    assertEquals(3, explanation.nodes().size(), "the explanation shows every node's rejection");
  }

  @Test
  void an_unschedulable_decision_names_its_rejecting_filters_and_the_changes_they_retry_on() {
    var policy = Policy.builder()
        .filter(Filters.taintToleration())
        .filter(Filters.resourcesFit())
        .build();
    var tainted = NodeInfo.builder("tainted").allocatable(4000, 1 << 30, 110)
        .taints(List.of(new Taint("dedicated", "", TaintEffect.NO_SCHEDULE))).build();
    var small = NodeInfo.builder("small").allocatable(100, 1 << 30, 110).build();
    var pod = PodInfo.builder("default", "big").requests(Resources.of(1000, 0)).build();

    var fitOnly = (Decision.Unschedulable) policy.find(pod, List.of(small));
    assertEquals(Set.of("NodeResourcesFit"), fitOnly.rejectors());
    assertEquals(
        Set.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE, ClusterChange.ASSIGNED_POD_DELETED),
        fitOnly.retriedOn(), "kube's NodeResourcesFit: no label change can help");

    var both = (Decision.Unschedulable) policy.find(pod, List.of(small, tainted));
    assertEquals(Set.of("NodeResourcesFit", "TaintToleration"), both.rejectors());
    assertEquals(
        Set.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_ALLOCATABLE, ClusterChange.ASSIGNED_POD_DELETED,
            ClusterChange.NODE_TAINTS),
        both.retriedOn());
  }

  @Test
  void a_filter_of_ones_own_a_pre_filter_rejection_and_no_node_at_all_retry_as_they_register() {
    var own = (Decision.Unschedulable) Policy.builder().filter(new Rejecting("Cpu", "Insufficient cpu", "n0")).build()
        .find(POD, nodes(1));
    assertEquals(Set.of("Cpu"), own.rejectors());
    assertEquals(ClusterChange.ALL, own.retriedOn(), "a filter of one's own registers every change by default");

    var turnedAway = (Decision.Unschedulable) Policy.builder().filter(new TurningAway("Claims", "not found")).build()
        .find(POD, nodes(2));
    assertEquals(Set.of("Claims"), turnedAway.rejectors());

    var none = (Decision.Unschedulable) Policy.builder().filter(Filters.resourcesFit()).build().find(POD, List.of());
    assertEquals(Set.of(), none.rejectors());
    assertEquals(ClusterChange.ALL, none.retriedOn());
  }

  /** A PreFilter that names the only nodes the pod can fit, as NodeAffinity does for a DaemonSet's pod. */
  record Naming(String name, Set<String> nodes, List<String> calls) implements Filter, PreFilter {
    Naming(String name, String... nodes) {
      this(name, Set.of(nodes), new ArrayList<>());
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      throw new AssertionError("only the prepared filter runs");
    }

    @Override
    public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
      return new NamedNodes(name, nodes, calls);
    }
  }

  record NamedNodes(String name, Set<String> nodeNames, List<String> calls) implements Filter, OnlyNodes {
    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      calls.add(node.name());
      return FilterResult.fit();
    }
  }

  /** kube's schedule_one_test "test some nodes are filtered out by prefilter plugin and other are filtered out by filter plugin". */
  @Test
  void test_some_nodes_are_filtered_out_by_prefilter_plugin_and_other_are_filtered_out_by_filter_plugin() {
    var preFilter = new Naming("FakePreFilter", "node2");
    var filter = new Rejecting("FakeFilter", "injecting failure for pod test-prefilter", "node2");
    var policy = Policy.builder().filter(preFilter).filter(filter).build();
    var nodes = List.of(node("node1"), node("node2"));

    var decision = (Decision.Unschedulable) policy.find(POD, nodes);

    assertEquals(
        Map.of(
            "node1", List.of("node(s) didn't satisfy plugin(s) [FakePreFilter]"),
            "node2", List.of("injecting failure for pod test-prefilter")),
        decision.reasonsByNode());
    assertEquals(Set.of("node1"), decision.unresolvableNodes(), "node2's rejection is the filter's, resolvable");
    assertEquals(List.of("node2"), filter.calls, "node1 is never filtered");
    assertEquals(
        "0/2 nodes are available: 1 injecting failure for pod test-prefilter, 1 node(s) didn't satisfy plugin(s)"
            + " [FakePreFilter].",
        decision.message(2));
  }

  /** kube's schedule_one_test "test prefilter plugin returned an invalid node". */
  @Test
  void test_prefilter_plugin_returned_an_invalid_node() {
    var filter = new Rejecting("TrueFilter", "never");
    var policy = Policy.builder().filter(new Naming("FakePreFilter", "invalid-node")).filter(filter).build();

    var decision = (Decision.Unschedulable) policy.find(POD, List.of(node("1"), node("2")));

    assertEquals("0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [FakePreFilter].", decision.message(2));
    assertEquals(Set.of("1", "2"), decision.unresolvableNodes());
    assertEquals(List.of(), filter.calls);
  }

  /** kube's schedule_one_test "test prefilter plugin returning non-intersecting nodes". */
  @Test
  void test_prefilter_plugin_returning_non_intersecting_nodes() {
    var later = new Rejecting("Later", "never asked");
    var policy =
        Policy.builder()
            .filter(new Rejecting("FakePreFilter1", "no node named"))
            .filter(new Naming("FakePreFilter2", "node2"))
            .filter(new Naming("FakePreFilter3", "node1"))
            .filter(later)
            .build();

    var decision = (Decision.Unschedulable) policy.find(POD, List.of(node("node1"), node("node2"), node("node3")));

    assertEquals(
        "0/3 nodes are available: node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously.",
        decision.message(3));
    assertEquals(Set.of("node1", "node2", "node3"), decision.unresolvableNodes());
    assertEquals(List.of(), later.calls, "turned away before any node");
  }

  /** kube's schedule_one_test "test prefilter plugin returning empty node set". */
  @Test
  void test_prefilter_plugin_returning_empty_node_set() {
    var policy = Policy.builder().filter(new Naming("FakePreFilter2")).build();

    var decision = (Decision.Unschedulable) policy.find(POD, List.of(node("node1")));

    assertEquals("0/1 nodes are available: node(s) didn't satisfy plugin FakePreFilter2.", decision.message(1));
    assertEquals(Set.of("node1"), decision.unresolvableNodes());
  }

  @Test
  void only_the_named_nodes_are_searched_in_snapshot_order_with_the_start_and_number_to_find_taken_over_them() {
    var naming = new Naming("Named", "n7", "n3", "n5");
    var policy = Policy.builder().filter(naming).scorer(fixed("s", Map.of("n5", 10L)), 1).build();
    var nodes = nodes(300);

    assertEquals(Decision.bind("n5"), policy.find(POD, nodes));
    assertEquals(List.of("n3", "n5", "n7"), naming.calls(), "the three named nodes only, in the snapshot's order");

    naming.calls().clear();
    var unnamed = Policy.builder().filter(new Rejecting("F", "no")).filter(naming).build(); // no scorer: first fit
    unnamed.find(POD, nodes);
    unnamed.find(POD, nodes);
    assertEquals(List.of("n3", "n5"), naming.calls(), "the start moves by the nodes examined, over the named ones");
  }

  @Test
  void a_single_feasible_node_is_chosen_without_scoring() {
    var scorer = new CountingScorer();
    var policy =
        Policy.builder().filter(new Rejecting("F", "no", "n0", "n2")).scorer(scorer, 1).build();

    assertEquals(Decision.bind("n1"), policy.find(POD, nodes(3)));
    assertEquals(0, scorer.calls);
  }

  @Test
  void the_highest_weighted_total_wins() {
    // n0: 100*1 + 0*3 = 100; n1: 0*1 + 40*3 = 120; n2: 50*1 + 20*3 = 110
    var policy =
        Policy.builder()
            .scorer(fixed("a", Map.of("n0", 100L, "n2", 50L)), 1)
            .scorer(fixed("b", Map.of("n1", 40L, "n2", 20L)), 3)
            .seed(1)
            .build();

    assertEquals(Decision.bind("n1"), policy.find(POD, nodes(3)));
  }

  @Test
  void a_normalizer_sees_the_raw_scores_of_every_feasible_node_and_its_result_counts() {
    var raw = Map.of("n0", 7L, "n1", 3L, "n2", 5L);
    var seen = new ArrayList<long[]>();
    var reversing = new NormalizingScorer(raw, seen);
    var policy = Policy.builder().filter(new Rejecting("F", "no", "n2")).scorer(reversing, 1).seed(3).build();

    var decision = policy.find(POD, nodes(3));

    assertEquals(1, seen.size());
    assertEquals(List.of(7L, 3L), List.of(seen.get(0)[0], seen.get(0)[1]));
    assertEquals(Decision.bind("n1"), decision, "normalised: n0 -> 0, n1 -> 100");
  }

  @Test
  void a_pre_scorer_is_prepared_once_per_pod_with_all_nodes_including_infeasible_ones() {
    var prepared = new ArrayList<List<String>>();
    var preScorer = new PreparingScorer(prepared);
    var policy = Policy.builder().filter(new Rejecting("F", "no", "n0")).scorer(preScorer, 1).build();

    policy.find(POD, nodes(3));

    assertEquals(List.of(List.of("n0", "n1", "n2")), prepared);
  }

  @Test
  void a_score_outside_0_to_100_is_an_error_naming_the_scorer_pod_and_node() {
    var policy = Policy.builder().scorer(fixed("Broken", Map.of("n1", 101L)), 1).build();

    var error = assertThrows(SchedulerException.class, () -> policy.find(POD, nodes(2)));

    assertEquals(
        "scorer Broken gave node n1 the score 101 for pod default/web, outside 0..100", error.getMessage());
  }

  @Test
  void a_failed_filter_is_an_error_naming_the_filter_pod_and_node() {
    Filter failing =
        new Filter() {
          @Override
          public String name() {
            return "Flaky";
          }

          @Override
          public FilterResult filter(PodInfo pod, NodeInfo node) {
            return FilterResult.error("label zone is not a number");
          }
        };
    var policy = Policy.builder().filter(failing).build();

    var error = assertThrows(SchedulerException.class, () -> policy.find(POD, nodes(1)));

    assertEquals(
        "filter Flaky failed for pod default/web on node n0: label zone is not a number", error.getMessage());
  }

  @Test
  void the_search_stops_once_enough_feasible_nodes_are_found_and_the_next_pod_starts_after_them() {
    var filter = new Rejecting("F", "no");
    var policy = Policy.builder().filter(filter).scorer(fixed("s", Map.of()), 1).percentageOfNodesToScore(10).build();
    var nodes = nodes(500); // 10% of 500 is 50, raised to kube's minimum of 100

    policy.find(POD, nodes);
    assertEquals(100, filter.calls.size());
    assertEquals("n0", filter.calls.get(0));

    filter.calls.clear();
    policy.find(POD, nodes);
    assertEquals(100, filter.calls.size());
    assertEquals("n100", filter.calls.get(0));
  }

  @Test
  void the_round_robin_wraps_around_the_node_list() {
    var filter = new Rejecting("F", "no", "n1", "n2");
    var policy = Policy.builder().filter(filter).build(); // no scorer: the first feasible node is enough
    var nodes = nodes(4);

    assertEquals(Decision.bind("n0"), policy.find(POD, nodes));
    assertEquals(Decision.bind("n3"), policy.find(POD, nodes)); // examined n1, n2, n3
    assertEquals(Decision.bind("n0"), policy.find(POD, nodes)); // starts at 0 again
  }

  @Test
  void without_scorers_the_first_feasible_node_from_the_start_index_is_chosen() {
    var filter = new Rejecting("F", "no", "n0");
    var policy = Policy.builder().filter(filter).build();

    assertEquals(Decision.bind("n1"), policy.find(POD, nodes(300)));
    assertEquals(List.of("n0", "n1"), filter.calls);
  }

  @Test
  void explaining_shows_every_examined_node_and_does_not_move_the_start_index() {
    var filter = new Rejecting("Fit", "Insufficient cpu", "n0");
    var policy =
        Policy.builder()
            .filter(filter)
            .scorer(fixed("Spread", Map.of("n1", 20L, "n2", 90L)), 2)
            .scorer(fixed("Pack", Map.of("n1", 80L, "n2", 10L)), 1)
            .seed(5)
            .build();

    var explanation = policy.explain(POD, nodes(3));
    var again = policy.explain(POD, nodes(3));

    assertEquals(Decision.bind("n2"), explanation.decision());
    assertEquals(explanation, again);
    assertEquals(List.of("n0", "n1", "n2"), explanation.nodes().stream().map(n -> n.node()).toList());
    var n2 = explanation.node("n2").orElseThrow();
    assertEquals(Map.of("Spread", 90L, "Pack", 10L), n2.scores());
    assertEquals(190, n2.total());
    assertTrue(!explanation.node("n0").orElseThrow().feasible());
    assertEquals(
        String.join(
            "\n",
            "pod default/web: bind to n2",
            "   NODE  FILTERS                Spread  Pack  TOTAL",
            "   n0    Fit: Insufficient cpu  -       -     -",
            "   n1    fits                   20      80    120",
            "*  n2    fits                   90      10    190",
            ""),
        explanation.toTable());
  }

  @Test
  void an_explanation_says_when_only_one_node_was_feasible() {
    var policy = Policy.builder().filter(new Rejecting("F", "no", "n0")).scorer(fixed("s", Map.of()), 1).build();

    var explanation = policy.explain(POD, nodes(2));

    assertEquals("Only one node is feasible: it is chosen without scoring.", explanation.note());
  }

  @Test
  void ties_are_broken_uniformly_at_random_across_seeds() {
    var counts = new HashMap<String, Integer>();
    var nodes = nodes(4);
    int seeds = 4000;
    for (int seed = 0; seed < seeds; seed++) {
      var policy = Policy.builder().scorer(fixed("same", Map.of()), 1).seed(seed).build();
      var bind = (Decision.Bind) policy.find(POD, nodes);
      counts.merge(bind.nodeName(), 1, Integer::sum);
    }
    // Chi-square with 3 degrees of freedom; 16.27 is its 0.999 quantile. The seeds are fixed, so this is
    // deterministic: it guards against a biased tie-break (first or last wins), not against bad luck.
    double expected = seeds / 4.0;
    double chiSquare =
        counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
    assertEquals(4, counts.size(), "every tied node is chosen sometimes: " + counts);
    assertTrue(chiSquare < 16.27, "tie-break is not uniform: " + counts);
  }

  @Test
  void the_same_seed_gives_the_same_choice_among_ties() {
    var nodes = nodes(10);
    for (int seed = 0; seed < 50; seed++) {
      var first = Policy.builder().scorer(fixed("same", Map.of()), 1).seed(seed).build();
      var second = Policy.builder().scorer(fixed("same", Map.of()), 1).seed(seed).build();
      assertEquals(first.find(POD, nodes), second.find(POD, nodes));
    }
  }

  @Test
  void different_pods_with_the_same_seed_spread_over_tied_nodes() {
    var policy = Policy.builder().scorer(fixed("same", Map.of()), 1).seed(7).percentageOfNodesToScore(100).build();
    var chosen = new java.util.HashSet<String>();
    for (int i = 0; i < 40; i++) {
      var pod = PodInfo.builder("default", "p" + i).build();
      chosen.add(((Decision.Bind) policy.find(pod, nodes(4))).nodeName());
    }
    assertEquals(4, chosen.size());
  }

  @Test
  void the_builder_refuses_duplicate_names_bad_weights_and_bad_percentages() {
    var builder = Policy.builder().filter(new Rejecting("F", "no")).scorer(fixed("S", Map.of()), 1);

    assertEquals(
        "filter F is already in the policy",
        assertThrows(IllegalArgumentException.class, () -> builder.filter(new Rejecting("F", "no"))).getMessage());
    assertEquals(
        "scorer S is already in the policy",
        assertThrows(IllegalArgumentException.class, () -> builder.scorer(fixed("S", Map.of()), 2)).getMessage());
    assertEquals(
        "weight of scorer T must be at least 1, was 0",
        assertThrows(IllegalArgumentException.class, () -> builder.scorer(fixed("T", Map.of()), 0)).getMessage());
    assertEquals(
        "percentageOfNodesToScore must be 0 (adaptive) to 100, was 101",
        assertThrows(IllegalArgumentException.class, () -> builder.percentageOfNodesToScore(101)).getMessage());
    assertEquals(
        "no scorer X in the policy; it has [S]",
        assertThrows(IllegalArgumentException.class, () -> builder.weight("X", 2)).getMessage());
  }

  @Test
  void a_policy_can_be_derived_by_removing_and_reweighting_plugins() {
    var base =
        Policy.builder()
            .filter(new Rejecting("A", "no"))
            .filter(new Rejecting("B", "no"))
            .scorer(fixed("S", Map.of()), 1)
            .scorer(fixed("T", Map.of()), 1)
            .build();

    var derived = base.toBuilder().removeFilter("A").removeScorer("T").weight("S", 5).build();

    assertEquals(List.of("B"), derived.filters().stream().map(Filter::name).toList());
    assertEquals(1, derived.scorers().size());
    assertEquals(5, derived.scorers().get(0).weight());
    assertEquals(2, base.filters().size(), "the base policy is unchanged");
  }

  private static final class CountingScorer implements Scorer {
    int calls;

    @Override
    public String name() {
      return "Counting";
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      calls++;
      return 0;
    }
  }

  /** Raw scores by node, normalised as max - raw scaled to 0..100 (lower raw is better). */
  private static final class NormalizingScorer implements Scorer, ScoreNormalizer {
    private final Map<String, Long> raw;
    private final List<long[]> seen;

    NormalizingScorer(Map<String, Long> raw, List<long[]> seen) {
      this.raw = raw;
      this.seen = seen;
    }

    @Override
    public String name() {
      return "Reversing";
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return raw.get(node.name());
    }

    @Override
    public void normalize(PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      seen.add(scores.clone());
      long max = java.util.Arrays.stream(scores).max().orElse(0);
      for (int i = 0; i < scores.length; i++) {
        scores[i] = max == 0 ? 0 : (max - scores[i]) * Scorer.MAX_SCORE / max;
      }
    }
  }

  private static final class PreparingScorer implements Scorer, PreScorer {
    private final List<List<String>> prepared;

    PreparingScorer(List<List<String>> prepared) {
      this.prepared = prepared;
    }

    @Override
    public String name() {
      return "Preparing";
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      throw new AssertionError("the prepared scorer is used, not this one");
    }

    @Override
    public Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster) {
      prepared.add(cluster.nodes().stream().map(NodeInfo::name).toList());
      return fixed("Preparing", Map.of());
    }
  }
}
