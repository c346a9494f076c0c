package io.kubesched.binder.report;

import static io.kubesched.binder.BinderFixtures.NAME;
import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.NS;
import static io.kubesched.binder.BinderFixtures.OTHER_NODE;
import static io.kubesched.binder.BinderFixtures.pod;
import static io.kubesched.binder.SchedulingReporterFixtures.HOST;
import static io.kubesched.binder.SchedulingReporterFixtures.SCHEDULER;
import static io.kubesched.binder.SchedulingReporterFixtures.START;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.binder.BindMode;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.Binder;
import io.kubesched.binder.BinderFixtures;
import io.kubesched.binder.PodConditionUpdate;
import io.kubesched.binder.SchedulingReporterFixtures.CountingBucket;
import io.kubesched.binder.SchedulingReporterFixtures.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link SchedulingReporter} against fabric8's mock server in CRUD mode. */
class SchedulingReporterTest {

  private static final String NO_FIT = "0/3 nodes are available: 3 Insufficient cpu.";
  private static final String PREEMPTING =
      NO_FIT + " preemption: found a potential placement for pod on node " + NODE + ", preempting 1 victims";

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;
  private MutableClock clock;
  private CountingBucket bucket;
  private SchedulingReporter reporter;

  @BeforeEach
  void start() {
    server = BinderFixtures.crudServer();
    client = BinderFixtures.clientWithoutRetries(server);
    clock = new MutableClock(START);
    bucket = new CountingBucket();
    reporter = SchedulingReporter.create(client, bucket, SCHEDULER, HOST, clock);
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  // --- events --------------------------------------------------------------------------------------

  @Test
  void a_bound_pod_gets_a_Scheduled_event_regarding_it() throws Exception {
    var stored = create(pod());

    assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(stored, NODE));

    var event = onlyEvent();
    assertAll(
        () -> assertEquals("Normal", event.getType()),
        () -> assertEquals("Scheduled", event.getReason()),
        () -> assertEquals("Binding", event.getAction()),
        () -> assertEquals("Successfully assigned " + NS + "/" + NAME + " to " + NODE, event.getNote()),
        () -> assertEquals(SCHEDULER, event.getReportingController()),
        () -> assertEquals(SCHEDULER + "-" + HOST, event.getReportingInstance()),
        () -> assertEquals("2026-03-04T05:06:07.123456Z", event.getEventTime().getTime()),
        () -> assertNull(event.getSeries()),
        () -> assertEquals(NS, event.getMetadata().getNamespace()),
        () -> assertEquals(NAME + "." + Long.toHexString(nanos(START)), event.getMetadata().getName()),
        () -> assertEquals("v1", event.getRegarding().getApiVersion()),
        () -> assertEquals("Pod", event.getRegarding().getKind()),
        () -> assertEquals(NS, event.getRegarding().getNamespace()),
        () -> assertEquals(NAME, event.getRegarding().getName()),
        () -> assertEquals(stored.getMetadata().getUid(), event.getRegarding().getUid()),
        () -> assertEquals(
            stored.getMetadata().getResourceVersion(), event.getRegarding().getResourceVersion()),
        () -> assertNull(event.getRelated()));
  }

