package io.kubesched.http;

import static io.kubesched.http.ScriptedServer.answer;
import static io.kubesched.http.ScriptedServer.answerThenClose;
import static io.kubesched.http.ScriptedServer.closeWithoutAnswer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The binding client's HTTP client: fabric8's requests, each on the calling thread, over kept connections. */
class BlockingHttpClientTest {

  private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

  private static Config config(String url) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url)
        .withOauthToken("secret-token")
        .withRequestRetryBackoffLimit(0)
        .withRequestTimeout(10_000)
        .build();
  }

  private static HttpClient client(String url) {
    return new BlockingHttpClient.Factory(new JdkHttpClientFactory()).newBuilder(config(url)).build();
  }

  private static CompletableFuture<HttpResponse<String>> get(HttpClient http, String url, long timeoutMillis) {
    return http.sendAsync(
        http.newHttpRequestBuilder().uri(url).timeout(timeoutMillis, TimeUnit.MILLISECONDS).build(), String.class);
  }

  /** A request on a thread of its own that the server has read and will not answer. */
  private record BlockedCall(Thread thread, AtomicReference<CompletableFuture<HttpResponse<String>>> outcome) {

    static BlockedCall start(HttpClient http, ScriptedServer server) throws InterruptedException {
      var outcome = new AtomicReference<CompletableFuture<HttpResponse<String>>>();
      var thread = new Thread(() -> outcome.set(get(http, server.url() + "/a", 60_000)));
      thread.start();
      while (server.requests().isEmpty()) {
        Thread.sleep(10);
      }
      return new BlockedCall(thread, outcome);
    }

    /** Asserts the request ended, failed, well before its timeout. */
    void assertFailedSoon(String what) throws InterruptedException {
      thread.join(10_000);
      assertFalse(thread.isAlive(), what);
      assertTrue(outcome.get().isCompletedExceptionally());
    }
  }

  @Test
  @DisplayName("a request runs on the calling thread: its future is complete when sendAsync returns, with"
      + " fabric8's interceptors applied (the configuration's token)")
  void callingThread() throws Exception {
    try (var server = new ScriptedServer(answer(OK)); var http = client(server.url())) {
      var pending = get(http, server.url() + "/api/v1/namespaces/a/pods/b", 10_000);

      assertTrue(pending.isDone());
      assertEquals(200, pending.get().code());
      assertEquals("{}", pending.get().body());
      var request = server.requests().get(0);
      assertTrue(request.startsWith("GET /api/v1/namespaces/a/pods/b HTTP/1.1\r\n"), request);
      assertTrue(request.contains("\r\nAuthorization: Bearer secret-token\r\n"), request);
    }
  }

  @Test
  @DisplayName("requests one after another reuse one connection, also from a derived client")
  void reuses() throws Exception {
    try (var server = new ScriptedServer(answer(OK), answer(OK), answer(OK)); var http = client(server.url())) {
      var derived = http.newBuilder().build();

      assertEquals(200, get(http, server.url() + "/a", 10_000).get().code());
      assertEquals(200, get(derived, server.url() + "/b", 10_000).get().code());
      assertEquals(200, get(http, server.url() + "/c", 10_000).get().code());

      assertEquals(1, server.accepted());
    }
  }

  @Test
  @DisplayName("a kept connection the server closed meanwhile is replaced and the request sent again; a new"
      + " connection closed without an answer fails the request")
  void staleConnection() throws Exception {
    try (var server = new ScriptedServer(answerThenClose(OK), answer(OK), closeWithoutAnswer(), closeWithoutAnswer());
        var http = client(server.url())) {
      assertEquals(200, get(http, server.url() + "/a", 10_000).get().code());
      // wait until the server has closed the first connection, as an idle time-out would
      Thread.sleep(200);

      assertEquals(200, get(http, server.url() + "/b", 10_000).get().code());
      assertEquals(2, server.accepted());
      assertEquals(2, server.requests().size(), "the second request was sent on the new connection only");

      // the third request reuses the second connection, which the server closes without answering; the
      // request goes again on a third, which the server closes without answering too
      var failed = get(http, server.url() + "/c", 10_000);
      var failure = assertThrows(ExecutionException.class, failed::get);
      assertInstanceOf(IOException.class, failure.getCause());
      assertEquals(3, server.accepted());
    }
  }

  @Test
  @DisplayName("a kept connection the server reset meanwhile is replaced and the request sent again")
  void resetConnection() throws Exception {
    try (var server = new ScriptedServer(answer(OK), ScriptedServer.resetWithoutAnswer(), answer(OK));
        var http = client(server.url())) {
      assertEquals(200, get(http, server.url() + "/a", 10_000).get().code());

      assertEquals(200, get(http, server.url() + "/b", 10_000).get().code());
      assertEquals(2, server.accepted());
    }
  }

  @Test
  @DisplayName("no answer within the request's timeout fails it with a time-out the binder recognises")
  void timeout() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.silence()); var http = client(server.url())) {
      var failure = assertThrows(ExecutionException.class, get(http, server.url() + "/a", 300)::get);

      assertInstanceOf(SocketTimeoutException.class, failure.getCause());
    }
  }

  @Test
  @DisplayName("closing the client fails an exchange blocked on the server at once, and refuses later ones")
  void closeWhileBlocked() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.silence())) {
      var http = client(server.url());
      var call = BlockedCall.start(http, server);

      http.close();

      call.assertFailedSoon("the blocked exchange ended when the client was closed");
      assertThrows(Exception.class, () -> get(http, server.url() + "/b", 1_000).get());
    }
  }

  @Test
  @DisplayName("interrupting a thread blocked in an exchange ends it, closing that connection only")
  void interrupted() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.silence(), answer(OK)); var http = client(server.url())) {
      var call = BlockedCall.start(http, server);

      call.thread().interrupt();

      call.assertFailedSoon("the blocked exchange ended when its thread was interrupted");
      assertEquals(200, get(http, server.url() + "/b", 10_000).get().code(), "the client still works");
      assertEquals(2, server.accepted());
    }
  }

  @Test
  @DisplayName("watches and other streamed answers are refused")
  void noStreaming() throws Exception {
    try (var server = new ScriptedServer(answer(OK)); var http = client(server.url())) {
      var streamed =
          http.sendAsync(http.newHttpRequestBuilder().uri(server.url() + "/a?watch=true").forStreaming().build(),
              String.class);

      var failure = assertThrows(ExecutionException.class, streamed::get);
      assertInstanceOf(UnsupportedOperationException.class, failure.getCause());
      assertEquals(0, server.accepted());
    }
  }

  @Test
  @DisplayName("a configuration with a proxy gets a client of the factory given instead")
  void proxy() {
    var config = config("https://10.0.0.1:6443");
    config.setHttpsProxy("http://127.0.0.1:3128");

    try (var http = new BlockingHttpClient.Factory(new JdkHttpClientFactory()).newBuilder(config).build()) {
      assertInstanceOf(JdkHttpClientImpl.class, http);
    }
  }
}
