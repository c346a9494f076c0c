package io.kubesched.policy.plugins.nodeunschedulable;

import static io.kubesched.api.TaintEffect.NO_EXECUTE;
import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.api.TaintEffect.PREFER_NO_SCHEDULE;
import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.equal;
import static io.kubesched.policy.plugins.FilterFixtures.exists;
import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.taint;
import static io.kubesched.policy.plugins.FilterFixtures.tolerating;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Toleration;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cases of kube-scheduler's {@code nodeunschedulable/node_unschedulable_test.go}, and edge cases. */
class NodeUnschedulableFilterTest {

  private static final String ERR_REASON = "node(s) were unschedulable";
  private static final String KEY = "node.kubernetes.io/unschedulable";
  private static final NodeInfo CORDONED = node("n").unschedulable(true).build();

  private final NodeUnschedulableFilter filter = new NodeUnschedulableFilter();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        argumentSet(
            "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
            pod().build(),
            CORDONED,
            Outcome.unresolvable(ERR_REASON)),
        argumentSet("Schedule pod to normal node", pod().build(), node("n").build(), Outcome.FIT),
        argumentSet(
            "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
            // An empty operator is Equal; the toleration has no value, as the taint kube-scheduler builds.
            tolerating(equal(KEY, "", NO_SCHEDULE)),
            CORDONED,
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(PodInfo pod, NodeInfo node, Outcome expected) {
    assertOutcome(expected, filter.filter(pod, node));
  }

  static Stream<Arguments> tolerations() {
    return Stream.of(
        argumentSet("Exists for the key and NoSchedule tolerates the cordon", exists(KEY, NO_SCHEDULE), true),
        argumentSet("Exists for the key and any effect tolerates the cordon", exists(KEY, null), true),
        argumentSet("Exists for every key tolerates the cordon", exists("", null), true),
        argumentSet("Exists for every key and NoSchedule tolerates the cordon", exists("", NO_SCHEDULE), true),
        argumentSet("Equal with an empty value tolerates the cordon", equal(KEY, "", null), true),
        argumentSet(
            "Equal with a value does not tolerate the valueless cordon", equal(KEY, "true", null), false),
        argumentSet("a NoExecute toleration does not tolerate the cordon", exists(KEY, NO_EXECUTE), false),
        argumentSet(
            "a PreferNoSchedule toleration does not tolerate the cordon",
            exists(KEY, PREFER_NO_SCHEDULE),
            false),
        argumentSet("a toleration of another key does not tolerate the cordon", exists("other", null), false));
  }

  @ParameterizedTest
  @MethodSource("tolerations")
  void a_cordoned_node_takes_only_pods_tolerating_its_taint(Toleration toleration, boolean fits) {
    assertEquals(fits, filter.filter(tolerating(toleration), CORDONED).fits());
  }

  @Test
  void a_toleration_of_the_nodes_other_taints_does_not_pass_its_cordon() {
    var node = node("n").unschedulable(true).taints(List.of(taint("other", "", NO_SCHEDULE))).build();

    assertOutcome(Outcome.unresolvable(ERR_REASON), filter.filter(tolerating(exists("other", null)), node));
  }

  @Test
  void a_schedulable_node_with_the_unschedulable_taint_is_left_to_the_taint_filter() {
    var node = node("n").taints(List.of(taint(KEY, "", NO_SCHEDULE))).build();

    assertOutcome(Outcome.FIT, filter.filter(pod().build(), node));
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("NodeUnschedulable", filter.name());
  }
}
