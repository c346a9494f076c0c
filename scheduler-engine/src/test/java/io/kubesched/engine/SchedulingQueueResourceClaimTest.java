package io.kubesched.engine;

import static io.kubesched.engine.SchedulingQueueTest.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodInfo;
import io.kubesched.api.PodResourceClaim;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's DynamicResources PreEnqueue as the queue keeps it: a pod whose template's claim is not made yet is gated
 * until its status names the claim, and is then tried at once, with no backoff, as it was never tried.
 */
class SchedulingQueueResourceClaimTest {

  private final FakeTicker clock = new FakeTicker();
  private final SchedulingQueue queue =
      new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));

  private static PodInfo withClaims(PodResourceClaim... claims) {
    return PodInfo.builder("ns", "trainer").uid("u1").resourceClaims(List.of(claims)).build();
  }

  @Test
  void a_pod_waits_gated_until_its_status_names_its_templates_claim_then_is_tried_at_once() {
    queue.add(QueuedPod.of(withClaims(new PodResourceClaim("gpu", null, "gpu-template", null))));

    assertEquals("gated", where(queue, "trainer"));
    assertNull(queue.poll(), "not tried before its claim is made");

    queue.add(QueuedPod.of(withClaims(new PodResourceClaim("gpu", null, "gpu-template", "trainer-gpu-x7k2"))));

    assertEquals("active", where(queue, "trainer"), "no backoff: it was never tried");
    assertEquals("trainer", queue.poll().name());
  }

  @Test
  void a_pod_naming_its_claim_or_told_it_needs_none_is_not_gated() {
    assertFalse(QueuedPod.of(withClaims(PodResourceClaim.ofClaim("gpu", "shared-gpu"))).gated());
    assertFalse(QueuedPod.of(withClaims(new PodResourceClaim("gpu", null, "gpu-template", ""))).gated(),
        "the controller reported no claim is needed");
    assertTrue(QueuedPod.of(withClaims(PodResourceClaim.ofClaim("a", "shared-gpu"),
        new PodResourceClaim("b", null, "gpu-template", null))).gated(), "one entry waiting is enough");
  }
}
