package io.kubesched.k8s;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.kubesched.api.SchedulerMetrics;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells {@link SchedulerMetrics#request} of every request a client of this library sends, as client-go's
 * {@code rest_client_requests_total} and {@code rest_client_request_duration_seconds} count them: a fabric8
 * {@link Interceptor}, which fabric8 7 and 8 both run around each try of a request of a {@code
 * StandardHttpClient} (the JDK client's and {@code BlockingHttpClient}).
 *
 * <p>fabric8 hands the request that is sent to {@link #consumer} just before sending it and the same object to
 * {@link #after} (or {@link #afterConnectionFailure}) with its answer: the start is kept by that object's
 * identity, weakly, so that a request abandoned without either call leaves nothing behind. A watch opened
 * over a WebSocket (fabric8's default) passes {@link #before} and {@link #after} only, with different request
 * objects: its start is kept by method and URI (a watch's URI names its resource version), in a map bounded
 * to {@value #UPGRADES_KEPT} entries. A call that throws is logged once and otherwise ignored, as the loop does
 * for its metrics.
 */
final class RequestMetrics implements Interceptor {

  private static final Logger LOG = LoggerFactory.getLogger(RequestMetrics.class);

  /** client-go's {@code code} label for a request that got no answer. */
  static final String NO_ANSWER = "<error>";

  private static final String NAME = "kubesched-request-metrics";

  private final SchedulerMetrics metrics;
  /** How many WebSocket upgrades may be awaiting their answer before the oldest start is forgotten. */
  static final int UPGRADES_KEPT = 256;

  private record Upgrade(String method, URI uri) {}

  private final Map<HttpRequest, Long> started = Collections.synchronizedMap(new WeakHashMap<>());
  private final Map<Upgrade, Long> upgrades =
      Collections.synchronizedMap(
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Upgrade, Long> eldest) {
              return size() > UPGRADES_KEPT;
            }
          });
  private volatile boolean warned;

  private RequestMetrics(SchedulerMetrics metrics) {
    this.metrics = metrics;
  }

  /** @return {@code builder} with an interceptor telling {@code metrics}; unchanged for {@link SchedulerMetrics#NONE} */
  static HttpClient.Builder meter(HttpClient.Builder builder, SchedulerMetrics metrics) {
    return metrics == SchedulerMetrics.NONE ? builder : builder.addOrReplaceInterceptor(NAME, new RequestMetrics(metrics));
  }

  /**
   * @return a factory whose clients tell {@code metrics} of their requests; {@code factory} itself for {@link
   *     SchedulerMetrics#NONE}
   */
  static HttpClient.Factory meter(HttpClient.Factory factory, SchedulerMetrics metrics) {
    if (metrics == SchedulerMetrics.NONE) {
      return factory;
    }
    return new HttpClient.Factory() {
      @Override
      public HttpClient.Builder newBuilder() {
        return meter(factory.newBuilder(), metrics);
      }

      @Override
      public HttpClient.Builder newBuilder(Config config) {
        return meter(factory.newBuilder(config), metrics);
      }

      @Override
      public int priority() {
        return factory.priority();
      }
    };
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (builder instanceof WebSocket.Builder) {
      upgrades.put(new Upgrade(request.method(), request.uri()), System.nanoTime());
    }
  }

  @Override
  public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer, HttpRequest request) {
    started.put(request, System.nanoTime());
    return consumer;
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    record(request, Integer.toString(response.code()));
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    record(request, NO_ANSWER);
  }

  private void record(HttpRequest request, String code) {
    var start = started.remove(request);
    if (start == null) {
      start = upgrades.remove(new Upgrade(request.method(), request.uri()));
    }
    if (start == null) {
      return; // not sent through this client's interceptors, or told already
    }
    try {
      var uri = request.uri();
      var host = uri.getRawAuthority();
      metrics.request(request.method(), host == null ? "none" : host, code, Duration.ofNanos(System.nanoTime() - start));
    } catch (RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn("SchedulerMetrics.request threw; ignoring it (logged once)", e);
      }
    }
  }
}
