package io.kubesched.policy.plugins.imagelocality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Laws of the ImageLocality score, over three images of telling sizes. */
class ImageLocalityScorerProperties {

  static final List<ContainerImage> IMAGES = List.of(
      ScorerFixtures.image(10 * ScorerFixtures.MIB, "a:latest"),
      ScorerFixtures.image(300 * ScorerFixtures.MIB, "b:latest"),
      ScorerFixtures.image(4000 * ScorerFixtures.MIB, "c:latest"));

  static boolean holdsAny(NodeInfo node, PodInfo pod) {
    return pod.images().stream()
        .map(ImageLocalityScorer::normalizedImageName)
        .anyMatch(name -> node.images().stream().anyMatch(image -> image.names().contains(name)));
  }

  @Property
  @Label("scores lie in 0..100, and a node holding none of the pod's images scores 0")
  void scoresLieInRange(@ForAll("pods") PodInfo pod, @ForAll("clusters") List<NodeInfo> nodes) {
    var scores = ScorerFixtures.scores(new ImageLocalityScorer(), pod, nodes);

    for (int i = 0; i < nodes.size(); i++) {
      assertTrue(scores.get(i) >= 0 && scores.get(i) <= 100, "score " + scores.get(i));
      if (!holdsAny(nodes.get(i), pod)) {
        assertEquals(0, scores.get(i));
      }
      Statistics.label("node").collect(
          !holdsAny(nodes.get(i), pod) ? "holds none" : scores.get(i) > 0 ? "scores" : "holds too little");
    }
    Statistics.label("node").coverage(c -> {
      c.check("holds none").count(n -> n > 0);
      c.check("scores").count(n -> n > 0);
      c.check("holds too little").count(n -> n > 0);
    });
  }

  @Property
  @Label("another node holding every image never lowers a node's score: the images spread wider")
  void widerSpreadNeverLowersTheScore(@ForAll("pods") PodInfo pod, @ForAll("clusters") List<NodeInfo> nodes) {
    var more = new ArrayList<>(nodes);
    more.add(ScorerFixtures.imageNode("holder", IMAGES));
    var before = ScorerFixtures.scores(new ImageLocalityScorer(), pod, nodes);
    var after = ScorerFixtures.scores(new ImageLocalityScorer(), pod, more);

    boolean raised = false;
    for (int i = 0; i < nodes.size(); i++) {
      assertTrue(after.get(i) >= before.get(i), before + " then " + after);
      raised |= after.get(i) > before.get(i);
    }
    Statistics.label("change").collect(raised ? "raised" : "same");
    Statistics.label("change").coverage(c -> {
      c.check("raised").count(n -> n > 0);
      c.check("same").count(n -> n > 0);
    });
  }

  @Property
  @Label("an image named without tag scores as the same name with :latest")
  void untaggedIsLatest(@ForAll("pods") PodInfo pod, @ForAll("clusters") List<NodeInfo> nodes) {
    var tagged = pod.toBuilder().images(pod.images().stream().map(ImageLocalityScorer::normalizedImageName).toList())
        .build();

    assertEquals(
        ScorerFixtures.scores(new ImageLocalityScorer(), pod, nodes),
        ScorerFixtures.scores(new ImageLocalityScorer(), tagged, nodes));
    Statistics.label("pod").collect(pod.images().equals(tagged.images()) ? "tagged already" : "untagged");
    Statistics.label("pod").coverage(c -> c.check("untagged").count(n -> n > 0));
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return Arbitraries.of("a", "b", "c", "a:latest", "c:v2").list().ofMaxSize(3)
        .map(images -> ScorerFixtures.podWithImages(images.toArray(String[]::new)));
  }

  @Provide
  Arbitrary<List<NodeInfo>> clusters() {
    var held = Arbitraries.of(IMAGES).set().ofMaxSize(3);
    return held.list().ofMinSize(1).ofMaxSize(4).map(all -> {
      var nodes = new ArrayList<NodeInfo>();
      for (int i = 0; i < all.size(); i++) {
        nodes.add(ScorerFixtures.imageNode("node" + i, List.copyOf(all.get(i))));
      }
      return nodes;
    });
  }
}
