package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The java-operator-sdk sample ({@code samples/josdk-operator}) as a process of its own: {@code java -jar
 * kubesched-sample-josdk-operator.jar} (the jar the sample shades; its path comes from the failsafe configuration)
 * on the real API server, with java-operator-sdk's leader election on a Lease of the test's namespace. It runs with
 * the admin kubeconfig: the sample needs BatchJobs and their status, pods and their bindings, events, nodes and
 * the rest the scheduler watches, and Leases, and no RBAC for that ships with it.
 *
 * <p>Two teams' BatchJobs on four nodes of 4 CPU, each worker asking for 1 CPU: every worker is bound, each team's
 * workers on the fewest nodes that hold them (4 a node), the teams on different nodes, and each job's status says
 * how many are placed and where; a BatchJob with {@code workers: 0} is marked Invalid with a message naming the
 * field and value. The process's output goes to {@code target/josdk-sample-it/<namespace>.log}; a failing test
 * gets its end as a suppressed exception.
 */
class JosdkSampleIT extends RealClusterTest {

  /** The sample's hand-written CRD, relative to the reactor's root. */
  static final String CRD = "samples/josdk-operator/src/main/resources/batchjobs.samples.kubesched.io.yaml";

  static final String API_VERSION = "samples.kubesched.io/v1";
  static final String KIND = "BatchJob";
  static final String TEAM_LABEL = "samples.kubesched.io/team";
  static final String JOB_LABEL = "samples.kubesched.io/job";
  static final String LEASE = "batch-operator";
  private static final int CPUS_PER_NODE = 4;
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private @Nullable Process operator;
  private Path log = Path.of("unset");

