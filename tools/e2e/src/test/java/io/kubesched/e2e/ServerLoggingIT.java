package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import java.io.IOException;
import java.io.Serial;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * kubesched-server's log as a platform ingests it, from the server jar run as a process on the real API server
 * (as {@link ServerIT} runs it): JSON lines that parse and carry the pod and node of a bound pod; with the lease
 * rights taken away, one line naming the identity, the verb and the resource, and no stack trace; a start that
 * fails for want of rights, one line on standard error. Only the log and the cluster are read, not the server's
 * endpoints. Each identity here is a service account of the test's namespace with a token from the TokenRequest
 * API, bound to a ClusterRole of its own, so the shared {@code kubesched} role stays as it is.
 */
class ServerLoggingIT extends RealClusterTest {

  private static final String PROFILE = "kubesched-logging";
  /** How long the lease is tried without rights before the log is read: several of kube's 2 s retry periods. */
  private static final Duration RETRIES = Duration.ofSeconds(9);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final List<Server> servers = new ArrayList<>();
  private final List<String> clusterObjects = new ArrayList<>();
  private Path dir;

  /** Adds the end of every server's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler serverLogs = (context, failure) -> {
    for (var server : servers) {
      failure.addSuppressed(new ServerLog(server.describe()));
    }
    throw failure;
  };

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createDirectories(Path.of("target", "server-logging-it").toAbsolutePath());
  }

  @AfterEach
  void cleanUp() throws InterruptedException {
    for (var server : servers) {
      server.close();
    }
    for (var name : clusterObjects) {
      admin.rbac().clusterRoleBindings().withName(name).delete();
      admin.rbac().clusterRoles().withName(name).delete();
    }
  }

  @Test
  void json_lines_parse_and_a_bound_pod_has_its_pod_node_and_profile_as_fields() throws Exception {
    createReady(node("node-0", "4", "8Gi", "110"));
    var server = start("json", cluster.schedulerKubeconfig(), config(false), "--logging-format=json", "-v=2");
    create(admin, pod(namespace, "p", PROFILE, "100m", "64Mi"));
    eventually(WAIT, "p is bound", () -> "node-0".equals(nodeOf("p")));
    eventually(WAIT, "a line about p that names its node", () -> server.lines().stream()
        .map(ServerLoggingIT::json)
        .anyMatch(l -> (namespace + "/p").equals(text(l, "pod")) && "node-0".equals(text(l, "node"))
            && PROFILE.equals(text(l, "profile"))));

    for (var line : server.lines()) {
      var object = json(line);
      for (var field : List.of("time", "level", "logger", "message")) {
        assertTrue(object.hasNonNull(field), field + " missing in " + line);
      }
      assertTrue(object.get("time").asString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), line);
    }
  }

  @Test
  void without_lease_rights_one_line_names_the_identity_the_verb_and_the_resource_and_no_stack_follows()
      throws Exception {
    var account = "kubesched-nolease";
    var rules = documentedRules().stream()
        .filter(r -> !r.getApiGroups().contains("coordination.k8s.io"))
        .toList();
    var kubeconfig = identity(account, rules);
    var server = start("nolease", kubeconfig, config(true));
    var identity = "system:serviceaccount:" + namespace + ":" + account;
    eventually(WAIT, "the refusal is logged", () -> server.log().contains("Leader election cannot get the lease"));
    Thread.sleep(RETRIES.toMillis()); // fabric8 tries again every retry period: the line must not repeat

    var refusals = server.lines().stream().filter(l -> l.contains("Leader election cannot")).toList();
    assertEquals(1, refusals.size(), "logged once, not every retry period: " + refusals);
    var line = refusals.get(0);
    assertTrue(line.contains(" WARN  LeaderElection "), line);
    assertTrue(line.contains(identity), "names the identity: " + line);
    assertTrue(line.contains("cannot get resource \"leases\""), "names the verb and the resource: " + line);
    assertTrue(line.contains("403"), line);
    var log = server.log();
    assertFalse(log.contains("does not answer"), log);
    assertFalse(hasStack(log), "a stack trace at the default verbosity:\n" + log);
    assertTrue(server.alive(), "the server keeps campaigning");
  }

  @Test
  void a_start_refused_for_want_of_rights_is_one_line_on_standard_error() throws Exception {
    var kubeconfig = identity("kubesched-norights", List.of());
    var server = start("norights", kubeconfig, config(false));
    assertTrue(server.process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the server gives up");
    assertEquals(1, server.process.exitValue(), server.describe());
    var errors = server.lines().stream().filter(l -> l.startsWith("kubesched-server: ")).toList();
    assertEquals(1, errors.size(), server.describe());
    var error = errors.get(0);
    assertTrue(error.contains("403: ") && error.contains("system:serviceaccount:" + namespace + ":kubesched-norights")
        && error.contains("cannot list resource"), "names the answer, the identity, the verb and the resource: " + error);
    assertFalse(error.contains("Received status"), "fabric8's wrapping: " + error);
    assertFalse(hasStack(server.log()), "a stack trace at the default verbosity:\n" + server.log());
  }

  private static boolean hasStack(String log) {
    return log.lines().anyMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by: ") || l.matches("\\s+at .*"));
  }

  private static JsonNode json(String line) {
    try {
      return JSON.readTree(line);
    } catch (JacksonException e) {
      throw new AssertionError("not a JSON object: " + line, e);
    }
  }

  private static String text(JsonNode line, String field) {
    var value = line.get(field);
    return value == null ? "" : value.asString();
  }

  /** @return the rules of the ClusterRole docs/operations.md documents, as the suite applied it */
  private List<PolicyRule> documentedRules() {
    ClusterRole role = admin.rbac().clusterRoles().withName("kubesched").get();
    assertTrue(role != null, "the suite applies the documented ClusterRole kubesched");
    return role.getRules();
  }

