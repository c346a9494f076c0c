package io.kubesched.binder;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Requests sent through a client's HTTP client (its authentication and TLS included) whose answer is read as a
 * status code and a body, not decoded into fabric8's model: for writes whose answer the scheduler needs only
 * the status of (a binding, an event), where fabric8's operations would decode the whole object sent back.
 * Each request is bounded by a time-out. Thread-safe.
 */
public final class ApiRequests {

  private final HttpClient http;
  private final String base;
  private final Duration timeout;

  /** @param base the API server's URL, without a trailing slash */
  ApiRequests(HttpClient http, String base, Duration timeout) {
    this.http = http;
    this.base = base;
    this.timeout = timeout;
  }

  private static String base(KubernetesClient client) {
    return client.getMasterUrl().toString().replaceAll("/+$", "");
  }

  /**
   * Without fabric8's retries: a POST fabric8 retried in the background after we gave up could bind a pod
   * behind our back, so the caller retries instead.
   */
  static ApiRequests oneShot(KubernetesClient client, Duration timeout) {
    var noRetries =
        new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
            .withRequestRetryBackoffLimit(0)
            .build();
    return new ApiRequests(client.getHttpClient().newBuilder().tag(noRetries).build(), base(client), timeout);
  }

  /** With the client's retries (on an answer of 5xx or 429, or none), as fabric8's operations have them. */
  public static ApiRequests retrying(KubernetesClient client, Duration timeout) {
    return new ApiRequests(client.getHttpClient(), base(client), timeout);
  }

  /** What one request got: a status and body, or nothing in time. */
  public sealed interface Answer {
    record Status(int code, String body) implements Answer {}

    record NoAnswer(String why) implements Answer {}
  }

  /** @return how long each request may take */
  Duration timeout() {
    return timeout;
  }

  /** @param path the API path, from {@code /api} or {@code /apis} */
  public HttpRequest.Builder request(String path) {
    return http.newHttpRequestBuilder()
        .uri(base + path)
        .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** @throws InterruptedException if interrupted while waiting; the request is then cancelled */
  public Answer send(HttpRequest.Builder request) throws InterruptedException {
    var pending = http.sendAsync(request.build(), String.class);
    try {
      // The request's own timeout should end it first; this bounds a client that ignores it.
      var response = pending.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
      return new Answer.Status(response.code(), response.body() == null ? "" : response.body());
    } catch (ExecutionException e) {
      if (Thread.interrupted()) {
        // a client that runs the request on this thread (the binding client's) ends it when interrupted
        throw new InterruptedException("interrupted while waiting for an answer");
      }
      return isTimeout(e.getCause())
          ? new Answer.NoAnswer("timed out after " + timeout)
          : new Answer.NoAnswer("failed: " + e.getCause());
    } catch (TimeoutException e) {
      pending.cancel(true);
      return new Answer.NoAnswer("timed out after " + timeout);
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    }
  }

  /**
   * Whether a failure is a time-out. By name, because each HTTP client fabric8 can use has its own type
   * (the JDK's {@code HttpTimeoutException}, {@code SocketTimeoutException}, {@code TimeoutException}).
   */
  static boolean isTimeout(@Nullable Throwable failure) {
    for (var t = failure; t != null; t = t.getCause()) {
      if (t.getClass().getSimpleName().endsWith("TimeoutException")) {
        return true;
      }
    }
    return false;
  }

  /** @return a failed call's status code and message, as the loop logs and reports them */
  public static String describe(KubernetesClientException e) {
    var status = e.getStatus();
    var message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
    return (e.getCode() > 0 ? e.getCode() + ": " : "") + message;
  }

  /**
   * @return a failure as the loop logs it, in one line: the API server's answer ({@code 403: <its message>},
   *     which names the identity, the verb and the resource) where the failure is, or wraps, a {@code
   *     KubernetesClientException} with a status code; else the failure's {@code toString()}
   */
  public static String describeFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e && e.getCode() > 0) {
        return describe(e).replaceAll("\\s*\\R\\s*", " ");
      }
    }
    return failure.toString();
  }

  public static String abbreviate(String body) {
    return body.length() <= 300 ? body : body.substring(0, 300) + "…";
  }
}
