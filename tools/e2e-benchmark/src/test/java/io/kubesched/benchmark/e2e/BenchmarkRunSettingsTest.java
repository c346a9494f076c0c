package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings' copies: the run with the trained archive, and the training run. */
class BenchmarkRunSettingsTest {

  private static final BenchmarkRun.Settings MEASURED =
      new BenchmarkRun.Settings(
          Path.of("."), Path.of("kube-scheduler"), Path.of("runner.jar"), 5000, 4000, Path.of("/tmp/jfr"),
          Path.of("/tmp/work"), Duration.ofSeconds(60), 500, 50, List.of("-XX:+UseSerialGC"));

  @Test
  void a_flag_is_added_after_the_others_and_nothing_else_changes() {
    var archived = MEASURED.withKubeschedJvmFlag("-XX:SharedArchiveFile=/tmp/a.jsa");
    assertEquals(List.of("-XX:+UseSerialGC", "-XX:SharedArchiveFile=/tmp/a.jsa"), archived.kubeschedJvmFlags());
    assertEquals(
        new BenchmarkRun.Settings(
            Path.of("."), Path.of("kube-scheduler"), Path.of("runner.jar"), 5000, 4000, Path.of("/tmp/jfr"),
            Path.of("/tmp/work"), Duration.ofSeconds(60), 500, 50, archived.kubeschedJvmFlags()),
        archived);
    assertEquals(List.of("-XX:+UseSerialGC"), MEASURED.kubeschedJvmFlags(), "the original is left as it was");
  }

  @Test
  void an_unmeasured_run_has_its_own_directory_no_recording_and_at_most_the_given_warm_up() {
    var training = MEASURED.unmeasured(Path.of("/tmp/work/cds-training"), 20);
    assertEquals(Path.of("/tmp/work/cds-training"), training.workDir());
    assertNull(training.jfrDir());
    assertEquals(20, training.warmupPods());
    assertEquals(MEASURED.kubeschedJvmFlags(), training.kubeschedJvmFlags());
    assertEquals(MEASURED.qps(), training.qps());
    assertEquals(MEASURED.burst(), training.burst());
    assertEquals(MEASURED.stall(), training.stall());
    assertEquals(MEASURED.streamRate(), training.streamRate());
    assertEquals(
        500, MEASURED.unmeasured(Path.of("/tmp/t"), 1_000).warmupPods(), "a smaller warm-up than the most is kept");
  }
}
