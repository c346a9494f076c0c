package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A controller under the application's own leadership schedules only while the application says it leads. */
class ExternalLeadershipTest {

  private static final FinderFunc FIRST_NODE = (pod, nodes) -> Decision.bind(nodes.iterator().next().name());

  /** How long a pod that must stay pending is watched: well past the fake cluster's binding time (milliseconds). */
  private static final Duration QUIET = Duration.ofSeconds(2);

  private static Options.Builder options() {
    return Options.builder().fake().schedulerName(SCHEDULER).backoff(Duration.ofMillis(100), Duration.ofMillis(400));
  }

  @Test
  void it_follows_from_the_start_and_schedules_only_between_the_applications_calls() throws Exception {
    try (var client = Client.create(options().externalLeadership().build());
        var controller = client.newPodController(FIRST_NODE)) {
      var kube = client.kubernetesClient();
      create(kube, node("node-0", "4", "4Gi", "110"));
      controller.start();
      create(kube, pod("a", SCHEDULER, "100m", "64Mi"));
      Thread.sleep(QUIET.toMillis());
      assertFalse(controller.isLeader());
      assertEquals("", nodeOf(kube, "a"), "a follower bound a pod");

      controller.setLeading(true);
      assertTrue(controller.isLeader());
      eventually(Duration.ofSeconds(30), "the waiting pod is bound once leading", () -> !nodeOf(kube, "a").isEmpty());

      controller.setLeading(false);
      create(kube, pod("b", SCHEDULER, "100m", "64Mi"));
      Thread.sleep(QUIET.toMillis());
      assertEquals("", nodeOf(kube, "b"), "a controller that lost its leadership bound a pod");

      controller.setLeading(true);
      eventually(Duration.ofSeconds(30), "bound again once leading again", () -> !nodeOf(kube, "b").isEmpty());
    }
  }

  @Test
  void only_a_controller_made_for_it_takes_the_applications_word() {
    try (var client = Client.create(options().build()); var controller = client.newPodController(FIRST_NODE)) {
      var e = assertThrows(IllegalStateException.class, () -> controller.setLeading(true));
      assertTrue(e.getMessage().contains("externalLeadership"), e.getMessage());
    }
    var both = assertThrows(ConfigurationException.class,
        () -> options().leaderElection().externalLeadership().build());
    assertTrue(both.getMessage().contains("exclude each other"), both.getMessage());
    assertTrue(options().externalLeadership().build().toString().contains("leaderElection=external"));
  }
}
