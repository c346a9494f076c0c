package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The floor the start-up table shows beside kubesched's first binding: a JVM's first answer from the API server. */
class FirstAnswerTest {

  private static final Path CLASS_PATH = Path.of(System.getProperty("java.class.path"));

  @Test
  void the_time_runs_from_the_launch_to_the_first_answer_and_the_training_flag_is_left_out(@TempDir Path dir)
      throws Exception {
    var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    var versions = new AtomicInteger();
    var authorization = new AtomicReference<String>();
    server.createContext("/version", exchange -> {
      versions.incrementAndGet();
      authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
      var body = "{\"major\":\"1\",\"minor\":\"37\",\"gitVersion\":\"v1.37.2\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      var kubeconfig = kubeconfig(dir, "http://127.0.0.1:" + server.getAddress().getPort());
      var list = dir.resolve("training.classlist");
      long before = System.nanoTime();
      double seconds = FirstAnswer.measure(
          CLASS_PATH, List.of("-XX:TieredStopAtLevel=1", "-XX:DumpLoadedClassList=" + list), kubeconfig,
          dir.resolve("first-answer.log"));
      double elapsed = (System.nanoTime() - before) / 1e9;
      assertTrue(seconds > 0 && seconds < elapsed, seconds + " s, within the " + elapsed + " s the call took: "
          + Files.readString(dir.resolve("first-answer.log")));
      assertEquals(1, versions.get(), "one request, the version");
      assertEquals("Bearer abc", authorization.get(), "with the kubeconfig's token");
      assertFalse(Files.exists(list), "only the scheduler writes the class-data-sharing training's class list");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void a_process_that_had_no_answer_measures_nothing_and_leaves_its_output(@TempDir Path dir) throws Exception {
    var log = dir.resolve("first-answer.log");
    double seconds = FirstAnswer.measure(CLASS_PATH, List.of(), dir.resolve("no-such.kubeconfig"), log);
    assertTrue(Double.isNaN(seconds), "no answer: " + seconds);
    assertTrue(Files.readString(log).contains("no-such.kubeconfig"), Files.readString(log));
  }

  @Test
  void the_instant_is_read_from_its_line_only() {
    assertEquals(
        OptionalLong.of(123456789L),
        FirstAnswer.answeredAt(List.of("[main] WARN something", FirstAnswer.ANSWERED + "123456789", "after")));
    assertEquals(OptionalLong.empty(), FirstAnswer.answeredAt(List.of("[main] ERROR no answer")));
    assertEquals(OptionalLong.empty(), FirstAnswer.answeredAt(List.of(FirstAnswer.ANSWERED + "soon")));
  }

  @Test
  void the_kubeconfig_is_read_for_its_first_server_authority_and_token() {
    var lines = List.of(
        "clusters:", "- name: test", "  cluster:", "    server: \"https://127.0.0.1:6443\"",
        "    certificate-authority: /pki/ca.crt", "users:", "  user:", "    token: 'abc'", "    token: other");
    assertEquals(Optional.of("https://127.0.0.1:6443"), FirstAnswer.value(lines, "server"));
    assertEquals(Optional.of("/pki/ca.crt"), FirstAnswer.value(lines, "certificate-authority"));
    assertEquals(Optional.of("abc"), FirstAnswer.value(lines, "token"));
    assertEquals(Optional.empty(), FirstAnswer.value(lines, "client-certificate"));
    assertEquals(Optional.empty(), FirstAnswer.value(List.of("token:"), "token"));
  }

  private static Path kubeconfig(Path dir, String server) throws Exception {
    var file = dir.resolve("kubeconfig");
    Files.writeString(file, String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: test",
        "  cluster:",
        "    server: " + server,
        "contexts:",
        "- name: test",
        "  context:",
        "    cluster: test",
        "    user: test",
        "current-context: test",
        "users:",
        "- name: test",
        "  user:",
        "    token: abc",
        ""));
    return file;
  }
}
