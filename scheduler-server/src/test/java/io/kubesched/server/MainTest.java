package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.BuildInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the program says and returns before it connects: usage, bad flags, bad configuration files. */
class MainTest {

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws InterruptedException {
    return Main.run(
        List.of(args),
        Map.of(),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private List<String> lines() {
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void help_prints_the_usage_and_succeeds() throws InterruptedException {
    assertEquals(0, run("--help"));
    assertTrue(lines().get(0).startsWith("usage: kubesched-server --config FILE"), lines().toString());
  }

  @Test
  void help_lists_version() throws InterruptedException {
    run("--help");
    assertTrue(lines().stream().anyMatch(l -> l.startsWith("  --version ")), lines().toString());
  }

  @Test
  void version_prints_one_line_on_standard_output_and_succeeds() throws InterruptedException {
    assertEquals(0, run("--version"));

    assertEquals(
        "kubesched-server "
            + System.getProperty("kubesched.test.projectVersion")
            + " (revision "
            + BuildInfo.current().revision()
            + "), Java "
            + System.getProperty("java.version")
            + "\n",
        out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    assertEquals(List.of(), lines());
  }

  @Test
  void version_reads_no_configuration_and_connects_to_nothing() throws InterruptedException {
    var missing = dir.resolve("missing").toString();

    assertEquals(0, run("--config", missing, "--kubeconfig", missing, "--version"));
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("kubesched-server "), out::toString);
    assertEquals(List.of(), lines());
  }

  @Test
  void a_bad_command_line_exits_2_with_the_problem_then_the_usage() throws InterruptedException {
    assertEquals(Main.BAD_USAGE, run("--config", "c.yaml", "--secure-port", "http"));
    assertEquals(
        "kubesched-server: command line: --secure-port must be a number from 0 to 65535, was 'http'", lines().get(0));
    assertTrue(lines().get(1).startsWith("usage: "), lines().toString());
  }

  @Test
  void a_bad_configuration_exits_1_with_one_line_naming_the_file_the_path_and_the_value()
      throws Exception {
    var config = dir.resolve("config.yaml");
    Files.writeString(
        config,
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
          - schedulerName: a-sched
            plugins:
              score:
                enabled:
                  - name: NoSuchPlugin
        """);
    assertEquals(Main.BAD_CONFIG, run("--config", config.toString()));
    assertEquals(1, lines().size(), lines().toString());
    var line = lines().get(0);
    for (var part : List.of("kubesched-server: ", config.toString(), "profiles[0].plugins.score.enabled[0]", "NoSuchPlugin")) {
      assertTrue(line.contains(part), () -> line + " should name " + part);
    }
  }

  @Test
  void a_missing_configuration_file_exits_1_naming_it() throws InterruptedException {
    var missing = dir.resolve("missing.yaml").toString();
    assertEquals(Main.BAD_CONFIG, run("--config", missing));
    assertEquals(1, lines().size(), lines().toString());
    assertTrue(lines().get(0).contains(missing), lines().toString());
  }

  @Test
  void a_file_without_profiles_exits_1_as_it_would_take_kube_schedulers_own_name() throws Exception {
    var config = dir.resolve("config.yaml");
    Files.writeString(config, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    assertEquals(Main.BAD_CONFIG, run("--config", config.toString()));
    assertEquals(
        List.of(
            "kubesched-server: config "
                + config
                + ": profiles[0].schedulerName must not be 'default-scheduler' (kube-scheduler's own, also what a"
                + " file without profiles gets): two schedulers binding the same pods fight over them; give each"
                + " profile a schedulerName of its own"),
        lines());
  }

  @Test
  void no_kubeconfig_where_looked_exits_1_before_serving() throws Exception {
    var config = dir.resolve("config.yaml");
    Files.writeString(
        config,
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
            + "profiles:\n  - schedulerName: a-sched\n");
    assertEquals(
        Main.BAD_CONFIG,
        run("--config", config.toString(), "--kubeconfig", dir.resolve("none").toString(), "--secure-port", "0"));
    assertEquals(1, lines().size(), lines().toString());
    assertTrue(lines().get(0).contains(dir.resolve("none").toString()), lines().toString());
  }
}
