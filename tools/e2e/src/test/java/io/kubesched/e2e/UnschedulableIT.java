package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.kubesched.facade.Client;
import io.kubesched.policy.DefaultPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pod that fits nowhere: what the scheduler tells the cluster about it, and how it gets its node once
 * one fits. Backoff 200 ms doubling to 1 s, so that waiting 3 s outlasts any backoff and only a cluster
 * event (or the 5 min flush) can bring the pod back from the unschedulable queue.
 */
class UnschedulableIT extends RealClusterTest {

  private static final Duration REPORTED = Duration.ofSeconds(15);
  private static final Duration LONGER_THAN_MAX_BACKOFF = Duration.ofSeconds(3);
  private static final Duration SOON_AFTER_A_FITTING_NODE = Duration.ofSeconds(5);

  private Client scheduler() {
    return Client.create(schedulerOptions().backoff(Duration.ofMillis(200), Duration.ofSeconds(1)).build());
  }

  @Test
  void a_pod_that_fits_nowhere_is_reported_and_bound_as_soon_as_a_node_that_fits_is_added()
      throws InterruptedException {
    create(admin, node("small-0", "1", "8Gi", "110"));
    create(admin, node("small-1", "1", "8Gi", "110"));
    var expected = "0/2 nodes are available: 2 Insufficient cpu.";
    try (var scheduler = scheduler();
        var controller = scheduler.newPodController(firstFit(), recorder)) {
      controller.start();
      create(admin, pod(namespace, "big", SCHEDULER, "2", "64Mi"));
      var uid = admin.pods().inNamespace(namespace).withName("big").get().getMetadata().getUid();

      eventually(REPORTED, "a FailedScheduling event regarding the pod", () -> failedScheduling("big").isPresent());
      var event = failedScheduling("big").orElseThrow();
      assertEquals("Warning", event.getType());
      assertEquals("Scheduling", event.getAction());
      assertEquals(expected, event.getNote());
      assertEquals(SCHEDULER, event.getReportingController());
      assertTrue(
          event.getReportingInstance().startsWith(SCHEDULER + "-"),
          "reportingInstance " + event.getReportingInstance());
      assertEquals(uid, event.getRegarding().getUid());
      assertEquals(namespace, event.getRegarding().getNamespace());

      eventually(
          REPORTED,
          "the pod is PodScheduled=False",
          () -> podScheduled("big").map(c -> "False".equals(c.getStatus())).orElse(false));
      var condition = podScheduled("big").orElseThrow();
      assertEquals("Unschedulable", condition.getReason());
      assertEquals(expected, condition.getMessage());

      // Not an assertion on timing: the pod must have outlived its backoff before the node comes.
      Thread.sleep(LONGER_THAN_MAX_BACKOFF.toMillis());
      assertEquals(1, attempts("big"), "tried again without any cluster event: " + recorder.events);
      assertEquals("", nodeOf("big"));

      create(admin, node("large", "4", "8Gi", "110"));
      eventually(SOON_AFTER_A_FITTING_NODE, "the pod is bound to the new node", () -> "large".equals(nodeOf("big")));
    }
    assertEquals(List.of("large"), recorder.bound.get("big"));
    eventually(
        REPORTED,
        "a Scheduled event regarding the pod",
        () -> eventsAbout("big").stream().anyMatch(e -> "Scheduled".equals(e.getReason())));
    var scheduled = eventsAbout("big").stream().filter(e -> "Scheduled".equals(e.getReason())).toList();
    assertEquals(1, scheduled.size(), "Scheduled events: " + scheduled);
    assertEquals("Normal", scheduled.get(0).getType());
    assertEquals("Binding", scheduled.get(0).getAction());
    assertEquals("Successfully assigned " + namespace + "/big to large", scheduled.get(0).getNote());
    assertEquals(SCHEDULER, scheduled.get(0).getReportingController());
    var condition = podScheduled("big").orElseThrow();
    assertEquals("True", condition.getStatus(), "PodScheduled: " + condition);
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  @Test
  void a_pod_that_keeps_failing_the_same_way_makes_an_event_series_not_an_event_per_attempt() {
    create(admin, node("small", "1", "8Gi", "110"));
    int wantedAttempts = 8;
    try (var scheduler = scheduler();
        var controller = scheduler.newPodController(firstFit(), recorder)) {
      controller.start();
      create(admin, pod(namespace, "big", SCHEDULER, "2", "64Mi"));
      eventually(REPORTED, "the first attempt", () -> attempts("big") >= 1);
      // A pod leaving the node is an event that may let the waiting pod fit (for kube-scheduler's
      // NodeResourcesFit too): each one sends it back to be tried, and it fails the same way again.
      long deadline = System.nanoTime() + WAIT.toNanos();
      for (int i = 0; attempts("big") < wantedAttempts; i++) {
        assertTrue(System.nanoTime() < deadline, "only " + attempts("big") + " attempts: " + recorder.events);
        int before = attempts("big");
        var filler = "filler-" + i;
        create(
            admin,
            new PodBuilder(pod(namespace, filler, "someone-else", "100m", "64Mi"))
                .editSpec().withNodeName("small").endSpec()
                .build());
        admin.pods().inNamespace(namespace).withName(filler).withGracePeriod(0).delete();
        // A deletion that came while the pod was backing off already has its effect: then one more.
        waitUpTo(Duration.ofSeconds(2), () -> attempts("big") > before);
      }
      eventually(
          REPORTED,
          "a FailedScheduling event of the pod has become a series",
          () -> failedSchedulingEvents("big").stream()
              .anyMatch(e -> e.getSeries() != null && e.getSeries().getCount() >= 2));
    }
    var events = failedSchedulingEvents("big");
    int attempts = attempts("big");
    // client-go's key includes the pod's resourceVersion, which the first failure's PodScheduled=False
    // write changes once: at most one event (and series) per version of the pod the scheduler saw.
    assertTrue(
        events.size() <= 2,
        attempts + " attempts made " + events.size() + " FailedScheduling events: " + events);
    events.forEach(e -> assertEquals("0/1 nodes are available: 1 Insufficient cpu.", e.getNote()));
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  /**
   * The label-patch flood of issue 46: pods only NodeResourcesFit turned away ({@code Insufficient cpu}; every node
   * matches their node selector) are not retried when a node's labels change, as kube-scheduler's NodeResourcesFit
   * registers no label change; nor when a node's allocatable grows but still cannot hold them (its hint); enough
   * allocatable retries each of them. The attempts are counted, not timed.
   */
  @Test
  void a_label_patch_retries_no_pod_waiting_for_cpu_and_enough_allocatable_retries_them_all() throws Exception {
    int pending = 300;
    for (var name : List.of("small-0", "small-1")) {
      createReady(new NodeBuilder(node(name, "1", "8Gi", "110"))
          .editMetadata().addToLabels("kubernetes.io/os", "linux").endMetadata().build());
    }
    try (var scheduler = scheduler();
        var controller = scheduler.newPodController(DefaultPolicy.builder().seed(3).build(), recorder)) {
      controller.start();
      for (int i = 0; i < pending; i++) {
        create(admin, new PodBuilder(pod(namespace, "big-" + i, SCHEDULER, "2", "64Mi"))
            .editSpec().withNodeSelector(java.util.Map.of("kubernetes.io/os", "linux")).endSpec().build());
      }
      eventually(WAIT, "every pod tried once", () -> unschedulableAttempts() >= pending);
      Thread.sleep(LONGER_THAN_MAX_BACKOFF.toMillis()); // every pod now waits as unschedulable
      int before = unschedulableAttempts();
      assertTrue(recorder.unschedulable.values().stream()
              .allMatch(m -> m.startsWith("0/2 nodes are available: 2 Insufficient cpu.")),
          "NodeResourcesFit alone turned them away: " + Set.copyOf(recorder.unschedulable.values()));

      for (int patch = 0; patch < 5; patch++) {
        int value = patch;
        admin.nodes().withName("small-" + (patch % 2)).edit(n -> {
          n.getMetadata().getLabels().put("example.com/patched", "p" + value);
          return n;
        });
        Thread.sleep(500);
      }
      Thread.sleep(LONGER_THAN_MAX_BACKOFF.toMillis());
      int afterLabels = unschedulableAttempts();
      System.out.printf("label-patch flood: %d pending pods, 5 label patches, %d attempts more%n", pending,
          afterLabels - before);
      assertEquals(before, afterLabels, "attempts made by 5 label-only patches");

      setAllocatableCpu("small-0", "1500m");
      Thread.sleep(LONGER_THAN_MAX_BACKOFF.toMillis());
      int afterTooLittle = unschedulableAttempts();
      System.out.printf("label-patch flood: more allocatable but still too little, %d attempts more%n",
          afterTooLittle - afterLabels);
      assertEquals(afterLabels, afterTooLittle, "NodeResourcesFit's hint: 1500m cannot hold a 2-CPU pod");

      setAllocatableCpu("small-0", "2500m");
      eventually(WAIT, "every pod retried once after enough allocatable, one of them bound",
          () -> unschedulableAttempts() >= afterTooLittle + pending - 1 && recorder.bound.size() == 1);
      System.out.printf("label-patch flood: enough allocatable, %d attempts more, %d bound%n",
          unschedulableAttempts() - afterTooLittle, recorder.bound.size());
    }
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  /**
   * The scheduler writes PodScheduled=False from the informer's kept form of a pending pod with a JSON Patch that
   * names the condition by its index in the server's list: another controller's condition before it, which the
   * scheduler does not read, must keep its place and its content when the scheduler writes a new message.
   */
  @Test
  void a_condition_of_another_controller_stays_in_place_when_podscheduled_is_written_again() {
    var admitted = new PodConditionBuilder().withType("example.com/Admitted").withStatus("True")
        .withReason("Quota").withLastTransitionTime("2026-01-01T00:00:00Z").build();
    create(admin, node("small-0", "1", "8Gi", "110"));
    try (var scheduler = scheduler();
        var controller = scheduler.newPodController(firstFit(), recorder)) {
      controller.start();
      create(admin, pod(namespace, "big", SCHEDULER, "2", "64Mi"));
      eventually(REPORTED, "the pod is PodScheduled=False",
          () -> podScheduled("big").map(c -> "False".equals(c.getStatus())).orElse(false));

      // Another controller's condition, first in the list: a status write, which retries nothing.
      var seen = admin.pods().inNamespace(namespace).withName("big").get();
      var conditions = new ArrayList<PodCondition>(List.of(admitted));
      conditions.addAll(seen.getStatus().getConditions());
      admin.pods().inNamespace(namespace)
          .resource(new PodBuilder(seen).editStatus().withConditions(conditions).endStatus().build())
          .updateStatus();

      // A node large enough when empty, but 3 of its 4 cpu taken by a pod already bound there: the pod is tried
      // again and refused with another message.
      create(admin, new PodBuilder(pod(namespace, "filler", "nobody", "3", "64Mi"))
          .editSpec().withNodeName("busy").endSpec().build());
      create(admin, node("busy", "4", "8Gi", "110"));
      try {
        eventually(REPORTED, "PodScheduled=False counts the new node",
            () -> podScheduled("big").map(c -> c.getMessage().startsWith("0/2 nodes are available")).orElse(false));
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "; the conditions: " + admin.pods().inNamespace(namespace)
            .withName("big").get().getStatus().getConditions() + "; the listener heard: " + recorder.events, e);
      }
    }
    var pod = admin.pods().inNamespace(namespace).withName("big").get();
    var after = pod.getStatus().getConditions();
    assertEquals(List.of("example.com/Admitted", "PodScheduled"), after.stream().map(PodCondition::getType).toList(),
        "the conditions: " + after);
    assertEquals(admitted, new PodConditionBuilder(after.get(0)).build(), "the other controller's condition as it was");
    assertEquals(pod.getMetadata().getGeneration(), after.get(1).getObservedGeneration(),
        "PodScheduled's observedGeneration, as kube-scheduler writes it");
  }

  private void setAllocatableCpu(String nodeName, String cpu) {
    var node = admin.nodes().withName(nodeName).get();
    node.getStatus().getAllocatable().put("cpu", new io.fabric8.kubernetes.api.model.Quantity(cpu));
    admin.nodes().resource(node).updateStatus();
  }

  private int unschedulableAttempts() {
    return (int) recorder.events.stream().filter(e -> e.startsWith("unschedulable ")).count();
  }

  private Optional<Event> failedScheduling(String pod) {
    return failedSchedulingEvents(pod).stream().findFirst();
  }

  private List<Event> failedSchedulingEvents(String pod) {
    return eventsAbout(pod).stream().filter(e -> "FailedScheduling".equals(e.getReason())).toList();
  }

  /** @return how often the pod was found unschedulable, as the listener heard it */
  private int attempts(String pod) {
    return (int) recorder.events.stream().filter(("unschedulable " + pod)::equals).count();
  }
}
