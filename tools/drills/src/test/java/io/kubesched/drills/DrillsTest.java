package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line's refusals, which return before any cluster starts. */
class DrillsTest {

  private static String refusal(String... args) throws Exception {
    var bytes = new ByteArrayOutputStream();
    assertEquals(2, Drills.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void throttle_runs_in_a_drill_of_its_own() throws Exception {
    var text = refusal("--project", ".", "--out", "x.md", "--faults", "throttle,deletes", "--nodes", "24");
    assertTrue(text.startsWith("throttle runs alone (--faults throttle)"), text);
    assertTrue(text.contains("got --faults throttle,deletes --nodes 24"), text);
  }

  @Test
  void throttle_needs_room_for_its_burst_on_the_nodes() throws Exception {
    var text = refusal("--project", ".", "--out", "x.md", "--faults", "throttle", "--nodes", "4");
    assertTrue(text.contains("--nodes ≥ 24 for --burst 2000"), text);
    assertTrue(refusal("--project", ".", "--out", "x.md", "--faults", "throttle", "--burst", "400")
        .contains("--nodes ≥ 6 for --burst 400"));
  }

  @Test
  void an_unknown_fault_is_refused_with_the_known_ones() throws Exception {
    var text = refusal("--project", ".", "--out", "x.md", "--faults", "nope");
    assertTrue(text.contains("unknown fault nope; known: apiserver-restart, deletes, etcd-compaction, etcd-restart, "
        + "hung-connection, throttle"), text);
  }

  @Test
  void nodes_named_node_n_are_spread_over_three_zones() {
    assertEquals("zone-0", DrillRun.zoneOf("node-0"));
    assertEquals("zone-1", DrillRun.zoneOf("node-1"));
    assertEquals("zone-2", DrillRun.zoneOf("node-2"));
    assertEquals("zone-0", DrillRun.zoneOf("node-3"));
    assertEquals("zone-0", DrillRun.zoneOf("worker"));
  }
}
