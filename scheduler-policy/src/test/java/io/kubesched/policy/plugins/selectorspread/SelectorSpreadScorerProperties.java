package io.kubesched.policy.plugins.selectorspread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
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

/** Laws of the SelectorSpread score, over pods of two controllers in two namespaces and nodes in two zones. */
class SelectorSpreadScorerProperties {

  static final PodInfo POD = ScorerFixtures.ownedPod("default", "pod", "rc1");

  /** The pods of the incoming pod's set on {@code node}: same namespace, same controller. */
  static long matching(NodeInfo node) {
    return node.pods().stream()
        .filter(p -> p.namespace().equals("default") && p.owner() != null && p.owner().uid().equals("rc1"))
        .count();
  }

  static String zone(NodeInfo node) {
    return node.labels().getOrDefault(SelectorSpreadScorer.ZONE_LABEL, "");
  }

  @Property
  @Label("scores lie in 0..100, and a node never outscores one of its zone with fewer of the set's pods")
  void fewerPodsOfTheSetNeverScoreLower(@ForAll("clusters") List<NodeInfo> nodes) {
    var scores = ScorerFixtures.scores(new SelectorSpreadScorer(), POD, nodes);

    for (int i = 0; i < nodes.size(); i++) {
      assertTrue(scores.get(i) >= 0 && scores.get(i) <= 100, "score " + scores.get(i));
      for (int j = 0; j < nodes.size(); j++) {
        if (zone(nodes.get(i)).equals(zone(nodes.get(j))) && matching(nodes.get(i)) < matching(nodes.get(j))) {
          assertTrue(scores.get(i) >= scores.get(j), "scores " + scores);
        }
      }
    }
    boolean zoned = nodes.stream().anyMatch(n -> !zone(n).isEmpty());
    boolean spread = nodes.stream().anyMatch(n -> matching(n) > 0);
    Statistics.label("cluster").collect((zoned ? "zones" : "no zones") + ", " + (spread ? "pods of the set" : "none"));
    Statistics.label("cluster").coverage(c -> {
      c.check("zones, pods of the set").count(n -> n > 0);
      c.check("no zones, pods of the set").count(n -> n > 0);
      c.check("zones, none").count(n -> n > 0);
    });
  }

  @Property
  @Label("without zones, the nodes with none of the set's pods score 100 and those with the most 0")
  void withoutZonesTheExtremesScore100And0(@ForAll("clusters") List<NodeInfo> clustered) {
    var nodes = clustered.stream()
        .map(n -> ScorerFixtures.nodeWithPods(n.name(), Map.of(), n.pods()))
        .toList();
    var scores = ScorerFixtures.scores(new SelectorSpreadScorer(), POD, nodes);
    long most = nodes.stream().mapToLong(SelectorSpreadScorerProperties::matching).max().orElse(0);

    for (int i = 0; i < nodes.size(); i++) {
      long count = matching(nodes.get(i));
      if (count == 0) {
        assertEquals(100, scores.get(i));
      } else if (count == most) {
        assertEquals(0, scores.get(i));
      }
    }
    Statistics.label("most").collect(most == 0 ? "0" : most == 1 ? "1" : "2 or more");
    Statistics.label("most").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("2 or more").count(n -> n > 0);
    });
  }

  @Property
  @Label("pods of other controllers or namespaces do not change the scores")
  void otherPodsDoNotMatter(@ForAll("clusters") List<NodeInfo> nodes) {
    var withoutOthers = nodes.stream()
        .map(n -> ScorerFixtures.nodeWithPods(n.name(), n.labels(),
            n.pods().stream().filter(p -> matching(ScorerFixtures.nodeWithPods("x", Map.of(), List.of(p))) > 0)
                .toList()))
        .toList();

    assertEquals(
        ScorerFixtures.scores(new SelectorSpreadScorer(), POD, nodes),
        ScorerFixtures.scores(new SelectorSpreadScorer(), POD, withoutOthers));
    long others = nodes.stream().mapToLong(n -> n.pods().size() - matching(n)).sum();
    Statistics.label("other pods").collect(others > 0 ? "some" : "none");
    Statistics.label("other pods").coverage(c -> c.check("some").count(n -> n > 0));
  }

  @Property
  @Label("a pod without controller scores every node 100")
  void aPodWithoutControllerScoresAllNodesEqually(@ForAll("clusters") List<NodeInfo> nodes) {
    var orphan = ScorerFixtures.ownedPod("default", "orphan", null);
    var scores = ScorerFixtures.scores(new SelectorSpreadScorer(), orphan, nodes);

    scores.forEach(score -> assertEquals(100, score));
    Statistics.label("pods placed").collect(nodes.stream().anyMatch(n -> !n.pods().isEmpty()) ? "some" : "none");
    Statistics.label("pods placed").coverage(c -> c.check("some").count(n -> n > 0));
  }

  @Provide
  Arbitrary<List<NodeInfo>> clusters() {
    var pods = Combinators.combine(
            Arbitraries.of("default", "default", "other"), Arbitraries.of("rc1", "rc1", "rc2", "none"))
        .as((namespace, owner) -> ScorerFixtures.ownedPod(namespace, "p", owner.equals("none") ? null : owner));
    var nodes = Combinators.combine(Arbitraries.of("", "z1", "z2"), pods.list().ofMaxSize(4))
        .as((zone, placed) -> ScorerFixtures.nodeWithPods("node",
            zone.isEmpty() ? Map.of() : Map.of(SelectorSpreadScorer.ZONE_LABEL, zone), placed));
    return nodes.list().ofMinSize(1).ofMaxSize(5).map(list -> {
      var named = new ArrayList<NodeInfo>();
      for (int i = 0; i < list.size(); i++) {
        named.add(ScorerFixtures.nodeWithPods("node" + i, list.get(i).labels(), list.get(i).pods()));
      }
      return named;
    });
  }
}
