package io.kubesched.http;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.kubesched.fabric8.Fabric8Compat;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;

/**
 * A fabric8 HTTP client that runs each request on the calling thread, over kept-alive HTTP/1.1 connections of
 * its own: for the scheduler's bindings, the one request on a pod's way to its node.
 *
 * <p>Why not the JDK client the other clients use: it is asynchronous throughout. It writes a request's head
 * and body apart, reads the answer on its selector thread, completes its future on the common pool, and only
 * then wakes the waiting binding thread: three threads scheduled per request where one blocking read needs one.
 * On 2 CPUs beside a busy API server each of those wake-ups is a scheduling delay: a binding through {@code
 * Binder} and the JDK client took 3.0–3.5 ms at the median against an idle test cluster, through this client
 * 2.7–2.9, a Go client (as client-go) 2.1–2.4 (the end-to-end benchmark's notes, "The binding's own client",
 * docs/performance.md#measurement-notes, have the
 * method and the other figures). The JDK's {@code HttpsURLConnection} is blocking too,
 * but keeps at most five idle connections per server (a process-wide system property) where a scheduler binds
 * on up to 16 threads, and does not set {@code TCP_NODELAY}; fabric8's OkHttp client queues each call to a
 * dispatcher thread. Hence this small client, used for nothing else.
 *
 * <p>It is a {@link StandardHttpClient}, so fabric8's interceptors still run around each request: the
 * token, its refresh after a 401, impersonation, the user agent, retries where the request's configuration
 * asks for them. TLS is the configuration's (keys, trusted certificates, versions, server name) with the
 * server's name verified, as the JDK client does. What it does not do: proxies ({@link Factory} hands a
 * configuration with one to the factory it was given), WebSockets and streamed answers (watches, logs: refused),
 * HTTP/2, compression, redirects.
 *
 * <p>Connections are pooled per origin and reused most-recent first, as many as were in use at once. A
 * kept-alive connection the server closed meanwhile (the end of the stream, a broken pipe or a reset before the
 * answer's first byte) is dropped and the request sent again on another, as Go's client does (a binding sent
 * twice is answered 409 and read back by {@code Binder}); a read timeout is not retried. Closing the client
 * closes every connection, also those in an exchange, whose thread then fails at once; so does interrupting the
 * thread (the connection is closed then). Thread-safe; derived clients share the connections.
 *
 * <p>Internal: its module exports it to the client module ({@code scheduler-k8s}) only; the end-to-end
 * benchmark's bind ceiling, on the class path, binds through it too, as the scheduler does.
 */
