package io.kubesched.binder;

import static io.kubesched.binder.SchedulingReporterFixtures.START;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kubesched.binder.SchedulingReporterFixtures.CountingBucket;
import io.kubesched.binder.SchedulingReporterFixtures.MutableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link Preempter} against fabric8's mock server: the API writes of kube-scheduler's preemption executor.
 *
 * <p>Ported from kube 1.37's {@code framework/preemption/executor_test.go}: the {@code TestPrepareCandidate}
 * cases about one victim's writes (under kube's case names), and {@code TestRemoveNominatedNodeName}. Not
 * here, because they are about the loop that calls the preempter (scheduler-informer's preemption cycle):
 * "no victims", "two victims ..., one passes successfully and the second fails", the preempting map and
 * the activation of the preemptor; the podgroup, compositepodgroup and metrics cases (no pod groups, no
 * preemption metrics). Kube's fake clientset answers a patch or delete of a missing pod with success; the
 * mock server answers 404, as a real API server does, so "not-found victim error is ignored when deleting"
 * is played with an answer of 404 to the delete.
 */
class PreempterTest {

  private static final String NS = "default";
  private static final String VICTIM = "victim1";
  private static final String VICTIM_UID = "victim1";
  private static final String NODE = "node1";
  private static final String MESSAGE = Preempter.conditionMessage("default-scheduler");
  private static final String POD_PATH = "/api/v1/namespaces/" + NS + "/pods/" + VICTIM;
  private static final String STATUS_PATH = POD_PATH + "/status";
  private static final String NOW = "2026-03-04T05:06:07Z";

  private KubernetesMockServer server;
  private NamespacedKubernetesClient client;
  private final CountingBucket bucket = new CountingBucket();
  private final MutableClock clock = new MutableClock(START);

  @AfterEach
  void stopServer() {
    if (client != null) {
      client.close();
      server.destroy();
    }
  }

  /** A running pod on {@link #NODE}, as the informer shows it. */
  static Pod victim(String name, String uid, PodCondition... conditions) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(NS)
        .withName(name)
        .withUid(uid)
        .withResourceVersion("7")
        .endMetadata()
        .withNewSpec()
        .withNodeName(NODE)
        .withSchedulerName("default-scheduler")
        .withPriority(100)
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withConditions(conditions)
        .endStatus()
        .build();
  }

  /** The victim as the scheduling loop names it: namespace, name and uid, no status, no resourceVersion. */
  static Pod named(String uid) {
    return new PodBuilder().withNewMetadata().withNamespace(NS).withName(VICTIM).withUid(uid).endMetadata().build();
  }

  /** kube's test condition: DisruptionTarget, True, PreemptionByScheduler, the default scheduler's message. */
  static PodCondition matchingCondition() {
    return new PodConditionBuilder()
        .withType("DisruptionTarget")
        .withStatus("True")
        .withReason("PreemptionByScheduler")
        .withMessage(MESSAGE)
        .withLastTransitionTime("2026-01-01T00:00:00Z")
        .build();
  }

  @Test
  void the_condition_message_is_kube_schedulers() {
    assertEquals(
        "default-scheduler: preempting to accommodate a higher priority pod",
        Preempter.conditionMessage("default-scheduler"));
  }

  // --- against a server that stores what it is sent ----------------------------------------------------

  @Nested
  class AgainstTheCrudServer {

    private Preempter preempter;

    AgainstTheCrudServer() {
      server = BinderFixtures.crudServer();
      client = BinderFixtures.clientWithoutRetries(server);
      preempter = new Preempter(client, bucket, clock);
    }

    @Test
    @DisplayName("one victim without condition: marked DisruptionTarget, then deleted with its uid as precondition")
    void oneVictimWithoutCondition() throws Exception {
      var stored = create(finalized(victim(VICTIM, null)));
      drain();

      assertEquals(VictimOutcome.DELETED, preempter.preempt(stored, MESSAGE));

      var made = drain();
      assertEquals(List.of("PATCH " + STATUS_PATH, "DELETE " + POD_PATH), lines(made));
      assertPreconditionUid(made.get(1), stored.getMetadata().getUid());
      assertEquals(2, bucket.taken.get(), "two writes, two tokens");
      var after = readBack();
      assertNotNull(after.getMetadata().getDeletionTimestamp(), "deleted (the finalizer keeps it visible)");
      var condition = PodConditionUpdate.find(after.getStatus(), "DisruptionTarget");
      assertNotNull(condition);
      assertAll(
          () -> assertEquals("True", condition.getStatus()),
          () -> assertEquals("PreemptionByScheduler", condition.getReason()),
          () -> assertEquals("default-scheduler: preempting to accommodate a higher priority pod",
              condition.getMessage()),
          () -> assertEquals(NOW, condition.getLastTransitionTime()),
          () -> assertEquals(1L, condition.getObservedGeneration()),
          () -> assertNull(condition.getLastProbeTime()));
    }

    @Test
    @DisplayName("the condition is appended to the victim's others, which stay")
    void conditionJoinsTheOthers() throws Exception {
      var ready = new PodConditionBuilder().withType("Ready").withStatus("True")
          .withLastTransitionTime("2026-01-01T00:00:00Z").build();
      var stored = create(finalized(victim(VICTIM, null, ready)));

      assertEquals(VictimOutcome.DELETED, preempter.preempt(stored, MESSAGE));

      assertEquals(List.of("Ready", "DisruptionTarget"),
          readBack().getStatus().getConditions().stream().map(PodCondition::getType).toList());
    }

    @Test
    @DisplayName("one victim with same condition: no patch, only the delete")
    void oneVictimWithSameCondition() throws Exception {
      var stored = create(victim(VICTIM, null, matchingCondition()));
      drain();

      assertEquals(VictimOutcome.DELETED, preempter.preempt(stored, MESSAGE));

      var made = drain();
      assertEquals(List.of("DELETE " + POD_PATH), lines(made));
      assertPreconditionUid(made.get(0), stored.getMetadata().getUid());
      assertEquals(1, bucket.taken.get());
      assertNull(client.pods().inNamespace(NS).withName(VICTIM).get());
    }

    @Test
    @DisplayName("a DisruptionTarget with another message is replaced, keeping its transition time")
    void otherMessageIsReplaced() throws Exception {
      var other = new PodConditionBuilder(matchingCondition()).withMessage("other: preempting").build();
      var stored = create(finalized(victim(VICTIM, null, other)));
      drain();

      assertEquals(VictimOutcome.DELETED, preempter.preempt(stored, MESSAGE));

      assertEquals(List.of("PATCH " + STATUS_PATH, "DELETE " + POD_PATH), lines(drain()));
      var conditions = readBack().getStatus().getConditions();
      assertEquals(1, conditions.size());
      assertEquals(MESSAGE, conditions.get(0).getMessage());
      assertEquals("2026-01-01T00:00:00Z", conditions.get(0).getLastTransitionTime(), "status stayed True");
    }

    @Test
    @DisplayName("one victim, but victim is already deleted: the patch finds it gone, nothing is deleted")
    void oneVictimAlreadyDeleted() throws Exception {
      var neverStored = victim("not-found-victim", VICTIM_UID);

      assertEquals(VictimOutcome.GONE, preempter.preempt(neverStored, MESSAGE));

      assertEquals(
          List.of("PATCH /api/v1/namespaces/" + NS + "/pods/not-found-victim/status"), lines(drain()));
    }

    @Test
    @DisplayName("one victim, not-found victim error is ignored when patching: with the condition, the delete finds it gone")
    void notFoundWhenDeletingWithCondition() throws Exception {
      var neverStored = victim("not-found-victim", VICTIM_UID, matchingCondition());

      assertEquals(VictimOutcome.GONE, preempter.preempt(neverStored, MESSAGE));

      assertEquals(List.of("DELETE /api/v1/namespaces/" + NS + "/pods/not-found-victim"), lines(drain()));
    }

    @Test
    @DisplayName("a victim named only (namespace, name, uid: what the scheduling loop passes) is read first, so"
        + " that the patch adds the condition to the status the pod has instead of replacing it")
    void victimByReferenceKeepsItsStatus() throws Exception {
      var ready = new PodConditionBuilder().withType("Ready").withStatus("True")
          .withLastTransitionTime("2026-01-01T00:00:00Z").build();
      var stored = create(finalized(victim(VICTIM, null, ready)));
      drain();
      var reference = named(stored.getMetadata().getUid());

      assertEquals(VictimOutcome.DELETED, preempter.preempt(reference, MESSAGE));

      assertEquals(List.of("GET " + POD_PATH, "PATCH " + STATUS_PATH, "DELETE " + POD_PATH), lines(drain()));
      var after = readBack().getStatus();
      assertEquals("Running", after.getPhase(), "the victim's phase");
      assertEquals(List.of("Ready", "DisruptionTarget"),
          after.getConditions().stream().map(PodCondition::getType).toList());
    }

    @Test
    @DisplayName("a victim named only that is gone when read: no write")
    void victimByReferenceGone() throws Exception {
      var reference = named(VICTIM_UID);

      assertEquals(VictimOutcome.GONE, preempter.preempt(reference, MESSAGE));

      assertEquals(List.of("GET " + POD_PATH), lines(drain()));
    }

    @Test
    @DisplayName("a victim named only that shows the condition already, as read: deleted without a patch")
    void victimByReferenceAlreadyMarked() throws Exception {
      var stored = create(finalized(victim(VICTIM, null, matchingCondition())));
      drain();
      var reference = named(stored.getMetadata().getUid());

      assertEquals(VictimOutcome.DELETED, preempter.preempt(reference, MESSAGE));

      assertEquals(List.of("GET " + POD_PATH, "DELETE " + POD_PATH), lines(drain()));
    }

    @Test
    @DisplayName("a victim named only and already being deleted, as read, is left alone")
    void victimByReferenceAlreadyDeleting() throws Exception {
      var stored = create(finalized(victim(VICTIM, null)));
      client.pods().inNamespace(NS).withName(VICTIM).delete();
      drain();
      var reference = named(stored.getMetadata().getUid());

      assertEquals(VictimOutcome.GONE, preempter.preempt(reference, MESSAGE));

      assertEquals(List.of("GET " + POD_PATH), lines(drain()));
      assertNull(PodConditionUpdate.find(readBack().getStatus(), "DisruptionTarget"));
    }

    @Test
    @DisplayName("a victim changed since it was seen is read again, marked and deleted")
    void changedVictimIsReadAgain() throws Exception {
      var seen = create(victim(VICTIM, null));
      client.pods().inNamespace(NS).withName(VICTIM).edit(p -> new PodBuilder(p)
          .editMetadata().addToLabels("changed", "yes").endMetadata().build());
      drain();

      assertEquals(VictimOutcome.DELETED, preempter.preempt(seen, MESSAGE));

      assertEquals(
          List.of("PATCH " + STATUS_PATH, "GET " + POD_PATH, "PATCH " + STATUS_PATH, "DELETE " + POD_PATH),
          lines(drain()));
      assertEquals(4, bucket.taken.get(), "every request takes a token, the re-read included");
    }

    @Test
    @DisplayName("a victim deleted and created again under its name is left alone")
    void recreatedVictimIsSpared() throws Exception {
      var seen = create(victim(VICTIM, null));
      client.pods().inNamespace(NS).withName(VICTIM).delete();
      var again = create(victim(VICTIM, null));
      assertNotEquals(seen.getMetadata().getUid(), again.getMetadata().getUid());
      drain();

      assertEquals(VictimOutcome.GONE, preempter.preempt(seen, MESSAGE));

      assertEquals(List.of("PATCH " + STATUS_PATH, "GET " + POD_PATH), lines(drain()));
      var still = client.pods().inNamespace(NS).withName(VICTIM).get();
      assertEquals(again.getMetadata().getUid(), still.getMetadata().getUid());
      assertNull(PodConditionUpdate.find(still.getStatus(), "DisruptionTarget"), "the new pod is not marked");
    }

    // TestRemoveNominatedNodeName

    @Test
    @DisplayName("Should make patch request to clear node name")
    void clearsTheNomination() throws Exception {
      var stored = create(nominated("node1"));
      drain();

      assertTrue(preempter.clearNomination(stored));

      assertEquals(List.of("PATCH " + STATUS_PATH), lines(drain()));
      var after = readBack();
      assertNull(after.getStatus().getNominatedNodeName());
      assertEquals("Pending", after.getStatus().getPhase(), "the rest of the status stays");
      assertEquals(1, bucket.taken.get());
    }

    @Test
    @DisplayName("Should not make patch request if nominated node is already cleared")
    void noNominationNoRequest() throws Exception {
      var stored = create(nominated(""));
      drain();

      assertTrue(preempter.clearNomination(stored));
      assertTrue(preempter.clearNomination(create(victim("other", null))));

      assertEquals(List.of("POST /api/v1/namespaces/" + NS + "/pods"), lines(drain()), "the create only");
      assertEquals(0, bucket.taken.get());
    }

    @Test
    @DisplayName("a pod gone before its nomination is cleared needs nothing more: no warning, no second request")
    void goneNominatedPod() throws Exception {
      try (var warnings = WarnLines.capture()) {
        assertTrue(preempter.clearNomination(nominated("node1")));
        assertEquals(List.of(), warnings.lines());
      }
      assertEquals(1, bucket.taken.get());
    }

    private Pod nominated(String node) {
      return new PodBuilder()
          .withNewMetadata().withNamespace(NS).withName(VICTIM).endMetadata()
          .withNewSpec().withSchedulerName("default-scheduler").endSpec()
          .withNewStatus().withPhase("Pending").withNominatedNodeName(node).endStatus()
          .build();
    }

    /** A finalizer keeps a deleted pod visible on the server, with a deletionTimestamp. */
    private Pod finalized(Pod pod) {
      return new PodBuilder(pod).editMetadata().withFinalizers("test").endMetadata().build();
    }

    private Pod readBack() {
      return client.pods().inNamespace(NS).withName(VICTIM).get();
    }

    private Pod create(Pod pod) {
      var withoutServerFields =
          new PodBuilder(pod).editMetadata().withUid(null).withResourceVersion(null).endMetadata().build();
      return client.pods().inNamespace(NS).resource(withoutServerFields).create();
    }
  }

  // --- against a server that answers as told ------------------------------------------------------------

  @Nested
  class AgainstExpectations {

    private Preempter preempter;

    AgainstExpectations() {
      server = BinderFixtures.expectationsServer();
      client = BinderFixtures.clientWithoutRetries(server);
      preempter = new Preempter(client, bucket, clock);
    }

    @Test
    @DisplayName("one victim, but victim is already being deleted: no request at all")
    void alreadyBeingDeleted() throws Exception {
      var deleting = new PodBuilder(victim("victim1-with-deletion-timestamp", "victim1-with-deletion-timestamp"))
          .editMetadata().withDeletionTimestamp("2026-03-04T05:04:27Z").withFinalizers("test").endMetadata()
          .build();

      assertEquals(VictimOutcome.GONE, preempter.preempt(deleting, MESSAGE));

      assertEquals(0, server.getRequestCount());
      assertEquals(0, bucket.taken.get());
    }

    @Test
    @DisplayName("the condition is a JSON Patch of pods/status locked to the resourceVersion seen")
    void conditionPatch() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(200, victim(VICTIM, VICTIM_UID)).once();
      server.expect().delete().withPath(POD_PATH).andReturn(200, victim(VICTIM, VICTIM_UID)).once();
      var seen = new PodBuilder(victim(VICTIM, VICTIM_UID)).editMetadata().withGeneration(3L).endMetadata()
          .build();

      assertEquals(VictimOutcome.DELETED, preempter.preempt(seen, MESSAGE));

      var patch = drain().get(0);
      assertTrue(patch.getHeader("Content-Type").startsWith("application/json-patch+json"),
          patch.getHeader("Content-Type"));
      var ops = client.getKubernetesSerialization().unmarshal(patch.getUtf8Body(), List.class);
      assertEquals(
          List.of(
              Map.of("op", "add", "path", "/metadata/resourceVersion", "value", "7"),
              Map.of("op", "add", "path", "/status/conditions", "value", List.of(Map.of(
                  "type", "DisruptionTarget",
                  "status", "True",
                  "reason", "PreemptionByScheduler",
                  "message", MESSAGE,
                  "lastTransitionTime", NOW,
                  "observedGeneration", 3)))),
          ops);
    }

    @Test
    @DisplayName("one victim, not-found victim error is ignored when deleting")
    void notFoundOnDelete() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(200, victim(VICTIM, VICTIM_UID)).once();
      expectDelete(VICTIM, 404, "NotFound", "pods \"victim1\" not found");

      assertEquals(VictimOutcome.GONE, preempter.preempt(victim(VICTIM, VICTIM_UID), MESSAGE));

      assertEquals(List.of("PATCH " + STATUS_PATH, "DELETE " + POD_PATH), lines(drain()));
    }

    @Test
    @DisplayName("a pod of the victim's name but another uid: the delete's precondition fails (409), the victim is gone")
    void conflictOnDelete() throws Exception {
      expectDelete(VICTIM, 409, "Conflict", "Precondition failed: UID in precondition: victim1, UID in object meta: other");

      var outcome = preempter.preempt(victim(VICTIM, VICTIM_UID, matchingCondition()), MESSAGE);

      assertEquals(VictimOutcome.GONE, outcome);
      var made = drain();
      assertEquals(List.of("DELETE " + POD_PATH), lines(made));
      assertPreconditionUid(made.get(0), VICTIM_UID);
    }

    @Test
    @DisplayName("one victim, but pod deletion failed")
    void deletionFailed() throws Exception {
      expectDelete("fail-victim", 500, "InternalError", "delete pod failed");

      var outcome = preempter.preempt(victim("fail-victim", VICTIM_UID, matchingCondition()), MESSAGE);

      assertEquals(
          VictimOutcome.failed("deleting pod default/fail-victim failed: 500: delete pod failed"), outcome);
    }

    @Test
    @DisplayName("one victim, but patch pod failed: nothing is deleted")
    void patchFailed() throws Exception {
      server.expect().patch().withPath("/api/v1/namespaces/" + NS + "/pods/fail-victim/status")
          .andReturn(500, status(500, "InternalError", "patch pod status failed")).once();

      var outcome = preempter.preempt(victim("fail-victim", VICTIM_UID), MESSAGE);

      assertEquals(
          VictimOutcome.failed("patching the status of pod default/fail-victim failed: 500: patch pod status failed"),
          outcome);
      assertEquals(List.of("PATCH /api/v1/namespaces/" + NS + "/pods/fail-victim/status"), lines(drain()));
    }

    @Test
    @DisplayName("a victim that keeps changing while it is marked fails after three tries, and is not deleted")
    void keepsChanging() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(409, status(409, "Conflict", "changed")).always();
      server.expect().get().withPath(POD_PATH).andReturn(200, victim(VICTIM, VICTIM_UID)).always();

      var outcome = preempter.preempt(victim(VICTIM, VICTIM_UID), MESSAGE);

      assertEquals(
          VictimOutcome.failed("patching the status of pod default/victim1 failed: 409: changed"), outcome);
      assertEquals(
          List.of("PATCH " + STATUS_PATH, "GET " + POD_PATH, "PATCH " + STATUS_PATH, "GET " + POD_PATH,
              "PATCH " + STATUS_PATH),
          lines(drain()));
    }

    @Test
    @DisplayName("a victim that cannot be read again after a conflict fails")
    void rereadFails() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(409, status(409, "Conflict", "changed")).once();
      server.expect().get().withPath(POD_PATH).andReturn(500, status(500, "InternalError", "etcd")).once();

      var outcome = preempter.preempt(victim(VICTIM, VICTIM_UID), MESSAGE);

      assertEquals(VictimOutcome.failed("reading pod default/victim1 failed: 500: etcd"), outcome);
    }

    @Test
    @DisplayName("the nomination is cleared with kube-scheduler's patch: a JSON merge patch setting it to null")
    void clearingPatch() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(200, victim(VICTIM, VICTIM_UID)).once();
      var pod = new PodBuilder(victim(VICTIM, VICTIM_UID)).editStatus().withNominatedNodeName(NODE).endStatus()
          .build();

      assertTrue(preempter.clearNomination(pod));

      var patch = drain().get(0);
      assertEquals("{\"status\":{\"nominatedNodeName\":null}}", patch.getUtf8Body());
      assertTrue(patch.getHeader("Content-Type").startsWith("application/merge-patch+json"),
          patch.getHeader("Content-Type"));
    }

    @Test
    @DisplayName("a nomination that cannot be cleared is reported as false, not thrown, and warned of")
    void clearingFails() throws Exception {
      server.expect().patch().withPath(STATUS_PATH).andReturn(500, status(500, "InternalError", "boom")).once();
      var pod = new PodBuilder(victim(VICTIM, VICTIM_UID)).editStatus().withNominatedNodeName(NODE).endStatus()
          .build();

      try (var warnings = WarnLines.capture()) {
        assertFalse(preempter.clearNomination(pod));
        var lines = warnings.lines();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("Clearing the nomination of pod " + NS + "/" + VICTIM + " failed: 500: boom"),
            lines.get(0));
      }
    }

    @Test
    @DisplayName("an interrupt while waiting for a token is thrown, and nothing is sent")
    void interrupted() {
      var blocked = new Preempter(client, BinderFixtures.INTERRUPTING, clock);
      var nominated = new PodBuilder(victim(VICTIM, VICTIM_UID)).editStatus().withNominatedNodeName(NODE)
          .endStatus().build();

      assertThrows(InterruptedException.class, () -> blocked.preempt(victim(VICTIM, VICTIM_UID), MESSAGE));
      assertThrows(InterruptedException.class, () -> blocked.clearNomination(nominated));
      assertEquals(0, server.getRequestCount());
    }

    @Test
    @DisplayName("a victim without namespace, name or uid is refused")
    void refusesIncompleteVictims() {
      var noUid = victim(VICTIM, null);
      var e = assertThrows(IllegalArgumentException.class, () -> preempter.preempt(noUid, MESSAGE));
      assertEquals("pod to write needs a namespace, a name and a uid, was default/victim1 uid null", e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> preempter.preempt(new Pod(), MESSAGE));
      assertThrows(IllegalArgumentException.class, () -> preempter.clearNomination(new Pod()));
    }

    private void expectDelete(String name, int code, String reason, String message) {
      server.expect().delete().withPath("/api/v1/namespaces/" + NS + "/pods/" + name)
          .andReturn(code, status(code, reason, message)).once();
    }
  }

  // --- helpers ---------------------------------------------------------------------------------------------

  private static io.fabric8.kubernetes.api.model.Status status(int code, String reason, String message) {
    return new StatusBuilder().withStatus("Failure").withCode(code).withReason(reason).withMessage(message).build();
  }

  private void assertPreconditionUid(RecordedRequest delete, String uid) {
    var body = delete.getUtf8Body();
    assertNotNull(body);
    var options = client.getKubernetesSerialization().unmarshal(body, DeleteOptions.class);
    assertAll(
        () -> assertEquals("DeleteOptions", options.getKind()),
        () -> assertEquals(uid, options.getPreconditions().getUid()),
        () -> assertNull(options.getPreconditions().getResourceVersion()),
        () -> assertNull(options.getGracePeriodSeconds(), "the default grace period"),
        () -> assertNull(options.getPropagationPolicy()));
  }

  /** Every request the server received and not yet taken, in order. */
  private List<RecordedRequest> drain() throws InterruptedException {
    var seen = new ArrayList<RecordedRequest>();
    RecordedRequest request;
    while ((request = server.takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
      seen.add(request);
    }
    return seen;
  }

  private static List<String> lines(List<RecordedRequest> requests) {
    return requests.stream().map(r -> r.getMethod() + " " + r.getPath()).toList();
  }
}
