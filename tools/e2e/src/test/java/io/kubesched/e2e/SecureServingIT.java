package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubesched.e2e.SecureServingFixture.Answer;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.testcluster.InsecureHttps;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kubesched-server's HTTPS endpoints on the real API server, as a platform team's Prometheus and kubelet meet them:
 * the server jar run as ServerIT runs it (the restricted identity, plus the review rights deploy/ grants), its
 * tokens and access reviewed by that API server through {@code --authentication-kubeconfig} and {@code
 * --authorization-kubeconfig}. No token and a token the API server does not know are 401; a service account's
 * token is 403 on /metrics until a ClusterRole lets it get that path, then 200; the probes answer without a token.
 * Every answer is written to {@code target/secure-serving-it/answers.txt} (the status line and body, as {@code curl
 * -k -i} would show them).
 */
class SecureServingIT extends RealClusterTest {

  private final HttpClient http = InsecureHttps.client();
  private final List<String> answers = new ArrayList<>();
  private Process process;
  private Path log;
  private final List<String> bindings = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    for (var binding : bindings) {
      admin.rbac().clusterRoleBindings().withName(binding).delete();
    }
  }

  @Test
  void no_token_is_401_a_token_without_the_right_403_with_it_200_and_the_probes_are_open() throws Exception {
    SecureServingFixture.grantReviews(admin);
    var account = "prometheus";
    var token = SecureServingFixture.token(admin, namespace, account);
    int port = startReady();

    for (var probe : List.of("/healthz", "/readyz", "/livez")) {
      var answer = record(probe, "no token", get(port, probe, ""));
      assertEquals(200, answer.status(), probe);
      assertEquals("ok\n", answer.body(), probe);
    }
    var unauthorized =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}\n";
    var noToken = record("/metrics", "no token", get(port, "/metrics", ""));
    assertEquals(401, noToken.status());
    assertEquals(unauthorized, noToken.body());
    var garbage = record("/metrics", "a garbage token", get(port, "/metrics", "garbage"));
    assertEquals(401, garbage.status());
    assertEquals(unauthorized, garbage.body());

    var forbidden = record("/metrics", "the token of " + account + ", no right", get(port, "/metrics", token));
    assertEquals(403, forbidden.status());
    assertEquals(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
            + "\"forbidden: User \\\"system:serviceaccount:" + namespace + ":" + account
            + "\\\" cannot get path \\\"/metrics\\\"\",\"reason\":\"Forbidden\",\"details\":{},\"code\":403}\n",
        forbidden.body());

    bindings.add(SecureServingFixture.grantMetrics(admin, namespace, account));
    // The denial is cached for 10 s, as kube caches it.
    eventually(WAIT, "/metrics answers 200 to the token once the right is bound",
        () -> get(port, "/metrics", token).status() == 200);
    var allowed = get(port, "/metrics", token);
    record("/metrics", "the token of " + account + ", get /metrics bound", new Answer(allowed.status(),
        allowed.contentType(), allowed.body().lines().filter(l -> l.startsWith("scheduler_")).limit(3)
            .reduce("", (a, b) -> a + b + "\n") + "..."));
    assertEquals("text/plain; version=0.0.4; charset=utf-8", allowed.contentType());
    assertTrue(allowed.body().contains("# TYPE scheduler_pending_pods gauge"), allowed.body());
    assertEquals(401, get(port, "/metrics", "garbage").status(), "still refused");

    var serving = log().lines().filter(l -> l.contains("over HTTPS on")).toList();
    assertEquals(1, serving.size(), log());
    assertTrue(serving.get(0).contains("authentication by TokenReview with kubeconfig"), serving.get(0));
  }

  @Test
  void explain_and_configz_answer_a_caller_allowed_their_paths() throws Exception {
    SecureServingFixture.grantReviews(admin);
    var account = "explainer";
    var token = SecureServingFixture.token(admin, namespace, account);
    int port = startReady();
    // No node: the pod stays pending, and the next attempt would find none.
    admin.pods().inNamespace(namespace).resource(pod(namespace, "web-1", SCHEDULER, "100m", "64Mi")).create();
    var explain = "/debug/explain?pod=" + namespace + "/web-1";
    assertEquals(401, get(port, explain, "").status());
    assertEquals(403, record(explain, "the token of " + account + ", no right", get(port, explain, token)).status());
    assertEquals(403, get(port, "/configz", token).status());

    bindings.add(SecureServingFixture.grantPaths(
        admin, namespace, account, "e2e-scheduler-debugger", "/debug/explain", "/configz"));
    eventually(WAIT, "/debug/explain answers the pod once the right is bound",
        () -> get(port, explain, token).status() == 200);
    var text = record(explain, "the token of " + account + ", get /debug/explain bound", get(port, explain, token));
    assertEquals(200, text.status());
    assertTrue(text.body().startsWith("pod " + namespace + "/web-1 (profile " + SCHEDULER + ")\n"), text.body());
    var json = SecureServingFixture.get(http, port, explain, token, "application/json");
    assertEquals(200, json.status());
    assertTrue(json.contentType().startsWith("application/json"), json.contentType());
    assertTrue(json.body().contains("\"pod\":\"" + namespace + "/web-1\""), json.body());
    assertEquals(404, get(port, "/debug/explain?pod=" + namespace + "/nobody", token).status());
    assertEquals(400, get(port, "/debug/explain?pod=nonsense", token).status());

    // Its denial above is cached for 10 s too, apart from /debug/explain's.
    eventually(WAIT, "/configz answers once the right is bound", () -> get(port, "/configz", token).status() == 200);
    var configz = record("/configz", "the token of " + account + ", get /configz bound", get(port, "/configz", token));
    assertEquals(200, configz.status());
    assertTrue(configz.body().startsWith("{\"componentconfig\":"), configz.body());
    assertTrue(configz.body().contains(SCHEDULER), configz.body());
  }

  /**
   * The what-if routes (issue 47, item 3) on the real API server: refused until RBAC grants {@code /debug/whatif/*},
   * then the capacity answer over the server's live view is what the server then places when that many copies, and
   * one more, are created; and asking changes nothing.
   */
  @Test
  void whatif_answers_a_caller_allowed_its_paths_and_the_server_then_places_as_many_copies_as_it_said()
      throws Exception {
    SecureServingFixture.grantReviews(admin);
    var account = "whatif";
    var token = SecureServingFixture.token(admin, namespace, account);
    int port = startReady();
    createReady(FakeClusterFixture.node("node-a", "2", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "1", "8Gi", "110"));
    admin.pods().inNamespace(namespace).resource(pod(namespace, "web-1", SCHEDULER, "500m", "64Mi")).create();
    eventually(WAIT, "web-1 is bound", () -> !nodeOf("web-1").isEmpty());
    var capacity = "/debug/whatif/capacity?pod=" + namespace + "/web-1";
    assertEquals(403, get(port, capacity, token).status());

    bindings.add(SecureServingFixture.grantPaths(admin, namespace, account, "e2e-whatif", "/debug/whatif/*"));
    eventually(WAIT, "/debug/whatif/capacity answers once the right is bound",
        () -> get(port, capacity, token).status() == 200);
    var answer = SecureServingFixture.get(http, port, capacity, token, "application/json");
    record(capacity, "the token of " + account + ", get /debug/whatif/* bound", answer);
    assertEquals(200, answer.status(), answer.body());
    assertTrue(answer.body().contains("\"count\":5,"), answer.body());
    var drain = get(port, "/debug/whatif/drain?node=node-b", token);
    assertEquals(200, drain.status(), drain.body());
    assertTrue(drain.body().startsWith("Node(s) node-b can be drained: 0 pods move"), drain.body());
    assertEquals(404, get(port, "/debug/whatif/drain?node=node-x", token).status());
    assertEquals(1, admin.pods().inNamespace(namespace).list().getItems().size(), "asking created nothing");

    for (int i = 1; i <= 6; i++) {
      admin.pods().inNamespace(namespace).resource(pod(namespace, "copy-" + i, SCHEDULER, "500m", "64Mi")).create();
    }
    eventually(WAIT, "every copy is bound or found no node", () -> pods("copy-").stream()
        .allMatch(n -> !nodeOf(n).isEmpty() || podScheduled(n).map(c -> "False".equals(c.getStatus())).orElse(false)));
    assertEquals(5, pods("copy-").stream().filter(n -> !nodeOf(n).isEmpty()).count());
  }

  /** {@link #start()}, then waits until {@code /readyz} answers 200 (failing if the server exits first). */
  private int startReady() throws IOException {
    int port = start();
    eventually(WAIT, "the server answers /readyz with 200", () -> {
      if (!process.isAlive()) {
        fail("the server exited with " + process.exitValue() + ":\n" + log());
      }
      return get(port, "/readyz", "").status() == 200;
    });
    return port;
  }

  /** Starts the server jar as the restricted identity, reviews by the same identity, on a free loopback port. */
  private int start() throws IOException {
    var jar = Path.of(System.getProperty("kubesched.serverJar", "../../scheduler-server/target/kubesched-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build scheduler-server first");
    var dir = Files.createDirectories(Path.of("target", "secure-serving-it").toAbsolutePath());
    var config = Files.writeString(dir.resolve("config.yaml"),
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
            + "leaderElection: {leaderElect: false}\nprofiles: [{schedulerName: " + SCHEDULER + "}]\n");
    log = dir.resolve("server.log");
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    var kubeconfig = cluster.schedulerKubeconfig().toString();
    process = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(),
        "--config", config.toString(),
        "--kubeconfig", kubeconfig,
        "--no-policy-crd",
        "--authentication-kubeconfig", kubeconfig,
        "--authorization-kubeconfig", kubeconfig,
        "--bind-address", "127.0.0.1",
        "--secure-port", String.valueOf(port))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    return port;
  }

  private Answer get(int port, String path, String token) {
    return SecureServingFixture.get(http, port, path, token);
  }

  /** Notes {@code answer} in target/secure-serving-it/answers.txt, as {@code curl -k -i} would show it. */
  private Answer record(String path, String who, Answer answer) throws IOException {
    answers.add("$ curl -k -i https://127.0.0.1:PORT" + path + "   # " + who + "\nHTTP/1.1 " + answer.status()
        + "\nContent-Type: " + answer.contentType() + "\n\n" + answer.body() + "\n");
    Files.writeString(Path.of("target", "secure-serving-it", "answers.txt"), String.join("\n", answers));
    return answer;
  }

  private String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
