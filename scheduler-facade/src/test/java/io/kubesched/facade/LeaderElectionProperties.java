package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubesched.api.ConfigurationException;
import io.kubesched.facade.Options.LeaderElection;
import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link LeaderElection}'s validation against two independent judges: fabric8's own
 * {@code LeaderElectorBuilder}, which must accept whatever the settings accept (else the election would
 * fail when it starts), and client-go's {@code NewLeaderElector} rules, restated from its source, which
 * every accepted setting must also meet.
 */
class LeaderElectionProperties {

  /** Millisecond values around the boundaries: whole seconds or not, 1.2 × and 2.2 × the periods. */
  @Provide
  Arbitrary<Long> leaseMillis() {
    return Arbitraries.of(0L, 1L, 500L, 1_000L, 1_500L, 2_000L, 3_000L);
  }

  @Provide
  Arbitrary<Long> renewMillis() {
    return Arbitraries.of(
        0L, 1L, 100L, 120L, 220L, 221L, 600L, 999L, 1_000L, 1_100L, 2_200L, 2_201L, 3_000L);
  }

  @Provide
  Arbitrary<Long> retryMillis() {
    return Arbitraries.of(-1L, 0L, 1L, 100L, 500L, 1_000L);
  }

  private static boolean oursAccept(long lease, long renew, long retry) {
    try {
      LeaderElection.builder()
          .leaseDuration(Duration.ofMillis(lease))
          .renewDeadline(Duration.ofMillis(renew))
          .retryPeriod(Duration.ofMillis(retry))
          .build();
      return true;
    } catch (ConfigurationException e) {
      return false;
    }
  }

  private static boolean fabric8Accepts(long lease, long renew, long retry) {
    var config =
        new LeaderElectionConfigBuilder()
            .withName("s")
            .withLock(new LeaseLock("kube-system", "s", "me"))
            .withLeaseDuration(Duration.ofMillis(lease))
            .withRenewDeadline(Duration.ofMillis(renew))
            .withRetryPeriod(Duration.ofMillis(retry))
            .withLeaderCallbacks(new LeaderCallbacks(() -> {}, () -> {}, leader -> {}))
            .withReleaseOnCancel(true)
            .build();
    try {
      // The builder validates without touching the client.
      new LeaderElectorBuilder(null, Runnable::run).withConfig(config).build();
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** client-go leaderelection.NewLeaderElector, v0.37.2. */
  private static boolean clientGoAccepts(long lease, long renew, long retry) {
    return lease > renew && renew > (long) (1.2 * retry) && lease >= 1 && renew >= 1 && retry >= 1;
  }

  @Property
  void the_settings_accept_exactly_what_fabric8_accepts_with_a_lease_of_whole_seconds(
      @ForAll("leaseMillis") long lease,
      @ForAll("renewMillis") long renew,
      @ForAll("retryMillis") long retry) {
    boolean fabric8 = fabric8Accepts(lease, renew, retry);
    boolean wholeSeconds = lease % 1_000 == 0;
    boolean ours = oursAccept(lease, renew, retry);
    Statistics.label("verdict")
        .collect(ours ? "accepted" : !fabric8 ? "rejected by fabric8" : "rejected: not whole seconds");
    Statistics.label("verdict")
        .coverage(
            c -> {
              c.check("accepted").count(n -> n > 0);
              c.check("rejected by fabric8").count(n -> n > 0);
              c.check("rejected: not whole seconds").count(n -> n > 0);
            });
    assertEquals(fabric8 && wholeSeconds, ours, () -> lease + " / " + renew + " / " + retry + " ms");
  }

  @Property
  void whatever_the_settings_accept_client_go_accepts_too(
      @ForAll("leaseMillis") long lease,
      @ForAll("renewMillis") long renew,
      @ForAll("retryMillis") long retry) {
    boolean ours = oursAccept(lease, renew, retry);
    boolean clientGo = clientGoAccepts(lease, renew, retry);
    Statistics.label("verdicts").collect(ours, clientGo);
    Statistics.label("verdicts")
        .coverage(
            c -> {
              c.check(true, true).count(n -> n > 0);
              c.check(false, false).count(n -> n > 0);
              // fabric8's stricter jitter rule: client-go would accept, we do not.
              c.check(false, true).count(n -> n > 0);
            });
    assertTrue(!ours || clientGo, () -> lease + " / " + renew + " / " + retry + " ms");
  }
}
