package io.kubesched.policy.plugins.nodelabel;

import static io.kubesched.policy.plugins.ScorerFixtures.labelledNode;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.ScorerFixtures;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The former kube-scheduler {@code TestNewNodeLabelPriority} (algorithm/priorities/node_label_test.go), case by
 * case, with its score 10 of the old 0..10 scale as 100, and edge cases.
 */
class NodeLabelScorerTest {

  static final List<NodeInfo> MACHINES = List.of(
      labelledNode("machine1", Map.of("foo", "bar")),
      labelledNode("machine2", Map.of("bar", "foo")),
      labelledNode("machine3", Map.of("bar", "baz")));

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        Arguments.of("no match found, presence true", "baz", true, ScorerFixtures.list(0, 0, 0)),
        Arguments.of("no match found, presence false", "baz", false, ScorerFixtures.list(100, 100, 100)),
        Arguments.of("one match found, presence true", "foo", true, ScorerFixtures.list(100, 0, 0)),
        Arguments.of("one match found, presence false", "foo", false, ScorerFixtures.list(0, 100, 100)),
        Arguments.of("two matches found, presence true", "bar", true, ScorerFixtures.list(0, 100, 100)),
        Arguments.of("two matches found, presence false", "bar", false, ScorerFixtures.list(100, 0, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_did(String name, String label, boolean presence, List<Long> expected) {
    assertEquals(expected, scores(new NodeLabelScorer(label, presence), PodInfo.builder("d", "p").build(), MACHINES));
  }

  @Test
  void a_node_without_labels_lacks_every_label() {
    var bare = NodeInfo.builder("bare").build();
    var pod = PodInfo.builder("d", "p").build();
    assertEquals(0, new NodeLabelScorer("foo", true).score(pod, bare));
    assertEquals(100, new NodeLabelScorer("foo", false).score(pod, bare));
  }

  @Test
  void a_label_with_an_empty_value_is_present() {
    var pod = PodInfo.builder("d", "p").build();
    assertEquals(100, new NodeLabelScorer("foo", true).score(pod, labelledNode("n", Map.of("foo", ""))));
  }

  @Test
  void an_empty_label_is_rejected() {
    var e = assertThrows(IllegalArgumentException.class, () -> new NodeLabelScorer("", true));
    assertEquals("NodeLabel label must not be empty", e.getMessage());
  }
}
