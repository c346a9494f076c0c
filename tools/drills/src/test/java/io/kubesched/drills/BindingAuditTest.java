package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.drills.BindingAudit.Binding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BindingAuditTest {

  /** A line of kube-apiserver 1.37's audit log, as the drill's policy writes it (one binding of a drill). */
  static final String BINDING = "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\","
      + "\"auditID\":\"4eb79f94-2310-4093-a2f0-238f55dfe401\",\"stage\":\"ResponseComplete\","
      + "\"requestURI\":\"/api/v1/namespaces/drills/pods/k0-0/binding\",\"verb\":\"create\",\"user\":{\"username\":"
      + "\"system:serviceaccount:kube-system:kubesched\",\"uid\":\"kubesched\",\"groups\":[\"system:serviceaccounts\","
      + "\"system:serviceaccounts:kube-system\",\"system:authenticated\"]},\"sourceIPs\":[\"127.0.0.1\"],"
      + "\"userAgent\":\"fabric8-kubernetes-client/8.0.0\",\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"drills\","
      + "\"name\":\"k0-0\",\"uid\":\"cf9a3946-e79c-4327-94b2-3635cce8c07f\",\"apiVersion\":\"v1\",\"subresource\":"
      + "\"binding\"},\"responseStatus\":{\"metadata\":{},\"status\":\"Success\",\"code\":201},"
      + "\"requestReceivedTimestamp\":\"2026-11-27T07:26:39.071240Z\",\"stageTimestamp\":\"2026-11-27T07:26:39.074573Z\","
      + "\"annotations\":{\"authorization.k8s.io/decision\":\"allow\",\"authorization.k8s.io/reason\":\"RBAC: allowed by"
      + " ClusterRoleBinding \\\"kubesched\\\" of ClusterRole \\\"kubesched\\\" to ServiceAccount \\\"kubesched/kube-system\\\"\"}}";

  private static final Instant T0 = Instant.parse("2026-11-27T07:00:00Z");

  @Test
  void a_completed_binding_of_the_scheduler_is_parsed_with_its_answer_and_receive_time() {
    assertEquals(Optional.of(new Binding("drills", "k0-0", 201, Instant.parse("2026-11-27T07:26:39.071240Z"))),
        BindingAudit.parse(BINDING));
    assertEquals(409, BindingAudit.parse(BINDING.replace("\"code\":201", "\"code\":409")).orElseThrow().code());
  }

  @Test
  void every_other_line_is_no_binding() {
    for (var line : List.of(
        BINDING.replace("\"subresource\":\"binding\"", "\"subresource\":\"status\""),
        BINDING.replace("\"resource\":\"pods\"", "\"resource\":\"nodes\""),
        BINDING.replace("\"verb\":\"create\"", "\"verb\":\"list\""),
        BINDING.replace("ResponseComplete", "ResponseStarted"),
        BINDING.replace("system:serviceaccount:kube-system:kubesched", "admin"),
        BINDING.replace("\"responseStatus\":{\"metadata\":{},\"status\":\"Success\",\"code\":201},", ""),
        BINDING.replace("2026-11-27T07:26:39.071240Z", "yesterday"),
        BINDING.substring(0, BINDING.indexOf("\"responseStatus\"")),
        "")) {
      assertEquals(Optional.empty(), BindingAudit.parse(line), line);
    }
  }

  @Test
  void a_pod_bound_by_two_posts_or_posted_again_once_bound_is_bound_twice() {
    var bindings = List.of(
        binding("once", 201, 1),
        binding("retried", 500, 1), binding("retried", 201, 2),
        binding("twice", 201, 1), binding("twice", 201, 2),
        binding("conflict", 201, 1), binding("conflict", 409, 2),
        new Binding("elsewhere", "twice-there", 201, T0), new Binding("elsewhere", "twice-there", 201, T0),
        binding("not-this-trial", 201, 1), binding("not-this-trial", 201, 2));
    var violations = BindingAudit.boundTwice(bindings, "drills",
        Set.of("once", "retried", "twice", "conflict", "twice-there", "never"));
    assertEquals(List.of("conflict", "twice"), violations.stream().map(Violation::subject).toList());
    assertTrue(violations.stream().allMatch(v -> v.kind() == Violation.Kind.BOUND_TWICE));
    assertEquals("2 binding POSTs: answered [201, 409]", violations.get(0).detail());
  }

  @Test
  void the_first_binding_after_the_leader_died_counts_from_the_kill() {
    var killed = T0.plusSeconds(10);
    var dead = killed.plusMillis(20);
    var bindings = List.of(
        binding("before", 201, 9_000), // the old leader's, before the kill
        binding("in-flight", 201, 10_010), // received while it was dying: not the new leader's
        binding("refused", 409, 24_000),
        binding("late", 201, 26_000),
        binding("first", 201, 25_000));
    assertEquals(Optional.of(Duration.ofSeconds(15)), BindingAudit.firstBindingAfter(bindings, killed, dead));
    assertEquals(Optional.empty(), BindingAudit.firstBindingAfter(bindings.subList(0, 3), killed, dead));
  }

  @Test
  void received_counts_from_inclusive_to_exclusive() {
    var bindings = List.of(binding("a", 201, 999), binding("b", 201, 1_000), binding("c", 409, 1_500),
        binding("d", 201, 2_000));
    assertEquals(2, BindingAudit.received(bindings, T0.plusMillis(1_000), T0.plusMillis(2_000)));
    assertEquals(0, BindingAudit.received(List.of(), T0, T0.plusSeconds(1)));
  }

  private static Binding binding(String pod, int code, long millis) {
    return new Binding("drills", pod, code, T0.plusMillis(millis));
  }
}
