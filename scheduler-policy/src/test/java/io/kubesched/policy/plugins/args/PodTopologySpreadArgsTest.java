package io.kubesched.policy.plugins.args;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.DO_NOT_SCHEDULE;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.SCHEDULE_ANYWAY;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs.DefaultingType;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Kube-scheduler 1.37's {@code TestValidatePodTopologySpreadArgs} ({@code apis/config/validation}), under kube's
 * case names, and kube's defaults ({@code SetDefaults_PodTopologySpreadArgs}, {@code systemDefaultConstraints}).
 * Kube's "whenUnsatisfiable contains unsupported action" has no counterpart: the model's {@code
 * whenUnsatisfiable} is an enum; its "wrong constraints" (an unknown {@code defaultingType}) is ported as a
 * null one.
 */
class PodTopologySpreadArgsTest {

  private static TopologySpreadConstraint constraint(int maxSkew, String key, @Nullable WhenUnsatisfiable when) {
    return TopologySpreadConstraint.of(maxSkew, key, when, null);
  }

  private static String invalid(List<TopologySpreadConstraint> constraints, @Nullable DefaultingType type) {
    return assertThrows(IllegalArgumentException.class, () -> new PodTopologySpreadArgs(constraints, type))
        .getMessage();
  }

  @Test
  @DisplayName("valid config")
  void validConfig() {
    assertDoesNotThrow(
        () -> PodTopologySpreadArgs.list(List.of(constraint(1, "node", DO_NOT_SCHEDULE), constraint(2, "zone", SCHEDULE_ANYWAY))));
  }

  @Test
  @DisplayName("maxSkew less than zero")
  void maxSkewLessThanZero() {
    assertEquals(
        "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)",
        invalid(List.of(constraint(-1, "node", DO_NOT_SCHEDULE)), DefaultingType.LIST));
  }

  @Test
  @DisplayName("empty topology key")
  void emptyTopologyKey() {
    assertEquals(
        "defaultConstraints[0].topologyKey: Required value: can not be empty",
        invalid(List.of(constraint(1, "", DO_NOT_SCHEDULE)), DefaultingType.LIST));
  }

  @Test
  @DisplayName("whenUnsatisfiable is empty")
  void whenUnsatisfiableIsEmpty() {
    assertEquals(
        "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty",
        invalid(List.of(constraint(1, "node", null)), DefaultingType.LIST));
  }

  @Test
  @DisplayName("duplicated constraints")
  void duplicatedConstraints() {
    assertEquals(
        "defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\"",
        invalid(List.of(constraint(1, "node", DO_NOT_SCHEDULE), constraint(2, "node", DO_NOT_SCHEDULE)),
            DefaultingType.LIST));
  }

  @Test
  @DisplayName("label selector present")
  void labelSelectorPresent() {
    var withSelector = TopologySpreadConstraint.of(1, "key", DO_NOT_SCHEDULE, LabelSelector.of(Map.of("a", "b")));
    assertEquals(
        "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced"
            + " for each pod",
        invalid(List.of(withSelector), DefaultingType.LIST));
  }

  @Test
  @DisplayName("list default constraints, no constraints")
  void listDefaultConstraintsNoConstraints() {
    var args = PodTopologySpreadArgs.list(List.of());
    assertEquals(List.of(), args.effectiveConstraints());
  }

  @Test
  @DisplayName("system default constraints")
  void systemDefaultConstraints() {
    assertDoesNotThrow(() -> new PodTopologySpreadArgs(List.of(), DefaultingType.SYSTEM));
  }

  @Test
  @DisplayName("wrong constraints")
  void wrongConstraints() {
    assertEquals(
        "defaultingType: Unsupported value: null: supported values: \"List\", \"System\"",
        invalid(List.of(), null));
  }

  @Test
  @DisplayName("system default constraints, but has constraints")
  void systemDefaultConstraintsButHasConstraints() {
    assertEquals(
        "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty",
        invalid(List.of(constraint(1, "key", DO_NOT_SCHEDULE)), DefaultingType.SYSTEM));
  }

  @Test
  void everyErrorIsListedInKubesOrder() {
    assertEquals(
        "[defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf), "
            + "defaultConstraints[1].maxSkew: Invalid value: 0: not in valid range (0, inf), "
            + "defaultConstraints[1]: Duplicate value: \"{zone, ScheduleAnyway}\"]",
        invalid(List.of(constraint(0, "zone", SCHEDULE_ANYWAY), constraint(0, "zone", SCHEDULE_ANYWAY)),
            DefaultingType.LIST));
  }

  @Test
  void aMalformedTopologyKeyIsNamed() {
    var message = invalid(List.of(constraint(1, "-zone", DO_NOT_SCHEDULE)), DefaultingType.LIST);
    assertTrue(message.startsWith("defaultConstraints[0].topologyKey: Invalid value: \"-zone\": "), message);
  }

  @Test
  void theSameKeyWithBothActionsIsAllowed() {
    assertDoesNotThrow(
        () -> PodTopologySpreadArgs.list(List.of(constraint(1, "zone", DO_NOT_SCHEDULE), constraint(1, "zone", SCHEDULE_ANYWAY))));
  }

  @Test
  void kubesDefaultsAreSystemDefaultingWithHostnameThreeAndZoneFiveScheduleAnyway() {
    assertEquals(DefaultingType.SYSTEM, PodTopologySpreadArgs.SYSTEM.defaultingType());
    assertEquals(List.of(), PodTopologySpreadArgs.SYSTEM.defaultConstraints());
    assertTrue(PodTopologySpreadArgs.SYSTEM.systemDefaulted());
    assertEquals(
        List.of(
            constraint(3, "kubernetes.io/hostname", SCHEDULE_ANYWAY),
            constraint(5, "topology.kubernetes.io/zone", SCHEDULE_ANYWAY)),
        PodTopologySpreadArgs.SYSTEM.effectiveConstraints());
    assertEquals("System", DefaultingType.SYSTEM.apiName());
    assertEquals("List", DefaultingType.LIST.apiName());
  }
}
