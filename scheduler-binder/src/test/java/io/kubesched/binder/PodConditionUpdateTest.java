package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PodConditionUpdate}: Kubernetes' {@code TestUpdatePodCondition} (pkg/api/v1/pod/util_test.go),
 * then the cases kube-scheduler's use of it depends on.
 */
class PodConditionUpdateTest {

  private static final String TIME = "2026-01-01T00:00:00Z";
  private static final String TIME_PLUS = "2026-01-01T00:00:01Z";
  private static final String NOW = "2026-03-04T05:06:07Z";

  private static PodCondition condition(
      String type, String status, String reason, String message, String probe, String transition) {
    return new PodConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastProbeTime(probe)
        .withLastTransitionTime(transition)
        .build();
  }

  private static final PodStatus KUBE_STATUS =
      new PodStatusBuilder()
          .withConditions(
              condition("Ready", "True", "successfully", "sync pod successfully", TIME, TIME_PLUS))
          .build();

  static Stream<Arguments> kubeCases() {
    return Stream.of(
        Arguments.of("all equal, no update",
            condition("Ready", "True", "successfully", "sync pod successfully", TIME, TIME_PLUS), false),
        Arguments.of("not equal Type, should get updated",
            condition("PodScheduled", "True", "successfully", "sync pod successfully", TIME, TIME_PLUS),
            true),
        Arguments.of("not equal Status, should get updated",
            condition("Ready", "False", "successfully", "sync pod successfully", TIME, TIME_PLUS), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeCases")
  void kubernetes_update_pod_condition_cases(String name, PodCondition wanted, boolean expected) {
    assertEquals(expected, PodConditionUpdate.of(KUBE_STATUS, wanted, NOW).isPresent(), name);
  }

  private static final PodCondition UNSCHEDULABLE =
      condition("PodScheduled", "False", "Unschedulable", "0/3 nodes are available.", null, null);

  private static PodStatus having(PodCondition... conditions) {
    return new PodStatusBuilder().withConditions(conditions).build();
  }

  @Test
  void a_pod_without_status_gets_the_condition_added_with_transition_time_now() {
    var update = PodConditionUpdate.of(null, UNSCHEDULABLE, NOW).orElseThrow();
    assertTrue(update.added());
    assertEquals(NOW, update.condition().getLastTransitionTime());
    assertEquals("0/3 nodes are available.", update.condition().getMessage());
  }

  @Test
  void a_new_message_with_the_same_status_is_written_and_keeps_the_transition_time() {
    var status = having(condition("PodScheduled", "False", "Unschedulable", "0/2 nodes are available.", null, TIME));
    var update = PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow();
    assertEquals(0, update.index());
    assertEquals(TIME, update.condition().getLastTransitionTime());
    assertEquals("0/3 nodes are available.", update.condition().getMessage());
  }

  @Test
  void a_new_reason_with_the_same_status_is_written_and_keeps_the_transition_time() {
    var status =
        having(condition("PodScheduled", "False", "SchedulerError", "0/3 nodes are available.", null, TIME));
    var update = PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow();
    assertEquals(TIME, update.condition().getLastTransitionTime());
    assertEquals("Unschedulable", update.condition().getReason());
  }

  @Test
  void a_new_status_is_written_with_transition_time_now() {
    var status = having(condition("PodScheduled", "True", null, null, null, TIME));
    var update = PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow();
    assertEquals(NOW, update.condition().getLastTransitionTime());
  }

  @Test
  void an_old_probe_time_is_a_difference_and_is_cleared() {
    var status =
        having(condition("PodScheduled", "False", "Unschedulable", "0/3 nodes are available.", TIME, TIME));
    var update = PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow();
    assertEquals(null, update.condition().getLastProbeTime());
  }

  @Test
  void a_different_observed_generation_alone_is_no_reason_to_write_as_in_kubernetes() {
    var shown = new PodConditionBuilder(UNSCHEDULABLE).withLastTransitionTime(TIME).withObservedGeneration(1L).build();
    var wanted = new PodConditionBuilder(UNSCHEDULABLE).withObservedGeneration(2L).build();
    assertEquals(Optional.empty(), PodConditionUpdate.of(having(shown), wanted, NOW));
  }

  @Test
  void the_condition_is_found_among_others_by_type() {
    var status = having(
        condition("Custom", "True", null, null, null, TIME),
        condition("PodScheduled", "True", null, null, null, TIME),
        condition("Other", "False", null, null, null, TIME));
    assertEquals(1, PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow().index());
  }

  // --- the JSON Patch ------------------------------------------------------------------------------

  @Test
  void a_changed_condition_is_replaced_at_its_index_under_the_resource_version() {
    var status = having(
        condition("Custom", "True", null, null, null, TIME),
        condition("PodScheduled", "True", null, null, null, TIME));
    var update = PodConditionUpdate.of(status, UNSCHEDULABLE, NOW).orElseThrow();

    assertEquals(
        List.of(
            Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "42"),
            Map.of("op", "replace", "path", "/status/conditions/1", "value", update.condition())),
        update.jsonPatch("42", status));
  }

  @Test
  void a_new_condition_is_appended_or_starts_the_list_or_the_status() {
    var others = having(condition("Custom", "True", null, null, null, TIME));
    var none = new PodStatusBuilder().build();
    var added = PodConditionUpdate.of(none, UNSCHEDULABLE, NOW).orElseThrow().condition();

    assertEquals(
        List.of(Map.of("op", "add", "path", "/status/conditions/-", "value", added)),
        PodConditionUpdate.of(others, UNSCHEDULABLE, NOW).orElseThrow().jsonPatch(null, others));
    assertEquals(
        List.of(Map.of("op", "add", "path", "/status/conditions", "value", List.of(added))),
        PodConditionUpdate.of(none, UNSCHEDULABLE, NOW).orElseThrow().jsonPatch(null, none));
    assertEquals(
        List.of(Map.of("op", "add", "path", "/status", "value", Map.of("conditions", List.of(added)))),
        PodConditionUpdate.of(null, UNSCHEDULABLE, NOW).orElseThrow().jsonPatch(null, null));
  }
}
