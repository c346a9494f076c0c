package io.kubesched.micrometer;

import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.facade.Client;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.facade.Options;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A whole controller on the fake cluster, given {@code MicrometerMetrics}, fills kube-scheduler's metrics. */
class ControllerMetricsOnFakeClusterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void a_controller_records_its_attempts_latencies_and_queue_into_the_registry() {
    var options =
        Options.builder()
            .fake()
            .schedulerName(SCHEDULER)
            .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
            .metrics(MicrometerMetrics.of(registry))
            .build();
    try (var client = Client.create(options)) {
      var kube = client.kubernetesClient();
      create(kube, node("node-0", "1", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      try (var controller = client.newPodController(firstFit(), recorder)) {
        controller.start();
        assertNotNull(
            registry.find(MicrometerMetrics.PENDING_PODS).tag("queue", "active").gauge(),
            "the queue gauges are registered when the controller starts");
        create(kube, pod("fits", SCHEDULER, "500m", "64Mi"));
        create(kube, pod("too-big", SCHEDULER, "2", "64Mi"));

        eventually(PATIENCE, "fits is bound", () -> nodeOf(kube, "fits").equals("node-0"));
        eventually(PATIENCE, "too-big is reported", () -> recorder.unschedulable.containsKey("too-big"));
        eventually(
            PATIENCE,
            "the bound pod is counted",
            () -> count("scheduled") == 1 && registry.find(MicrometerMetrics.SLI_DURATION).timer() != null);

        assertTrue(count("unschedulable") >= 1, "the pod that fits nowhere is counted");
        assertEquals(0, count("error"));
        var sli = registry.find(MicrometerMetrics.SLI_DURATION).tag("attempts", "1").timer();
        assertNotNull(sli, "the bound pod took one attempt");
        assertEquals(1, sli.count());
        var bind =
            registry
                .find(MicrometerMetrics.EXTENSION_POINT_DURATION)
                .tags("extension_point", "Bind", "status", "Success", "profile", SCHEDULER)
                .timer();
        assertNotNull(bind, "the bind is timed as kube-scheduler's Bind extension point");
        assertEquals(1, bind.count());
        assertTrue(
            registry.find(MicrometerMetrics.ALGORITHM_DURATION).timer().count() >= 2,
            "each attempt asked the policy");
        eventually(
            PATIENCE,
            "too-big waits as unschedulable",
            () -> gauge("unschedulable") == 1 && total() == 1);
      }
      assertNull(
          registry.find(MicrometerMetrics.ALL_PENDING_PODS).gauge(),
          "a closed controller's gauges are gone");
      assertEquals(1, count("scheduled"), "the cumulative meters stay");
    }
  }

  private double count(String result) {
    var counter =
        registry.find(MicrometerMetrics.ATTEMPTS).tags("result", result, "profile", SCHEDULER).counter();
    return counter == null ? 0 : counter.count();
  }

  private double gauge(String queue) {
    var gauge = registry.find(MicrometerMetrics.PENDING_PODS).tag("queue", queue).gauge();
    return gauge == null ? -1 : gauge.value();
  }

  private double total() {
    var gauge = registry.find(MicrometerMetrics.ALL_PENDING_PODS).gauge();
    return gauge == null ? -1 : gauge.value();
  }
}
