package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The engine's laws, over generated clusters where each node is accepted or not and has small scores (so
 * ties are frequent).
 */
class PolicyProperties {

  /** One generated case: per node whether the filter accepts it and its two scorers' scores. */
  record Case(List<Boolean> accepted, List<Long> scoresA, List<Long> scoresB, int weightB, long seed) {
    int size() {
      return accepted.size();
    }

    List<NodeInfo> nodes() {
      return IntStream.range(0, size()).mapToObj(i -> NodeInfo.builder("n" + i).build()).toList();
    }

    int index(String node) {
      return Integer.parseInt(node.substring(1));
    }

    long total(int i) {
      return scoresA.get(i) + weightB * scoresB.get(i);
    }

    Policy policy(int percentage) {
      Filter filter =
          new Filter() {
            @Override
            public String name() {
              return "Accepts";
            }

            @Override
            public FilterResult filter(PodInfo pod, NodeInfo node) {
              return accepted.get(index(node.name()))
                  ? FilterResult.fit()
                  : FilterResult.unschedulable(Reason.of("rejected"));
            }
          };
      return Policy.builder()
          .filter(filter)
          .scorer(scorer("A", scoresA), 1)
          .scorer(scorer("B", scoresB), weightB)
          .percentageOfNodesToScore(percentage)
          .seed(seed)
          .build();
    }

    private Scorer scorer(String name, List<Long> scores) {
      return new Scorer() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public long score(PodInfo pod, NodeInfo node) {
          return scores.get(index(node.name()));
        }
      };
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.integers()
        .between(0, 160)
        .edgeCases(edges -> edges.includeOnly(0, 1, 2, 99, 100, 160))
        .flatMap(
            n ->
                Combinators.combine(
                        Arbitraries.of(true, false).list().ofSize(n),
                        Arbitraries.longs().between(0, 3).list().ofSize(n),
                        Arbitraries.longs().between(0, 100).list().ofSize(n),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.longs())
                    .as(Case::new));
  }

  private static final PodInfo POD = PodInfo.builder("default", "p").build();

  @Property
  void with_every_node_searched_the_pod_goes_to_a_feasible_node_of_highest_total(@ForAll("cases") Case c) {
    var decision = c.policy(100).find(POD, c.nodes());

    long feasible = c.accepted().stream().filter(a -> a).count();
    Statistics.label("outcome").collect(feasible == 0 ? "unschedulable" : feasible == 1 ? "single" : "scored");
    Statistics.label("outcome")
        .coverage(
            cov -> {
              cov.check("unschedulable").count(n -> n > 0);
              cov.check("single").count(n -> n > 0);
              cov.check("scored").count(n -> n > 0);
            });
    if (feasible == 0) {
      assertTrue(decision instanceof Decision.Unschedulable);
      return;
    }
    var chosen = c.index(((Decision.Bind) decision).nodeName());
    assertTrue(c.accepted().get(chosen), "chose a rejected node");
    if (feasible > 1) {
      long best =
          IntStream.range(0, c.size()).filter(c.accepted()::get).mapToLong(c::total).max().orElseThrow();
      assertEquals(best, c.total(chosen));
    }
  }

  @Property
  void a_pod_is_unschedulable_exactly_when_no_node_is_feasible_and_then_every_node_has_a_reason(
      @ForAll("cases") Case c) {
    var decision = c.policy(0).find(POD, c.nodes());

    boolean anyFeasible = c.accepted().contains(true);
    Statistics.collect(anyFeasible ? "some feasible" : "none feasible", c.size() >= 100 ? "large" : "small");
    Statistics.coverage(
        cov -> {
          cov.check("none feasible", "large").count(n -> n > 0);
          cov.check("some feasible", "large").count(n -> n > 0);
          cov.check("none feasible", "small").count(n -> n > 0);
        });
    assertEquals(!anyFeasible, decision instanceof Decision.Unschedulable);
    if (decision instanceof Decision.Unschedulable unschedulable) {
      assertEquals(c.size(), unschedulable.reasonsByNode().size());
      unschedulable.reasonsByNode().values().forEach(reasons -> assertFalse(reasons.isEmpty()));
    }
  }

  @Property
  void an_adaptive_search_scores_at_most_the_number_of_nodes_to_find_and_picks_the_best_of_those(
      @ForAll("cases") Case c) {
    var explanation = c.policy(0).explain(POD, c.nodes());

    var scored = explanation.nodes().stream().filter(Explanation.NodeExplanation::feasible).toList();
    int toFind = Policy.numFeasibleNodesToFind(0, c.size());
    assertTrue(scored.size() <= toFind);
    long feasible = c.accepted().stream().filter(a -> a).count();
    assertEquals(Math.min(toFind, feasible), scored.size(), "stops only once enough are found");
    if (explanation.decision() instanceof Decision.Bind bind && scored.size() > 1) {
      long best = scored.stream().mapToLong(Explanation.NodeExplanation::total).max().orElseThrow();
      assertEquals(best, explanation.node(bind.nodeName()).orElseThrow().total());
    }
  }

  @Property
  void explain_and_find_agree_and_the_same_seed_decides_the_same(@ForAll("cases") Case c) {
    var nodes = c.nodes();
    var explained = c.policy(0).explain(POD, nodes).decision();
    var found = c.policy(0).find(POD, nodes);
    var again = c.policy(0).find(POD, nodes);

    assertEquals(explained, found);
    assertEquals(found, again);
  }

  @Property(tries = 200)
  void over_successive_decisions_every_node_is_examined_in_turn(@ForAll("cases") Case c) {
    var filterCalls = new ArrayList<String>();
    var policy =
        Policy.builder()
            .filter(
                new Filter() {
                  @Override
                  public String name() {
                    return "Records";
                  }

                  @Override
                  public FilterResult filter(PodInfo pod, NodeInfo node) {
                    filterCalls.add(node.name());
                    return FilterResult.fit();
                  }
                })
            .scorer(PolicyTest.fixed("s", Map.of()), 1)
            .percentageOfNodesToScore(1)
            .build();
    var nodes = c.nodes();
    int rounds = 3;
    for (int i = 0; i < rounds; i++) {
      policy.find(POD, nodes);
    }
    // Each decision examines the next numFeasibleNodesToFind nodes after the previous one, wrapping.
    int step = Policy.numFeasibleNodesToFind(1, nodes.size());
    var expected = new ArrayList<String>();
    for (int i = 0; i < rounds * step; i++) {
      expected.add("n" + (i % Math.max(nodes.size(), 1)));
    }
    assertEquals(nodes.isEmpty() ? List.of() : expected, filterCalls);
  }
}
