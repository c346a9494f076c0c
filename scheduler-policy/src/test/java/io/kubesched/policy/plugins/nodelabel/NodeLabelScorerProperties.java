package io.kubesched.policy.plugins.nodelabel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Laws of the NodeLabel score. */
class NodeLabelScorerProperties {

  static final PodInfo POD = PodInfo.builder("default", "pod").build();

  @Property
  @Label("a node scores 100 exactly when having the label is what is preferred, else 0")
  void scoresPresenceAsPreferred(
      @ForAll("labels") String label, @ForAll boolean presence, @ForAll("nodes") NodeInfo node) {
    long score = new NodeLabelScorer(label, presence).score(POD, node);

    boolean has = node.labels().containsKey(label);
    assertEquals(has == presence ? 100 : 0, score);
    Statistics.label("node").collect(has ? "has label" : "lacks label");
    Statistics.label("node").coverage(c -> {
      c.check("has label").count(n -> n > 0);
      c.check("lacks label").count(n -> n > 0);
    });
  }

  @Property
  @Label("preferring presence and preferring absence score 100 together")
  void presenceAndAbsenceAreComplementary(@ForAll("labels") String label, @ForAll("nodes") NodeInfo node) {
    assertEquals(100,
        new NodeLabelScorer(label, true).score(POD, node) + new NodeLabelScorer(label, false).score(POD, node));
  }

  @Provide
  Arbitrary<String> labels() {
    return Arbitraries.of("a", "b", "c");
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    Arbitrary<Map<String, String>> labels = ScorerFixtures.smallLabels();
    return labels.map(l -> ScorerFixtures.labelledNode("node", l));
  }
}
