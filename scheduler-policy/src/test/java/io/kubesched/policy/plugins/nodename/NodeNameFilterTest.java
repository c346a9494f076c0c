package io.kubesched.policy.plugins.nodename;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cases of kube-scheduler's {@code nodename/node_name_test.go}, and edge cases. */
class NodeNameFilterTest {

  private static final String ERR_REASON = "node(s) didn't match the requested node name";

  private final NodeNameFilter filter = new NodeNameFilter();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet("no host specified", pod().build(), node("").build(), Outcome.FIT),
        argumentSet("host matches", pod().nodeName("foo").build(), node("foo").build(), Outcome.FIT),
        argumentSet(
            "host doesn't match",
            pod().nodeName("bar").build(),
            node("foo").build(),
            Outcome.unresolvable(ERR_REASON)));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(PodInfo pod, NodeInfo node, Outcome expected) {
    assertOutcome(expected, filter.filter(pod, node));
  }

  @Test
  void a_rejection_names_the_node_the_pod_asks_for() {
    var result = filter.filter(pod().nodeName("bar").build(), node("foo").build());

    assertEquals(List.of(new Reason.NodeNameMismatch("bar")), FilterFixtures.reasons(result));
  }

  @Test
  void node_names_are_compared_exactly_not_ignoring_case() {
    assertOutcome(
        Outcome.unresolvable(ERR_REASON), filter.filter(pod().nodeName("Foo").build(), node("foo").build()));
  }

  @Test
  void a_pod_without_node_name_fits_a_node_without_name() {
    assertOutcome(Outcome.FIT, filter.filter(pod().build(), node("").build()));
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("NodeName", filter.name());
  }
}