  /** Adds the end of the operator's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler operatorLog = (context, failure) -> {
    failure.addSuppressed(new OperatorLog(tail()));
    throw failure;
  };

  @BeforeEach
  void installCrd() throws IOException {
    RealClusterExtension.applyCrd(admin, RealClusterExtension.projectDir().resolve(CRD));
    var logs = Files.createDirectories(Path.of("target", "josdk-sample-it").toAbsolutePath());
    log = logs.resolve(namespace + ".log");
  }

  @AfterEach
  void stopOperator() throws InterruptedException {
    if (operator != null && operator.isAlive()) {
      operator.destroy();
      if (!operator.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        operator.destroyForcibly().waitFor();
      }
    }
    jobs().delete();
  }

  @Test
  void each_team_is_packed_onto_the_fewest_nodes_apart_from_the_other_and_the_status_says_where()
      throws Exception {
    for (int i = 0; i < 4; i++) {
      createReady(node("node-" + i, String.valueOf(CPUS_PER_NODE), "16Gi", "110"));
    }
    start();
    eventually(WAIT, "the operator holds the Lease " + namespace + "/" + LEASE, () -> {
      assertAlive();
      return !leaseHolder().isEmpty();
    });
    eventually(WAIT, "the operator says it leads", () -> log().contains("Elected leader: batch-scheduler schedules"));

    var teams = Map.of("red", 6, "blue", 3);
    teams.forEach((team, workers) -> createJob(team + "-job", team, workers));
    createJob("empty-job", "green", 0);

    int total = teams.values().stream().mapToInt(Integer::intValue).sum();
    eventually(WAIT, "all " + total + " workers are bound", () -> {
      assertAlive();
      return bound().size() == total;
    });

    // Where the workers went: each team on the fewest nodes its workers fit on, the teams apart.
    Map<String, Set<String>> nodesOfTeam = new TreeMap<>();
    for (var pod : workers()) {
      assertEquals("batch-scheduler", pod.getSpec().getSchedulerName(), pod.getMetadata().getName());
      var owner = pod.getMetadata().getOwnerReferences().get(0);
      assertEquals(List.of(KIND, pod.getMetadata().getLabels().get(JOB_LABEL), true),
          List.of(owner.getKind(), owner.getName(), owner.getController()), pod.getMetadata().getName());
      nodesOfTeam.computeIfAbsent(pod.getMetadata().getLabels().get(TEAM_LABEL), t -> new HashSet<>())
          .add(pod.getSpec().getNodeName());
    }
    teams.forEach((team, workers) -> assertEquals((workers + CPUS_PER_NODE - 1) / CPUS_PER_NODE,
        nodesOfTeam.get(team).size(), team + "'s " + workers + " workers of 1 CPU on 4-CPU nodes: " + nodesOfTeam));
    assertTrue(Collections.disjoint(nodesOfTeam.get("red"), nodesOfTeam.get("blue")),
        "the teams share a node: " + nodesOfTeam);

    // What each job's status says: every worker placed, and where, as the API server has it.
    var bound = bound();
    for (var entry : teams.entrySet()) {
      var job = entry.getKey() + "-job";
      var expectedNodes = new TreeMap<String, String>();
      bound.forEach((pod, node) -> {
        if (pod.startsWith(job + "-worker-")) {
          expectedNodes.put(pod, node);
        }
      });
      assertEquals(entry.getValue(), expectedNodes.size(), job + "'s workers");
      eventually(WAIT, job + "'s status says every worker is placed",
          () -> "Placed".equals(status(job).get("phase")));
      var status = status(job);
      assertEquals(entry.getValue(), ((Number) status.get("placed")).intValue(), job + ": " + status);
      assertEquals(expectedNodes, new TreeMap<>(nodes(status)), job + ": " + status);
      assertTrue(String.valueOf(status.get("message")).startsWith(entry.getValue() + " of " + entry.getValue()
          + " workers placed on "), job + ": " + status);
    }

    // A spec the operator cannot run: marked Invalid, naming the field and its value, and no worker made for it.
    eventually(WAIT, "empty-job is marked Invalid", () -> "Invalid".equals(status("empty-job").get("phase")));
    assertEquals("spec.workers must be at least 1, was 0", status("empty-job").get("message"));
    assertTrue(workers().stream().noneMatch(p -> "empty-job".equals(p.getMetadata().getLabels().get(JOB_LABEL))));

    assertFalse(log().contains("] ERROR "), "the operator logged an error");

    // SIGTERM: the operator, then the scheduler, then the shared client are closed, in that order.
    var process = Objects.requireNonNull(operator);
    process.destroy();
    assertTrue(process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS), "the operator did not exit on SIGTERM");
    assertTrue(log().contains("BatchJob operator stopped"), "the operator did not say it stopped");
  }

  private void start() throws IOException {
    var jar = Path.of(System.getProperty("kubesched.josdkSampleJar",
        "../../samples/josdk-operator/target/kubesched-sample-josdk-operator.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build the sample first (the e2e profile's reactor"
        + " does, ./mvnw verify -Pe2e -pl tools/e2e -am)");
    assertEquals("7", FabricLines.builtFor(jar, "io/kubesched/fabric8/fabric8-line.properties").split("\\.")[0],
        "the sample runs on kubesched's fabric8 7 line, as java-operator-sdk 5 does");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    operator = new ProcessBuilder(
        java,
        "-jar", jar.toString(),
        "--kubeconfig", cluster.adminKubeconfig().toString(),
        "--leader-election-namespace", namespace,
        "--lease-name", LEASE)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private void assertAlive() {
    var process = Objects.requireNonNull(operator);
    if (!process.isAlive()) {
      fail("the operator exited with " + process.exitValue());
    }
  }

  private NonNamespaceOperation<GenericKubernetesResource,
      GenericKubernetesResourceList, Resource<GenericKubernetesResource>> jobs() {
    return admin.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace);
  }

  private void createJob(String name, String team, int workers) {
    jobs().resource(new GenericKubernetesResourceBuilder()
        .withApiVersion(API_VERSION)
        .withKind(KIND)
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .addToAdditionalProperties("spec", Map.of("team", team, "workers", workers, "cpu", "1", "memory", "1Gi"))
        .build()).create();
  }

  /** @return the job's status as the API server has it; empty if it has none yet */
  private Map<String, Object> status(String job) {
    var resource = jobs().withName(job).get();
    Object status = resource == null ? null : resource.getAdditionalProperties().get("status");
    @SuppressWarnings("unchecked")
    var map = status instanceof Map<?, ?> ? (Map<String, Object>) status : Map.<String, Object>of();
    return map;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> nodes(Map<String, Object> status) {
    var nodes = status.get("nodes");
    return nodes instanceof Map<?, ?> ? (Map<String, String>) nodes : Map.of();
  }

  private List<Pod> workers() {
    return admin.pods().inNamespace(namespace).withLabel(JOB_LABEL).list().getItems();
  }

  /** @return the workers that are bound, with their nodes */
  private Map<String, String> bound() {
    var bound = new HashMap<String, String>();
    for (var pod : workers()) {
      var node = pod.getSpec().getNodeName();
      if (node != null && !node.isEmpty()) {
        bound.put(pod.getMetadata().getName(), node);
      }
    }
    return bound;
  }

  /** @return the Lease's holder; empty if it has none or does not exist */
  private String leaseHolder() {
    var lease = admin.resources(Lease.class).inNamespace(namespace).withName(LEASE).get();
    var holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  private String log() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }

  /** @return whether the operator runs or how it exited, and the last 80 lines of its log */
  private String tail() {
    var lines = log().lines().toList();
    var process = operator;
    return "the operator" + (process == null ? " was not started"
        : process.isAlive() ? " is running" : " exited with " + process.exitValue())
        + " (log " + log + "); the end of its log:\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
  }

  /** The end of the operator's log, added to a failure. */
  private static final class OperatorLog extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    OperatorLog(String tail) {
      super(tail, null, false, false);
    }
  }
}
