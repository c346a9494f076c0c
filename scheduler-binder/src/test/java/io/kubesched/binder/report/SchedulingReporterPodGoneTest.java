package io.kubesched.binder.report;

import static io.kubesched.binder.BinderFixtures.NAME;
import static io.kubesched.binder.BinderFixtures.NODE;
import static io.kubesched.binder.BinderFixtures.NS;
import static io.kubesched.binder.BinderFixtures.POD_PATH;
import static io.kubesched.binder.SchedulingReporterFixtures.HOST;
import static io.kubesched.binder.SchedulingReporterFixtures.SCHEDULER;
import static io.kubesched.binder.SchedulingReporterFixtures.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kubesched.binder.BinderFixtures;
import io.kubesched.binder.SchedulingReporterFixtures.CountingBucket;
import io.kubesched.binder.SchedulingReporterFixtures.MutableClock;
import io.kubesched.binder.WarnLines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SchedulingReporter} on a pod deleted while a report about it is in flight, against fabric8's mock server
 * with set answers: the pod gone is an outcome ({@link ReportOutcome.PodGone}), not a warning, and no request is
 * made again for it; any other refusal is still a warning.
 */
class SchedulingReporterPodGoneTest {

  private static final String NO_FIT = "0/3 nodes are available: 3 Insufficient cpu.";
  private static final String EVENTS_PATH = "/apis/events.k8s.io/v1/namespaces/" + NS + "/events";
  private static final String STATUS_PATH = POD_PATH + "/status";

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;
  private MutableClock clock;
  private SchedulingReporter reporter;

