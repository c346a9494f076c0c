package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {

  private static final String LIST =
      "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\",\"stage\":\"ResponseComplete\","
          + "\"requestURI\":\"/api/v1/pods?limit=500\",\"verb\":\"list\",\"user\":{\"username\":\""
          + AuditLog.USER + "\",\"groups\":[\"system:serviceaccounts\"]},\"responseStatus\":{\"code\":200}}";

  /** A binding the API server accepted, as kube-apiserver 1.37 logs it under {@link AuditLog#POLICY}. */
  private static final String BINDING =
      "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\","
          + "\"auditID\":\"5b0e6a8c-3f53-4d4e-9a7e-0c4f1f2d9e11\",\"stage\":\"ResponseComplete\","
          + "\"requestURI\":\"/api/v1/namespaces/drills/pods/t0-3/binding\",\"verb\":\"create\","
          + "\"user\":{\"username\":\"" + AuditLog.USER + "\",\"uid\":\"0c1d2e3f-aaaa-bbbb-cccc-111122223333\","
          + "\"groups\":[\"system:serviceaccounts\",\"system:serviceaccounts:kube-system\",\"system:authenticated\"]},"
          + "\"sourceIPs\":[\"127.0.0.1\"],\"userAgent\":\"Java-http-client/17.0.13\","
          + "\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"drills\",\"name\":\"t0-3\",\"apiVersion\":\"v1\","
          + "\"subresource\":\"binding\"},\"responseStatus\":{\"metadata\":{},\"status\":\"Success\",\"code\":201},"
          + "\"requestReceivedTimestamp\":\"2026-11-27T07:41:02.118204Z\",\"stageTimestamp\":\"2026-11-27T07:41:02.124466Z\","
          + "\"annotations\":{\"authorization.k8s.io/decision\":\"allow\",\"authorization.k8s.io/reason\":"
          + "\"RBAC: allowed by ClusterRoleBinding \\\"kubesched\\\" of ClusterRole \\\"kubesched\\\" to ServiceAccount "
          + "\\\"kubesched/kube-system\\\"\"}}";

  /** The second binding of a bound pod, refused. */
  private static final String CONFLICT = BINDING.replace(
      "\"responseStatus\":{\"metadata\":{},\"status\":\"Success\",\"code\":201}",
      "\"responseStatus\":{\"metadata\":{},\"status\":\"Failure\",\"message\":\"Operation cannot be fulfilled on "
          + "pods/binding \\\"t0-3\\\": pod t0-3 is already assigned to node \\\"node-1\\\"\",\"reason\":\"Conflict\","
          + "\"details\":{\"name\":\"t0-3\",\"kind\":\"pods/binding\"},\"code\":409}");

  @Test
  void a_completed_binding_answered_2xx_is_accepted_and_nothing_else_is() {
    assertEquals(Optional.of(new AuditLog.Binding("drills", "t0-3")), AuditLog.acceptedBinding(BINDING));
    assertEquals(Optional.of(new AuditLog.Binding("drills", "t0-3")),
        AuditLog.acceptedBinding(BINDING.replace("\"code\":201", "\"code\":200")));
    assertEquals(Optional.empty(), AuditLog.acceptedBinding(CONFLICT));
    for (var code : List.of(403, 404, 500, 503)) {
      assertEquals(Optional.empty(), AuditLog.acceptedBinding(BINDING.replace("\"code\":201", "\"code\":" + code)));
    }
    assertEquals(Optional.empty(), AuditLog.acceptedBinding(BINDING.replace("ResponseComplete", "Panic")));
    assertEquals(Optional.empty(), AuditLog.acceptedBinding(BINDING.replace(",\"subresource\":\"binding\"", "")),
        "a create of the pod itself");
    assertEquals(Optional.empty(), AuditLog.acceptedBinding(LIST));
    assertEquals(Optional.empty(), AuditLog.acceptedBinding("{\"verb\":\"create\",\"binding"), "cut off");
  }

  @Test
  void accepted_bindings_are_counted_per_pod_of_the_namespace_from_a_mark(@TempDir Path directory) throws Exception {
    var file = directory.resolve("audit.log");
    var log = new AuditLog(file);
    assertEquals(Map.of(), log.bindingsSince(0, "drills"));
    var other = BINDING.replace("t0-3", "t0-4");
    Files.writeString(file, String.join("\n", BINDING, LIST, other, CONFLICT, BINDING,
        BINDING.replace("\"namespace\":\"drills\"", "\"namespace\":\"default\"")) + "\n");
    assertEquals(Map.of("t0-3", 2, "t0-4", 1), log.bindingsSince(0, "drills"));
    assertEquals(Map.of("t0-3", 1), log.bindingsSince(3, "drills"));
    assertEquals(Map.of("t0-3", 1), log.bindingsSince(0, "default"));
  }

  @Test
  void the_policy_records_binding_creates_of_anyone_and_lists_of_the_scheduler() {
    assertTrue(AuditLog.POLICY.contains("resources: [\"pods/binding\", \"bindings\"]"));
    assertTrue(AuditLog.POLICY.indexOf("pods/binding") < AuditLog.POLICY.indexOf("level: None"), "before the catch-all");
  }

  @Test
  void only_completed_lists_of_the_scheduler_count() {
    assertTrue(AuditLog.isSchedulerList(LIST));
    assertFalse(AuditLog.isSchedulerList(LIST.replace("\"verb\":\"list\"", "\"verb\":\"watch\"")));
    assertFalse(AuditLog.isSchedulerList(LIST.replace(AuditLog.USER, "admin")));
    assertFalse(AuditLog.isSchedulerList(LIST.replace("ResponseComplete", "ResponseStarted")));
  }

  @Test
  void lists_are_counted_from_a_mark(@TempDir Path directory) throws Exception {
    var log = new AuditLog(directory.resolve("audit.log"));
    assertEquals(0, log.mark());
    assertEquals(0, log.listsSince(0));
    Files.writeString(directory.resolve("audit.log"), LIST + "\n" + LIST + "\n");
    long mark = log.mark();
    Files.writeString(directory.resolve("audit.log"), LIST + "\n", java.nio.file.StandardOpenOption.APPEND);
    assertEquals(2, mark);
    assertEquals(1, log.listsSince(mark));
    assertEquals(3, log.listsSince(0));
  }
}
