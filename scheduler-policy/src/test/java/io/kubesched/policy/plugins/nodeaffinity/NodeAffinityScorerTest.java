package io.kubesched.policy.plugins.nodeaffinity;

import static io.kubesched.policy.plugins.ScorerFixtures.labelledNode;
import static io.kubesched.policy.plugins.ScorerFixtures.podPreferring;
import static io.kubesched.policy.plugins.ScorerFixtures.preferIn;
import static io.kubesched.policy.plugins.ScorerFixtures.scores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.policy.plugins.ScorerFixtures;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestNodeAffinityPriority} (nodeaffinity/node_affinity_test.go, 1.37), case by case,
 * after normalisation, and edge cases. Kube's case of a term with an invalid label key fails in PreScore; this
 * model does not validate label keys, so it has no counterpart.
 */
class NodeAffinityScorerTest {

  static final Map<String, String> LABEL1 = Map.of("foo", "bar");
  static final Map<String, String> LABEL2 = Map.of("key", "value");
  static final Map<String, String> LABEL3 = Map.of("az", "az1");
  static final Map<String, String> LABEL4 = Map.of("abc", "az11", "def", "az22");
  static final Map<String, String> LABEL5 = Map.of("foo", "bar", "key", "value", "az", "az1");

  static final PreferredSchedulingTerm FOO_BAR_2 = preferIn(2, "foo", "bar");

  /** kube's {@code affinity2}: foo=bar (2), key=value (4), and all three labels (5). */
  static PodInfo affinity2Pod() {
    var all = new PreferredSchedulingTerm(5, NodeSelectorTerm.ofExpressions(
        NodeSelectorRequirement.of("foo", NodeSelectorRequirement.Operator.IN, "bar"),
        NodeSelectorRequirement.of("key", NodeSelectorRequirement.Operator.IN, "value"),
        NodeSelectorRequirement.of("az", NodeSelectorRequirement.Operator.IN, "az1")));
    return podPreferring(FOO_BAR_2, preferIn(4, "key", "value"), all);
  }

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        row("all nodes are same priority as NodeAffinity is nil", List.of(), podPreferring(),
            List.of(labelledNode("node1", LABEL1), labelledNode("node2", LABEL2), labelledNode("node3", LABEL3)),
            0, 0, 0),
        row("no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority "
                + "is zero",
            List.of(), podPreferring(FOO_BAR_2),
            List.of(labelledNode("node1", LABEL4), labelledNode("node2", LABEL2), labelledNode("node3", LABEL3)),
            0, 0, 0),
        row("only node1 matches the preferred scheduling requirements of pod", List.of(), podPreferring(FOO_BAR_2),
            List.of(labelledNode("node1", LABEL1), labelledNode("node2", LABEL2), labelledNode("node3", LABEL3)),
            100, 0, 0),
        row("all nodes matches the preferred scheduling requirements of pod but with different priorities",
            List.of(), affinity2Pod(),
            List.of(labelledNode("node1", LABEL1), labelledNode("node5", LABEL5), labelledNode("node2", LABEL2)),
            18, 100, 36),
        row("added affinity", List.of(FOO_BAR_2), podPreferring(),
            List.of(labelledNode("node1", LABEL1), labelledNode("node2", LABEL2)),
            100, 0),
        row("added affinity and pod has default affinity", List.of(preferIn(3, "key", "value")),
            podPreferring(FOO_BAR_2),
            List.of(labelledNode("node1", LABEL1), labelledNode("node2", LABEL2), labelledNode("node3", LABEL5)),
            40, 60, 100));
  }

  static Arguments row(
      String name, List<PreferredSchedulingTerm> added, PodInfo pod, List<NodeInfo> nodes, long... expected) {
    return Arguments.of(name, added, pod, nodes, ScorerFixtures.list(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void scores_as_kube_scheduler_does(
      String name, List<PreferredSchedulingTerm> added, PodInfo pod, List<NodeInfo> nodes, List<Long> expected) {
    assertEquals(expected, scores(new NodeAffinityScorer(added), pod, nodes));
  }

  @Test
  void the_raw_score_is_the_sum_of_the_weights_of_the_matching_terms() {
    assertEquals(11, new NodeAffinityScorer().score(affinity2Pod(), labelledNode("node5", LABEL5)));
  }

  @Test
  void a_node_without_labels_matches_no_label_term() {
    assertEquals(List.of(0L, 100L),
        scores(new NodeAffinityScorer(), podPreferring(FOO_BAR_2),
            List.of(NodeInfo.builder("bare").build(), labelledNode("node1", LABEL1))));
  }

  @Test
  void an_empty_preferred_term_matches_no_node() {
    var empty = new PreferredSchedulingTerm(50, new NodeSelectorTerm(List.of(), List.of()));
    assertEquals(0, new NodeAffinityScorer().score(podPreferring(empty), labelledNode("node1", LABEL1)));
  }

  @Test
  void a_term_can_match_the_node_name_field() {
    var byName = new PreferredSchedulingTerm(7, new NodeSelectorTerm(List.of(), List.of(
        NodeSelectorRequirement.of(NodeSelectors.NODE_NAME_FIELD, NodeSelectorRequirement.Operator.IN, "n2"))));
    assertEquals(List.of(0L, 100L),
        scores(new NodeAffinityScorer(), podPreferring(byName),
            List.of(labelledNode("n1", LABEL1), labelledNode("n2", LABEL1))));
  }

  @Test
  void a_term_with_a_weight_below_1_is_ignored_so_scores_stay_in_range() {
    var negative = preferIn(-5, "foo", "bar");
    assertEquals(List.of(0L, 0L),
        scores(new NodeAffinityScorer(), podPreferring(negative),
            List.of(labelledNode("node1", LABEL1), labelledNode("node2", LABEL2))));
  }

  @Test
  void an_added_term_with_a_weight_outside_1_to_100_is_rejected() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> new NodeAffinityScorer(List.of(preferIn(0, "foo", "bar"))));
    assertEquals("NodeAffinity added preferred term weight must be in 1..100, was 0", e.getMessage());
  }
}
