package io.kubesched.policy.plugins.nodeaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Laws of the NodeAffinity score, against a brute force over {@code In} terms. */
class NodeAffinityScorerProperties {

  @Property
  @Label("normalised scores are 100 * (sum of matching weights) / the highest sum, by brute force")
  void scoresMatchBruteForce(@ForAll("pods") PodInfo pod, @ForAll("nodeLists") List<NodeInfo> nodes) {
    var raw = new ArrayList<Long>();
    for (var node : nodes) {
      long sum = 0;
      for (var term : pod.affinity().preferred()) {
        boolean all = term.preference().matchExpressions().stream()
            .allMatch(r -> node.labels().containsKey(r.key()) && r.values().contains(node.labels().get(r.key())));
        sum += all ? term.weight() : 0;
      }
      raw.add(sum);
    }
    long max = raw.stream().mapToLong(Long::longValue).max().orElse(0);
    var expected = raw.stream().map(r -> max == 0 ? 0 : 100 * r / max).toList();

    var actual = ScorerFixtures.scores(new NodeAffinityScorer(), pod, nodes);
    assertEquals(expected, actual);
    actual.forEach(score -> assertTrue(score >= 0 && score <= 100));
    Statistics.label("nodes").collect(max == 0 ? "none match" : expected.contains(0L) ? "some match" : "all match");
    Statistics.label("nodes").coverage(c -> {
      c.check("none match").count(n -> n > 0);
      c.check("some match").count(n -> n > 0);
      c.check("all match").count(n -> n > 0);
    });
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    var requirement = Combinators.combine(
            Arbitraries.of("a", "b", "c"), Arbitraries.of("x", "y").set().ofMinSize(1))
        .as((key, values) -> NodeSelectorRequirement.of(
            key, NodeSelectorRequirement.Operator.IN, values.toArray(String[]::new)));
    var term = Combinators.combine(
            Arbitraries.integers().between(1, 100), requirement.list().ofMinSize(1).ofMaxSize(2))
        .as((weight, requirements) -> new PreferredSchedulingTerm(
            weight, new NodeSelectorTerm(requirements, List.of())));
    return term.list().ofMaxSize(3).map(terms -> PodInfo.builder("default", "pod")
        .affinity(new NodeAffinity(List.of(), terms))
        .build());
  }

  @Provide
  Arbitrary<List<NodeInfo>> nodeLists() {
    Arbitrary<Map<String, String>> labels = ScorerFixtures.smallLabels();
    return labels.list().ofMinSize(1).ofMaxSize(4).map(all -> {
      var nodes = new ArrayList<NodeInfo>();
      for (int i = 0; i < all.size(); i++) {
        nodes.add(ScorerFixtures.labelledNode("node" + i, all.get(i)));
      }
      return nodes;
    });
  }

  @Property
  @Label("preparing the scorer first, as kube's PreScore, gives the same scores as scoring directly")
  void preparedAgreesWithUnprepared(@ForAll("pods") PodInfo pod, @ForAll("nodeLists") List<NodeInfo> nodes) {
    var scorer = new NodeAffinityScorer(List.of(ScorerFixtures.preferIn(3, "a", "x")));

    var scores = ScorerFixtures.scores(scorer, pod, nodes);
    assertEquals(ScorerFixtures.unpreparedScores(scorer, pod, nodes), scores);
    Statistics.label("top").collect(scores.contains(100L) ? "some node 100" : "all 0");
    Statistics.label("top").coverage(c -> {
      c.check("some node 100").count(n -> n > 0);
      c.check("all 0").count(n -> n > 0);
    });
  }
}
