package io.kubesched.adapter;

import static io.kubesched.adapter.Fixtures.pod;
import static io.kubesched.adapter.PodAffinitiesTest.expression;
import static io.kubesched.adapter.PodAffinitiesTest.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link PodAdapter#toPodInfo}: {@code spec.topologySpreadConstraints}. */
class SpreadConstraintsTest {

  private static TopologySpreadConstraintBuilder constraint(String whenUnsatisfiable) {
    return new TopologySpreadConstraintBuilder()
        .withMaxSkew(1)
        .withTopologyKey("zone")
        .withWhenUnsatisfiable(whenUnsatisfiable)
        .withLabelSelector(selector(Map.of("app", "web")));
  }

  private static MalformedObjectException rejected(TopologySpreadConstraintBuilder constraint) {
    var pod = pod("ns", "p").spread(constraint("DoNotSchedule").build()).spread(constraint.build()).build();
    return assertThrows(MalformedObjectException.class, () -> PodAdapter.toPodInfo(pod));
  }

  @Test
  void a_pod_without_constraints_has_none() {
    assertEquals(List.of(), PodAdapter.toPodInfo(pod().build()).topologySpreadConstraints());
  }

  @Test
  void unset_fields_take_the_api_defaults() {
    var pod = pod().spread(constraint("DoNotSchedule").build()).build();

    assertEquals(
        List.of(
            TopologySpreadConstraint.of(
                1, "zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, LabelSelector.of(Map.of("app", "web")))),
        PodAdapter.toPodInfo(pod).topologySpreadConstraints());
  }

  @Test
  void every_field_is_kept_in_order() {
    var pod =
        pod()
            .spread(
                constraint("ScheduleAnyway")
                    .withMaxSkew(3)
                    .withTopologyKey("host")
                    .withLabelSelector(selector(Map.of("a", "b"), expression("tier", "NotIn", "db")))
                    .withMinDomains(4)
                    .withNodeAffinityPolicy("Ignore")
                    .withNodeTaintsPolicy("Honor")
                    .withMatchLabelKeys("pod-template-hash", "rev")
                    .build())
            .spread(
                constraint("DoNotSchedule")
                    .withNodeAffinityPolicy("Honor")
                    .withNodeTaintsPolicy("Ignore")
                    .build())
            .build();

    assertEquals(
        List.of(
            new TopologySpreadConstraint(
                3,
                "host",
                WhenUnsatisfiable.SCHEDULE_ANYWAY,
                new LabelSelector(
                    Map.of("a", "b"),
                    List.of(LabelSelectorRequirement.of("tier", LabelSelectorRequirement.Operator.NOT_IN, "db"))),
                4,
                InclusionPolicy.IGNORE,
                InclusionPolicy.HONOR,
                List.of("pod-template-hash", "rev")),
            TopologySpreadConstraint.of(
                1, "zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, LabelSelector.of(Map.of("app", "web")))),
        PodAdapter.toPodInfo(pod).topologySpreadConstraints());
  }

  @Test
  void a_constraint_without_selector_keeps_null_which_counts_no_pod() {
    var pod = pod().spread(constraint("DoNotSchedule").withLabelSelector(null).build()).build();

    assertEquals(
        List.of(TopologySpreadConstraint.of(1, "zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, null)),
        PodAdapter.toPodInfo(pod).topologySpreadConstraints());
  }

  @Test
  void an_unset_max_skew_reads_as_zero() {
    var pod = pod().spread(constraint("DoNotSchedule").withMaxSkew(null).build()).build();

    assertEquals(0, PodAdapter.toPodInfo(pod).topologySpreadConstraints().get(0).maxSkew());
  }

  @ParameterizedTest(name = "whenUnsatisfiable ''{0}''")
  @CsvSource({"donotschedule", "Schedule", "''"})
  void an_unknown_when_unsatisfiable_is_rejected(String value) {
    var e = rejected(constraint(value));

    assertEquals("pod ns/p", e.object());
    assertEquals("spec.topologySpreadConstraints[1].whenUnsatisfiable", e.field());
    assertEquals(value, e.value());
  }

  @Test
  void an_unset_when_unsatisfiable_is_rejected() {
    var e = rejected(constraint("DoNotSchedule").withWhenUnsatisfiable(null));

    assertEquals("spec.topologySpreadConstraints[1].whenUnsatisfiable", e.field());
    assertEquals("", e.value());
  }

  @ParameterizedTest(name = "nodeAffinityPolicy ''{0}''")
  @CsvSource({"honor", "Respect", "''"})
  void an_unknown_node_affinity_policy_is_rejected(String value) {
    var e = rejected(constraint("DoNotSchedule").withNodeAffinityPolicy(value));

    assertEquals("spec.topologySpreadConstraints[1].nodeAffinityPolicy", e.field());
    assertEquals(value, e.value());
  }

  @ParameterizedTest(name = "nodeTaintsPolicy ''{0}''")
  @CsvSource({"ignore", "Tolerate", "''"})
  void an_unknown_node_taints_policy_is_rejected(String value) {
    var e = rejected(constraint("ScheduleAnyway").withNodeTaintsPolicy(value));

    assertEquals("spec.topologySpreadConstraints[1].nodeTaintsPolicy", e.field());
    assertEquals(value, e.value());
  }

  @Test
  void a_bad_label_selector_is_rejected_with_its_path() {
    var e =
        rejected(
            constraint("DoNotSchedule")
                .withLabelSelector(selector(Map.of(), expression("a", "Exists"), expression("b", "Gt", "1"))));

    assertEquals("pod ns/p", e.object());
    assertEquals("spec.topologySpreadConstraints[1].labelSelector.matchExpressions[1].operator", e.field());
    assertEquals("Gt", e.value());
  }
}
