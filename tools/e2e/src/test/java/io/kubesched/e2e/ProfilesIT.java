package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** One controller serving several scheduler names, each with its own policy (kube-scheduler's profiles). */
class ProfilesIT extends RealClusterTest {

  private static final String FIRST = "kubesched-e2e-first";
  private static final String LAST = "kubesched-e2e-last";
  private static final String OTHER = "kubesched-e2e-other";
  private static final int EACH = 5;

  @Test
  void each_scheduler_name_places_its_pods_by_its_own_policy_and_other_names_are_left_alone() {
    // The outer nodes are too small for the pods: "first" and "last" are among the nodes that fit.
    create(admin, node("node-a", "100m", "8Gi", "110"));
    create(admin, node("node-b", "8", "8Gi", "110"));
    create(admin, node("node-c", "8", "8Gi", "110"));
    create(admin, node("node-d", "100m", "8Gi", "110"));
    // Queued first: had the controller taken it for one of its own, it would have been decided first.
    create(admin, pod(namespace, "other", OTHER, "500m", "64Mi"));
    try (var controller =
        client.newPodController(Map.of(FIRST, Policies.firstByName(), LAST, Policies.lastByName()), recorder)) {
      controller.start();
      for (int i = 0; i < EACH; i++) {
        create(admin, pod(namespace, "first-" + i, FIRST, "500m", "64Mi"));
        create(admin, pod(namespace, "last-" + i, LAST, "500m", "64Mi"));
      }
      eventually(WAIT, "the pods of both profiles are bound", () -> recorder.bound.size() == 2 * EACH);
      eventually(
          WAIT,
          "the Scheduled events are written",
          () -> eventsAbout("first-0").size() == 1 && eventsAbout("last-0").size() == 1);
    }
    for (int i = 0; i < EACH; i++) {
      assertEquals("node-b", nodeOf("first-" + i), "first-" + i);
      assertEquals("node-c", nodeOf("last-" + i), "last-" + i);
    }
    // Each profile reports under its own name, as kube-scheduler's per-profile recorders do.
    assertEquals(FIRST, eventsAbout("first-0").get(0).getReportingController());
    assertEquals(LAST, eventsAbout("last-0").get(0).getReportingController());

    assertEquals("", nodeOf("other"));
    assertTrue(eventsAbout("other").isEmpty(), "events about a pod of another scheduler: " + eventsAbout("other"));
    assertTrue(podScheduled("other").isEmpty(), "condition on a pod of another scheduler");
    assertFalse(recorder.events.stream().anyMatch(e -> e.endsWith(" other") || e.endsWith("/other")), "heard of it: " + recorder.events);
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }
}
