package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.testcluster.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The data file an invocation leaves: what the renderer of docs/performance.md reads. */
class RunDataTest {

  private static final BenchmarkRun.Settings SETTINGS =
      new BenchmarkRun.Settings(
          Path.of("."), Path.of("kube-scheduler"), Path.of("runner.jar"), 5000, 5000, null, Path.of("/tmp"),
          Duration.ofSeconds(60), 20, 50, List.of("-XX:+UseSerialGC"));

  private static RunResult run(Workload workload, Contestant contestant, double cpu) {
    return new RunResult(
        workload, contestant, 1, contestant == Contestant.CEILING ? 32 : 0, 150, 2, 321.4567, 50, 50, 4, 6, 9,
        cpu, cpu + 1, contestant == Contestant.CEILING ? Double.NaN : 180, 1.5, 0.5,
        new RunResult.Preemption(10, 9, 30, 60, 9, 0), RunResult.Gangs.NONE,
        switch (contestant) {
          case CEILING -> RunResult.Start.NONE;
          case KUBESCHED -> new RunResult.Start(2.5, 8, 4, 0.4567);
          default -> new RunResult.Start(0.25, 3, 3);
        });
  }

  @Test
  void every_run_is_kept_with_the_machine_revision_and_command_and_unmeasured_figures_are_null() throws Exception {
    var json = JsonMapper.builder().build().writeValueAsString(
        RunData.record(
            "abc1234", "scripts/e2e-benchmark.sh --reps 1", "v1.37.2", SETTINGS, Instant.parse("2026-12-02T01:00:00Z"),
            Instant.parse("2026-12-02T01:05:30.5Z"),
            List.of(run(Workload.SMOKE, Contestant.KUBESCHED, 3.2), run(Workload.SMOKE, Contestant.CEILING, Double.NaN),
                run(Workload.SMOKE_PREEMPTION, Contestant.KUBE_SCHEDULER, 4)),
            List.of(Workload.SMOKE, Workload.SMOKE_PREEMPTION)));
    var root = JsonMapper.builder().build().readTree(json);
    assertEquals(RunRecord.SCHEMA, root.get("schema").asInt());
    assertEquals("e2e-benchmark", root.get("kind").asString());
    assertEquals("abc1234", root.get("revision").asString());
    assertEquals("2026-12-02T01:05:30Z", root.get("finished").asString());
    assertEquals("scripts/e2e-benchmark.sh --reps 1", root.get("command").asString());
    assertEquals("v1.37.2", root.get("machine").get("kubernetes").asString());
    assertTrue(root.get("machine").get("cpus").asInt() > 0, json);
    assertEquals(Workload.SMOKE.nodes(), root.get("workloads").get("smoke").get("nodes").asInt());
    var runs = root.get("runs");
    assertEquals(3, runs.size());
    var ours = runs.get(0);
    assertEquals("kubesched", ours.get("contestant").asString());
    assertEquals(321.457, ours.get("backlogPodsPerSecond").asDouble());
    assertEquals(2.5, ours.get("start").get("firstBoundSeconds").asDouble());
    assertEquals(0.457, ours.get("start").get("firstAnswerSeconds").asDouble());
    assertTrue(ours.get("hostSteal").isNull(), "a steal the kernel did not count is null: " + ours);
    assertFalse(ours.has("preemption"), "a workload without preemptors has no preemption figures: " + ours);
    var ceiling = runs.get(1);
    assertEquals("ceiling", ceiling.get("contestant").asString());
    assertEquals(32, ceiling.get("ceilingThreads").asInt());
    assertTrue(ceiling.get("cpuSeconds").isNull(), ceiling.toString());
    assertTrue(ceiling.get("peakRssMiB").isNull(), ceiling.toString());
    assertTrue(ceiling.get("start").isNull(), ceiling.toString());
    var preempting = runs.get(2);
    assertEquals("kube-scheduler", preempting.get("contestant").asString());
    assertEquals(9, preempting.get("preemption").get("bound").asInt());
    assertFalse(preempting.get("start").has("firstAnswerSeconds"), "measured for kubesched only: " + preempting);
  }
}
