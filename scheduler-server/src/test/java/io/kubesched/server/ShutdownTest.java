package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Version;
import io.kubesched.api.BuildInfo;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to the server process (as Kubernetes stops a pod): it finishes, logs its last summary and exits with
 * status 0. The process is {@link FakeServerMain}: the server on the fake cluster, behind {@link Main}'s
 * shutdown hook. Its INFO log is read on the way: the version line at start, once.
 */
class ShutdownTest {

  private final HttpClient http = TestTls.client(TestTls.trustingAll());

  @Test
  void sigterm_stops_the_server_cleanly_with_status_0(@TempDir Path dir) throws Exception {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    var log = dir.resolve("server.log");
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var process =
        new ProcessBuilder(
                List.of(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""),
                    FakeServerMain.class.getName(),
                    String.valueOf(port)))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      var bound = " (" + FakeServerMain.SCHEDULER + "): bound to ";
      ServerFixtures.eventually(
          Duration.ofSeconds(60),
          "the pods are scheduled; log:\n" + log,
          () -> {
            try {
              return Files.readString(log).lines().filter(l -> l.contains(bound)).count() >= FakeServerMain.PODS;
            } catch (IOException e) {
              return false;
            }
          });
      assertEquals("ok\n", body(port, "/readyz"));
      assertTrue(
          body(port, "/metrics").contains("\"code\":401"),
          "no API server reviews tokens (no kubeconfig, not in a pod): /metrics is refused");

      process.destroy(); // SIGTERM
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the process stops");
      var output = Files.readString(log);
      assertEquals(0, process.exitValue(), output);
      assertTrue(output.contains("default/pod-0 (" + FakeServerMain.SCHEDULER + "): bound to node-0"), output);
      assertTrue(output.contains(FakeServerMain.PODS + " pods bound"), "the last summary: " + output);
      assertTrue(output.contains("Server stopped"), output);
      var version =
          "kubesched "
              + System.getProperty("kubesched.test.projectVersion")
              + " (revision "
              + BuildInfo.current().revision()
              + "), fabric8 kubernetes-client "
              + Version.clientVersion()
              + ", Java "
              + System.getProperty("java.version");
      var versionLines = output.lines().filter(l -> l.contains(version)).toList();
      assertEquals(1, versionLines.size(), () -> "one line with '" + version + "' in:\n" + output);
      assertTrue(versionLines.get(0).contains(" INFO "), versionLines.get(0));
      assertEquals("", body(port, "/healthz"), "the endpoints are closed");
    } finally {
      process.destroyForcibly();
    }
  }

  /** @return the body of GET {@code path}, or "" if nothing answers */
  private String body(int port, String path) {
    try {
      var request =
          HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build();
      return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
