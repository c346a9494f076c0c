package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ReportTest {

  @Test
  void one_row_per_fault_counts_violations_by_kind_and_recovery_percentiles() {
    var lost = new Violation(Violation.Kind.LOST, "p-7", "PLACEABLE pod still pending");
    var trials = List.of(
        new TrialResult("apiserver-restart", 40, List.of(), 3, Optional.of(Duration.ofMillis(2500))),
        new TrialResult("hung-connection", 30, List.of(lost), 0, Optional.empty()),
        new TrialResult("apiserver-restart", 42, List.of(), 4, Optional.of(Duration.ofMillis(1500))));
    var text = Report.markdown("Command: `drills`", trials, List.of());
    assertTrue(text.contains("| apiserver-restart | 2 | 82 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 7 | 2/2 | 1.5 s | 2.5 s |\n"), text);
    assertTrue(text.contains("| hung-connection | 1 | 30 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0/1 | – | – |\n"), text);
    assertTrue(text.contains("- trial 2 (hung-connection): LOST p-7: PLACEABLE pod still pending\n"), text);
    assertTrue(text.contains("Growth across trials (threads, heap after GC): none\n"), text);
  }

  @Test
  void the_pods_bound_to_a_deleted_node_are_summed_per_fault_that_deletes_one() {
    var trials = List.of(
        new TrialResult("deletes", 70, List.of(), 0, Optional.of(Duration.ofMillis(50)), OptionalInt.of(5)),
        new TrialResult("apiserver-restart", 40, List.of(), 3, Optional.of(Duration.ofMillis(2500))),
        new TrialResult("deletes", 71, List.of(), 0, Optional.of(Duration.ofMillis(60)), OptionalInt.of(3)));
    var text = Report.markdown("Command: `drills`", trials, List.of());
    assertTrue(text.contains("\nPods bound to the node deletes deleted, when deleted or while gone: 8 in 2 trials, "
        + "per trial [5, 3]\n"), text);
    assertFalse(text.contains("node apiserver-restart deleted"), text);
  }

  @Test
  void percentiles_are_nearest_rank() {
    var values = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(4));
    assertEquals(Optional.of(Duration.ofSeconds(2)), Report.percentile(values, 50));
    assertEquals(Optional.of(Duration.ofSeconds(4)), Report.percentile(values, 99));
    assertEquals(Optional.of(Duration.ofSeconds(1)), Report.percentile(values.subList(0, 1), 99));
    assertEquals(Optional.empty(), Report.percentile(List.of(), 50));
  }
}
