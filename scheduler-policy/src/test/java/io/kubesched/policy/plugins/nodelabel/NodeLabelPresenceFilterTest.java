package io.kubesched.policy.plugins.nodelabel;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.nodeLabelled;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of the former kube-scheduler predicate {@code CheckNodeLabelPresence}
 * ({@code TestNodeLabelPresence} in {@code algorithm/predicates/predicates_test.go}, later in {@code
 * plugins/nodelabel/node_label_test.go}), and edge cases.
 */
class NodeLabelPresenceFilterTest {

  private static final String ERR_REASON = "node(s) didn't have the requested labels";
  private static final Map<String, String> LABELS = Map.of("foo", "bar", "bar", "foo");

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet("label does not match, presence true", List.of("baz"), true, false),
        argumentSet("label does not match, presence false", List.of("baz"), false, true),
        argumentSet("one label matches, presence true", List.of("foo", "baz"), true, false),
        argumentSet("one label matches, presence false", List.of("foo", "baz"), false, false),
        argumentSet("all labels match, presence true", List.of("foo", "bar"), true, true),
        argumentSet("all labels match, presence false", List.of("foo", "bar"), false, false));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(List<String> labels, boolean presence, boolean fits) {
    var result = new NodeLabelPresenceFilter(labels, presence).filter(pod().build(), nodeLabelled(LABELS));

    assertOutcome(fits ? Outcome.FIT : Outcome.unresolvable(ERR_REASON), result);
  }

  @Test
  void label_values_do_not_matter_only_keys() {
    var filter = new NodeLabelPresenceFilter(List.of("foo"), true);

    assertOutcome(Outcome.FIT, filter.filter(pod().build(), nodeLabelled(Map.of("foo", ""))));
  }

  @Test
  void a_node_without_labels_passes_absence_and_fails_presence() {
    var node = nodeLabelled(Map.of());

    assertOutcome(Outcome.FIT, new NodeLabelPresenceFilter(List.of("a"), false).filter(pod().build(), node));
    assertOutcome(
        Outcome.unresolvable(ERR_REASON),
        new NodeLabelPresenceFilter(List.of("a"), true).filter(pod().build(), node));
  }

  @Test
  void the_pod_plays_no_part() {
    var filter = new NodeLabelPresenceFilter(List.of("foo"), true);
    var pod = pod().labels(Map.of("foo", "bar")).nodeSelector(Map.of("foo", "bar")).build();

    assertOutcome(Outcome.unresolvable(ERR_REASON), filter.filter(pod, nodeLabelled(Map.of())));
  }

  @Test
  void an_empty_label_list_is_rejected_naming_the_argument() {
    var error =
        assertThrows(IllegalArgumentException.class, () -> new NodeLabelPresenceFilter(List.of(), true));

    assertTrue(error.getMessage().contains("labelsPresence.labels"), error.getMessage());
  }

  @Test
  void an_empty_label_key_is_rejected_naming_its_index() {
    var error =
        assertThrows(
            IllegalArgumentException.class, () -> new NodeLabelPresenceFilter(List.of("a", ""), false));

    assertTrue(error.getMessage().contains("labelsPresence.labels[1]"), error.getMessage());
  }

  @Test
  void the_labels_are_copied() {
    var labels = new ArrayList<>(List.of("a"));
    var filter = new NodeLabelPresenceFilter(labels, true);
    labels.add("b");

    assertEquals(List.of("a"), filter.labels());
  }

  @Test
  void the_name_is_that_of_the_kube_scheduler_plugin_that_carried_the_predicate() {
    assertEquals("NodeLabel", new NodeLabelPresenceFilter(List.of("a"), true).name());
  }
}
