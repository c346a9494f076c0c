package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaderKillDrillTest {

  private static final Instant KILLED = Instant.parse("2026-11-27T07:26:42.000Z");

  @Test
  void the_holder_is_empty_for_no_lease_no_spec_and_a_released_lease() {
    assertEquals("", LeaderKillDrill.holder(null));
    assertEquals("", LeaderKillDrill.holder(new Lease()));
    assertEquals("", LeaderKillDrill.holder(lease(null, null)));
    assertEquals("", LeaderKillDrill.holder(lease("", null)));
    assertEquals("vm_1", LeaderKillDrill.holder(lease("vm_1", null)));
  }

  @Test
  void the_takeover_runs_from_the_kill_to_the_new_holders_acquire_time() {
    var acquired = lease("vm_2", KILLED.plusMillis(15_181));
    assertEquals(Optional.of(Duration.ofMillis(15_181)), LeaderKillDrill.acquiredAfter(acquired, "vm_2", KILLED));
    assertEquals(Optional.empty(), LeaderKillDrill.acquiredAfter(acquired, "vm_1", KILLED), "held by another");
    assertEquals(Optional.empty(), LeaderKillDrill.acquiredAfter(lease("vm_2", null), "vm_2", KILLED));
    assertEquals(Optional.empty(), LeaderKillDrill.acquiredAfter(null, "vm_2", KILLED));
  }

  @Test
  void the_identity_is_read_from_the_campaign_line_of_the_replicas_log() {
    var log = """
        2026-11-27T07:26:32.604Z [main] INFO SchedulerServer - Scheduling the pods of [kubesched], when leading
        2026-11-27T07:26:34.377Z [main] INFO LeaderElection - Campaigning for the lease kubesched/kubesched as \
        vm_76996af2-4d15-411e-b8cb-ae0d8c5034ef
        2026-11-27T07:26:34.602Z [kubesched-leader-kubesched-1] INFO LeaderElection - Leading: acquired the lease \
        kubesched/kubesched as vm_76996af2-4d15-411e-b8cb-ae0d8c5034ef
        """;
    assertEquals(Optional.of("vm_76996af2-4d15-411e-b8cb-ae0d8c5034ef"), Replica.identity(log));
    assertEquals(Optional.empty(), Replica.identity(log.lines().findFirst().orElseThrow()));
  }

  private static Lease lease(String holder, Instant acquired) {
    return new LeaseBuilder().withNewSpec().withHolderIdentity(holder)
        .withAcquireTime(acquired == null ? null : acquired.atZone(ZoneOffset.UTC)).endSpec().build();
  }
}
