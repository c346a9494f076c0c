package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class SoakTest {

  private static final Soak.Settings SETTINGS = new Soak.Settings(Path.of("."), Duration.ofMinutes(60),
      Duration.ofMinutes(1), Duration.ofMinutes(10), 500, 10, Duration.ofSeconds(60));

  /** Sixty samples, the first ten a warm-up whose heap climbs fast, then what {@code heap} says. */
  private static Soak.Outcome soak(IntFunction<Long> heap, IntFunction<Integer> threads, IntFunction<Long> p99,
      int leftInView) {
    var samples = new ArrayList<Soak.Sample>();
    for (int i = 0; i < 60; i++) {
      long mib = i < 10 ? 30 + 3L * i : heap.apply(i);
      samples.add(new Soak.Sample(i + 1, 600, 540, 8, p99.apply(i), 0, mib, threads.apply(i), 540, 540));
    }
    return new Soak.Outcome(samples, 10, List.of(), leftInView, 0);
  }

  @Test
  void a_flat_soak_after_its_warm_up_has_no_verdict() {
    var outcome = soak(i -> 60L + i % 3, i -> 90 + i % 4, i -> 40L + (i % 7) * 10, 0);
    assertEquals(List.of(), Soak.verdicts(outcome));
    assertTrue(Soak.markdown("--soak 60", SETTINGS, outcome).startsWith("Command: `scripts/drills.sh --soak 60`"));
  }

  @Test
  void each_kind_of_growth_is_named() {
    var heap = Soak.verdicts(soak(i -> 60L + i, i -> 90, i -> 40L, 0));
    assertEquals(1, heap.size());
    assertTrue(heap.get(0).startsWith("heap after GC grows 1.00 MiB"), heap.get(0));
    var threads = Soak.verdicts(soak(i -> 60L, i -> 90 + i / 4, i -> 40L, 0));
    assertTrue(threads.size() == 1 && threads.get(0).startsWith("threads grow"), threads.toString());
    var latency = Soak.verdicts(soak(i -> 60L, i -> 90, i -> 40L + 5L * i, 0));
    assertTrue(latency.size() == 1 && latency.get(0).startsWith("p99 latency grows"), latency.toString());
    assertEquals(List.of("3 pods left in the scheduler's view after every pod was deleted"),
        Soak.verdicts(soak(i -> 60L, i -> 90, i -> 40L, 3)));
  }

  @Test
  void intervals_without_bindings_are_left_out_of_the_latency_trend() {
    var outcome = soak(i -> 60L, i -> 90, i -> i % 2 == 0 ? -1L : 40L, 0);
    assertEquals(List.of(), Soak.verdicts(outcome));
  }

  @Test
  void percentiles_are_nearest_rank_in_milliseconds() {
    var nanos = new ArrayList<Long>();
    for (long ms = 1; ms <= 200; ms++) {
      nanos.add(ms * 1_000_000);
    }
    assertEquals(100, Soak.percentile(nanos, 50));
    assertEquals(198, Soak.percentile(nanos, 99));
    assertEquals(-1, Soak.percentile(List.of(), 99));
  }
}