  @Test
  void a_pod_that_fits_nowhere_gets_a_FailedScheduling_warning_and_PodScheduled_false_Unschedulable()
      throws Exception {
    var stored = create(pod());
    assertEquals(1L, stored.getMetadata().getGeneration(), "the mock server gives a new pod generation 1");

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, NO_FIT));

    var event = onlyEvent();
    assertAll(
        () -> assertEquals("Warning", event.getType()),
        () -> assertEquals("FailedScheduling", event.getReason()),
        () -> assertEquals("Scheduling", event.getAction()),
        () -> assertEquals(NO_FIT, event.getNote()),
        () -> assertEquals(stored.getMetadata().getUid(), event.getRegarding().getUid()));
    var condition = podScheduled(readBack());
    assertAll(
        () -> assertEquals("False", condition.getStatus()),
        () -> assertEquals("Unschedulable", condition.getReason()),
        () -> assertEquals(NO_FIT, condition.getMessage()),
        () -> assertEquals("2026-03-04T05:06:07Z", condition.getLastTransitionTime()),
        () -> assertEquals(1L, condition.getObservedGeneration()),
        () -> assertNull(condition.getLastProbeTime()));
  }

  @Test
  void a_scheduling_error_sets_PodScheduled_false_with_reason_SchedulerError() throws Exception {
    var stored = create(pod());

    assertEquals(ReportOutcome.WRITTEN, reporter.schedulingError(stored, "running PreFilter plugin \"x\": boom"));

    assertEquals("FailedScheduling", onlyEvent().getReason());
    var condition = podScheduled(readBack());
    assertEquals("SchedulerError", condition.getReason());
    assertEquals("running PreFilter plugin \"x\": boom", condition.getMessage());
  }

  @Test
  void the_first_repeat_makes_the_event_a_series_of_two_and_later_repeats_are_counted_quietly()
      throws Exception {
    var stored = create(pod());
    reporter.scheduled(stored, NODE);
    var first = onlyEvent();

    clock.advance(Duration.ofSeconds(10));
    int before = server.getRequestCount();
    assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(stored, NODE));
    assertEquals(1, server.getRequestCount() - before, "one patch");

    var series = onlyEvent();
    assertEquals(first.getMetadata().getName(), series.getMetadata().getName());
    assertEquals(2, series.getSeries().getCount());
    assertEquals("2026-03-04T05:06:17.123456Z", series.getSeries().getLastObservedTime().getTime());
    assertEquals(first.getEventTime().getTime(), series.getEventTime().getTime());

    before = server.getRequestCount();
    clock.advance(Duration.ofSeconds(10));
    assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(stored, NODE));
    clock.advance(Duration.ofSeconds(10));
    assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(stored, NODE));
    assertEquals(0, server.getRequestCount() - before, "counted, not written");
    assertEquals(2, onlyEvent().getSeries().getCount());
  }

  @Test
  void a_quiet_series_is_finished_with_its_full_count_and_forgotten() throws Exception {
    var stored = create(pod());
    for (int i = 0; i < 10; i++) {
      reporter.unschedulable(stored, NO_FIT);
      clock.advance(Duration.ofSeconds(1));
    }
    var lastObserved = clock.instant().minusSeconds(1);
    // client-go's TestFinishSeries: a series quiet for 9 minutes is written, an event just made stays.
    clock.advance(Duration.ofMinutes(9));
    reporter.scheduled(stored, NODE);

    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, reporter.flushSeries());

    var failed = event("FailedScheduling");
    assertEquals(10, failed.getSeries().getCount());
    assertEquals(EventRecorder.microTime(lastObserved), failed.getSeries().getLastObservedTime().getTime());
    assertEquals(1, reporter.rememberedEvents(), "only the Scheduled event is still remembered");
  }

  @Test
  void a_series_is_not_finished_before_it_has_been_quiet_for_six_minutes() throws Exception {
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT);
    reporter.unschedulable(stored, NO_FIT);
    reporter.unschedulable(stored, NO_FIT);

    clock.advance(Duration.ofMinutes(6));
    assertEquals(0, reporter.flushSeries());
    assertEquals(2, event("FailedScheduling").getSeries().getCount());

    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, reporter.flushSeries());
    assertEquals(3, event("FailedScheduling").getSeries().getCount());
    assertEquals(0, reporter.rememberedEvents());
  }

  @Test
  void a_series_whose_count_the_server_has_is_forgotten_without_another_write() throws Exception {
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT);
    reporter.unschedulable(stored, NO_FIT);

    clock.advance(Duration.ofMinutes(7));
    int before = server.getRequestCount();
    assertEquals(0, reporter.flushSeries());
    assertEquals(0, server.getRequestCount() - before);
    assertEquals(0, reporter.rememberedEvents());
  }

  @Test
  void a_live_series_is_written_again_every_thirty_minutes() throws Exception {
    var stored = create(pod());
    for (int minute = 0; minute <= 30; minute += 5) {
      reporter.unschedulable(stored, NO_FIT);
      assertEquals(0, reporter.flushSeries(), "minute " + minute);
      clock.advance(Duration.ofMinutes(5));
    }
    // Minute 35: the series was last written at minute 5 (count 2) and is still alive.
    reporter.unschedulable(stored, NO_FIT);
    assertEquals(1, reporter.flushSeries());
    assertEquals(8, event("FailedScheduling").getSeries().getCount());
  }

  @Test
  void a_single_event_is_forgotten_after_six_minutes_and_its_repeat_is_a_new_event() throws Exception {
    var stored = create(pod());
    reporter.scheduled(stored, NODE);
    clock.advance(Duration.ofMinutes(6).plusSeconds(1));
    assertEquals(0, reporter.flushSeries());
    assertEquals(0, reporter.rememberedEvents());

    reporter.scheduled(stored, NODE);

    var events = events();
    assertEquals(2, events.size());
    events.forEach(e -> assertNull(e.getSeries()));
  }

  @Test
  void a_repeat_whose_event_has_gone_from_the_server_creates_it_again_with_its_series() throws Exception {
    // client-go's TestRecordEventToSink: "record one isomorphic Event without one already existing".
    var stored = create(pod());
    reporter.scheduled(stored, NODE);
    client.events().v1().events().inNamespace(NS).withName(onlyEvent().getMetadata().getName()).delete();

    assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(stored, NODE));

    var event = onlyEvent();
    assertEquals(2, event.getSeries().getCount());
    assertEquals("Scheduled", event.getReason());
  }

  @Test
  void events_that_differ_in_reason_or_in_the_pods_version_are_not_a_series() throws Exception {
    // client-go's TestEventSeriesf: a non-isomorphic event is created, not patched.
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT); // writes the condition: the pod's resourceVersion changes
    reporter.scheduled(stored, NODE);
    var changed = readBack();
    assertNotEquals(stored.getMetadata().getResourceVersion(), changed.getMetadata().getResourceVersion());
    reporter.unschedulable(changed, NO_FIT);

    var events = events();
    assertEquals(3, events.size());
    events.forEach(e -> assertNull(e.getSeries(), e.getMetadata().getName()));
  }

  @Test
  void a_repeat_with_another_message_counts_into_the_first_events_series() throws Exception {
    // As client-go: the note is not part of the key, so the series keeps the first note.
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT);
    reporter.unschedulable(stored, "0/4 nodes are available: 4 Insufficient cpu.");

    var event = onlyEvent();
    assertEquals(NO_FIT, event.getNote());
    assertEquals(2, event.getSeries().getCount());
  }

  @Test
  void a_note_over_the_limit_is_cut_to_1024_bytes_but_the_condition_keeps_the_whole_message()
      throws Exception {
    var stored = create(pod());
    var message = "0/1000 nodes are available: " + "é".repeat(600);

    reporter.unschedulable(stored, message);

    var note = onlyEvent().getNote();
    assertTrue(note.endsWith(" ..."), note);
    assertTrue(note.getBytes(StandardCharsets.UTF_8).length <= 1024);
    assertTrue(note.getBytes(StandardCharsets.UTF_8).length >= 1023, "cut at most one character short");
    assertTrue(message.startsWith(note.substring(0, note.length() - 4)));
    assertEquals(message, podScheduled(readBack()).getMessage());
  }

  // --- the PodScheduled condition ------------------------------------------------------------------

  @Test
  void the_condition_is_written_only_when_it_changes() throws Exception {
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT);
    var afterFirst = readBack();
    var firstTransition = podScheduled(afterFirst).getLastTransitionTime();

    clock.advance(Duration.ofMinutes(1));
    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(afterFirst, NO_FIT));
    assertEquals(afterFirst.getMetadata().getResourceVersion(), readBack().getMetadata().getResourceVersion(),
        "the same condition is not written again");

    clock.advance(Duration.ofMinutes(1));
    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(afterFirst, "0/4 nodes are available: 4 Insufficient cpu."));
    var afterMessage = readBack();
    assertEquals("0/4 nodes are available: 4 Insufficient cpu.", podScheduled(afterMessage).getMessage());
    assertEquals(firstTransition, podScheduled(afterMessage).getLastTransitionTime(),
        "the status stayed False, so the transition time stays");

    assertEquals(ReportOutcome.WRITTEN, reporter.schedulingError(afterMessage, "boom"));
    var afterReason = podScheduled(readBack());
    assertEquals("SchedulerError", afterReason.getReason());
    assertEquals(firstTransition, afterReason.getLastTransitionTime());
  }

  @Test
  void a_pod_changed_since_it_was_seen_is_read_again_and_gets_the_condition_without_losing_the_change()
      throws Exception {
    var seen = create(withConditions(pod(), condition("Custom", "True", "2026-01-01T00:00:00Z")));
    client.pods().inNamespace(NS).withName(NAME).edit(p -> new PodBuilder(p)
        .editStatus().addToConditions(condition("Other", "False", "2026-02-02T00:00:00Z")).endStatus()
        .build());

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(seen, NO_FIT));

    var conditions = readBack().getStatus().getConditions();
    assertEquals(List.of("Custom", "Other", "PodScheduled"),
        conditions.stream().map(PodCondition::getType).toList());
  }

  @Test
  void a_pod_bound_since_it_was_seen_gets_no_unschedulable_condition_nor_nomination() throws Exception {
    var seen = create(pod());
    client.pods().inNamespace(NS).withName(NAME).edit(p -> new PodBuilder(p)
        .editSpec().withNodeName("n1").endSpec().build());

    assertEquals(new ReportOutcome.Bound("n1"), reporter.unschedulable(seen, NO_FIT, "n2"));

    var status = readBack().getStatus();
    assertTrue(status == null || status.getConditions() == null || status.getConditions().isEmpty());
    assertTrue(status == null || status.getNominatedNodeName() == null);
  }

  @Test
  void a_pod_whose_fresh_version_already_shows_the_condition_is_not_written_again() throws Exception {
    var stale = create(pod());
    reporter.unschedulable(stale, NO_FIT);
    var written = readBack();

    int before = server.getRequestCount();
    int tokens = bucket.taken.get();
    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stale, NO_FIT));

    // The series patch, the refused status patch and the re-read; no second status write.
    assertEquals(3, server.getRequestCount() - before);
    assertEquals(3, bucket.taken.get() - tokens);
    assertEquals(written.getMetadata().getResourceVersion(), readBack().getMetadata().getResourceVersion());
  }

  @Test
  void a_condition_that_changes_status_gets_a_new_transition_time() throws Exception {
    var stored = create(withConditions(pod(), condition("PodScheduled", "True", "2026-01-01T00:00:00Z")));

    reporter.unschedulable(stored, NO_FIT);

    var condition = podScheduled(readBack());
    assertEquals("False", condition.getStatus());
    assertEquals("2026-03-04T05:06:07Z", condition.getLastTransitionTime());
  }

  @Test
  void the_mock_server_does_not_set_PodScheduled_when_it_binds() throws Exception {
    // A real API server sets PodScheduled=True (no reason, no message) when it stores a Binding
    // (registry/core/pod/storage: assignPod). The mock server binds only through BindMode.SET_NODE_NAME
    // and leaves the condition as it was: in the fake cluster a bound pod keeps PodScheduled=False.
    var stored = create(pod());
    reporter.unschedulable(stored, NO_FIT);

    var outcome = Binder.bind(BinderFixtures.setNodeName(client, readBack(), NODE));

    assertEquals(new BindOutcome.Bound(NODE, false), outcome);
    var condition = podScheduled(readBack());
    assertEquals("False", condition.getStatus());
    assertEquals("Unschedulable", condition.getReason());
  }

  // --- the nomination, in the same status patch -------------------------------------------------------

  @Test
  void a_nomination_is_written_with_the_condition_in_one_status_patch() throws Exception {
    var stored = create(pod());
    int before = server.getRequestCount();

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, PREEMPTING, NODE));

    assertEquals(2, server.getRequestCount() - before, "the event, then one status patch");
    assertEquals(2, bucket.taken.get());
    var after = readBack();
    assertEquals(NODE, after.getStatus().getNominatedNodeName());
    assertEquals(PREEMPTING, podScheduled(after).getMessage());
    assertEquals(PREEMPTING, onlyEvent().getNote());
  }

  @Test
  void a_null_nomination_leaves_the_pods_as_it_is() throws Exception {
    var stored = create(nominatedTo(pod(), OTHER_NODE));

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, NO_FIT, null));

    var after = readBack();
    assertEquals(OTHER_NODE, after.getStatus().getNominatedNodeName());
    assertEquals(NO_FIT, podScheduled(after).getMessage());
  }

  @Test
  void the_two_argument_form_leaves_the_nomination_as_it_is() throws Exception {
    var stored = create(nominatedTo(pod(), OTHER_NODE));

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, NO_FIT));

    assertEquals(OTHER_NODE, readBack().getStatus().getNominatedNodeName());
  }

  @Test
  void an_empty_nomination_removes_the_pods_in_the_condition_patch() throws Exception {
    var stored = create(nominatedTo(pod(), OTHER_NODE));
    int before = server.getRequestCount();

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, NO_FIT, ""));

    assertEquals(2, server.getRequestCount() - before);
    var after = readBack();
    assertNull(after.getStatus().getNominatedNodeName());
    assertEquals(NO_FIT, podScheduled(after).getMessage());
  }

  @Test
  void an_empty_nomination_on_a_pod_without_one_writes_the_condition_only() throws Exception {
    var stored = create(pod());

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(stored, NO_FIT, ""));

    var after = readBack();
    assertNull(after.getStatus().getNominatedNodeName());
    assertEquals(NO_FIT, podScheduled(after).getMessage());
  }

  @Test
  void a_pod_showing_the_condition_and_the_nomination_is_not_written_again() throws Exception {
    reporter.unschedulable(create(pod()), PREEMPTING, NODE);
    var written = readBack();

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(written, PREEMPTING, NODE));
    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(written, PREEMPTING, null));

    assertEquals(written.getMetadata().getResourceVersion(), readBack().getMetadata().getResourceVersion());
  }

  @Test
  void a_new_nomination_alone_is_written_when_the_pod_shows_the_condition() throws Exception {
    reporter.unschedulable(create(pod()), PREEMPTING, NODE);
    var written = readBack();
    clock.advance(Duration.ofMinutes(1));

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(written, PREEMPTING, OTHER_NODE));

    var after = readBack();
    assertNotEquals(written.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
    assertEquals(OTHER_NODE, after.getStatus().getNominatedNodeName());
    assertEquals(podScheduled(written), podScheduled(after), "the condition is untouched");
  }

  @Test
  void a_pod_changed_since_it_was_seen_still_gets_its_nomination() throws Exception {
    var seen = create(pod());
    client.pods().inNamespace(NS).withName(NAME).edit(p -> new PodBuilder(p)
        .editMetadata().addToLabels("changed", "yes").endMetadata().build());

    assertEquals(ReportOutcome.WRITTEN, reporter.unschedulable(seen, PREEMPTING, NODE));

    var after = readBack();
    assertEquals(NODE, after.getStatus().getNominatedNodeName());
    assertEquals("yes", after.getMetadata().getLabels().get("changed"));
  }

  @Test
  void a_scheduling_error_can_clear_the_nomination_too() throws Exception {
    var stored = create(nominatedTo(pod(), OTHER_NODE));

    assertEquals(ReportOutcome.WRITTEN, reporter.schedulingError(stored, "boom", ""));

    var after = readBack();
    assertNull(after.getStatus().getNominatedNodeName());
    assertEquals("SchedulerError", podScheduled(after).getReason());
  }

  // --- the Preempted event ----------------------------------------------------------------------------

  @Test
  void a_victim_gets_a_Preempted_event_naming_the_preemptor_as_related_object() throws Exception {
    var victim = create(pod());
    var preemptor = create(pod(NS, "high", "ignored"));

    assertEquals(ReportOutcome.WRITTEN, reporter.preempted(victim, preemptor, NODE, false));

    var event = onlyEvent();
    assertAll(
        () -> assertEquals("Normal", event.getType()),
        () -> assertEquals("Preempted", event.getReason()),
        () -> assertEquals("Preempting", event.getAction()),
        () -> assertEquals(
            "Preempted by pod " + preemptor.getMetadata().getUid() + " on node " + NODE, event.getNote()),
        () -> assertEquals(SCHEDULER, event.getReportingController()),
        () -> assertEquals(NAME + "." + Long.toHexString(nanos(START)), event.getMetadata().getName()),
        () -> assertEquals(NS, event.getMetadata().getNamespace()),
        () -> assertEquals(victim.getMetadata().getUid(), event.getRegarding().getUid()),
        () -> assertEquals(NAME, event.getRegarding().getName()),
        () -> assertEquals("Pod", event.getRelated().getKind()),
        () -> assertEquals("v1", event.getRelated().getApiVersion()),
        () -> assertEquals(NS, event.getRelated().getNamespace()),
        () -> assertEquals("high", event.getRelated().getName()),
        () -> assertEquals(preemptor.getMetadata().getUid(), event.getRelated().getUid()),
        () -> assertEquals(
            preemptor.getMetadata().getResourceVersion(), event.getRelated().getResourceVersion()));
  }

  @Test
  void a_victim_stopped_in_memory_says_so_in_the_note() throws Exception {
    var victim = create(pod());
    var preemptor = create(pod(NS, "high", "ignored"));

    reporter.preempted(victim, preemptor, NODE, true);

    assertEquals(
        "Preempted by pod " + preemptor.getMetadata().getUid() + " on node " + NODE
            + " (in kube-scheduler memory).",
        onlyEvent().getNote());
  }

  @Test
  void the_related_object_is_part_of_what_makes_two_events_the_same() throws Exception {
    var victim = create(pod());
    var first = create(pod(NS, "high-1", "ignored"));
    var second = create(pod(NS, "high-2", "ignored"));

    reporter.preempted(victim, first, NODE, false);
    reporter.preempted(victim, first, NODE, false);
    clock.advance(Duration.ofSeconds(1));
    reporter.preempted(victim, second, NODE, false);

    var events = events();
    assertEquals(2, events.size(), "a series for the first preemptor, a new event for the second");
    assertEquals(2, events.get(0).getSeries().getCount());
    assertEquals("high-1", events.get(0).getRelated().getName());
    assertNull(events.get(1).getSeries());
    assertEquals("high-2", events.get(1).getRelated().getName());
  }

  @Test
  void a_preemptor_without_namespace_or_name_is_refused() {
    assertThrows(IllegalArgumentException.class, () -> reporter.preempted(pod(), new Pod(), NODE, false));
  }

  // --- the limiter, errors, validation -------------------------------------------------------------

  @Test
  void every_request_the_reporter_makes_takes_a_token_first() throws Exception {
    var stored = create(pod());
    int before = server.getRequestCount();

    reporter.unschedulable(stored, NO_FIT); // create event, patch status
    reporter.unschedulable(stored, NO_FIT); // patch series; status patch refused (stale), re-read
    reporter.unschedulable(readBack(), NO_FIT); // new pod version: create event; condition unchanged
    reporter.scheduled(stored, NODE); // create event
    reporter.scheduled(stored, NODE); // patch series
    reporter.scheduled(stored, NODE); // counted only
    clock.advance(Duration.ofMinutes(7));
    reporter.flushSeries(); // one series to finish
    int readBacks = 1;

    int made = server.getRequestCount() - before - readBacks;
    assertEquals(9, made);
    assertEquals(made, bucket.taken.get());
  }

  @Test
  void an_api_error_is_returned_as_an_outcome_not_thrown() throws Exception {
    var missing = pod(); // never stored: the status patch answers 404

    assertEquals(new ReportOutcome.PodGone("pod " + NS + "/" + NAME + " not found (404)"),
        reporter.unschedulable(missing, NO_FIT));
    assertEquals(1, events().size(), "the event itself was written");

    server.destroy(); // nothing answers now
    assertInstanceOf(ReportOutcome.Failed.class, reporter.scheduled(missing, NODE));
  }

  @Test
  void an_interrupt_while_waiting_for_a_token_is_thrown() {
    var blocked = SchedulingReporter.create(client, BinderFixtures.INTERRUPTING, SCHEDULER, HOST, clock);

    assertThrows(InterruptedException.class, () -> blocked.scheduled(pod(), NODE));
    assertThrows(InterruptedException.class, () -> blocked.unschedulable(pod(), NO_FIT));
  }

  @Test
  void a_scheduler_name_the_api_would_refuse_as_reportingController_is_refused() {
    for (var name : List.of("", "has space", "-leading", "trailing-", "a".repeat(64), "UPPER/x", "a/")) {
      var e = assertThrows(IllegalArgumentException.class,
          () -> SchedulingReporter.create(client, bucket, name, HOST, clock), name);
      assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
    }
    for (var name : List.of("default-scheduler", "my.scheduler_1", "example.com/my-scheduler", "a")) {
      SchedulingReporter.create(client, bucket, name, HOST, clock);
    }
  }

  @Test
  void a_reporting_instance_over_128_characters_is_cut() {
    var long_ = SchedulingReporter.create(client, bucket, SCHEDULER, "h".repeat(200), clock);
    assertEquals(128, long_.reportingInstance().length());
    assertTrue(long_.reportingInstance().startsWith(SCHEDULER + "-hhh"));
  }

  @Test
  void a_pod_without_namespace_or_name_is_refused() {
    var noNamespace = new PodBuilder().withNewMetadata().withName(NAME).endMetadata().build();
    var e = assertThrows(IllegalArgumentException.class, () -> reporter.scheduled(noNamespace, NODE));
    assertEquals("pod to report on needs a namespace and a name, was null/" + NAME, e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> reporter.unschedulable(new Pod(), NO_FIT));
  }

  // --- helpers -------------------------------------------------------------------------------------

  private Pod create(Pod pod) {
    var withoutServerFields =
        new PodBuilder(pod).editMetadata().withUid(null).withResourceVersion(null).endMetadata().build();
    return client.pods().inNamespace(NS).resource(withoutServerFields).create();
  }

  private Pod readBack() {
    return client.pods().inNamespace(NS).withName(NAME).get();
  }

  private List<Event> events() {
    var items = client.events().v1().events().inNamespace(NS).list().getItems();
    return items.stream().sorted(Comparator.comparing(e -> e.getEventTime().getTime())).toList();
  }

  private Event onlyEvent() {
    var events = events();
    assertEquals(1, events.size(), "events: " + events);
    return events.get(0);
  }

  private Event event(String reason) {
    var matching = events().stream().filter(e -> reason.equals(e.getReason())).toList();
    assertEquals(1, matching.size(), "events with reason " + reason + ": " + matching);
    return matching.get(0);
  }

  private static PodCondition podScheduled(Pod pod) {
    var found = PodConditionUpdate.find(pod.getStatus(), "PodScheduled");
    assertTrue(found != null, "no PodScheduled condition in " + pod.getStatus());
    return found;
  }

  private static Pod nominatedTo(Pod pod, String node) {
    return new PodBuilder(pod).withNewStatus().withNominatedNodeName(node).endStatus().build();
  }

  private static Pod withConditions(Pod pod, PodCondition... conditions) {
    return new PodBuilder(pod).withNewStatus().withConditions(conditions).endStatus().build();
  }

  static PodCondition condition(String type, String status, String transition) {
    var c = new PodCondition();
    c.setType(type);
    c.setStatus(status);
    c.setLastTransitionTime(transition);
    return c;
  }

  private static long nanos(java.time.Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
