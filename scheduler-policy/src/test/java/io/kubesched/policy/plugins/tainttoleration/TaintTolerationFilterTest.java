package io.kubesched.policy.plugins.tainttoleration;

import static io.kubesched.api.TaintEffect.NO_EXECUTE;
import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.api.TaintEffect.PREFER_NO_SCHEDULE;
import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.equal;
import static io.kubesched.policy.plugins.FilterFixtures.exists;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.taint;
import static io.kubesched.policy.plugins.FilterFixtures.tainted;
import static io.kubesched.policy.plugins.FilterFixtures.tolerating;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code tainttoleration/taint_toleration_test.go} ({@code
 * TestTaintTolerationFilter}), and edge cases. Its cases with the {@code Gt}/{@code Lt} toleration operators
 * (feature gate {@code TaintTolerationComparisonOperators}) are left out: the domain model's tolerations have
 * only {@code Equal} and {@code Exists}.
 */
class TaintTolerationFilterTest {

  private static final String ERR_REASON = "node(s) had untolerated taint(s)";

  private final TaintTolerationFilter filter = new TaintTolerationFilter();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet(
            "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
            tolerating(),
            tainted(taint("dedicated", "user1", NO_SCHEDULE)),
            Outcome.unresolvable(ERR_REASON)),
        argumentSet(
            "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
            tolerating(equal("dedicated", "user1", NO_SCHEDULE)),
            tainted(taint("dedicated", "user1", NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
            tolerating(equal("dedicated", "user2", NO_SCHEDULE)),
            tainted(taint("dedicated", "user1", NO_SCHEDULE)),
            Outcome.unresolvable(ERR_REASON)),
        argumentSet(
            "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the "
                + "taints on the node",
            tolerating(exists("foo", NO_SCHEDULE)),
            tainted(taint("foo", "bar", NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can "
                + "be scheduled onto the node",
            tolerating(equal("dedicated", "user2", NO_SCHEDULE), exists("foo", NO_SCHEDULE)),
            tainted(taint("dedicated", "user2", NO_SCHEDULE), taint("foo", "bar", NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect "
                + "doesn't match, can't be scheduled onto the node",
            tolerating(equal("foo", "bar", PREFER_NO_SCHEDULE)),
            tainted(taint("foo", "bar", NO_SCHEDULE)),
            Outcome.unresolvable(ERR_REASON)),
        argumentSet(
            "The pod has a toleration that keys and values match the taint on the node, the effect of "
                + "toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the "
                + "node",
            tolerating(equal("foo", "bar", null)),
            tainted(taint("foo", "bar", NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "The pod has a toleration that key and value don't match the taint on the node, but the effect of "
                + "taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
            tolerating(equal("dedicated", "user2", NO_SCHEDULE)),
            tainted(taint("dedicated", "user1", PREFER_NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be "
                + "scheduled onto the node",
            tolerating(),
            tainted(taint("dedicated", "user1", PREFER_NO_SCHEDULE)),
            Outcome.FIT),
        // From TestTaintTolerationFilterWithFeatureGate, with its Gt toleration left out: it never matches
        // while the gate is off, so the case is the same without it.
        argumentSet(
            "Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored",
            tolerating(equal("dedicated", "user1", NO_SCHEDULE)),
            tainted(taint("dedicated", "user1", NO_SCHEDULE)),
            Outcome.FIT),
        argumentSet(
            "Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled",
            tolerating(equal("dedicated", "user1", NO_SCHEDULE)),
            tainted(
                taint("dedicated", "user1", NO_SCHEDULE), taint("node.kubernetes.io/sla", "950", NO_SCHEDULE)),
            Outcome.unresolvable(ERR_REASON)));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(PodInfo pod, NodeInfo node, Outcome expected) {
    assertOutcome(expected, filter.filter(pod, node));
  }

  @Test
  void a_node_without_taints_takes_every_pod() {
    assertOutcome(Outcome.FIT, filter.filter(pod().build(), tainted()));
  }

  @Test
  void an_untolerated_no_execute_taint_rejects_the_pod() {
    assertOutcome(
        Outcome.unresolvable(ERR_REASON), filter.filter(tolerating(), tainted(taint("k", "", NO_EXECUTE))));
  }

  @Test
  void the_reason_carries_the_first_untolerated_taint_in_the_nodes_order() {
    NodeInfo node =
        tainted(
            taint("soft", "", PREFER_NO_SCHEDULE),
            taint("tolerated", "", NO_SCHEDULE),
            taint("first", "1", NO_EXECUTE),
            taint("second", "2", NO_SCHEDULE));

    var result = filter.filter(tolerating(exists("tolerated", null)), node);

    assertEquals(
        List.of(new Reason.UntoleratedTaint(taint("first", "1", NO_EXECUTE))), FilterFixtures.reasons(result));
    assertEquals(
        Optional.of(taint("first", "1", NO_EXECUTE)),
        TaintTolerationFilter.firstUntoleratedTaint(tolerating(exists("tolerated", null)), node));
  }

  @Test
  void a_wildcard_toleration_tolerates_every_taint() {
    NodeInfo node = tainted(taint("a", "1", NO_SCHEDULE), taint("b", "", NO_EXECUTE));

    assertOutcome(Outcome.FIT, filter.filter(tolerating(exists("", null)), node));
  }

  @Test
  void a_toleration_for_no_schedule_does_not_tolerate_the_same_taint_with_no_execute() {
    assertOutcome(
        Outcome.unresolvable(ERR_REASON),
        filter.filter(tolerating(equal("k", "v", NO_SCHEDULE)), tainted(taint("k", "v", NO_EXECUTE))));
  }

  @Test
  void the_message_is_kube_scheduler_1_37s_which_no_longer_names_the_taint() {
    assertEquals(ERR_REASON, new Reason.UntoleratedTaint(taint("k", "v", NO_SCHEDULE)).message());
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("TaintToleration", filter.name());
  }
}
