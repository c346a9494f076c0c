package io.kubesched.policy.plugins.tainttoleration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/** Laws of the TaintToleration score. */
class TaintTolerationScorerProperties {

  /**
   * The rule, stated directly: the node's PreferNoSchedule taints that no toleration of effect PreferNoSchedule
   * or of no effect tolerates.
   */
  static long untolerated(PodInfo pod, NodeInfo node) {
    return node.taints().stream()
        .filter(t -> t.effect() == TaintEffect.PREFER_NO_SCHEDULE)
        .filter(t -> pod.tolerations().stream().noneMatch(
            tol -> (tol.effect() == null || tol.effect() == TaintEffect.PREFER_NO_SCHEDULE) && tol.tolerates(t)))
        .count();
  }

  @Property
  @Label("fewer untolerated PreferNoSchedule taints never score lower; none scores 100, the most 0")
  void fewerUntoleratedTaintsScoreHigher(@ForAll("pods") PodInfo pod, @ForAll("nodeLists") List<NodeInfo> nodes) {
    var scores = ScorerFixtures.scores(new TaintTolerationScorer(), pod, nodes);
    var counts = nodes.stream().map(n -> untolerated(pod, n)).toList();
    long most = counts.stream().mapToLong(Long::longValue).max().orElse(0);

    for (int i = 0; i < nodes.size(); i++) {
      long score = scores.get(i);
      assertTrue(score >= 0 && score <= 100, "score " + score);
      if (counts.get(i) == 0) {
        assertEquals(100, score);
      }
      if (most > 0 && counts.get(i) == most) {
        assertEquals(0, score);
      }
      for (int j = 0; j < nodes.size(); j++) {
        if (counts.get(i) < counts.get(j)) {
          assertTrue(scores.get(i) >= scores.get(j), counts + " scored " + scores);
        }
      }
    }
    Statistics.label("cluster").collect(most == 0 ? "all tolerated" : counts.contains(0L) ? "mixed" : "all tainted");
    Statistics.label("cluster").coverage(c -> {
      c.check("all tolerated").count(n -> n > 0);
      c.check("mixed").count(n -> n > 0);
      c.check("all tainted").count(n -> n > 0);
    });
  }

  @Property
  @Label("the raw score counts the untolerated PreferNoSchedule taints")
  void rawScoreCountsUntoleratedTaints(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    long raw = new TaintTolerationScorer().score(pod, node);

    assertEquals(untolerated(pod, node), raw);
    Statistics.label("untolerated").collect(raw == 0 ? "0" : "some");
    Statistics.label("untolerated").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("some").count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    var tolerations = Combinators.combine(
            Arbitraries.of("", "a", "b"),
            Arbitraries.of(Toleration.Operator.class),
            Arbitraries.of("", "x"),
            Arbitraries.of(TaintEffect.class).injectNull(0.4))
        .as(Toleration::new);
    return tolerations.list().ofMaxSize(3)
        .map(list -> PodInfo.builder("default", "pod").tolerations(list).build());
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    var taints = Combinators.combine(
            Arbitraries.of("a", "b", "c"), Arbitraries.of("", "x"),
            Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(TaintEffect.PREFER_NO_SCHEDULE)),
                Tuple.of(1, Arbitraries.of(TaintEffect.class))))
        .as(Taint::new);
    return taints.list().ofMaxSize(4).map(list -> ScorerFixtures.taintedNode("node", list));
  }

  @Provide
  Arbitrary<List<NodeInfo>> nodeLists() {
    return nodes().list().ofMinSize(1).ofMaxSize(4).map(list -> {
      var named = new ArrayList<NodeInfo>();
      for (int i = 0; i < list.size(); i++) {
        named.add(ScorerFixtures.taintedNode("node" + i, list.get(i).taints()));
      }
      return named;
    });
  }

  @Property
  @Label("preparing the scorer first, as kube's PreScore, gives the same scores as scoring directly")
  void preparedAgreesWithUnprepared(@ForAll("pods") PodInfo pod, @ForAll("nodeLists") List<NodeInfo> nodes) {
    var scorer = new TaintTolerationScorer();

    var scores = ScorerFixtures.scores(scorer, pod, nodes);
    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), scores);
    Statistics.label("lowest").collect(scores.contains(0L) ? "some node 0" : "none 0");
    Statistics.label("lowest").coverage(c -> {
      c.check("some node 0").count(n -> n > 0);
      c.check("none 0").count(n -> n > 0);
    });
  }
}