  @BeforeEach
  void start() {
    server = BinderFixtures.expectationsServer();
    client = BinderFixtures.clientWithoutRetries(server);
    clock = new MutableClock(START);
    reporter = SchedulingReporter.create(client, new CountingBucket(), SCHEDULER, HOST, clock);
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  @Test
  void a_pod_deleted_before_its_status_write_is_gone_without_a_warning_and_written_once() throws Exception {
    server.expect().post().withPath(EVENTS_PATH).andReturn(201, "{}").once();
    server.expect().patch().withPath(STATUS_PATH).andReturn(404, podNotFound()).once();

    try (var warnings = WarnLines.capture()) {
      assertEquals(new ReportOutcome.PodGone("pod " + NS + "/" + NAME + " not found (404)"),
          reporter.unschedulable(BinderFixtures.pod(), NO_FIT));
      assertEquals(List.of(), warnings.lines());
    }
    assertEquals(List.of("POST " + EVENTS_PATH, "PATCH " + STATUS_PATH), requests());
  }

  @Test
  void a_pod_deleted_after_a_conflict_is_gone_when_read_again() throws Exception {
    server.expect().post().withPath(EVENTS_PATH).andReturn(201, "{}").once();
    server.expect().patch().withPath(STATUS_PATH).andReturn(409, status(409, "Conflict", "changed")).once();
    server.expect().get().withPath(POD_PATH).andReturn(404, podNotFound()).once();

    try (var warnings = WarnLines.capture()) {
      assertEquals(new ReportOutcome.PodGone("pod " + NS + "/" + NAME + " not found (404)"),
          reporter.unschedulable(BinderFixtures.pod(), NO_FIT));
      assertEquals(List.of(), warnings.lines());
    }
    assertEquals(List.of("POST " + EVENTS_PATH, "PATCH " + STATUS_PATH, "GET " + POD_PATH), requests());
  }

  @Test
  void a_pod_created_again_under_its_name_after_a_conflict_is_gone_too() throws Exception {
    server.expect().post().withPath(EVENTS_PATH).andReturn(201, "{}").once();
    server.expect().patch().withPath(STATUS_PATH).andReturn(409, status(409, "Conflict", "changed")).once();
    server.expect().get().withPath(POD_PATH)
        .andReturn(200, BinderFixtures.recreated(BinderFixtures.pod(), "uid-2")).once();

    try (var warnings = WarnLines.capture()) {
      assertEquals(new ReportOutcome.PodGone("pod " + NS + "/" + NAME + " was created again (uid uid-2)"),
          reporter.schedulingError(BinderFixtures.pod(), "boom"));
      assertEquals(List.of(), warnings.lines());
    }
  }

  @Test
  void a_status_write_refused_otherwise_is_still_a_warning() throws Exception {
    server.expect().post().withPath(EVENTS_PATH).andReturn(201, "{}").once();
    server.expect().patch().withPath(STATUS_PATH).andReturn(500, status(500, "InternalError", "etcd")).once();

    try (var warnings = WarnLines.capture()) {
      var detail = "setting PodScheduled=False (Unschedulable) on pod " + NS + "/" + NAME + " failed: 500: etcd";
      assertEquals(new ReportOutcome.Failed(detail), reporter.unschedulable(BinderFixtures.pod(), NO_FIT));
      var lines = warnings.lines();
      assertEquals(1, lines.size(), lines.toString());
      assertTrue(lines.get(0).contains(detail), lines.get(0));
    }
  }

  @Test
  void an_event_refused_because_the_pods_namespace_is_gone_ends_the_report_without_a_warning() throws Exception {
    server.expect().post().withPath(EVENTS_PATH).andReturn(404, namespaceNotFound()).once();

    try (var warnings = WarnLines.capture()) {
      assertEquals(
          new ReportOutcome.PodGone("Pod " + NS + "/" + NAME + " is gone: namespace " + NS + " not found (404)"),
          reporter.unschedulable(BinderFixtures.pod(), NO_FIT));
      assertEquals(List.of(), warnings.lines());
    }
    assertEquals(List.of("POST " + EVENTS_PATH), requests(), "no status patch: the pod went with its namespace");
  }

  @Test
  void an_event_404_that_names_no_namespace_is_a_failure() throws Exception {
    // What a server that does not serve events.k8s.io/v1 answers.
    server.expect().post().withPath(EVENTS_PATH)
        .andReturn(404, status(404, "NotFound", "the server could not find the requested resource")).once();

    try (var warnings = WarnLines.capture()) {
      var outcome = reporter.scheduled(BinderFixtures.pod(), NODE);
      assertTrue(outcome instanceof ReportOutcome.Failed, outcome.toString());
      assertEquals(1, warnings.lines().size(), warnings.lines().toString());
    }
  }

  @Test
  void a_series_whose_namespace_is_gone_is_forgotten_and_never_written_again() throws Exception {
    var eventPath = EVENTS_PATH + "/" + EventRecorder.eventName(NAME, nanos(START));
    server.expect().post().withPath(EVENTS_PATH).andReturn(201, "{}").once();
    server.expect().patch().withPath(eventPath).andReturn(404, status(404, "NotFound", "expired")).once();
    server.expect().post().withPath(EVENTS_PATH).andReturn(404, namespaceNotFound()).once();
    var pod = BinderFixtures.pod();

    try (var warnings = WarnLines.capture()) {
      assertEquals(ReportOutcome.WRITTEN, reporter.scheduled(pod, NODE));
      clock.advance(Duration.ofSeconds(1));
      assertTrue(reporter.scheduled(pod, NODE) instanceof ReportOutcome.PodGone);
      assertEquals(0, reporter.rememberedEvents());
      clock.advance(Duration.ofMinutes(7));
      assertEquals(0, reporter.flushSeries());
      assertEquals(List.of(), warnings.lines());
    }
    assertEquals(List.of("POST " + EVENTS_PATH, "PATCH " + eventPath, "POST " + EVENTS_PATH), requests());
  }

  // --- helpers -------------------------------------------------------------------------------------

  private List<String> requests() throws InterruptedException {
    var lines = new ArrayList<String>();
    for (int i = server.getRequestCount(); i > 0; i--) {
      RecordedRequest request = server.takeRequest();
      lines.add(request.getMethod() + " " + request.getPath().replaceAll("\\?.*", ""));
    }
    return lines;
  }

  private static Status podNotFound() {
    return new StatusBuilder().withStatus("Failure").withCode(404).withReason("NotFound")
        .withMessage("pods \"" + NAME + "\" not found")
        .withNewDetails().withKind("pods").withName(NAME).endDetails()
        .build();
  }

  /** kube-apiserver's answer to a write into a namespace that does not exist (NamespaceLifecycle). */
  private static Status namespaceNotFound() {
    return new StatusBuilder().withStatus("Failure").withCode(404).withReason("NotFound")
        .withMessage("namespaces \"" + NS + "\" not found")
        .withNewDetails().withKind("namespaces").withName(NS).endDetails()
        .build();
  }

  private static Status status(int code, String reason, String message) {
    return new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason).withMessage(message).build();
  }

  private static long nanos(java.time.Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
