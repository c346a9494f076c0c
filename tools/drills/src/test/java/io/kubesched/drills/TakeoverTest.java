package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TakeoverTest {

  @Test
  void the_note_gives_both_takeover_percentiles_and_counts_what_never_happened() {
    var takeovers = List.of(
        new Takeover(Optional.of(Duration.ofMillis(15_200)), Optional.of(Duration.ofMillis(15_300)),
            Duration.ofMillis(1_400), 137, 12, 0, 15),
        new Takeover(Optional.of(Duration.ofMillis(17_000)), Optional.empty(), Duration.ofMillis(1_900), 137, 9, 0, 14),
        new Takeover(Optional.empty(), Optional.empty(), Duration.ofMillis(100), 137, 20, 2, 15));
    var text = Takeover.markdown(takeovers);
    assertTrue(text.contains("to the Lease held by the other replica p50 15.2 s, p99 17.0 s (2/3 taken over)"), text);
    assertTrue(text.contains("to the first pod bound after it p50 15.3 s, p99 15.3 s (1/3)"), text);
    assertTrue(text.contains("last renewed the Lease 0.1 s to 1.9 s before the kill, and the API server had received"
        + " 9 to 20 binding POSTs in the second before it"), text);
    assertTrue(text.contains("Exit status of the killed replicas: 137."), text);
    assertTrue(text.contains("LISTs from the kill to the check: 2 in all"), text);
    assertTrue(text.contains("a fresh replica's LISTs at its start: 14 to 15."), text);
  }

  @Test
  void no_trials_no_note() {
    assertEquals("", Takeover.markdown(List.of()));
  }
}
