package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.PodInfo;
import org.junit.jupiter.api.Test;

class DecisionLogTest {

  private final PodInfo pod = PodInfo.builder("default", "p").schedulerName("s").build();

  @Test
  void the_summary_counts_what_happened_since_the_last_one_and_stays_quiet_when_nothing_did() {
    var log = new DecisionLog();
    assertEquals("", log.summary(), "nothing happened yet");
    log.bound(pod, "node-1");
    log.bound(pod, "node-2");
    log.unschedulable(pod, "0/1 nodes are available: 1 Insufficient cpu.");
    log.failed("default/q", new IllegalStateException("boom"));
    assertEquals(
        "2 pods bound, 1 attempts unschedulable, 1 failed since the last summary"
            + " (in all: 2 bound, 1 unschedulable, 1 failed)",
        log.summary());
    assertEquals("", log.summary(), "nothing new");
    log.bound(pod, "node-1");
    assertEquals(
        "1 pods bound, 0 attempts unschedulable, 0 failed since the last summary"
            + " (in all: 3 bound, 1 unschedulable, 1 failed)",
        log.summary());
  }
}
