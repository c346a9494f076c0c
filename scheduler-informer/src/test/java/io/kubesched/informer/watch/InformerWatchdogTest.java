package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each {@code check} call stands for one second of the watchdog's timer. */
class InformerWatchdogTest {

  private final AtomicInteger restarts = new AtomicInteger();
  private final InformerWatchdog watchdog = new InformerWatchdog(restarts::incrementAndGet);
  private int tick;

  private void checkFor(int seconds, boolean watching, boolean nodesMove, boolean podsMove) {
    for (int i = 0; i < seconds; i++) {
      tick++;
      var nodes = nodesMove ? "n" + tick : "n";
      var pods = podsMove ? "p" + tick : "p";
      watchdog.check(() -> watching, () -> List.of(nodes, pods));
    }
  }

  @Test
  void watches_that_keep_moving_are_left_alone() {
    checkFor(1000, true, true, true);
    assertEquals(0, restarts.get());
  }

  @Test
  void a_watch_down_for_the_grace_period_is_restarted() {
    checkFor(InformerWatchdog.GRACE_SECONDS - 1, false, true, true);
    assertEquals(0, restarts.get(), "a reconnect shorter than the grace period is fabric8's own business");
    checkFor(1, false, true, true);
    assertEquals(1, restarts.get());
  }

  @Test
  void a_watch_that_comes_back_in_time_resets_the_count() {
    checkFor(InformerWatchdog.GRACE_SECONDS - 1, false, true, true);
    checkFor(1, true, true, true);
    checkFor(InformerWatchdog.GRACE_SECONDS - 1, false, true, true);
    assertEquals(0, restarts.get());
  }

  @Test
  void one_informer_whose_version_stands_still_is_taken_as_lost_while_the_other_moves() {
    checkFor(1, true, true, false); // the first check only records the versions
    checkFor(InformerWatchdog.STALE_SECONDS - 1, true, true, false);
    assertEquals(0, restarts.get());
    checkFor(1, true, true, false);
    assertEquals(1, restarts.get(), "the pods' watch said it watched but brought nothing");
  }

  @Test
  void after_a_restart_the_counts_start_again() {
    checkFor(1 + InformerWatchdog.STALE_SECONDS, true, false, false);
    assertEquals(1, restarts.get());
    checkFor(InformerWatchdog.STALE_SECONDS - 1, true, false, false);
    assertEquals(1, restarts.get());
    checkFor(1, true, false, false);
    assertEquals(2, restarts.get());
  }
}
