package io.kubesched.e2e;

import static io.kubesched.e2e.SchedulingPolicyFixture.grantPolicyRules;
import static io.kubesched.e2e.SchedulingPolicyFixture.installCrd;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.kubesched.facade.Options;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.io.Serial;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The sample server with a plugin of its own ({@code samples/custom-plugin-server}: kubesched-server as a library,
 * with the filter {@code AvoidDrainingNodes} registered by name) as a process of its own, {@code java -jar
 * kubesched-sample-custom-plugin-server.jar}, on the real API server as the restricted identity, configured with
 * the sample's {@code config.yaml}, which enables the plugin by name (its Lease renamed to the one the deployed RBAC
 * names, and a second profile, {@value #KUBE_ONLY}, with kube's plugins only, added). The evidence is the API
 * server's: the Lease the process holds, the pods' bindings and the
 * FailedScheduling event, not the process's endpoints.
 *
 * <p>The process's output goes to {@code target/custom-plugin-server-it/<namespace>.log}; a failing test gets its
 * end as a suppressed exception.
 */
class CustomPluginServerIT extends RealClusterTest {

  /** The sample configuration's profile. */
  static final String PROFILE = "platform-scheduler";

  /** A profile the test adds to the sample's configuration: kube's default plugins only. */
  static final String KUBE_ONLY = "kube-only";

  /** The sample's configuration, which enables AvoidDrainingNodes. */
  static final String SAMPLE_CONFIG = "samples/custom-plugin-server/config.yaml";

  /** The label and values the sample configuration gives AvoidDrainingNodes. */
  static final String DRAIN_LABEL = "lifecycle.example.com/state";

  private static final Duration STOP_WAIT = Options.DEFAULT_SHUTDOWN_TIMEOUT.plusSeconds(30);

  private final List<Process> processes = new ArrayList<>();
  private Path log;
  private Path config;
  private String leaseNamespace;
  private String leaseName;

  /** Adds the end of the process's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler serverLog = (context, failure) -> {
    if (log != null && Files.exists(log)) {
      var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      failure.addSuppressed(new ServerLog("the end of " + log + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()))));
    }
    throw failure;
  };

  @BeforeEach
  void setUp() throws IOException {
    installCrd(admin);
    grantPolicyRules(admin);
    // The lease the deployed configuration names, with the Lease Role of docs/operations.md for it.
    var deployed = SchedulerConfiguration.parse(deployedConfig(), ServerIT.DEPLOYED_CONFIG);
    leaseNamespace = deployed.leaderElection().resourceNamespace();
    leaseName = deployed.leaderElection().resourceName();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(leaseNamespace).endMetadata()
        .build()).serverSideApply();
    LeaseRbac.grant(admin, leaseNamespace, leaseName);
    var sample = Files.readString(RealClusterExtension.projectDir().resolve(SAMPLE_CONFIG));
    var text = sample.replace("resourceNamespace: kubesched", "resourceNamespace: " + leaseNamespace)
        .replace("resourceName: " + PROFILE, "resourceName: " + leaseName)
        .replace("profiles:\n", "profiles:\n  - schedulerName: " + KUBE_ONLY + "\n");
    assertTrue(text.contains("resourceName: " + leaseName), SAMPLE_CONFIG + " names its lease as expected: " + text);
    assertTrue(text.contains("name: AvoidDrainingNodes"), SAMPLE_CONFIG + " enables the plugin: " + text);
    assertTrue(text.contains("schedulerName: " + KUBE_ONLY), text);
    var dir = Files.createDirectories(Path.of("target", "custom-plugin-server-it").toAbsolutePath());
    config = dir.resolve(namespace + "-config.yaml");
    Files.writeString(config, text);
    log = dir.resolve(namespace + ".log");
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (var process : processes) {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor();
        }
      }
    }
  }

  @Test
  void pods_are_placed_as_the_registered_plugin_decides_and_one_it_refuses_everywhere_stays_pending_with_its_reason()
      throws Exception {
    // node-a half full, node-b empty: kube's least allocated scoring picks node-b. Both are being drained before the
    // server starts, so that its first list sees the labels (a label added later may reach it after a pod).
    createNodesOfDifferentFill();
    label("node-a", "retiring");
    label("node-b", "draining");
    var server = start();
    eventually(WAIT, "the sample server holds the lease " + leaseNamespace + "/" + leaseName, () -> {
      if (!server.isAlive()) {
        fail("the sample server exited with " + server.exitValue());
      }
      return !leaseHolder().isEmpty();
    });

    assertEquals("node-b", place("kube-only", KUBE_ONLY), "kube's plugins alone, in the same process: node-b");

    create(admin, pod(namespace, "platform", PROFILE, "100m", "200Mi"));
    eventually(WAIT, "a FailedScheduling event regarding the pod", () -> failedScheduling("platform").isPresent());
    var note = failedScheduling("platform").orElseThrow().getNote();
    assertTrue(note.startsWith("0/2 nodes are available: 2 node(s) were being drained."), note);
    assertEquals("", nodeOf("platform"), "the pod every node refuses stays Pending");
    eventually(WAIT, "the pending pod is PodScheduled=False",
        () -> podScheduled("platform").map(c -> "False".equals(c.getStatus())).orElse(false));

    // node-a stops draining: the pending pod goes there, although kube's plugins prefer node-b, still draining.
    label("node-a", "ready");
    eventually(WAIT, "the pending pod is bound once node-a is no longer drained", () -> !nodeOf("platform").isEmpty());
    assertEquals("node-a", nodeOf("platform"), "AvoidDrainingNodes keeps the pod off node-b");
    assertTrue(server.isAlive(), "the sample server kept running");
    assertFalse(leaseHolder().isEmpty(), "the sample server still holds the lease");
  }

  /**
   * Starts the sample's jar with the test's configuration, as the restricted identity. The one place that knows the
   * server's command line.
   */
  private Process start() throws IOException {
    var jar = Path.of(System.getProperty("kubesched.customPluginServerJar",
        "../../samples/custom-plugin-server/target/kubesched-sample-custom-plugin-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build samples/custom-plugin-server first (the e2e"
        + " profile's reactor does, ./mvnw verify -Pe2e -pl tools/e2e -am)");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var process = new ProcessBuilder(
        java,
        "-jar", jar.toString(),
        "--config", config.toString(),
        "--kubeconfig", cluster.schedulerKubeconfig().toString(),
        "--secure-port", "0")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    processes.add(process);
    return process;
  }

  /** @return {@code config.yaml} of the ConfigMap in {@link ServerIT#DEPLOYED_CONFIG} */
  private String deployedConfig() throws IOException {
    try (var yaml = Files.newInputStream(RealClusterExtension.projectDir().resolve(ServerIT.DEPLOYED_CONFIG))) {
      var text = admin.configMaps().load(yaml).item().getData().get("config.yaml");
      assertTrue(text != null && !text.isBlank(), ServerIT.DEPLOYED_CONFIG + " has no config.yaml");
      return text;
    }
  }

  private void label(String node, String state) {
    admin.nodes().withName(node).edit(n -> new NodeBuilder(n).editMetadata().addToLabels(DRAIN_LABEL, state)
        .endMetadata().build());
  }

  private Optional<Event> failedScheduling(String pod) {
    return eventsAbout(pod).stream().filter(e -> "FailedScheduling".equals(e.getReason())).findFirst();
  }

  /** @return the lease's holder; empty if it has none or does not exist */
  private String leaseHolder() {
    var lease = admin.resources(Lease.class).inNamespace(leaseNamespace).withName(leaseName).get();
    var holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }


  /** The end of the server's log, added to a failure. */
  private static final class ServerLog extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    ServerLog(String tail) {
      super(tail, null, false, false);
    }
  }
}
