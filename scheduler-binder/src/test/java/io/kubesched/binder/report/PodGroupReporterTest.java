package io.kubesched.binder.report;

import static io.kubesched.binder.SchedulingReporterFixtures.HOST;
import static io.kubesched.binder.SchedulingReporterFixtures.SCHEDULER;
import static io.kubesched.binder.SchedulingReporterFixtures.START;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kubesched.binder.BinderFixtures;
import io.kubesched.binder.WarnLines;
import io.kubesched.binder.report.PodGroupReporter.GroupObject;
import io.kubesched.binder.SchedulingReporterFixtures.CountingBucket;
import io.kubesched.binder.SchedulingReporterFixtures.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link PodGroupReporter} against fabric8's mock server in CRUD mode, with both APIs' PodGroups. */
class PodGroupReporterTest {

  private static final String WORKLOAD = "scheduling.k8s.io/v1beta1";
  private static final String COSCHEDULING = "scheduling.x-k8s.io/v1alpha1";
  private static final String NS = "training";
  private static final String NOT_SATISFIABLE = "minCount (6) cannot be satisfied: 4 scheduled, 0 remaining";

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;
  private MutableClock clock;
  private CountingBucket bucket;
  private PodGroupReporter reporter;

  @BeforeEach
  void start() {
    server = BinderFixtures.crudServer();
    server.expectCustomResource(context(WORKLOAD));
    server.expectCustomResource(context(COSCHEDULING));
    client = BinderFixtures.clientWithoutRetries(server);
    clock = new MutableClock(START);
    bucket = new CountingBucket();
    reporter = newReporter();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private PodGroupReporter newReporter() {
    return new PodGroupReporter(client, bucket, SCHEDULER, HOST, clock);
  }

  private static CustomResourceDefinitionContext context(String apiVersion) {
    var parts = apiVersion.split("/");
    return new CustomResourceDefinitionContext.Builder()
        .withGroup(parts[0])
        .withVersion(parts[1])
        .withKind("PodGroup")
        .withPlural("podgroups")
        .withScope("Namespaced")
        .withStatusSubresource(true)
        .build();
  }

  /** Stores a group object as the API server would hand it out, with the given status. */
  private GroupObject create(String apiVersion, String name, long generation, Map<String, Object> status) {
    var object =
        client
            .getKubernetesSerialization()
            .unmarshal(
                """
                apiVersion: %s
                kind: PodGroup
                metadata: {namespace: %s, name: %s, uid: uid-%s, generation: %d}
                spec: {}
                """
                    .formatted(apiVersion, NS, name, name, generation),
                GenericKubernetesResource.class);
    var resources = client.genericKubernetesResources(context(apiVersion)).inNamespace(NS);
    var stored = resources.resource(object).create();
    if (!status.isEmpty()) {
      // As on the API server, the status of an object with a status subresource is not taken on create.
      stored.setAdditionalProperty("status", status);
      stored = resources.resource(stored).updateStatus();
    }
    return new GroupObject(apiVersion, NS, name, stored.getMetadata().getUid(), generation);
  }

  private Map<String, Object> status(GroupObject group) {
    var object = client.genericKubernetesResources(context(group.apiVersion())).inNamespace(NS).withName(group.name()).get();
    @SuppressWarnings("unchecked")
    var status = (Map<String, Object>) object.getAdditionalProperties().get("status");
    return status;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> condition(GroupObject group, String type) {
    var conditions = (List<Map<String, Object>>) status(group).get("conditions");
    return conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst().orElseThrow();
  }

  private int requests() {
    return server.getRequestCount();
  }

  private List<Event> events() {
    return client.events().v1().events().inNamespace(NS).list().getItems();
  }

  // --- the PodGroupInitiallyScheduled condition ---------------------------------------------------

  @Test
  void an_unschedulable_group_gets_the_condition_false_with_the_generation_and_keeps_its_other_conditions()
      throws Exception {
    var disruption =
        Map.<String, Object>of(
            "type", "DisruptionTarget",
            "status", "True",
            "reason", "PreemptionByScheduler",
            "message", "preempted",
            "lastTransitionTime", "2026-01-01T00:00:00Z");
    var group = create(WORKLOAD, "job-a", 3, Map.of("conditions", List.of(disruption)));

    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    var condition = condition(group, PodGroupReporter.CONDITION);
    assertAll(
        () -> assertEquals("False", condition.get("status")),
        () -> assertEquals("Unschedulable", condition.get("reason")),
        () -> assertEquals(NOT_SATISFIABLE, condition.get("message")),
        () -> assertEquals(3, ((Number) condition.get("observedGeneration")).intValue()),
        () -> assertEquals("2026-03-04T05:06:07Z", condition.get("lastTransitionTime")));
    assertEquals(disruption, condition(group, "DisruptionTarget"));
  }

  @Test
  void the_same_condition_again_is_not_written_and_not_even_read_by_the_reporter_that_wrote_it() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
    int before = requests();
    int tokens = bucket.taken.get();

    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    assertEquals(before, requests());
    assertEquals(tokens, bucket.taken.get());
  }

  @Test
  void another_reporter_reads_the_group_and_writes_nothing_when_it_shows_the_condition_already() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
    var written = status(group);
    int before = requests();
    clock.advance(Duration.ofMinutes(1));

    assertTrue(newReporter().condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    assertEquals(before + 1, requests()); // the read
    assertEquals(written, status(group));
  }

  @Test
  void a_scheduled_group_is_never_set_back_to_false() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    assertTrue(reporter.condition(group, true, PodGroupReporter.SCHEDULED, "6 of 6 members placed"));

    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
    assertTrue(newReporter().condition(group, false, PodGroupReporter.TIMEOUT, "timed out"));

    var condition = condition(group, PodGroupReporter.CONDITION);
    assertEquals("True", condition.get("status"));
    assertEquals("Scheduled", condition.get("reason"));
    assertEquals("6 of 6 members placed", condition.get("message"));
  }

