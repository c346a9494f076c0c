package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kubesched.facade.Options;
import java.io.IOException;
import java.io.Serial;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * samples/spring-boot-app, the Spring Boot application on kubesched-spring-boot-starter, as a process of its own:
 * {@code java -jar kubesched-sample-spring-boot-app.jar} (its path comes from the failsafe configuration) on the
 * real API server, as the restricted identity, with the sample's {@code application.yaml} (scheduler name
 * {@value #SAMPLE}, leader election on) and only the kubeconfig and the Lease's namespace given on the command
 * line. Its policy, kube-scheduler's defaults plus spot nodes first, decides where the pods go; the process leads,
 * and releases its Lease on SIGTERM.
 *
 * <p>The process's standard output and error go to {@code target/spring-boot-sample-it/<namespace>.log}; a failing
 * test gets its end as a suppressed exception.
 */
class SpringBootSampleIT extends RealClusterTest {

  /** The scheduler name in the sample's application.yaml; also its Lease's name. */
  static final String SAMPLE = "spot-first";

  /** How long the SIGTERMed application may take: the controller's shutdown timeout, plus room. */
  private static final Duration STOP_WAIT = Options.DEFAULT_SHUTDOWN_TIMEOUT.plusSeconds(30);

  private @Nullable Process process;
  private @Nullable Path log;

  /** Adds the end of the application's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler sampleLog = (context, failure) -> {
    if (log != null) {
      failure.addSuppressed(new SampleLog(tail()));
    }
    throw failure;
  };

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void the_samples_policy_puts_pods_on_spot_nodes_where_they_fit_and_it_leads_until_sigterm() throws Exception {
    createReady(tier(node("on-demand-0", "8", "16Gi", "110"), "on-demand"));
    createReady(tier(node("spot-0", "2", "16Gi", "110"), "spot")); // smaller: the defaults alone prefer on-demand-0
    start();
    eventually(WAIT, "the application says it is ready and leads", () -> {
      if (!process.isAlive()) {
        fail("the application exited with " + process.exitValue());
      }
      var text = log();
      return text.contains("Ready: scheduling the pods of " + SAMPLE + " (synced: true")
          && text.contains("Leading: acquired the lease " + namespace + "/" + SAMPLE);
    });
    assertFalse(leaseHolder().isEmpty(), "the application holds the lease " + namespace + "/" + SAMPLE);

    assertEquals("spot-0", place("web", SAMPLE), "spot first");
    create(admin, pod(namespace, "big", SAMPLE, "3", "1Gi"));
    eventually(WAIT, "big is bound", () -> !nodeOf("big").isEmpty());
    assertEquals("on-demand-0", nodeOf("big"), "too big for the spot node: the default filters still decide");
    create(admin, new PodBuilder(pod(namespace, "db", SAMPLE, "100m", "200Mi"))
        .editMetadata().addToLabels("tier", "on-demand").endMetadata().build());
    eventually(WAIT, "db is bound", () -> !nodeOf("db").isEmpty());
    assertEquals("on-demand-0", nodeOf("db"), "a pod that asks for on-demand capacity");

    process.destroy();
    assertTrue(process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS), "exited within " + STOP_WAIT);
    assertTrue(log().contains("Scheduler [" + SAMPLE + "] stopped"), "the controller closed with the context");
    assertEquals("", leaseHolder(), "the lease released on SIGTERM");
  }

  private static io.fabric8.kubernetes.api.model.Node tier(io.fabric8.kubernetes.api.model.Node node, String tier) {
    return new NodeBuilder(node).editMetadata().addToLabels("tier", tier).endMetadata().build();
  }

  /** Starts the sample as the restricted identity, its Lease in this test's namespace, granted as documented. */
  private void start() throws IOException {
    LeaseRbac.grant(admin, namespace, SAMPLE);
    var jar = Path.of(System.getProperty("kubesched.sampleBootJar",
        "../../samples/spring-boot-app/target/kubesched-sample-spring-boot-app.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: package samples/spring-boot-app first (the e2e"
        + " profile's reactor does, ./mvnw verify -Pe2e -pl tools/e2e -am)");
    assertTrue(FabricLines.nestedJars(jar).stream().anyMatch(name -> name.startsWith("BOOT-INF/lib/kubernetes-client-8.")),
        "the sample runs on fabric8 8, as Spring Boot 4 does: " + FabricLines.nestedJars(jar));
    var logs = Files.createDirectories(Path.of("target", "spring-boot-sample-it").toAbsolutePath());
    log = logs.resolve(namespace + ".log");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    process = new ProcessBuilder(
        java,
        "-jar", jar.toString(),
        "--kubesched.kubeconfig=" + cluster.schedulerKubeconfig(),
        "--kubesched.leader-election.lease-namespace=" + namespace)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** @return the lease's holder; empty if it has none (released) or does not exist */
  private String leaseHolder() {
    var lease = admin.resources(Lease.class).inNamespace(namespace).withName(SAMPLE).get();
    var holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  private String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** @return its exit status if it exited, and the last 60 lines of its log */
  private String tail() {
    var lines = log().lines().toList();
    return "the sample application (log " + log + ") "
        + (process == null ? "never started" : process.isAlive() ? "is running" : "exited with " + process.exitValue())
        + "; the end of its log:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  /** The end of the application's log, added to a failure. */
  private static final class SampleLog extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    SampleLog(String tail) {
      super(tail, null, false, false);
    }
  }
}
