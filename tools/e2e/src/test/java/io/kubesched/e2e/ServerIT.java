package io.kubesched.e2e;

import static io.kubesched.e2e.SchedulingPolicyFixture.awaitAccepted;
import static io.kubesched.e2e.SchedulingPolicyFixture.grantPolicyRules;
import static io.kubesched.e2e.SchedulingPolicyFixture.installCrd;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static io.kubesched.facade.FakeClusterFixture.recordNodes;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kubesched.crd.SchedulingPolicy;
import io.kubesched.crd.SchedulingPolicySpec.Plugin;
import io.kubesched.crd.SchedulingPolicySpec.PluginConfig;
import io.kubesched.crd.SchedulingPolicySpec.PluginSet;
import io.kubesched.crd.SchedulingPolicySpec.Plugins;
import io.kubesched.crd.SchedulingPolicySpec;
import io.kubesched.crd.SchedulingPolicyStatus;
import io.kubesched.facade.Options;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.config.SchedulerProfile;
import io.kubesched.testcluster.InsecureHttps;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.function.Executable;

/**
 * kubesched-server, the runnable scheduler, as a process of its own: {@code java -jar kubesched-server.jar} (the
 * jar scheduler-server packages; its path comes from the failsafe configuration) on the real API server, running
 * as the restricted identity (the RBAC of docs/operations.md) with the SchedulingPolicy rules added, and configured with the
 * KubeSchedulerConfiguration that {@code deploy/}'s ConfigMap ships, unchanged: two profiles, {@value #LEAST}
 * (kube-scheduler's default plugins, least allocated) and {@value #MOST} (most allocated), and leader election on
 * the Lease {@code kubesched/kubesched}. Leader election stays on because the Deployment runs it so: the tests see
 * a follower ready but idle, and the lease released on SIGTERM and taken by the next process.
 *
 * <p>Each process's standard output and error go to {@code target/server-it/<namespace>-<name>.log}, with the
 * server's per-decision lines ({@code DecisionLog}) and per-binding lines ({@code Binder}: the answer to every
 * binding POST) turned on by {@code -v=4}; a failing test gets the end of every log it started as suppressed exceptions.
 */
class ServerIT extends RealClusterTest {

  /** The profile with kube-scheduler's default plugins: least allocated. */
  static final String LEAST = "kubesched";

  /** The profile that packs: most allocated. */
  static final String MOST = "kubesched-packing";

  /**
   * The system property naming a directory where each server started writes the classes it loaded ({@code
   * -XX:DumpLoadedClassList}), one file per process: what {@code scheduler-server/src/image/class-list.sh} merges
   * into the image's class-data-sharing list. Unset (in CI), the lists go beside the logs; either way each is checked
   * when its server has stopped ({@link #assertNoModelRegistry}).
   */
  static final String CLASS_LISTS = "kubesched.classLists";

  /** The ConfigMap whose {@code config.yaml} the server runs with. */
  static final String DEPLOYED_CONFIG = "deploy/03-config.yaml";

  private static final String POLICY = "e2e-server-policy";
  private static final int BURST = 200;
  private static final Duration BURST_WAIT = Duration.ofMinutes(3);
  /** How long a SIGTERMed server may take: the controller's shutdown timeout, plus room for a loaded machine. */
  private static final Duration STOP_WAIT = Options.DEFAULT_SHUTDOWN_TIMEOUT.plusSeconds(30);
  private static final Pattern BINDING_POST = Pattern.compile("POST binding (\\S+)/(\\S+) -> (\\S+): (\\d+)");

  private final List<Server> servers = new ArrayList<>();
  private final HttpClient http = InsecureHttps.client();
  /** A service account token that may get /metrics (the probes need none). */
  private String metricsToken;
  private String metricsBinding;
  private Path logs;
  private Path config;
  private String leaseNamespace;
  private String leaseName;

  /** Adds the end of every server's log to a failure. */
  @RegisterExtension
  final TestExecutionExceptionHandler serverLogs = (context, failure) -> {
    for (var server : servers) {
      failure.addSuppressed(new ServerLog(server.tail()));
    }
    throw failure;
  };

