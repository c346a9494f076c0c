package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.WebSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How a request's end is read when the HTTP client runs it on the calling thread (the scheduler's binding
 * client), so that its future is already complete when {@code sendAsync} returns.
 */
class ApiRequestsTest {

  /** Fails every request at once with {@code failure}, interrupting the caller first if asked to. */
  private static HttpClient failing(IOException failure, boolean interruptCaller) {
    var real = BinderFixtures.offlineClient().getHttpClient();
    return new HttpClient() {
      @Override
      public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, Class<T> type) {
        if (interruptCaller) {
          Thread.currentThread().interrupt();
        }
        return CompletableFuture.failedFuture(failure);
      }

      @Override
      public CompletableFuture<HttpResponse<AsyncBody>> consumeBytes(
          HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        return CompletableFuture.failedFuture(failure);
      }

      @Override
      public HttpRequest.Builder newHttpRequestBuilder() {
        return real.newHttpRequestBuilder();
      }

      @Override
      public DerivedClientBuilder newBuilder() {
        throw new UnsupportedOperationException();
      }

      @Override
      public WebSocket.Builder newWebSocketBuilder() {
        throw new UnsupportedOperationException();
      }

      @Override
      public boolean isClosed() {
        return false;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  @DisplayName("a request ended by an interrupt of the thread it ran on throws InterruptedException")
  void interruptedOnTheCallingThread() {
    var requests =
        new ApiRequests(failing(new ClosedByInterruptException(), true), "http://127.0.0.1:1", Duration.ofSeconds(5));
    try {
      assertThrows(InterruptedException.class, () -> requests.send(requests.request("/api/v1/namespaces")));
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  @DisplayName("a request that failed on its own is no answer, naming the failure, and the thread stays"
      + " uninterrupted")
  void failedWithoutInterrupt() throws Exception {
    var requests =
        new ApiRequests(failing(new IOException("connection reset"), false), "http://127.0.0.1:1",
            Duration.ofSeconds(5));

    var answer = requests.send(requests.request("/api/v1/namespaces"));

    var none = assertInstanceOf(ApiRequests.Answer.NoAnswer.class, answer);
    assertTrue(none.why().contains("connection reset"), none.why());
    assertFalse(Thread.currentThread().isInterrupted());
  }
}
