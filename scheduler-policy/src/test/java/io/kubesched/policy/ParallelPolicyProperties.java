package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.selectorspread.SelectorSpreadScorer;
import io.kubesched.testkit.KubeArbitraries;
import io.kubesched.testkit.SnapshotScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * A policy sharing its node loop out decides exactly as the same policy alone: over generated clusters, several
 * successive decisions (the round robin moving between them) give the same nodes, the same reasons and the
 * same exceptions with 1 thread as with 2 to 8, whatever the chunk size. The threshold is set to 0 so that the
 * parallel path runs on every cluster, and chunks are small so that clusters make many of them.
 */
class ParallelPolicyProperties {

  private static final ExecutorService POOL =
      Executors.newFixedThreadPool(
          7,
          runnable -> {
            var thread = new Thread(runnable, "parallel-policy-properties");
            thread.setDaemon(true);
            return thread;
          });

  @AfterContainer
  static void stopPool() throws InterruptedException {
    POOL.shutdown();
    POOL.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** What a node does for the one filter of a {@link Case}. */
  enum Outcome {
    FITS,
    UNSCHEDULABLE,
    UNRESOLVABLE,
    FAILS,
    THROWS
  }

  /**
   * One generated case.
   *
   * @param outcomes per node, what the filter says
   * @param scoresA per node, the first scorer's score (0 to 3: many ties)
   * @param scorers how many of the two scorers the policy has (0: the first feasible node is taken)
   * @param throwingScore a node the second scorer throws on, or -1
   * @param percentage the percentage of nodes to score
   * @param seed the seed
   */
  record Case(
      List<Outcome> outcomes, List<Long> scoresA, int scorers, int throwingScore, int percentage, long seed) {

    int size() {
      return outcomes.size();
    }

    List<NodeInfo> nodes() {
      return IntStream.range(0, size()).mapToObj(i -> NodeInfo.builder("n" + i).build()).toList();
    }

    static int index(NodeInfo node) {
      return Integer.parseInt(node.name().substring(1));
    }

    long feasible() {
      return outcomes.stream().filter(o -> o == Outcome.FITS).count();
    }

    boolean throwsSomewhere() {
      return outcomes.contains(Outcome.FAILS) || outcomes.contains(Outcome.THROWS) || scorers == 2 && throwingScore >= 0;
    }

    /** @return how many feasible nodes the first decision looks for */
    int toFind() {
      return scorers == 0 ? 1 : Policy.numFeasibleNodesToFind(percentage, size());
    }

    Policy policy() {
      var builder =
          Policy.builder()
              .filter(
                  new Filter() {
                    @Override
                    public String name() {
                      return "Generated";
                    }

                    @Override
                    public FilterResult filter(PodInfo pod, NodeInfo node) {
                      return switch (outcomes.get(index(node))) {
                        case FITS -> FilterResult.fit();
                        case UNSCHEDULABLE -> FilterResult.unschedulable(Reason.of("rejected"));
                        case UNRESOLVABLE -> FilterResult.unresolvable(Reason.of("never"));
                        case FAILS -> FilterResult.error("cannot tell on " + node.name());
                        case THROWS -> throw new IllegalStateException("filter threw on " + node.name());
                      };
                    }
                  })
              .percentageOfNodesToScore(percentage)
              .seed(seed);
      if (scorers >= 1) {
        builder.scorer(PolicyTest.fixed("A", scoresOf()), 1);
      }
      if (scorers >= 2) {
        builder.scorer(
            new Scorer() {
              @Override
              public String name() {
                return "B";
              }

              @Override
              public long score(PodInfo pod, NodeInfo node) {
                if (index(node) == throwingScore) {
                  throw new IllegalStateException("scorer threw on " + node.name());
                }
                return index(node) % 2;
              }
            },
            2);
      }
      return builder.build();
    }

    private java.util.Map<String, Long> scoresOf() {
      var scores = new java.util.HashMap<String, Long>();
      for (int i = 0; i < scoresA.size(); i++) {
        scores.put("n" + i, scoresA.get(i));
      }
      return scores;
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    var sizes =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(1, 40)),
            net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(100, 400)));
    return sizes.flatMap(
        n -> {
          // Mostly feasible, mostly rejected or nothing feasible at all, so that both the cut-off and
          // unschedulable pods come up; a failing or throwing node now and then.
          var outcome =
              Arbitraries.integers()
                  .between(0, 4)
                  .flatMap(
                      mix ->
                          Arbitraries.frequencyOf(
                              net.jqwik.api.Tuple.of(mix == 4 ? 0 : 10 - 2 * mix, Arbitraries.just(Outcome.FITS)),
                              net.jqwik.api.Tuple.of(2 + 2 * mix, Arbitraries.just(Outcome.UNSCHEDULABLE)),
                              net.jqwik.api.Tuple.of(1, Arbitraries.just(Outcome.UNRESOLVABLE)))
                              .list()
                              .ofSize(n));
          var withFailure =
              Combinators.combine(
                      outcome,
                      Arbitraries.integers().between(0, n - 1),
                      Arbitraries.frequencyOf(
                          net.jqwik.api.Tuple.of(16, Arbitraries.just(Outcome.FITS)),
                          net.jqwik.api.Tuple.of(1, Arbitraries.just(Outcome.FAILS)),
                          net.jqwik.api.Tuple.of(1, Arbitraries.just(Outcome.THROWS))))
                  .as(
                      (list, at, failure) -> {
                        if (failure == Outcome.FITS) {
                          return list;
                        }
                        var copy = new ArrayList<>(list);
                        copy.set(at, failure);
                        return List.copyOf(copy);
                      });
          return Combinators.combine(
                  withFailure,
                  Arbitraries.longs().between(0, 3).list().ofSize(n),
                  Arbitraries.integers().between(0, 2),
                  Arbitraries.oneOf(Arbitraries.just(-1), Arbitraries.just(-1), Arbitraries.integers().between(0, n - 1)),
                  Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(1, 100)),
                  Arbitraries.longs())
              .as(Case::new);
        });
  }

  private static final List<PodInfo> PODS =
      List.of(
          PodInfo.builder("default", "first").build(),
          PodInfo.builder("default", "second").build(),
          PodInfo.builder("team-a", "third").build());

  /** The outcome of one decision as far as it can be compared: the decision, or the exception's class and message. */
  private static List<Object> decide(Policy policy, ClusterSnapshot snapshot, List<PodInfo> pods) {
    var outcomes = new ArrayList<Object>();
    for (var pod : pods) {
      try {
        outcomes.add(policy.find(pod, snapshot));
      } catch (RuntimeException e) {
        outcomes.add(e.getClass().getName() + ": " + e.getMessage());
      }
    }
    return outcomes;
  }

  @Property(tries = 300)
  void several_threads_decide_exactly_as_one(
      @ForAll("cases") Case c,
      @ForAll @IntRange(min = 2, max = 8) int parallelism,
      @ForAll @IntRange(min = 1, max = 40) int chunkSize) {
    var snapshot = ClusterSnapshot.of(c.nodes());
    var alone = decide(c.policy(), snapshot, PODS);
    var shared = decide(c.policy().withParallelism(parallelism, POOL, 0, chunkSize), snapshot, PODS);

    String shape;
    if (c.throwsSomewhere()) {
      shape = "a plugin throws or fails";
    } else if (c.feasible() == 0) {
      shape = "unschedulable";
    } else if (c.feasible() > c.toFind()) {
      shape = "cut off at the nodes to find";
    } else {
      shape = "every node examined";
    }
    Statistics.label("shape").collect(shape);
    Statistics.label("shape")
        .coverage(
            cov -> {
              cov.check("unschedulable").percentage(p -> p >= 10);
              // about 21 % in 300 tries (62, standard deviation 7): 15 % was 2.4 deviations below and failed a
              // CI run at 14.7 %; 10 % is 4.6 below and still proves the generator reaches the cut-off
              cov.check("cut off at the nodes to find").percentage(p -> p >= 10);
              cov.check("every node examined").percentage(p -> p >= 5);
              cov.check("a plugin throws or fails").percentage(p -> p >= 5);
            });
    Statistics.label("chunks")
        .collect(c.size() / chunkSize >= parallelism ? "more chunks than threads" : "fewer chunks than threads");
    Statistics.label("chunks").coverage(cov -> cov.check("fewer chunks than threads").count(n -> n > 0));
    assertEquals(alone, shared);
  }

  /**
   * Normalising scorers see each node's score beside the node it belongs to, whatever thread scored it: pod
   * topology spread leaves out the nodes without the zone label, selector spread sums per zone. (They once
   * recorded what normalising needs node after node as they scored; scored in chunks on several threads, the
   * record raced and its order was not the nodes', found by the property above now and then.) Many chunks of
   * one node each, half of the nodes without a zone, make any mix-up all but certain.
   */
  @Example
  void normalising_scorers_decide_alike_in_chunks() {
    var owner = new Owner("ReplicaSet", "web", "uid-web");
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < 600; i++) {
      var name = "node-" + i;
      var labels = i % 2 == 0
          ? Map.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", "zone-" + (i % 3))
          : Map.of("kubernetes.io/hostname", name);
      var pods = i % 5 == 0
          ? List.of(PodInfo.builder("default", name + "-web").nodeName(name).labels(Map.of("app", "web"))
              .owner(owner).build())
          : List.<PodInfo>of();
      nodes.add(NodeInfo.builder(name).labels(labels).allocatable(4000, 8L << 30, 110).pods(pods).build());
    }
    var snapshot = ClusterSnapshot.of(nodes);
    var spread =
        TopologySpreadConstraint.of(
            1, "topology.kubernetes.io/zone", WhenUnsatisfiable.SCHEDULE_ANYWAY, LabelSelector.of(Map.of("app", "web")));
    var pods =
        IntStream.range(0, 20)
            .mapToObj(i -> PodInfo.builder("default", "web-" + i).labels(Map.of("app", "web")).owner(owner)
                .topologySpreadConstraints(List.of(spread)).build())
            .toList();
    // Two policies each time: one derived from the other would share its round robin over the nodes.
    var alone = decide(policy(), snapshot, pods);
    var shared = decide(policy().withParallelism(8, POOL, 0, 1), snapshot, pods);
    assertEquals(alone, shared);
  }

  private static Policy policy() {
    return DefaultPolicy.builder().scorer(new SelectorSpreadScorer(), 1).seed(7).build();
  }

  @Provide
  Arbitrary<SnapshotScenario> scenarios() {
    return KubeArbitraries.snapshotScenarios(
        KubeArbitraries.pods().withPlacementConstraints(), KubeArbitraries.snapshots().ofSize(0, 40));
  }

  @Property(tries = 200)
  void the_default_plugins_decide_exactly_as_one_thread_does(
      @ForAll("scenarios") SnapshotScenario scenario,
      @ForAll @IntRange(min = 2, max = 8) int parallelism,
      @ForAll @IntRange(min = 1, max = 5) int chunkSize,
      @ForAll boolean firstFit,
      @ForAll long seed) {
    // Without scorers the first feasible node is taken: the cut-off with real filters on small clusters.
    var builder = DefaultPolicy.builder().seed(seed);
    if (firstFit) {
      DefaultPolicy.builder().build().scorers().forEach(ws -> builder.removeScorer(ws.scorer().name()));
    }
    var pods = List.of(scenario.pod(), scenario.pod().toBuilder().uid(scenario.pod().uid() + "-2").build());
    var alone = decide(builder.build(), scenario.snapshot(), pods);
    var shared = decide(builder.build().withParallelism(parallelism, POOL, 0, chunkSize), scenario.snapshot(), pods);

    Statistics.label("decision")
        .collect(alone.get(0) instanceof io.kubesched.api.Decision.Bind ? "bind" : "unschedulable or error");
    Statistics.label("decision")
        .coverage(
            cov -> {
              cov.check("bind").percentage(p -> p >= 10);
              cov.check("unschedulable or error").percentage(p -> p >= 10);
            });
    assertEquals(alone, shared);
  }
}