  /**
   * A service account of this test's namespace allowed exactly {@code rules} (cluster-wide), and a kubeconfig
   * with a token of it.
   */
  private Path identity(String account, List<PolicyRule> rules) throws IOException {
    admin.serviceAccounts().inNamespace(namespace)
        .resource(new ServiceAccountBuilder().withNewMetadata().withName(account).endMetadata().build()).create();
    var name = namespace + "-" + account;
    clusterObjects.add(name);
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(name).endMetadata()
        .withRules(rules).build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", name)
        .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace).endSubject()
        .build()).create();
    var token = admin.serviceAccounts().inNamespace(namespace).withName(account)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus().getToken();
    var restricted = Files.readString(cluster.schedulerKubeconfig());
    var kubeconfig = dir.resolve(namespace + "-" + account + ".kubeconfig");
    Files.writeString(kubeconfig, restricted.replaceAll("(?m)^(\\s+token: ).*$", "$1" + token));
    return kubeconfig;
  }

  /** @return a configuration file with one profile, {@value #PROFILE}; with leader election on a lease here */
  private Path config(boolean leaderElect) throws IOException {
    var file = dir.resolve(namespace + "-config-" + leaderElect + ".yaml");
    Files.writeString(file, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        leaderElection:
          leaderElect: %s
          resourceLock: leases
          resourceNamespace: %s
          resourceName: %s
        profiles:
          - schedulerName: %s
        """.formatted(leaderElect, namespace, PROFILE, PROFILE));
    return file;
  }

  /**
   * Starts the server jar with {@code config} as the identity of {@code kubeconfig}, without SchedulingPolicies
   * (no identity here may read them), and {@code logging}'s flags. The one place that knows the server's
   * command line besides the logging flags.
   */
  private Server start(String name, Path kubeconfig, Path config, String... logging) throws IOException {
    var jar = Path.of(System.getProperty("kubesched.serverJar", "../../scheduler-server/target/kubesched-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build scheduler-server first (the e2e profile's"
        + " reactor does, ./mvnw verify -Pe2e -pl tools/e2e -am)");
    var log = dir.resolve(namespace + "-" + name + ".log");
    var command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(),
        "--config", config.toString(),
        "--kubeconfig", kubeconfig.toString(),
        "--secure-port", "0",
        "--no-policy-crd"));
    command.addAll(List.of(logging));
    // Standard output stays apart: the server writes its log and its one-line errors to standard error only.
    var process = new ProcessBuilder(command)
        .redirectError(log.toFile())
        .redirectOutput(dir.resolve(namespace + "-" + name + ".out").toFile())
        .start();
    var server = new Server(name, process, log);
    servers.add(server);
    return server;
  }

  /** One server process and its standard error. Used by the test thread only. */
  private record Server(String name, Process process, Path file) {
    boolean alive() {
      return process.isAlive();
    }

    String log() {
      try {
        return Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    List<String> lines() {
      return log().lines().filter(l -> !l.isBlank()).toList();
    }

    String describe() {
      var lines = lines();
      return "server '" + name + "' (pid " + process.pid() + ", "
          + (process.isAlive() ? "running" : "exited with " + process.exitValue()) + "), the end of " + file + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    void close() throws InterruptedException {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
      }
    }
  }

  /** The end of a server's log, added to a failure. */
  private static final class ServerLog extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    ServerLog(String tail) {
      super(tail, null, false, false);
    }
  }
}
