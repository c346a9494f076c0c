package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.engine.QueuedPod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodFiltersTest {

  private static final String OURS = "my-scheduler";

  static Stream<Arguments> pods() {
    return Stream.of(
        Arguments.of("an unbound pending pod for us", pod(OURS, null, "Pending", false), true),
        Arguments.of("a pod with no phase yet", pod(OURS, null, null, false), true),
        Arguments.of("a pod for another scheduler", pod("other", null, "Pending", false), false),
        Arguments.of("a pod naming no scheduler (default-scheduler's)", pod(null, null, "Pending", false), false),
        Arguments.of("a pod already bound", pod(OURS, "node-1", "Pending", false), false),
        Arguments.of("a pod being deleted", pod(OURS, null, "Pending", true), false),
        Arguments.of("a pod that succeeded", pod(OURS, null, "Succeeded", false), false),
        Arguments.of("a pod that failed", pod(OURS, null, "Failed", false), false));
  }

  @ParameterizedTest(name = "{0}: needs scheduling = {2}")
  @MethodSource("pods")
  void only_unbound_live_pods_for_our_scheduler_need_scheduling(String what, Pod pod, boolean expected) {
    assertEquals(expected, PodFilters.needsScheduling(pod, OURS));
  }

  static Stream<Arguments> occupying() {
    return Stream.of(
        Arguments.of("a running bound pod", pod(OURS, "n", "Running", false), true),
        Arguments.of("a bound pod being deleted still holds its resources", pod(OURS, "n", "Running", true), true),
        Arguments.of("a bound pod that succeeded", pod(OURS, "n", "Succeeded", false), false),
        Arguments.of("a bound pod that failed", pod("other", "n", "Failed", false), false),
        Arguments.of("an unbound pod", pod(OURS, null, "Pending", false), false));
  }

  @ParameterizedTest(name = "{0}: occupies its node = {2}")
  @MethodSource("occupying")
  void bound_pods_that_have_not_finished_occupy_their_node(String what, Pod pod, boolean expected) {
    assertEquals(expected, PodFilters.occupiesNode(pod));
  }

  static Pod pod(String schedulerName, String nodeName, String phase, boolean deleting) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName("p")
        .withUid("u")
        .withDeletionTimestamp(deleting ? "2026-01-01T00:00:00Z" : null)
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(schedulerName)
        .withNodeName(nodeName)
        .endSpec()
        .withNewStatus()
        .withPhase(phase)
        .endStatus()
        .build();
  }

  @Test
  void a_pod_is_queued_with_its_priority_and_scheduler_name() {
    var pod =
        new PodBuilder()
            .withNewMetadata().withUid("u-1").withNamespace("team").withName("web").endMetadata()
            .withNewSpec().withPriority(1000).withSchedulerName("my-scheduler").endSpec()
            .build();

    assertEquals(new QueuedPod("u-1", "team", "web", 1000, "my-scheduler"), PodFilters.queueEntry(pod));
    assertEquals("team/web", PodFilters.queueEntry(pod).key());
  }

  @Test
  void a_pod_without_priority_or_scheduler_name_gets_zero_and_the_default_scheduler() {
    var pod =
        new PodBuilder()
            .withNewMetadata().withUid("u-1").withNamespace("team").withName("web").endMetadata()
            .withNewSpec().endSpec()
            .build();

    assertEquals(new QueuedPod("u-1", "team", "web", 0, "default-scheduler"), PodFilters.queueEntry(pod));
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

    assertTrue(PodFilters.queueEntry(gatedPod).gated());
    assertFalse(PodFilters.queueEntry(emptyGates).gated());
  }
}
