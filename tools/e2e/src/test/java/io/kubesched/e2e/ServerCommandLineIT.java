package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * kubesched-server's kube-scheduler command line on the real API server: the jar run as a process (as {@link
 * ServerIT} runs it), its evidence the Leases and bindings it leaves, never its endpoints ({@code
 * --secure-port=0}). It runs as the cluster's admin and without SchedulingPolicy resources ({@code
 * --no-policy-crd}), so that what is tested is the command line and the configuration file, not RBAC.
 */
class ServerCommandLineIT extends RealClusterTest {

  private static final String PROFILE = "kubesched-cli";

  private final List<Process> processes = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();
  private Path dir;

  /** Adds the end of every server's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler serverLogs = (context, failure) -> {
    for (var log : logs) {
      failure.addSuppressed(new AssertionError(tail(log)));
    }
    throw failure;
  };

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createDirectories(Path.of("target", "server-cli-it", namespace).toAbsolutePath());
    createReady(node("node-a", "4", "8Gi", "110"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (var process : processes) {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void an_unknown_flag_exits_2_with_one_line_listing_the_supported_ones() throws Exception {
    var run = run("--config", config("profiles: [{schedulerName: " + PROFILE + "}]\n").toString(), "--master=x");
    assertEquals(2, run.exit(), run.output());
    var first = run.output().lines().findFirst().orElse("");
    assertTrue(first.startsWith("kubesched-server: command line: unknown flag '--master=x'; supported: --config,"),
        run.output());
    assertTrue(first.contains("--leader-elect-resource-namespace") && first.contains("--secure-port"), first);
  }

  @Test
  void write_config_to_writes_a_file_kube_scheduler_accepts_and_writes_back_the_same() throws Exception {
    var config = config("""
        clientConnection: {kubeconfig: %s, qps: 12.5, burst: 25, contentType: application/json}
        leaderElection: {resourceName: from-file, resourceNamespace: %s, leaseDuration: 1m30s}
        parallelism: 8
        profiles:
          - schedulerName: %s
            plugins:
              score:
                disabled: [{name: ImageLocality}]
                enabled: [{name: NodeResourcesFit, weight: 5}]
            pluginConfig:
              - name: NodeResourcesFit
                args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 2}]}}
        """.formatted(cluster.adminKubeconfig().toAbsolutePath(), namespace, PROFILE));
    var ours = dir.resolve("ours.yaml");
    var run = run("--config", config.toString(), "--leader-elect-renew-deadline=20s", "--write-config-to",
        ours.toString());
    assertEquals(0, run.exit(), run.output());

    // kube-scheduler reads it, defaults and validates it, and writes it back (exit 0 without scheduling).
    var binary = KubeSchedulerProcess.binary(RealClusterExtension.projectDir(), dir);
    var kubes = dir.resolve("kube.yaml");
    var kube = new ProcessBuilder(binary.toString(), "--config=" + ours, "--secure-port=0",
        "--write-config-to=" + kubes).redirectErrorStream(true).redirectOutput(dir.resolve("kube.log").toFile())
        .start();
    logs.add(dir.resolve("kube.log"));
    assertTrue(kube.waitFor(2, TimeUnit.MINUTES), "kube-scheduler --write-config-to did not exit");
    assertEquals(0, kube.exitValue(), tail(dir.resolve("kube.log")));

    // kube-scheduler wrote every setting but the profiles as we did (its profiles spell out its default plugins
    // and arguments, which ours leave to the reader).
    var yaml = YAMLMapper.builder().build();
    var mine = (ObjectNode) yaml.readTree(ours.toFile());
    var theirs = (ObjectNode) yaml.readTree(kubes.toFile());
    assertEquals(mine.get("profiles").get(0).get("schedulerName"), theirs.get("profiles").get(0).get("schedulerName"));
    mine.remove("profiles");
    theirs.remove("profiles");
    assertEquals(mine, theirs, "ours (expected) and kube-scheduler's (actual), profiles left out");
    assertEquals("20s", theirs.get("leaderElection").get("renewDeadline").stringValue(), "the flag's renew deadline");
  }

  @Test
  void leader_election_flags_override_the_files_lease_and_leader_elect_false_takes_none() throws Exception {
    var config = config("""
        leaderElection: {resourceName: from-file, resourceNamespace: %s}
        profiles: [{schedulerName: %s}]
        """.formatted(namespace, PROFILE));
    var leases = admin.resources(Lease.class).inNamespace(namespace);

    var elected = start("elected", config, "--kubeconfig", cluster.adminKubeconfig().toString(),
        "--leader-elect-resource-name=from-flag", "--leader-elect-resource-namespace", namespace);
    eventually(WAIT, "the Lease the flag names is held", () -> {
      var lease = leases.withName("from-flag").get();
      return lease != null && lease.getSpec().getHolderIdentity() != null;
    });
    assertEquals("node-a", bindOne("elected-0", PROFILE));
    assertNull(leases.withName("from-file").get(), "the file's Lease was taken although the flag names another");
    stop(elected);

    leases.delete();
    eventually(WAIT, "no Lease is left", () -> leases.list().getItems().isEmpty());
    start("unelected", config, "--kubeconfig", cluster.adminKubeconfig().toString(), "--leader-elect=false");
    assertEquals("node-a", bindOne("unelected-0", PROFILE));
    assertEquals(List.of(), leases.list().getItems(), "--leader-elect=false took a Lease");
  }

  @Test
  void the_files_kubeconfig_qps_and_burst_take_effect() throws Exception {
    // No --kubeconfig: the file's. One binding a second, no burst: 5 pods take at least 4 s to bind.
    var config = config("""
        clientConnection: {kubeconfig: %s, qps: 1, burst: 1}
        leaderElection: {leaderElect: false}
        profiles: [{schedulerName: %s}]
        """.formatted(cluster.adminKubeconfig().toAbsolutePath(), PROFILE));
    start("limited", config);
    for (int i = 0; i < 5; i++) {
      create(admin, pod(namespace, "limited-" + i, PROFILE, "10m", "16Mi"));
    }
    eventually(WAIT, "all 5 pods are bound", () -> boundPods().size() == 5);
    var times = boundPods().stream().map(ServerCommandLineIT::scheduledAt).sorted().toList();
    var spread = Duration.between(times.get(0), times.get(4));
    // The condition's time has whole seconds: 4 s of bindings show as at least 3.
    assertTrue(spread.compareTo(Duration.ofSeconds(3)) >= 0,
        "5 bindings at qps 1, burst 1 took " + spread + " (PodScheduled times " + times + ")");
  }

  @Test
  void a_profile_named_default_scheduler_places_the_pods_that_name_no_scheduler() throws Exception {
    var config = config("profiles: [{schedulerName: default-scheduler}]\n");
    start("replacing", config, "--kubeconfig", cluster.adminKubeconfig().toString(), "--leader-elect=false");
    var unnamed = new PodBuilder(pod(namespace, "unnamed", "ignored", "10m", "16Mi")).editSpec()
        .withSchedulerName(null).endSpec().build();
    create(admin, unnamed);
    eventually(WAIT, "the pod without a schedulerName is bound", () -> boundPods().size() == 1);
    assertEquals("default-scheduler",
        admin.pods().inNamespace(namespace).withName("unnamed").get().getSpec().getSchedulerName());
  }

  // --- helpers ---

  private record Run(int exit, String output) {}

  private Path config(String body) throws IOException {
    var file = Files.createTempFile(dir, "config", ".yaml");
    Files.writeString(file, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + body);
    return file;
  }

  private List<String> command(String... args) {
    var jar = Path.of(System.getProperty("kubesched.serverJar", "../../scheduler-server/target/kubesched-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build scheduler-server first");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var command = new ArrayList<>(List.of(java, "-jar", jar.toString()));
    command.addAll(List.of(args));
    return command;
  }

  /** Runs the server to its end (for runs that exit at once). */
  private Run run(String... args) throws IOException, InterruptedException {
    var log = Files.createTempFile(dir, "run", ".log");
    var process = new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    processes.add(process);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), "kubesched-server did not exit");
    return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  /** Starts a server that schedules, with no endpoints and no SchedulingPolicy watch. */
  private Process start(String name, Path config, String... flags) throws IOException {
    var log = dir.resolve(name + ".log");
    logs.add(log);
    var args = new ArrayList<>(List.of("--config", config.toString(), "--secure-port=0", "--no-policy-crd"));
    args.addAll(List.of(flags));
    var process = new ProcessBuilder(command(args.toArray(String[]::new))).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    processes.add(process);
    return process;
  }

  private static void stop(Process process) throws InterruptedException {
    process.destroy();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server did not stop on SIGTERM");
  }

  private String bindOne(String name, String schedulerName) {
    create(admin, pod(namespace, name, schedulerName, "10m", "16Mi"));
    eventually(WAIT, name + " is bound", () -> {
      var pod = admin.pods().inNamespace(namespace).withName(name).get();
      return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    });
    return admin.pods().inNamespace(namespace).withName(name).get().getSpec().getNodeName();
  }

  private List<Pod> boundPods() {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()).toList();
  }

  private static Instant scheduledAt(Pod pod) {
    return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals("PodScheduled"))
        .map(c -> Instant.parse(c.getLastTransitionTime())).findFirst()
        .orElseThrow(() -> new AssertionError(pod.getMetadata().getName() + " has no PodScheduled condition"));
  }

  private static String tail(Path log) {
    try {
      var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "the end of " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30),
          lines.size()));
    } catch (IOException e) {
      return "cannot read " + log + ": " + e;
    }
  }
}
