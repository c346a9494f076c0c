package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SchedulingQueue}'s nominator (kube's {@code backend/queue/nominator.go}, design item 1.25), with the
 * nominator cases of kube-scheduler v1.37's {@code scheduling_queue_test.go} ported under the Go test's
 * name and kube's fixture pods.
 *
 * <p>Mapping: kube's nominator checks its pod lister (the informer) for "alive and not bound"; ours checks
 * the queue, which holds every pending pod of ours the informer shows. kube's {@code AddNominatedPod} with
 * {@code ModeOverride} is {@link SchedulingQueue#nominate}; with {@code ModeNoop} (take the pod's own {@code
 * status.nominatedNodeName}) it is {@link SchedulingQueue#observe} or {@link SchedulingQueue#add} of that
 * version. Not ported: {@code TestPriorityQueue_NominatedNodeNameEmptyNodeKey}'s "nominated then cleared
 * with ModeNoop empty": kube's failure handler re-reads the status when the PostFilter left the nomination
 * alone, and drops an in-memory nomination the status does not show yet; our loop's {@code Nomination.KEEP}
 * leaves the nominator unchanged instead, and a status update follows 1.25's keep rule (tested below).
 * The pod group variants of {@code TestPriorityQueue_Add} are not expressible (no pod groups).
 */
class SchedulingQueueNominatorTest {

  private static final int LOW = 0;
  private static final int HIGH = 1000;
  private static final int MEDIUM = (LOW + HIGH) / 2;

  static final PodInfo HIGH_PRIORITY = PodInfo.builder("ns1", "hpp").uid("hppns1").priority(HIGH).build();
  static final PodInfo HIGH_PRI_NOMINATED = HIGH_PRIORITY.toBuilder().nominatedNodeName("node1").build();
  static final PodInfo MED_PRIORITY =
      PodInfo.builder("ns2", "mpp").uid("mppns2").priority(MEDIUM).nominatedNodeName("node1").build();
  static final PodInfo UNSCHEDULABLE =
      PodInfo.builder("ns1", "up").uid("upns1").priority(LOW).nominatedNodeName("node1").build();
  static final PodInfo NON_EXISTENT = PodInfo.builder("ns1", "ne").uid("nens1").build();
  static final PodInfo SCHEDULED = PodInfo.builder("ns1", "sp").uid("spns1").nodeName("foo").build();

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue =
      new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));

  private static QueuedPod queued(PodInfo info) {
    return QueuedPod.of(info);
  }

  private static PodInfo gated(PodInfo info) {
    return info.toBuilder().schedulingGates(List.of("gate")).build();
  }

  private static List<String> names(List<PodInfo> pods) {
    return pods.stream().map(PodInfo::name).toList();
  }

  private String takeName() {
    var taken = queue.poll();
    return taken == null ? "none" : taken.name();
  }

  // --- Ported from kube ---

  @Test
  @DisplayName("TestPriorityQueue_Add")
  void pods_added_with_a_nominated_node_are_nominated_there_and_stay_so_while_in_flight() {
    queue.add(queued(MED_PRIORITY));
    queue.add(queued(UNSCHEDULABLE));
    queue.add(queued(HIGH_PRIORITY));

    assertEquals(Nominations.NONE.with(MED_PRIORITY, "node1").with(UNSCHEDULABLE, "node1"), queue.nominations());

    assertEquals(List.of("hpp", "mpp", "up"), List.of(takeName(), takeName(), takeName()));
    assertEquals(List.of("mpp", "up"), names(queue.nominations().on("node1")), "popping keeps the nominations");
  }

  @Test
  @DisplayName("TestPriorityQueue_AddNominatedGatedPod")
  void a_gated_pod_is_nominated_too() {
    var gatedPod = PodInfo.builder("ns1", "pod-gated").uid("pod-gated").nominatedNodeName("node1")
        .schedulingGates(List.of("gate")).build();

    queue.add(queued(gatedPod));

    assertEquals("gated", where(queue, "pod-gated"));
    assertEquals(List.of("pod-gated"), names(queue.nominations().on("node1")));
    assertEquals("node1", queue.nominations().nodeOf("pod-gated"));
  }

  @Test
  @DisplayName("TestPriorityQueue_AddUnschedulablePodIfNotPresent")
  void a_pod_requeued_as_unschedulable_keeps_its_nomination_beside_a_new_nominated_pod() {
    queue.add(queued(UNSCHEDULABLE));
    var taken = queue.poll();
    queue.add(queued(HIGH_PRI_NOMINATED));
    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    assertEquals("hpp", takeName());
    assertEquals(List.of("up", "hpp"), names(queue.nominations().on("node1")), "one node with both");
    assertEquals("unschedulable", where(queue, "up"));
  }

  static Stream<Arguments> updatesOfUnknownPods() {
    return Stream.of(
        Arguments.of("Update pod that didn't exist in the queue", MED_PRIORITY, "active", true),
        Arguments.of("Update gated pod that didn't exist in the queue", gated(MED_PRIORITY), "gated", true),
        Arguments.of(
            "Update non-existent highPriorityPodInfo and add a nominatedNodeName to it",
            HIGH_PRI_NOMINATED,
            "active",
            true),
        Arguments.of(
            "Update non-existent gated highPriorityPodInfo and add a nominatedNodeName to it",
            gated(HIGH_PRI_NOMINATED),
            "gated",
            true));
  }

  /** TestPriorityQueue_Update, the cases of pods the queue did not know (kube's medPriority pod is nominated). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("updatesOfUnknownPods")
  void TestPriorityQueue_Update(String name, PodInfo newPod, String wantQueue, boolean wantAddedToNominated) {
    queue.add(queued(newPod));

    assertEquals(wantQueue, where(queue, newPod.name()));
    assertEquals(wantAddedToNominated ? 1 : 0, queue.nominations().size());
  }

  @Test
  @DisplayName("TestPriorityQueue_Delete: Delete nominated pod from activeQ")
  void deleting_a_nominated_pod_drops_its_nomination() {
    queue.add(queued(HIGH_PRI_NOMINATED));

    queue.delete(HIGH_PRI_NOMINATED.uid());

    assertEquals("nowhere", where(queue, "hpp"));
    assertTrue(queue.nominations().isEmpty());
  }

  @Test
  @DisplayName("TestPriorityQueue_NominatedPodsForNode")
  void nominated_pods_for_a_node_are_in_order_and_a_value_handed_out_never_changes() {
    queue.add(queued(MED_PRIORITY));
    queue.add(queued(UNSCHEDULABLE));
    queue.add(queued(HIGH_PRIORITY));
    assertEquals("hpp", takeName());

    var handedOut = queue.nominations();
    assertEquals(List.of(MED_PRIORITY, UNSCHEDULABLE), handedOut.on("node1"));
    assertEquals(List.of(), handedOut.on("node2"));

    queue.clearNomination(MED_PRIORITY.uid());

    assertEquals(List.of(MED_PRIORITY, UNSCHEDULABLE), handedOut.on("node1"), "copy on write");
    assertEquals(List.of(UNSCHEDULABLE), queue.nominations().on("node1"));
  }

  static Stream<Arguments> nominatedPodDeleted() {
    return Stream.of(
        Arguments.of("alive pod gets added into PodNominator", MED_PRIORITY, false, 1),
        Arguments.of("deleted pod shouldn't be added into PodNominator", HIGH_PRI_NOMINATED, true, 0),
        Arguments.of(
            "pod without .status.nominatedPodName specified shouldn't be added into PodNominator", HIGH_PRIORITY, false, 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nominatedPodDeleted")
  void TestPriorityQueue_NominatedPodDeleted(String name, PodInfo pod, boolean deletePod, int wantLen) {
    // Queued without its status, so that only the nomination under test can make it nominated.
    queue.add(queued(pod.toBuilder().nominatedNodeName("").build()));
    if (deletePod) {
      queue.delete(pod.uid());
    }

    // kube's AddNominatedPod(pod, nil): the pod's own nominated node.
    queue.nominate(pod, pod.nominatedNodeName());

    assertEquals(wantLen, queue.nominations().on(pod.nominatedNodeName()).size());
  }

  static Stream<Arguments> emptyNodeKey() {
    // name, initial in-memory nomination, the pod's status, how it is applied (override node or null = noop)
    return Stream.of(
        Arguments.of("ModeOverride empty without prior nomination", "", "", ""),
        Arguments.of("nominated then cleared with ModeOverride empty", "node1", "", ""),
        Arguments.of("ModeNoop empty without prior nomination", "", "", null),
        Arguments.of("ModeNoop with non-empty nominatingInfo NNN ignored when pod NNN empty", "", "", null),
        Arguments.of("ModeNoop with non-empty nominatingInfo NNN uses pod NNN", "", "node2", null),
        Arguments.of("ModeNoop empty nominatingInfo NNN with non-empty pod NNN", "", "node2", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("emptyNodeKey")
  void TestPriorityQueue_NominatedNodeNameEmptyNodeKey(
      String name, String initialNominatedNode, String podNominatedNode, @Nullable String override) {
    var pod = PodInfo.builder("ns1", "hpp").uid("hppns1").priority(HIGH).build();
    queue.add(queued(pod));
    if (!initialNominatedNode.isEmpty()) {
      queue.nominate(pod, initialNominatedNode);
      assertEquals(1, queue.nominations().on(initialNominatedNode).size());
    }

    var version = pod.toBuilder().nominatedNodeName(podNominatedNode).build();
    if (override != null) {
      queue.nominate(version, override);
    } else {
      queue.observe(version);
    }

    assertEquals(List.of(), queue.nominations().on(""), "nothing under the empty node name");
    assertEquals(podNominatedNode, queue.nominations().nodeOf("hppns1"));
    assertEquals(podNominatedNode.isEmpty() ? 0 : 1, queue.nominations().size());
  }

  @Test
  @DisplayName("TestPriorityQueue_UpdateNominatedPodForNode")
  void in_memory_nominations_override_the_status_and_skip_deleted_and_bound_pods() {
    // kube's informer holds them all; only the medium one is in its queue. Here the queue is the informer.
    queue.add(queued(MED_PRIORITY));
    queue.add(queued(UNSCHEDULABLE));
    queue.add(queued(HIGH_PRIORITY));
    queue.add(queued(SCHEDULED));
    queue.nominate(UNSCHEDULABLE, "node5");
    queue.nominate(HIGH_PRIORITY, "node2");

    var expected = Nominations.NONE.with(MED_PRIORITY, "node1").with(HIGH_PRIORITY, "node2").with(UNSCHEDULABLE, "node5");
    assertEquals(expected, queue.nominations());

    for (var pod = queue.poll(); pod != null; pod = queue.poll()) {
      // Every pod is in flight now.
    }
    assertEquals(expected, queue.nominations(), "popping changes no nomination");

    queue.nominate(HIGH_PRIORITY, "node4");
    expected = Nominations.NONE.with(MED_PRIORITY, "node1").with(HIGH_PRIORITY, "node4").with(UNSCHEDULABLE, "node5");
    assertEquals(expected, queue.nominations());

    queue.nominate(NON_EXISTENT, "node1");
    assertEquals(expected, queue.nominations(), "a pod deleted from the informer is not nominated");

    queue.nominate(SCHEDULED.toBuilder().nodeName("").build(), "node1");
    assertEquals(expected, queue.nominations(), "a pod the informer shows bound is not nominated");

    queue.clearNomination(HIGH_PRIORITY.uid());
    assertEquals(Nominations.NONE.with(MED_PRIORITY, "node1").with(UNSCHEDULABLE, "node5"), queue.nominations());
  }

  // --- 1.25's rule for updates, and the queue's own guarantees ---

  static Stream<Arguments> updatesOfANominatedPod() {
    var inMemory = PodInfo.builder("ns", "p").uid("p").priority(HIGH).build();
    return Stream.of(
        Arguments.of("neither version has the field: the in-memory nomination stays", inMemory, inMemory, "mem"),
        Arguments.of(
            "the new version sets the field: the status wins",
            inMemory,
            inMemory.toBuilder().nominatedNodeName("status").build(),
            "status"),
        Arguments.of(
            "the field is removed: the nomination goes",
            inMemory.toBuilder().nominatedNodeName("mem").build(),
            inMemory,
            ""),
        Arguments.of(
            "the field changes: the new node",
            inMemory.toBuilder().nominatedNodeName("mem").build(),
            inMemory.toBuilder().nominatedNodeName("other").build(),
            "other"),
        Arguments.of(
            "the pod is bound: never nominated",
            inMemory,
            inMemory.toBuilder().nominatedNodeName("mem").nodeName("node").build(),
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updatesOfANominatedPod")
  void an_update_applies_the_nominator_rule_whether_it_moves_the_pod_or_not(
      String name, PodInfo previous, PodInfo latest, String wantNode) {
    for (var apply : List.<Consumer<SchedulingQueue>>of(q -> q.add(queued(latest)), q -> q.observe(latest))) {
      var q = new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));
      q.add(queued(previous));
      q.nominate(previous, "mem");

      apply.accept(q);

      assertEquals(wantNode, q.nominations().nodeOf("p"));
      if (!wantNode.isEmpty()) {
        assertEquals(List.of(latest), q.nominations().on(wantNode), "the nominator holds the latest version");
      }
    }
  }

  @Test
  void a_status_update_moves_no_pod_and_the_queue_keeps_that_version() {
    var pod = PodInfo.builder("ns", "p").uid("p").build();
    queue.add(queued(pod));
    var taken = queue.poll();
    queue.requeueUnschedulable(taken, queue.schedulingCycle());

    var withStatus = pod.toBuilder().nominatedNodeName("n1").startTime(Instant.EPOCH).build();
    queue.observe(withStatus);

    assertEquals("unschedulable", where(queue, "p"));
    assertEquals(withStatus, queue.contents().unschedulable().get(0).info());
    assertEquals("n1", queue.nominations().nodeOf("p"));

    queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD);
    clock.advance(Duration.ofSeconds(2));
    assertEquals(withStatus, queue.poll().info(), "the observed version is the one handed out");
  }

  @Test
  void observing_a_pod_the_queue_does_not_know_nominates_nothing() {
    queue.observe(HIGH_PRI_NOMINATED);

    assertTrue(queue.nominations().isEmpty());
    assertEquals("nowhere", where(queue, "hpp"));
  }

  @Test
  void an_unreadable_version_of_a_nominated_pod_drops_the_nomination() {
    queue.add(queued(HIGH_PRI_NOMINATED));
    var unreadable = new QueuedPod(
        HIGH_PRI_NOMINATED.uid(), "ns1", "hpp", HIGH, "default-scheduler", false, null,
        new MalformedObjectException("pod ns1/hpp", "spec.containers[0].resources", "1x", "is no quantity", null), QueuedPod.Progress.NONE);

    queue.add(unreadable);
    queue.observe(HIGH_PRI_NOMINATED);

    assertTrue(queue.nominations().isEmpty(), "an unreadable pod is nominated nowhere, its status notwithstanding");
  }

  @Test
  void done_drops_the_nomination_of_a_pod_in_flight() {
    queue.add(queued(HIGH_PRIORITY));
    var taken = queue.poll();
    queue.nominate(HIGH_PRIORITY, "node1");

    queue.done(taken.uid());

    assertTrue(queue.nominations().isEmpty());
  }

  @Test
  void nominations_are_read_without_copying_and_unchanged_by_pods_that_have_none() {
    queue.add(queued(MED_PRIORITY));
    var before = queue.nominations();
    assertSame(before, queue.nominations(), "the same value until something changes");

    queue.add(queued(HIGH_PRIORITY));
    queue.poll();
    queue.delete(NON_EXISTENT.uid());
    queue.clearNomination(HIGH_PRIORITY.uid());
    assertSame(before, queue.nominations(), "nothing about nominations changed");

    queue.nominate(HIGH_PRIORITY, "node1");
    assertNotSame(before, queue.nominations());
  }

  @Test
  void a_closed_queue_nominates_nothing_more_but_still_forgets() {
    queue.add(queued(MED_PRIORITY));
    queue.add(queued(HIGH_PRIORITY));
    queue.close();

    queue.nominate(HIGH_PRIORITY, "node1");
    queue.observe(HIGH_PRI_NOMINATED);
    assertEquals(Nominations.NONE.with(MED_PRIORITY, "node1"), queue.nominations());

    queue.clearNomination(MED_PRIORITY.uid());
    assertTrue(queue.nominations().isEmpty());
  }
}
