package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kubesched.policy.config.PluginRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubesched-server simulate} against fabric8's mock API server, which after the cluster is set up refuses
 * every request but a read with 403 Forbidden and records it: each question is answered from the cluster as listed,
 * and no request of the command writes.
 *
 * <p>The cluster: node-a (4 CPU) holding web-0 (1 CPU, owned by a ReplicaSet), node-b (2 CPU) holding bare (500m,
 * no controller), and pending pod big (3 CPU) of default-scheduler.
 */
class SimulateCommandTest {

  /** Every request that is not a read, once the cluster is set up. */
  private static final List<String> WRITES = Collections.synchronizedList(new ArrayList<>());

  private static volatile boolean readOnly;
  private static KubernetesMockServer server;

  @TempDir static Path dir;
  private static Path kubeconfig;

  @BeforeAll
  static void cluster() throws Exception {
    var dispatcher = new KubernetesCrudDispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        if (readOnly && !request.getMethod().equals("GET")) {
          WRITES.add(request.getMethod() + " " + request.getPath());
          return new MockResponse().setResponseCode(403).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
              + "\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403,\"message\":\"read-only\"}");
        }
        return super.dispatch(request);
      }
    };
    server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    try (KubernetesClient kube = server.createClient()) {
      createNode(kube, "node-a", "4", "8Gi");
      createNode(kube, "node-b", "2", "4Gi");
      kube.resource(pod("web-0", "1", "node-a", true)).create();
      kube.resource(pod("bare", "500m", "node-b", false)).create();
      kube.resource(pod("big", "3", null, false)).create();
    }
    kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: mock, cluster: {server: "%s"}}]
        users: [{name: reader, user: {token: read-only}}]
        contexts: [{name: mock, context: {cluster: mock, user: reader, namespace: default}}]
        current-context: mock
        """.formatted(server.url("/").replaceAll("/$", "")));
    readOnly = true;
  }

  @AfterAll
  static void stop() {
    server.destroy();
  }

  @Test
  void capacity_counts_the_copies_of_a_pod_that_fit_and_names_what_stops_the_next() throws Exception {
    var template = write("template.yaml", podYaml("web", "1"));

    var run = simulate("capacity", "--pod", template.toString(), "--kubeconfig", kubeconfig.toString());

    assertEquals(0, run.status(), run.err());
    assertEquals("""
        4 copies of default/web (cpu 1, memory 64Mi each) fit, placed by profile default-scheduler.
        NODE    COPIES
        node-a  3
        node-b  1
        The next copy fits nowhere: 0/2 nodes are available: 2 Insufficient cpu.
        """, run.out());
    assertEquals(List.of(), WRITES);
  }

  @Test
  void drain_says_which_pods_cannot_move_and_why_as_json() throws Exception {
    var run = simulate("drain", "node-b", "-o", "json", "--kubeconfig", kubeconfig.toString());

    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("{\"question\":\"drain\",\"profile\":\"default-scheduler\",\"nodes\":[\"node-b\"],"
        + "\"drainable\":false,\"moves\":[{\"pod\":\"default/bare\",\"from\":\"node-b\",\"to\":null,\"reason\":\""),
        run.out());
    assertTrue(run.out().contains("controller"), run.out());
    assertEquals(List.of(), WRITES);
  }

  @Test
  void pods_places_the_pending_pods_then_those_of_the_files() throws Exception {
    var extra = write("extra.yaml", podYaml("extra-1", "1") + "---\n" + podYaml("extra-2", "2"));

    var run = simulate("pods", "-f", extra.toString(), "--kubeconfig", kubeconfig.toString());

    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("""
        POD              OUTCOME  NODE    MESSAGE
        default/big      placed   node-a
        default/extra-1  placed   node-b
        default/extra-2  pending  -       0/2 nodes are available: 2 Insufficient cpu. preemption: \
        """), run.out());
    assertTrue(run.out().contains("2 placed, 1 pending ("), run.out());
    assertEquals(List.of(), WRITES);
  }

  @Test
  void pods_with_a_candidate_configuration_sets_the_two_policies_side_by_side() throws Exception {
    var candidate = write("candidate.yaml", """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: default-scheduler
          plugins: {filter: {disabled: [{name: NodeResourcesFit}]}}
        """);
    var extra = write("huge.yaml", podYaml("huge", "16"));

    var run = simulate("pods", "--no-pending", "-f", extra.toString(), "--no-preemption",
        "--candidate-config", candidate.toString(), "--kubeconfig", kubeconfig.toString());

    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().matches("(?s)POD +CURRENT +CANDIDATE\ndefault/huge +pending +node-[ab] +\\*\n"
        + "1 of 1 pod placed differently.*"), run.out());
    assertEquals(List.of(), WRITES);
  }

  @Test
  void what_is_not_in_the_cluster_is_refused_by_name() throws Exception {
    var run = simulate("drain", "node-x", "--kubeconfig", kubeconfig.toString());

    assertEquals(Main.BAD_CONFIG, run.status());
    assertEquals("kubesched-server simulate: no node named 'node-x' in the cluster (2 nodes) to drain\n", run.err());
    var service = write("service.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n");
    var notAPod = simulate("pods", "-f", service.toString(), "--kubeconfig", kubeconfig.toString());
    assertEquals(Main.BAD_CONFIG, notAPod.status());
    assertTrue(notAPod.err().contains("Service s is not a Pod"), notAPod.err());
  }

  @Test
  void a_bad_command_line_is_refused_with_the_flag_and_the_usage() {
    for (var bad : List.of(
        List.of(),
        List.of("resize"),
        List.of("drain"),
        List.of("capacity"),
        List.of("pods", "--limit", "3"),
        List.of("pods", "-o", "xml"),
        List.of("drain", "n", "--pod", "p.yaml"))) {
      var run = simulate(bad.toArray(String[]::new));
      assertEquals(Main.BAD_USAGE, run.status(), bad.toString());
      assertTrue(run.err().startsWith("kubesched-server simulate: command line: "), bad + ": " + run.err());
      assertTrue(run.err().contains("usage: kubesched-server simulate capacity"), bad + ": " + run.err());
    }
    assertTrue(simulate("pods", "-o", "xml").err().contains("--output must be table or json, was 'xml'"));
    assertTrue(simulate("resize").err().contains("unknown question 'resize'"));
  }

  @Test
  void help_prints_the_questions() {
    var run = simulate("--help");
    assertEquals(0, run.status());
    assertTrue(run.out().contains("drain     whether the nodes can be emptied"), run.out());
  }

  private record Run(int status, String out, String err) {}

  private static Run simulate(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    var command = new ArrayList<String>();
    command.add("simulate");
    command.addAll(List.of(args));
    int status;
    try {
      status = Main.run(command, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8), PluginRegistry.empty());
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Path write(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  private static String podYaml(String name, String cpu) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: %s}
        spec:
          containers:
          - name: app
            image: app:1
            resources: {requests: {cpu: "%s", memory: 64Mi}}
        """.formatted(name, cpu);
  }

  private static io.fabric8.kubernetes.api.model.Pod pod(String name, String cpu, String node, boolean owned) {
    var builder = new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("app").withImage("app:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("64Mi")))
        .endResources().endContainer().endSpec();
    if (owned) {
      builder.editMetadata().addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet")
          .withName("web").withUid("uid-web").withController(true).endOwnerReference().endMetadata();
    }
    return builder.build();
  }
}
