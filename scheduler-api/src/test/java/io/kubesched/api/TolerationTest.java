package io.kubesched.api;

import static io.kubesched.api.TaintEffect.NO_EXECUTE;
import static io.kubesched.api.TaintEffect.NO_SCHEDULE;
import static io.kubesched.api.TaintEffect.PREFER_NO_SCHEDULE;
import static io.kubesched.api.Toleration.Operator.EQUAL;
import static io.kubesched.api.Toleration.Operator.EXISTS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kubernetes' {@code ToleratesTaint}: effect, then key, then operator and value. */
class TolerationTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        row(
            "an empty key with Exists tolerates a NoSchedule taint",
            new Toleration("", EXISTS, "", null),
            new Taint("dedicated", "gpu", NO_SCHEDULE),
            true),
        row(
            "an empty key with Exists tolerates a NoExecute taint",
            new Toleration("", EXISTS, "", null),
            new Taint("node.kubernetes.io/unreachable", "", NO_EXECUTE),
            true),
        row(
            "an empty key with Exists tolerates a PreferNoSchedule taint",
            new Toleration("", EXISTS, "", null),
            new Taint("k", "v", PREFER_NO_SCHEDULE),
            true),
        row(
            "an empty key with Exists but an effect tolerates only taints of that effect",
            new Toleration("", EXISTS, "", NO_SCHEDULE),
            new Taint("k", "v", NO_EXECUTE),
            false),
        row(
            "a toleration for NoSchedule does not tolerate a NoExecute taint of the same key and value",
            new Toleration("k", EQUAL, "v", NO_SCHEDULE),
            new Taint("k", "v", NO_EXECUTE),
            false),
        row(
            "a toleration for PreferNoSchedule does not tolerate a NoSchedule taint",
            new Toleration("k", EXISTS, "", PREFER_NO_SCHEDULE),
            new Taint("k", "v", NO_SCHEDULE),
            false),
        row(
            "a matching effect, key and value is tolerated",
            new Toleration("k", EQUAL, "v", NO_EXECUTE),
            new Taint("k", "v", NO_EXECUTE),
            true),
        row(
            "an empty effect matches NoSchedule",
            new Toleration("k", EQUAL, "v", null),
            new Taint("k", "v", NO_SCHEDULE),
            true),
        row(
            "an empty effect matches PreferNoSchedule",
            new Toleration("k", EQUAL, "v", null),
            new Taint("k", "v", PREFER_NO_SCHEDULE),
            true),
        row(
            "an empty effect matches NoExecute",
            new Toleration("k", EQUAL, "v", null),
            new Taint("k", "v", NO_EXECUTE),
            true),
        row(
            "Equal does not tolerate another value",
            new Toleration("k", EQUAL, "v1", null),
            new Taint("k", "v2", NO_SCHEDULE),
            false),
        row(
            "Equal with an empty value tolerates a taint without value",
            new Toleration("k", EQUAL, "", null),
            new Taint("k", "", NO_SCHEDULE),
            true),
        row(
            "Equal with an empty value does not tolerate a taint with a value",
            new Toleration("k", EQUAL, "", null),
            new Taint("k", "v", NO_SCHEDULE),
            false),
        row(
            "Equal compares values exactly, case included",
            new Toleration("k", EQUAL, "GPU", null),
            new Taint("k", "gpu", NO_SCHEDULE),
            false),
        row(
            "Exists with a key tolerates that key whatever its value",
            new Toleration("k", EXISTS, "", null),
            new Taint("k", "anything", NO_SCHEDULE),
            true),
        row(
            "Exists with a key does not tolerate another key",
            new Toleration("k", EXISTS, "", null),
            new Taint("other", "", NO_SCHEDULE),
            false),
        row(
            "Equal does not tolerate another key with the same value",
            new Toleration("k", EQUAL, "v", null),
            new Taint("other", "v", NO_SCHEDULE),
            false),
        row(
            "keys are compared exactly, case included",
            new Toleration("Dedicated", EXISTS, "", null),
            new Taint("dedicated", "", NO_SCHEDULE),
            false),
        row(
            "an empty key with Equal compares only the value, as ToleratesTaint does",
            new Toleration("", EQUAL, "v", null),
            new Taint("any-key", "v", NO_SCHEDULE),
            true),
        row(
            "an empty key with Equal does not tolerate another value",
            new Toleration("", EQUAL, "v", null),
            new Taint("any-key", "w", NO_SCHEDULE),
            false));
  }

  private static Arguments row(String sentence, Toleration toleration, Taint taint, boolean tolerated) {
    return Arguments.of(sentence, toleration, taint, tolerated);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tolerates_as_kubernetes_does(
      String sentence, Toleration toleration, Taint taint, boolean tolerated) {
    assertEquals(tolerated, toleration.tolerates(taint));
  }

  @Test
  void the_effect_filter_is_empty_when_the_toleration_matches_every_effect() {
    assertEquals(Optional.empty(), new Toleration("k", EXISTS, "", null).effectFilter());
    assertEquals(Optional.of(NO_EXECUTE), new Toleration("k", EXISTS, "", NO_EXECUTE).effectFilter());
  }

  @Test
  void taint_effects_map_to_and_from_their_api_names() {
    assertEquals("NoSchedule", NO_SCHEDULE.apiName());
    assertEquals("PreferNoSchedule", PREFER_NO_SCHEDULE.apiName());
    assertEquals("NoExecute", NO_EXECUTE.apiName());
    for (var effect : TaintEffect.values()) {
      assertEquals(Optional.of(effect), TaintEffect.fromApiName(effect.apiName()));
    }
  }

  @Test
  void unknown_or_differently_cased_effect_names_are_not_effects() {
    assertEquals(Optional.empty(), TaintEffect.fromApiName(""));
    assertEquals(Optional.empty(), TaintEffect.fromApiName("noschedule"));
    assertEquals(Optional.empty(), TaintEffect.fromApiName("NO_SCHEDULE"));
  }
}