  @BeforeEach
  void setUp() throws IOException {
    installCrd(admin);
    grantPolicyRules(admin);
    SecureServingFixture.grantReviews(admin);
    metricsToken = SecureServingFixture.token(admin, namespace, "metrics-reader");
    metricsBinding = SecureServingFixture.grantMetrics(admin, namespace, "metrics-reader");
    var text = deployedConfig();
    var parsed = SchedulerConfiguration.parse(text, DEPLOYED_CONFIG);
    assertEquals(List.of(LEAST, MOST), parsed.profiles().stream().map(SchedulerProfile::schedulerName).toList(),
        DEPLOYED_CONFIG + "'s profiles, which this test's pods name");
    assertTrue(parsed.leaderElection().leaderElect(), DEPLOYED_CONFIG + " runs with leader election");
    leaseNamespace = parsed.leaderElection().resourceNamespace();
    leaseName = parsed.leaderElection().resourceName();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(leaseNamespace).endMetadata()
        .build()).serverSideApply();
    LeaseRbac.grant(admin, leaseNamespace, leaseName);
    logs = Files.createDirectories(Path.of("target", "server-it").toAbsolutePath());
    config = logs.resolve(namespace + "-config.yaml");
    Files.writeString(config, text);
  }

  @AfterEach
  void stopServers() throws InterruptedException {
    for (var server : servers) {
      server.close();
    }
    admin.resources(SchedulingPolicy.class).withName(POLICY).delete();
    admin.rbac().clusterRoleBindings().withName(metricsBinding).delete();
    assertAll(servers.stream().<Executable>map(server -> () -> assertNoModelRegistry(server)));
  }

  /**
   * Checks that {@code server}, now stopped, never loaded fabric8's model registry: its default serialization loads
   * every model class its jars list as services (about 500) the first time it decodes an object whose kind it must
   * look up, and a server that reads its kubeconfigs or watches through a lean serialization never does. The gateway
   * API's classes stand for the registry: nothing in a scheduler reads them. They were in every server's list until
   * the review clients' kubeconfigs and the SchedulingPolicy watch stopped using the default serialization, and
   * the image's class-data-sharing list is made from these servers' lists.
   */
  private static void assertNoModelRegistry(Server server) throws IOException {
    var loaded = Files.readAllLines(server.classList, StandardCharsets.UTF_8);
    assertTrue(loaded.stream().anyMatch(line -> line.startsWith("io/kubesched/server/")),
        server + " listed no class of the server in " + server.classList);
    var registry = loaded.stream()
        .filter(line -> line.startsWith("io/fabric8/kubernetes/api/model/gatewayapi/"))
        .map(line -> line.split(" ", 2)[0])
        .toList();
    assertTrue(registry.isEmpty(), () -> server + " loaded fabric8's model registry (" + registry.size()
        + " gateway API classes, the first " + registry.get(0) + "; " + server.classList + ")");
    var builders = loaded.stream()
        .map(line -> line.split(" ", 2)[0])
        .filter(MODEL_BUILDERS::contains)
        .toList();
    assertTrue(builders.isEmpty(), () -> server + " loaded the builders of model classes it decodes (" + builders
        + "; " + server.classList + "): the lean serialization decodes the model from its fields so that Jackson"
        + " never lists a model class's methods, whose edit() and toBuilder() load them");
  }

  /**
   * Builders of model classes every scheduler decodes and no server code builds: the lean serialization's field
   * decoding keeps them out (about 600 such classes, 7 MiB of the class-data archive, docs/performance.md).
   */
  private static final Set<String> MODEL_BUILDERS = Set.of(
      "io/fabric8/kubernetes/api/model/PodSpecFluent",
      "io/fabric8/kubernetes/api/model/ContainerFluent",
      "io/fabric8/kubernetes/api/model/NodeStatusFluent",
      "io/fabric8/kubernetes/api/model/NodeSpecFluent");

  @Test
  void each_profile_places_by_its_strategy_and_a_scheduling_policy_changes_one_without_a_restart()
      throws Exception {
    createNodesOfDifferentFill();
    var leader = start("leader");
    awaitReady(leader);
    assertEquals(200, get(leader, "/healthz").status());

    assertEquals("node-b", place("least-0", LEAST), LEAST + " places on the emptier node");
    assertEquals("node-a", place("most-0", MOST), MOST + " places on the fuller node");

    // /metrics: Prometheus text under kube-scheduler's names, one scheduled attempt per profile.
    eventually(WAIT, "/metrics counts one scheduled attempt per profile", () -> {
      var body = get(leader, "/metrics").body();
      return body.contains(scheduledAttempts(LEAST, 1)) && body.contains(scheduledAttempts(MOST, 1));
    });
    var metrics = get(leader, "/metrics");
    assertEquals(200, metrics.status());
    assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.contentType());
    assertTrue(metrics.body().contains("# TYPE scheduler_schedule_attempts_total counter"), metrics.body());
    assertTrue(metrics.body().contains("scheduler_scheduling_attempt_duration_seconds_bucket{"), metrics.body());

    // A second replica: ready as a follower, binding nothing, and leaving the leader's lease alone when it stops.
    var holder = leaseHolder();
    assertFalse(holder.isEmpty(), "the leader holds the lease " + leaseNamespace + "/" + leaseName);
    var follower = start("follower");
    awaitReady(follower);
    assertEquals("node-b", place("least-1", LEAST));
    assertEquals(holder, leaseHolder());
    assertEquals(0, follower.stop(STOP_WAIT), "the follower's exit status");
    assertFalse(follower.log().contains("POST binding"), "the follower bound a pod");
    assertEquals(holder, leaseHolder(), "the follower's exit left the leader's lease alone");

    // A SchedulingPolicy switches the least allocated profile to most allocated: its next pod goes to the fuller
    // node, in the same process.
    var policies = admin.resources(SchedulingPolicy.class);
    policies.resource(SchedulingPolicy.of(POLICY,
        new SchedulingPolicySpec(LEAST, null, null, List.of(mostAllocated())))).create();
    assertEquals(SchedulingPolicyStatus.REASON_ACCEPTED, awaitAccepted(admin, POLICY, "True", WAIT).getReason());
    assertEquals("node-a", place("least-2", LEAST), "the policy's most allocated");
    assertEquals("node-a", place("most-1", MOST));

    // Changed to one that passes the schema but names a plugin kubesched does not have: refused, naming the
    // field; the profile keeps its last good policy, the SchedulingPolicy's most allocated, not the file's.
    policies.withName(POLICY).edit(p -> {
      p.setSpec(new SchedulingPolicySpec(LEAST, null,
          Plugins.DEFAULTS.withScore(new PluginSet(List.of(new Plugin("NoSuchPlugin", 1)), null)), null));
      return p;
    });
    var rejected = awaitAccepted(admin, POLICY, "False", WAIT);
    assertEquals(SchedulingPolicyStatus.REASON_INVALID, rejected.getReason());
    assertTrue(rejected.getMessage().contains("spec.plugins.score"), rejected.getMessage());
    assertTrue(rejected.getMessage().contains("NoSuchPlugin"), rejected.getMessage());
    assertEquals("node-a", place("least-3", LEAST), "the last good policy's most allocated");
    assertEquals("node-a", place("most-2", MOST));

    // Deleted: back to the file's least allocated (the server hears of the deletion asynchronously, so a pod
    // or two may still be placed by the last good policy).
    policies.withName(POLICY).delete();
    eventually(WAIT, "the policy is gone", () -> policies.withName(POLICY).get() == null);
    boolean fellBack = false;
    for (int i = 0; i < 20 && !fellBack; i++) {
      fellBack = "node-b".equals(place("after-" + i, LEAST));
    }
    assertTrue(fellBack, "no pod went back to the emptier node after the policy was deleted");

    assertTrue(leader.alive(), "the leader was never restarted");
    assertEquals(holder, leaseHolder());
    var log = leader.log();
    assertFalse(log.contains(": failed: "), "a decision failed");
  }

  @Test
  void sigterm_during_a_burst_loses_no_pod_and_the_next_server_places_the_rest() throws Exception {
    for (int i = 0; i < 4; i++) {
      createReady(node("burst-" + i, "8", "16Gi", "110"));
    }
    var first = start("first");
    awaitReady(first);
    eventually(WAIT, "the first server holds the lease", () -> !leaseHolder().isEmpty());
    var firstHolder = leaseHolder();

    Map<String, Set<String>> nodesSeen = new ConcurrentHashMap<>();
    try (var watch = admin.pods().inNamespace(namespace).watch(recordNodes(nodesSeen))) {
      var created = new AtomicInteger();
      var creating = CompletableFuture.runAsync(() -> {
        for (int i = 0; i < BURST; i++) {
          create(admin, pod(namespace, String.format("burst-%03d", i), i % 2 == 0 ? LEAST : MOST, "10m", "16Mi"));
          created.incrementAndGet();
        }
      });
      eventually(WAIT, "the first server binds 20 pods", () -> nodesSeen.size() >= 20);

      int createdAtSigterm = created.get();
      long sigterm = System.nanoTime();
      int status = first.stop(STOP_WAIT);
      long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
      assertEquals(0, status, "the exit status after SIGTERM");
      assertTrue(first.log().contains("Server stopped"), "the first server did not say it stopped");
      System.err.printf("ServerIT: SIGTERM with %d of %d pods created; the first server exited %d ms later%n",
          createdAtSigterm, BURST, stopMillis);
      creating.get(BURST_WAIT.toSeconds(), TimeUnit.SECONDS);
      assertEquals("", leaseHolder(), "the first server released the lease");

      var boundByFirst = bound();
      assertTrue(boundByFirst.size() < BURST,
          "the first server bound all " + BURST + " pods before it stopped: SIGTERM came after the burst");
      assertEquals(boundByFirst, bindings(first), "the first server's bindings, as the API server has them");

      var second = start("second");
      eventually(BURST_WAIT, "the second server binds the rest", () -> nodesSeen.size() == BURST);
      var all = bound();
      assertEquals(BURST, all.size(), "pods bound");
      var holder = leaseHolder();
      assertFalse(holder.isEmpty(), "the second server holds the lease");
      assertNotEquals(firstHolder, holder, "the second server holds the lease");
      System.err.printf("ServerIT: the first server bound %d pods, the second %d%n",
          boundByFirst.size(), BURST - boundByFirst.size());

      // Bound exactly once: one successful binding POST per pod over both processes, no conflict, each pod
      // seen on one node only, at most one Scheduled event each and no FailedScheduling at all.
      var boundBySecond = bindings(second);
      assertEquals(all.size() - boundByFirst.size(), boundBySecond.size(), "pods the second server bound");
      var both = new HashMap<>(boundByFirst);
      boundBySecond.forEach((pod, node) -> assertTrue(both.put(pod, node) == null, pod + " bound by both"));
      assertEquals(all, both, "the bindings the servers posted, as the API server has them");
      var rebound = nodesSeen.entrySet().stream().filter(e -> e.getValue().size() > 1).toList();
      assertTrue(rebound.isEmpty(), "pods seen on two nodes: " + rebound);
      var scheduledEvents = new TreeMap<String, Integer>();
      for (var event : admin.events().v1().events().inNamespace(namespace).list().getItems()) {
        if (event.getRegarding() == null || !"Pod".equals(event.getRegarding().getKind())) {
          continue;
        }
        assertNotEquals("FailedScheduling", event.getReason(), event.getNote());
        if ("Scheduled".equals(event.getReason())) {
          scheduledEvents.merge(event.getRegarding().getName(), 1, Integer::sum);
        }
      }
      var twice = scheduledEvents.entrySet().stream().filter(e -> e.getValue() > 1).toList();
      assertTrue(twice.isEmpty(), "pods with two Scheduled events: " + twice);

      assertEquals(0, second.stop(STOP_WAIT), "the second server's exit status");
    }
  }

  /** @return the pods of this test's namespace that are bound, with their nodes, as the API server has them */
  private Map<String, String> bound() {
    return admin.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty())
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), (Pod p) -> p.getSpec().getNodeName(),
            (a, b) -> a, TreeMap::new));
  }

  /**
   * @return the pods of this test's namespace that {@code server} bound, with their nodes, from its log's binding
   *     lines
   * @throws AssertionError if a binding was answered with anything but 200 or 201 (409: the pod was bound already),
   *     or one pod was bound twice
   */
  private Map<String, String> bindings(Server server) throws IOException {
    var bindings = new TreeMap<String, String>();
    var matcher = BINDING_POST.matcher(server.log());
    while (matcher.find()) {
      if (!matcher.group(1).equals(namespace)) {
        continue;
      }
      var code = matcher.group(4);
      assertTrue(code.equals("200") || code.equals("201"), server + ": " + matcher.group());
      assertTrue(bindings.put(matcher.group(2), matcher.group(3)) == null, server + " bound twice: " + matcher.group());
    }
    return bindings;
  }

  /**
   * Starts a server with the deployed configuration, as the restricted identity, on a free port of loopback; the
   * same identity reviews the tokens and access of the endpoints' callers.
   */
  private Server start(String name) throws IOException {
    var jar = Path.of(System.getProperty("kubesched.serverJar", "../../scheduler-server/target/kubesched-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build scheduler-server first (the e2e profile's"
        + " reactor does, ./mvnw verify -Pe2e -pl tools/e2e -am)");
    var log = logs.resolve(namespace + "-" + name + ".log");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    int port = freePort();
    var classLists = System.getProperty(CLASS_LISTS);
    var classList = (classLists == null ? logs : Path.of(classLists)).resolve(namespace + "-" + name + ".classlist");
    var command = new ArrayList<>(List.of(java, "-XX:DumpLoadedClassList=" + classList));
    command.addAll(List.of(
        "-jar", jar.toString(),
        "-v=4", // DecisionLog's and the binder's lines, which the tests read
        "--config", config.toString(),
        "--kubeconfig", cluster.schedulerKubeconfig().toString(),
        "--authentication-kubeconfig", cluster.schedulerKubeconfig().toString(),
        "--authorization-kubeconfig", cluster.schedulerKubeconfig().toString(),
        "--bind-address", "127.0.0.1",
        "--secure-port", String.valueOf(port)));
    var process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    var server = new Server(name, process, log, classList, port);
    servers.add(server);
    return server;
  }

  private void awaitReady(Server server) {
    eventually(WAIT, server + " answers /readyz with 200", () -> {
      if (!server.alive()) {
        fail(server + " exited with " + server.process.exitValue());
      }
      return get(server, "/readyz").status() == 200;
    });
  }

  /**
   * @return the answer to GET {@code path} over HTTPS with the token that may read /metrics; {@link Answer#NONE}
   *     if nothing answers
   */
  private Answer get(Server server, String path) {
    var answer = SecureServingFixture.get(http, server.port, path, metricsToken);
    return new Answer(answer.status(), answer.contentType(), answer.body());
  }

  /** @return the lease's holder; empty if it has none (released) or does not exist */
  private String leaseHolder() {
    var lease = admin.resources(Lease.class).inNamespace(leaseNamespace).withName(leaseName).get();
    var holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  private static String scheduledAttempts(String profile, int count) {
    return "scheduler_schedule_attempts_total{profile=\"" + profile + "\",result=\"scheduled\"} " + count + ".0";
  }

  private static PluginConfig mostAllocated() {
    return new PluginConfig("NodeResourcesFit", Map.of("scoringStrategy", Map.of("type", "MostAllocated",
        "resources", List.of(Map.of("name", "cpu", "weight", 1), Map.of("name", "memory", "weight", 1)))));
  }

  /** @return {@code config.yaml} of the ConfigMap in {@value #DEPLOYED_CONFIG} */
  private String deployedConfig() throws IOException {
    try (var yaml = Files.newInputStream(RealClusterExtension.projectDir().resolve(DEPLOYED_CONFIG))) {
      var text = admin.configMaps().load(yaml).item().getData().get("config.yaml");
      assertTrue(text != null && !text.isBlank(), DEPLOYED_CONFIG + " has no config.yaml");
      return text;
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** What GET answered: the status, the content type and the body. */
  private record Answer(int status, String contentType, String body) {
    static final Answer NONE = new Answer(-1, "", "");
  }

  /**
   * One kubesched-server process, its port and its log (standard output and error). Used by the test thread
   * only.
   */
  private static final class Server implements AutoCloseable {
    final String name;
    final Process process;
    final Path log;
    /** The classes it loaded, written as it loads them ({@code -XX:DumpLoadedClassList}), complete once it exits. */
    final Path classList;
    final int port;

    Server(String name, Process process, Path log, Path classList, int port) {
      this.name = name;
      this.process = process;
      this.log = log;
      this.classList = classList;
      this.port = port;
    }

    boolean alive() {
      return process.isAlive();
    }

    /** @return everything it has written so far */
    String log() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + log, e);
      }
    }

    /** @return its exit status if it exited, and the last 60 lines of its log */
    String tail() {
      var lines = log().lines().toList();
      return this + (process.isAlive() ? " is running" : " exited with " + process.exitValue())
          + "; the end of its log:\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    /**
     * Sends SIGTERM and waits until it exits.
     *
     * @return its exit status
     * @throws AssertionError if it has not exited after {@code wait}
     */
    int stop(Duration wait) throws InterruptedException {
      process.destroy();
      if (!process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        fail(this + " did not exit within " + wait + " of SIGTERM");
      }
      return process.exitValue();
    }

    /** SIGTERM if still running, then SIGKILL if it has not exited within {@link #STOP_WAIT}. */
    @Override
    public void close() throws InterruptedException {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor();
        }
      }
    }

    @Override
    public String toString() {
      return "server '" + name + "' (pid " + process.pid() + ", port " + port + ", log " + log + ")";
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
