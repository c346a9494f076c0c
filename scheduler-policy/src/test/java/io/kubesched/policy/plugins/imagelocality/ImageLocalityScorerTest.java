package io.kubesched.policy.plugins.imagelocality;

import static io.kubesched.policy.plugins.ScorerFixtures.MIB;
import static io.kubesched.policy.plugins.ScorerFixtures.image;
import static io.kubesched.policy.plugins.ScorerFixtures.imageNode;
import static io.kubesched.policy.plugins.ScorerFixtures.podWithImages;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ContainerImage;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestImageLocalityPriority} and {@code TestNormalizedImageName}
 * (imagelocality/image_locality_test.go, 1.37), case by case, and edge cases. Kube's "pod with ImageVolume"
 * case has no counterpart: this model does not carry image volumes.
 */
class ImageLocalityScorerTest {

  static final List<ContainerImage> NODE_40_300_2000 = List.of(
      image(40 * MIB, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
      image(300 * MIB, "gcr.io/300:latest", "gcr.io/300:v1"),
      image(2000 * MIB, "gcr.io/2000:latest"));
  static final List<ContainerImage> NODE_250_10 = List.of(
      image(250 * MIB, "gcr.io/250:latest"),
      image(10 * MIB, "gcr.io/10:latest", "gcr.io/10:v1"));
  static final List<ContainerImage> NODE_600_40_900 = List.of(
      image(600 * MIB, "gcr.io/600:latest"), image(40 * MIB, "gcr.io/40:latest"), image(900 * MIB, "gcr.io/900:latest"));
  static final List<ContainerImage> NODE_300_600_900 = List.of(
      image(300 * MIB, "gcr.io/300:latest"), image(600 * MIB, "gcr.io/600:latest"), image(900 * MIB, "gcr.io/900:latest"));
  static final List<ContainerImage> NODE_4000_30 = List.of(
      image(4000 * MIB, "gcr.io/4000:latest"), image(30 * MIB, "gcr.io/30:latest"));
  static final List<ContainerImage> NODE_20_30_40 = List.of(
      image(20 * MIB, "gcr.io/20:latest"), image(30 * MIB, "gcr.io/30:latest"), image(40 * MIB, "gcr.io/40:latest"));

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        row("two images spread on two nodes, prefer the larger image one", podWithImages("gcr.io/40", "gcr.io/250"),
            List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_250_10)),
            0, 5),
        row("two images on one node, prefer this node", podWithImages("gcr.io/40", "gcr.io/300"),
            List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_250_10)),
            7, 0),
        row("if exceed limit, use limit", podWithImages("gcr.io/10", "gcr.io/4000"),
            List.of(imageNode("node1", NODE_4000_30), imageNode("node2", NODE_250_10)),
            100, 0),
        row("if exceed limit, use limit (with node which has no images present)",
            podWithImages("gcr.io/10", "gcr.io/4000"),
            List.of(imageNode("node1", NODE_4000_30), imageNode("node2", NODE_250_10),
                imageNode("node3", List.of())),
            66, 0, 0),
        row("pod with multiple large images, node2 is preferred",
            podWithImages("gcr.io/300", "gcr.io/600", "gcr.io/900"),
            List.of(imageNode("node1", NODE_600_40_900), imageNode("node2", NODE_300_600_900),
                imageNode("node3", List.of())),
            32, 36, 0),
        row("pod with multiple small images", podWithImages("gcr.io/30", "gcr.io/40"),
            List.of(imageNode("node1", NODE_20_30_40), imageNode("node2", NODE_4000_30)),
            1, 0),
        row("same images as ImageVolume pod but as regular container images",
            podWithImages("gcr.io/30", "gcr.io/300"),
            List.of(imageNode("node1", NODE_300_600_900), imageNode("node2", NODE_4000_30)),
            6, 0),
        // The pod's images list holds init containers' images too; the container's comes first here.
        row("include InitContainers: two images spread on two nodes, prefer the larger image one",
            podWithImages("gcr.io/30", "gcr.io/300"),
            List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_20_30_40)),
            6, 0));
  }

  static Arguments row(String name, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(String name, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new ImageLocalityScorer(), pod, nodes));
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource({
    "add :latest postfix 1, root, root:latest",
    "add :latest postfix 2, gcr.io:5000/root, gcr.io:5000/root:latest",
    "keep it as is 1, root:tag, root:tag",
    "keep it as is 2, root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2,"
        + " root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2"
  })
  void image_names_are_normalised_as_kube_does(String name, String input, String output) {
    assertEquals(output, ImageLocalityScorer.normalizedImageName(input));
  }

  @Test
  void a_pod_without_images_scores_zero_everywhere() {
    assertEquals(List.of(0L), scores(new ImageLocalityScorer(), podWithImages(),
        List.of(imageNode("node1", NODE_40_300_2000))));
  }

  @Test
  void two_containers_of_the_same_image_count_it_twice() {
    // each container counts: 2 × 300 MiB over a threshold of 2 × 1000 MiB
    var nodes = List.of(imageNode("node1", NODE_300_600_900));
    long once = scores(new ImageLocalityScorer(), podWithImages("gcr.io/300"), nodes).get(0);
    long twice = scores(new ImageLocalityScorer(), podWithImages("gcr.io/300", "gcr.io/300"), nodes).get(0);
    assertEquals(100 * (300 * MIB - 23 * MIB) / (1000 * MIB - 23 * MIB), once);
    assertEquals(100 * (600 * MIB - 23 * MIB) / (2000 * MIB - 23 * MIB), twice);
  }

  @Test
  void a_node_name_without_tag_is_not_matched_by_the_normalised_pod_image() {
    // kube normalises only the pod's side; the node reports names as the runtime gives them
    var nodes = List.of(imageNode("node1", List.of(image(900 * MIB, "gcr.io/900"))));
    assertEquals(List.of(0L), scores(new ImageLocalityScorer(), podWithImages("gcr.io/900"), nodes));
  }

  @Test
  void image_sizes_near_long_max_value_saturate_instead_of_overflowing() {
    var huge = List.of(image(Long.MAX_VALUE, "a:latest"), image(Long.MAX_VALUE, "b:latest"));
    var nodes = List.of(imageNode("node1", huge));
    assertEquals(List.of(100L), scores(new ImageLocalityScorer(), podWithImages("a", "b"), nodes));
  }

  @Test
  void the_unprepared_scorer_refuses_to_score() {
    var e = assertThrows(IllegalStateException.class,
        () -> new ImageLocalityScorer().score(podWithImages("a"), imageNode("n", List.of())));
    assertEquals("ImageLocality scores only through prepare(pod, feasibleNodes, cluster)", e.getMessage());
  }
}