  @Test
  void the_transition_time_moves_only_when_the_status_changes() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
    clock.advance(Duration.ofMinutes(5));

    assertTrue(reporter.condition(group, false, PodGroupReporter.TIMEOUT, "timed out after 5m0s: " + NOT_SATISFIABLE));
    var timedOut = condition(group, PodGroupReporter.CONDITION);
    assertEquals("Timeout", timedOut.get("reason"));
    assertEquals("2026-03-04T05:06:07Z", timedOut.get("lastTransitionTime"));

    clock.advance(Duration.ofMinutes(5));
    assertTrue(reporter.condition(group, true, PodGroupReporter.SCHEDULED, "6 of 6 members placed"));
    assertEquals("2026-03-04T05:16:07Z", condition(group, PodGroupReporter.CONDITION).get("lastTransitionTime"));
  }

  @Test
  void a_new_generation_is_written_as_the_observed_generation() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    var updated = new GroupObject(WORKLOAD, NS, "job-a", group.uid(), 2);
    assertTrue(reporter.condition(updated, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    assertEquals(2, ((Number) condition(group, PodGroupReporter.CONDITION).get("observedGeneration")).intValue());
  }

  @Test
  void a_message_over_the_api_limit_is_cut_between_characters() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());
    var message = "é".repeat(20_000); // 40 000 bytes

    assertTrue(reporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, message));

    var written = (String) condition(group, PodGroupReporter.CONDITION).get("message");
    assertEquals(16_384, written.length());
    assertTrue(written.getBytes(StandardCharsets.UTF_8).length <= PodGroupReporter.CONDITION_MESSAGE_LIMIT);
  }

  @Test
  void a_group_that_is_gone_or_was_created_again_is_not_written() throws Exception {
    var gone = new GroupObject(WORKLOAD, NS, "job-gone", "uid-x", 1);
    assertFalse(reporter.condition(gone, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));

    var group = create(WORKLOAD, "job-a", 1, Map.of());
    var older = new GroupObject(WORKLOAD, NS, "job-a", "uid-of-an-older-job-a", 1);
    assertFalse(reporter.condition(older, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
    assertNull(status(group));
  }

  @Test
  void a_group_deleted_between_its_read_and_its_status_patch_is_not_written_nor_warned_of() throws Exception {
    var path = "/apis/scheduling.k8s.io/v1beta1/namespaces/" + NS + "/podgroups/job-c";
    var answers = BinderFixtures.expectationsServer();
    try (var answered = BinderFixtures.clientWithoutRetries(answers);
        var warnings = WarnLines.capture()) {
      var object = client.getKubernetesSerialization().unmarshal("""
          {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
           "metadata": {"namespace": "%s", "name": "job-c", "uid": "uid-c", "generation": 1, "resourceVersion": "7"}}
          """.formatted(NS), GenericKubernetesResource.class);
      answers.expect().get().withPath(path).andReturn(200, object).always();
      answers.expect().patch().withPath(path + "/status")
          .andReturn(404, "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}").once();
      answers.expect().patch().withPath(path + "/status")
          .andReturn(500, "{\"kind\":\"Status\",\"code\":500,\"message\":\"etcd\"}").once();
      var group = new GroupObject(WORKLOAD, NS, "job-c", "uid-c", 1);
      var answeredReporter = new PodGroupReporter(answered, bucket, SCHEDULER, HOST, clock);

      assertFalse(answeredReporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
      assertEquals(List.of(), warnings.lines(), "a group gone is no failure");

      assertFalse(answeredReporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
      var lines = warnings.lines();
      assertEquals(1, lines.size(), "any other refusal is: " + lines);
      assertTrue(lines.get(0).contains("500: etcd"), lines.get(0));
    } finally {
      answers.destroy();
    }
  }

  @Test
  void a_coscheduling_group_gets_the_condition_too() throws Exception {
    var group = create(COSCHEDULING, "job-b", 1, Map.of("phase", "Pending"));

    assertTrue(reporter.condition(group, true, PodGroupReporter.SCHEDULED, "2 of 2 members placed"));

    assertEquals("True", condition(group, PodGroupReporter.CONDITION).get("status"));
    assertEquals("Pending", status(group).get("phase"));
  }

  // --- the coscheduling status ----------------------------------------------------------------------

  @Test
  void the_coscheduling_status_is_written_and_the_start_time_kept_once_set() throws Exception {
    var group = create(COSCHEDULING, "job-b", 1, Map.of("running", 1));

    assertTrue(reporter.coschedulingStatus(group, "Pending", 0, START));
    assertEquals(Map.of("running", 1, "phase", "Pending", "scheduled", 0, "scheduleStartTime", "2026-03-04T05:06:07Z"), status(group));

    assertTrue(reporter.coschedulingStatus(group, "Scheduled", 4, START.plusSeconds(60)));
    assertEquals(
        Map.of("running", 1, "phase", "Scheduled", "scheduled", 4, "scheduleStartTime", "2026-03-04T05:06:07Z"),
        status(group));
  }

  @Test
  void a_coscheduling_status_shown_already_is_not_written() throws Exception {
    var group =
        create(COSCHEDULING, "job-b", 1, Map.of("phase", "Scheduling", "scheduled", 2, "scheduleStartTime", "2026-01-01T00:00:00Z"));
    int before = requests();

    assertTrue(reporter.coschedulingStatus(group, "Scheduling", 2, START));
    assertEquals(before + 1, requests()); // the read
    assertTrue(reporter.coschedulingStatus(group, "Scheduling", 2, START));
    assertEquals(before + 1, requests()); // remembered

    assertEquals("2026-01-01T00:00:00Z", status(group).get("scheduleStartTime"));
  }

  @Test
  void a_workload_api_group_has_no_phase() {
    var group = new GroupObject(WORKLOAD, NS, "job-a", "", 1);

    assertThrows(IllegalArgumentException.class, () -> reporter.coschedulingStatus(group, "Pending", 0, null));
  }

  // --- events ----------------------------------------------------------------------------------------

  @Test
  void an_event_regards_the_group_object_and_repeats_become_a_series() throws Exception {
    var group = create(COSCHEDULING, "job-b", 1, Map.of());

    assertTrue(reporter.event(group, "Warning", "FailedScheduling", "Scheduling", NOT_SATISFIABLE));
    clock.advance(Duration.ofSeconds(10));
    assertTrue(reporter.event(group, "Warning", "FailedScheduling", "Scheduling", NOT_SATISFIABLE));

    var events = events();
    assertEquals(1, events.size());
    var event = events.get(0);
    var regarding = event.getRegarding();
    assertAll(
        () -> assertEquals(COSCHEDULING, regarding.getApiVersion()),
        () -> assertEquals("PodGroup", regarding.getKind()),
        () -> assertEquals(NS, regarding.getNamespace()),
        () -> assertEquals("job-b", regarding.getName()),
        () -> assertEquals(group.uid(), regarding.getUid()),
        () -> assertEquals("Warning", event.getType()),
        () -> assertEquals("FailedScheduling", event.getReason()),
        () -> assertEquals(NOT_SATISFIABLE, event.getNote()),
        () -> assertEquals(SCHEDULER, event.getReportingController()),
        () -> assertEquals(2, event.getSeries().getCount()));
  }

  @Test
  void a_new_message_about_the_same_group_is_a_new_event_not_a_count_in_the_old_one() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());

    assertTrue(reporter.event(group, "Warning", "FailedScheduling", "Scheduling", NOT_SATISFIABLE));
    clock.advance(Duration.ofSeconds(10));
    assertTrue(reporter.event(group, "Warning", "FailedScheduling", "Scheduling", "timed out after 5m0s"));

    var notes = events().stream().map(e -> e.getNote()).sorted().toList();
    assertEquals(List.of(NOT_SATISFIABLE, "timed out after 5m0s").stream().sorted().toList(), notes);
  }

  @Test
  void an_event_note_is_cut_to_the_api_limit() throws Exception {
    var group = create(WORKLOAD, "job-a", 1, Map.of());

    assertTrue(reporter.event(group, "Warning", "FailedScheduling", "Scheduling", "x".repeat(2000)));

    var note = events().get(0).getNote();
    assertEquals(1024, note.length());
    assertTrue(note.endsWith(" ..."));
  }

  // --- failures ----------------------------------------------------------------------------------------

  @Test
  void an_api_error_is_a_false_outcome_not_an_exception() throws Exception {
    var failing = BinderFixtures.expectationsServer();
    try (var failingClient = BinderFixtures.clientWithoutRetries(failing)) {
      failing.expect().get().withPath("/apis/scheduling.k8s.io/v1beta1/namespaces/training/podgroups/job-a").andReturn(403, "forbidden").always();
      failing.expect().post().withPath("/apis/events.k8s.io/v1/namespaces/training/events").andReturn(500, "broken").always();
      var failingReporter = new PodGroupReporter(failingClient, bucket, SCHEDULER, HOST, clock);
      var group = new GroupObject(WORKLOAD, NS, "job-a", "uid-a", 1);

      assertFalse(failingReporter.condition(group, false, PodGroupReporter.UNSCHEDULABLE, NOT_SATISFIABLE));
      assertFalse(failingReporter.event(group, "Warning", "FailedScheduling", "Scheduling", NOT_SATISFIABLE));
    } finally {
      failing.destroy();
    }
  }

  @Test
  void a_group_object_needs_group_version_namespace_and_name() {
    assertThrows(IllegalArgumentException.class, () -> new GroupObject("v1", NS, "a", "", 1));
    assertThrows(IllegalArgumentException.class, () -> new GroupObject(WORKLOAD, "", "a", "", 1));
    assertThrows(IllegalArgumentException.class, () -> new GroupObject(WORKLOAD, NS, " ", "", 1));
  }

  @Test
  void the_scheduler_name_must_be_a_qualified_name() {
    assertThrows(IllegalArgumentException.class, () -> new PodGroupReporter(client, bucket, "Not A Name", HOST, clock));
  }
}
