package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ApiServerRestartIT extends RealClusterTest {

  @Test
  void a_restarted_api_server_loses_no_pod_and_binds_none_twice() throws Exception {
    for (int i = 0; i < 3; i++) {
      create(admin, node("node-" + i, "2", "8Gi", "110"));
    }
    try (var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      for (int i = 0; i < 30; i++) {
        create(admin, pod(namespace, "before-" + i, SCHEDULER, "100m", "64Mi"));
      }
      eventually(WAIT, "some pods are bound", () -> recorder.bound.size() >= 5);
      cluster.restartApiServer(); // while the rest are being bound: their bindings fail and are retried
      for (int i = 0; i < 30; i++) {
        create(admin, pod(namespace, "after-" + i, SCHEDULER, "100m", "64Mi"));
      }
      // fabric8 may lose the pod watch here; the controller's watchdog notices within STALE_SECONDS.
      eventually(
          Duration.ofSeconds(240),
          "all 60 pods are bound (" + recorder.bound.size() + " reported at the start of the wait)",
          () -> admin.pods().inNamespace(namespace).list().getItems().stream()
              .allMatch(p -> p.getSpec().getNodeName() != null));
      // A binding whose answer was lost in the restart is reported once the watch shows it.
      eventually(WAIT, "every binding is reported", () -> recorder.bound.size() == 60);
      eventually(
          WAIT,
          "the scheduler's view counts each pod once",
          () -> controller.nodes().stream().mapToLong(n -> n.requested().milliCpu()).sum() == 6000);
    }
    recorder.bound.forEach((pod, nodes) -> assertEquals(1, nodes.size(), pod + " bound twice: " + nodes));
    Map<String, Long> perNode =
        admin.pods().inNamespace(namespace).list().getItems().stream()
            .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName(), Collectors.counting()));
    assertEquals(Map.of("node-0", 20L, "node-1", 20L, "node-2", 20L), perNode);
  }
}
