package io.kubesched.drills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The data files the drills and the soak leave: what the renderer of docs/reliability.md reads. */
class RunDataTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Instant START = Instant.parse("2026-12-02T01:00:00Z");

  @Test
  void every_trial_keeps_its_violations_and_a_recovery_that_never_came_is_null() {
    var trials = List.of(
        new TrialResult("deletes", 80, List.of(), 3, Optional.of(Duration.ofMillis(1_250)), OptionalInt.of(4)),
        new TrialResult("apiserver-restart", 70,
            List.of(new Violation(Violation.Kind.LOST, "p-7", "pending after settling")), 11, Optional.empty()));
    var takeover = new Takeover(Optional.of(Duration.ofMillis(15_200)), Optional.empty(), Duration.ofMillis(900), 137,
        12, 0, 15);
    var root = JSON.valueToTree(RunData.record("abc1234", "scripts/drills.sh --trials 1", Map.of("trials", 1), START,
        START.plusSeconds(90), trials, List.of(), List.of(takeover)));
    assertEquals("drills", root.get("kind").asString());
    assertEquals("abc1234", root.get("revision").asString());
    assertEquals(1, root.get("settings").get("trials").asInt());
    var faults = root.get("faults");
    assertEquals(2, faults.size());
    assertEquals("deletes", faults.get(0).get("fault").asString());
    assertEquals(0, faults.get(0).get("violations").get("LOST").asInt());
    assertEquals(1, faults.get(1).get("violations").get("LOST").asInt());
    assertEquals(0, faults.get(1).get("recovered").asInt());
    assertTrue(faults.get(1).get("recoveryP50Seconds").isNull(), faults.toString());
    assertEquals(1.25, faults.get(0).get("recoveryP99Seconds").asDouble());
    var deletes = root.get("trials").get(0);
    assertEquals(1.25, deletes.get("recoverySeconds").asDouble());
    assertEquals(4, deletes.get("boundToDeletedNode").asInt());
    assertEquals(0, deletes.get("violations").size());
    var restart = root.get("trials").get(1);
    assertTrue(restart.get("recoverySeconds").isNull(), restart.toString());
    assertTrue(restart.get("boundToDeletedNode").isNull(), restart.toString());
    assertEquals("LOST", restart.get("violations").get(0).get("kind").asString());
    assertEquals("p-7", restart.get("violations").get(0).get("subject").asString());
    assertEquals(15.2, root.get("takeoverSummary").get("leaseP99Seconds").asDouble());
    assertTrue(root.get("takeoverSummary").get("firstBindingP50Seconds").isNull(), root.toString());
    var kill = root.get("takeovers").get(0);
    assertEquals(15.2, kill.get("leaseSeconds").asDouble());
    assertTrue(kill.get("firstBindingSeconds").isNull(), kill.toString());
    assertEquals(137, kill.get("exitStatus").asInt());
  }

  @Test
  void the_soak_keeps_every_sample_and_its_verdicts() {
    var samples = List.of(
        new Soak.Sample(1, 600, 0, -1, -1, 0, 37, 48, 0, 0),
        new Soak.Sample(2, 600, 540, 6, 170, 0, 41, 50, 540, 540));
    var outcome = new Soak.Outcome(samples, 1, List.of(new ClassHistogram.Change("byte[]", 157_000, 900)), 0, 0);
    var settings = new Soak.Settings(Path.of("."), Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofMinutes(1),
        500, 10, Duration.ofSeconds(60));
    var root = JSON.valueToTree(RunData.soakRecord("abc1234", "scripts/drills.sh --soak 2", settings, START,
        START.plusSeconds(120), outcome, List.of("threads grow 6.00 a sample")));
    assertEquals("soak", root.get("kind").asString());
    assertEquals(2.0, root.get("settings").get("minutes").asDouble());
    assertEquals("threads grow 6.00 a sample", root.get("verdicts").get(0).asString());
    assertEquals(2, root.get("samples").size());
    assertTrue(root.get("samples").get(0).get("p99Ms").isNull(), "a minute without bindings has no latency");
    assertEquals(170, root.get("samples").get(1).get("p99Ms").asInt());
    assertEquals("byte[]", root.get("grown").get(0).get("class").asString());
  }

  @Test
  void the_command_kept_leaves_out_paths_and_outputs() {
    assertEquals("--faults deletes --trials 2",
        Drills.command(new String[] {"--project", "/x", "--revision", "abc", "--faults", "deletes", "--out", "a.md",
            "--data", "a.json", "--trials", "2"}));
  }
}
