package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class QueuedPodTest {

  @Test
  void a_pod_is_queued_with_its_priority_and_scheduler_name() {
    var pod =
        new PodBuilder()
            .withNewMetadata().withUid("u-1").withNamespace("team").withName("web").endMetadata()
            .withNewSpec().withPriority(1000).withSchedulerName("my-scheduler").endSpec()
            .build();

    assertEquals(new QueuedPod("u-1", "team", "web", 1000, "my-scheduler"), QueuedPod.of(pod));
    assertEquals("team/web", QueuedPod.of(pod).key());
  }

  @Test
  void a_pod_without_priority_or_scheduler_name_gets_zero_and_the_default_scheduler() {
    var pod =
        new PodBuilder()
            .withNewMetadata().withUid("u-1").withNamespace("team").withName("web").endMetadata()
            .withNewSpec().endSpec()
            .build();

    assertEquals(new QueuedPod("u-1", "team", "web", 0, "default-scheduler"), QueuedPod.of(pod));
  }

  @Test
  void a_pod_with_scheduling_gates_is_queued_gated_and_one_without_is_not() {
    var gatedPod =
        new PodBuilder()
            .withNewMetadata().withUid("u-1").withNamespace("team").withName("web").endMetadata()
            .withNewSpec().addNewSchedulingGate("example.com/quota").endSpec()
            .build();
    var emptyGates =
        new PodBuilder(gatedPod).editSpec().withSchedulingGates(List.of()).endSpec().build();

    assertTrue(QueuedPod.of(gatedPod).gated());
    assertFalse(QueuedPod.of(emptyGates).gated());
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(Named.of("a blank uid", new String[] {" ", "ns", "p", "s"}), "uid must not be blank: ' '"),
        Arguments.of(Named.of("no namespace", new String[] {"u", null, "p", "s"}), "namespace must not be null (pod p)"),
        Arguments.of(Named.of("an empty name", new String[] {"u", "ns", "", "s"}), "name must not be blank: ''"),
        Arguments.of(Named.of("no profile", new String[] {"u", "ns", "p", null}), "profile must not be null (pod ns/p)"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void is_refused_naming_what_is_wrong(String[] fields, String message) {
    var error =
        assertThrows(
            IllegalArgumentException.class, () -> new QueuedPod(fields[0], fields[1], fields[2], 0, fields[3]));
    assertEquals(message, error.getMessage());
  }
}