public final class BlockingHttpClient
    extends StandardHttpClient<BlockingHttpClient, BlockingHttpClient.Factory, BlockingHttpClient.Builder> {

  private final Connections connections;

  private BlockingHttpClient(Builder builder, AtomicBoolean closed, Connections connections) {
    super(builder, closed);
    this.connections = connections;
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(
      StandardHttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (request.isForStreaming()) {
      return CompletableFuture.failedFuture(
          new UnsupportedOperationException("this client does not stream answers: " + request.uri()));
    }
    try {
      var answer = connections.exchange(request);
      var body = new WholeBody(answer.body(), consumer);
      return CompletableFuture.completedFuture(new Answered(request, answer, body));
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(
      StandardWebSocketBuilder builder, WebSocket.Listener listener) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException("this client has no WebSockets"));
  }

  @Override
  protected void doClose() {
    connections.close();
  }

  /** Makes {@link BlockingHttpClient}s; a configuration with a proxy gets another factory's client instead. */
  public static final class Factory implements HttpClient.Factory {

    private final HttpClient.Factory withProxy;

    /** @param withProxy the factory whose clients serve a configuration with a proxy (a JDK client's) */
    public Factory(HttpClient.Factory withProxy) {
      this.withProxy = withProxy;
    }

    @Override
    public HttpClient.Builder newBuilder() {
      return new Builder(this);
    }

    @Override
    public HttpClient.Builder newBuilder(Config config) {
      var builder = (Builder) HttpClient.Factory.super.newBuilder(config);
      if (builder.getProxyAddress() != null) {
        return withProxy.newBuilder(config);
      }
      // fabric8 8 sets the builder's own field too, fabric8 7 has none: read through the line's seam.
      builder.serverName = Fabric8Compat.get().tlsServerName(config);
      return builder;
    }
  }

  /** fabric8's builder; a derived client shares its parent's connections. */
  static final class Builder extends StandardHttpClientBuilder<BlockingHttpClient, Factory, Builder> {

    /** The server name for TLS's SNI, from the configuration; {@code null}: the host's. */
    private @Nullable String serverName;

    Builder(Factory factory) {
      super(factory);
    }

    @Override
    public BlockingHttpClient build() {
      if (client != null) {
        return new BlockingHttpClient(this, client.getClosed(), client.connections);
      }
      if (proxyAddress != null) {
        throw new IllegalStateException(
            "BlockingHttpClient has no proxy support; its Factory hands such a configuration on");
      }
      return new BlockingHttpClient(
          this, new AtomicBoolean(), new Connections(sslContext, tlsVersions, serverName, connectTimeout));
    }

    @Override
    protected Builder newInstance(Factory factory) {
      return new Builder(factory);
    }
  }

  /** The idle connections per origin, and those in an exchange (to close them with the client). */
  private static final class Connections {

    private final @Nullable SSLContext ssl;
    private final TlsVersion @Nullable [] tlsVersions;
    private final @Nullable String tlsServerName;
    private final int connectTimeoutMillis;
    // all guarded by this
    private final Map<String, ArrayDeque<Http11Connection>> idle = new HashMap<>();
    private final Set<Http11Connection> busy = new HashSet<>();
    private boolean closed;

    Connections(
        @Nullable SSLContext ssl, TlsVersion @Nullable [] tlsVersions, @Nullable String tlsServerName,
        @Nullable Duration connectTimeout) {
      this.ssl = ssl;
      this.tlsVersions = tlsVersions;
      this.tlsServerName = tlsServerName;
      this.connectTimeoutMillis = connectTimeout == null ? 0 : millis(connectTimeout);
    }

    Http11Connection.Answer exchange(StandardHttpRequest request) throws IOException {
      var uri = request.uri();
      var origin = origin(uri);
      var target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
      var host = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
      var headers = new LinkedHashMap<>(request.headers());
      if (request.getContentType() != null && request.headers("Content-Type").isEmpty()) {
        headers.put("Content-Type", List.of(request.getContentType()));
      }
      var body = body(request);
      var timeout = request.getTimeout();
      int readTimeoutMillis = timeout == null || timeout.isNegative() ? 0 : millis(timeout);
      while (true) {
        var connection = take(origin);
        boolean reused = connection != null;
        if (connection == null) {
          connection = open(uri);
        }
        try {
          var answer = connection.exchange(request.method(), target, host, headers, body, readTimeoutMillis);
          giveBack(origin, connection, answer.keepAlive());
          return answer;
        } catch (Http11Connection.NoAnswerException e) {
          giveBack(origin, connection, false);
          if (!reused || Thread.currentThread().isInterrupted()) {
            throw e;
          }
          // a kept-alive connection the server had closed: send it again on another one
        } catch (IOException | RuntimeException e) {
          giveBack(origin, connection, false);
          throw e;
        }
      }
    }

    /** @return the duration in milliseconds, at most {@code Integer.MAX_VALUE} (a socket timeout's type) */
    private static int millis(Duration duration) {
      return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
    }

    private static byte @Nullable [] body(StandardHttpRequest request) throws IOException {
      var content = request.body();
      if (content instanceof StandardHttpRequest.StringBodyContent string) {
        return string.getContent().getBytes(StandardCharsets.UTF_8);
      }
      if (content instanceof StandardHttpRequest.ByteArrayBodyContent bytes) {
        return bytes.getContent();
      }
      if (content instanceof StandardHttpRequest.InputStreamBodyContent stream) {
        try (var in = stream.getContent()) {
          return in.readAllBytes();
        }
      }
      return switch (request.method()) {
        case "POST", "PUT", "PATCH" -> new byte[0];
        default -> null;
      };
    }

    private static String origin(URI uri) {
      var scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("https") && !scheme.equals("http")) {
        throw new IllegalArgumentException("not an http(s) URL: " + uri);
      }
      return scheme + "://" + uri.getHost() + ":" + port(uri);
    }

    private static int port(URI uri) {
      return uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    }

    private synchronized @Nullable Http11Connection take(String origin) throws IOException {
      if (closed) {
        throw new IOException("client closed");
      }
      var connections = idle.get(origin);
      var connection = connections == null ? null : connections.pollFirst();
      if (connection != null) {
        busy.add(connection);
      }
      return connection;
    }

    private synchronized void giveBack(String origin, Http11Connection connection, boolean reusable) {
      busy.remove(connection);
      if (reusable && !closed) {
        idle.computeIfAbsent(origin, o -> new ArrayDeque<>()).addFirst(connection);
      } else {
        connection.close();
      }
    }

    private Http11Connection open(URI uri) throws IOException {
      var host = uri.getHost();
      int port = port(uri);
      // A channel's socket, so that interrupting a thread blocked on it ends the wait (and closes the connection),
      // as a cancelled request of the JDK client does; a plain socket ignores interrupts.
      var plain = SocketChannel.open().socket();
      Socket socket = plain;
      try {
        plain.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
        if (uri.getScheme().equalsIgnoreCase("https")) {
          var context = ssl == null ? SSLContext.getDefault() : ssl;
          var tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
          socket = tls;
          var parameters = tls.getSSLParameters();
          parameters.setEndpointIdentificationAlgorithm("HTTPS");
          if (tlsServerName != null) {
            parameters.setServerNames(List.of(new SNIHostName(tlsServerName)));
          }
          if (tlsVersions != null && tlsVersions.length > 0) {
            parameters.setProtocols(Arrays.stream(tlsVersions).map(TlsVersion::javaName).toArray(String[]::new));
          }
          tls.setSSLParameters(parameters);
          tls.setSoTimeout(connectTimeoutMillis);
          tls.startHandshake();
        }
        var connection = new Http11Connection(socket);
        synchronized (this) {
          if (closed) {
            connection.close();
            throw new IOException("client closed");
          }
          busy.add(connection);
        }
        return connection;
      } catch (IOException | RuntimeException e) {
        socket.close();
        throw e;
      } catch (NoSuchAlgorithmException e) {
        socket.close();
        throw new IOException("no default TLS context", e);
      }
    }

    void close() {
      List<Http11Connection> all;
      synchronized (this) {
        closed = true;
        all = new ArrayList<>(busy);
        idle.values().forEach(all::addAll);
        idle.clear();
        busy.clear();
      }
      all.forEach(Http11Connection::close);
    }
  }

  /** An answer read in full, as fabric8 takes it. */
  private record Answered(HttpRequest request, Http11Connection.Answer answer, AsyncBody body)
      implements HttpResponse<AsyncBody> {

    @Override
    public int code() {
      return answer.code();
    }

    @Override
    public List<String> headers(String name) {
      return answer.headers().getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    @Override
    public Map<String, List<String>> headers() {
      return answer.headers();
    }

    @Override
    public Optional<HttpResponse<?>> previousResponse() {
      return Optional.empty();
    }
  }

  /**
   * A body already read: handed to the consumer at the first {@link #consume()}, in one buffer, after which
   * {@link #done()} completes.
   */
  private static final class WholeBody implements AsyncBody {

    private final byte[] bytes;
    private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean consumed = new AtomicBoolean();

    WholeBody(byte[] bytes, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
      this.bytes = bytes;
      this.consumer = consumer;
    }

    @Override
    public void consume() {
      if (done.isDone() || !consumed.compareAndSet(false, true)) {
        return; // the consumer asks for more from within consume(): there is no more
      }
      try {
        if (bytes.length > 0) {
          consumer.consume(List.of(ByteBuffer.wrap(bytes)), this);
        }
        done.complete(null);
      } catch (Exception e) {
        done.completeExceptionally(e);
      }
    }

    @Override
    public CompletableFuture<Void> done() {
      return done;
    }

    @Override
    public void cancel() {
      done.cancel(false);
    }
  }
}
