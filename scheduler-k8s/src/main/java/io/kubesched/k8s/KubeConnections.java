package io.kubesched.k8s;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubesched.api.ConfigurationException;
import io.kubesched.fabric8.Fabric8Compat;
import io.kubesched.fabric8.Kubeconfigs;
import io.kubesched.fabric8.SiblingClients;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.http.BlockingHttpClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates {@link KubeConnection}s. Every client uses the JDK HTTP client, with its internal tasks run inline
 * ({@code InlineHttpClientFactory} of the fabric8 line's module, {@code Fabric8Compat#inlineJdkHttpClientFactory}).
 */
public final class KubeConnections {

  private static final Logger LOG = LoggerFactory.getLogger(KubeConnections.class);

  /** Where a pod finds its service account token. */
  static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  /** fabric8's watch reconnect interval when the configuration sets none (its {@code Config}'s default). */
  static final int FABRIC8_WATCH_RECONNECT_MS = 1_000;

  /**
   * How long a watch the API server ended waits before it is made again, doubled on each failed attempt up to 32
   * times (fabric8's backoff): 250 ms, not fabric8's 1 s. The API server ends a watch at its timeout, and ends one
   * whose client stopped reading (a paused process, a long pause of the collector) once the watch's buffer is full;
   * what was created or changed meanwhile reaches the scheduler only through the new watch. Seen in the 500-node
   * benchmark's backlog, where the scheduler is paused while 1 000 pods are created: two watches made again after
   * the resumption in one run of three. client-go's reflector makes such a watch again at once. Applied where the
   * configuration has fabric8's default; a value the caller set is kept.
   */
  static final int WATCH_RECONNECT_MS = 250;

  private KubeConnections() {}

  /**
   * Connects with the kubeconfig at {@code explicitPath}, else the first existing file named by {@code
   * KUBECONFIG}, else {@code ~/.kube/config}. Files are not merged.
   *
   * @throws ConfigurationException if no kubeconfig file exists where looked, or it cannot be read
   */
  public static KubeConnection fromKubeconfig(@Nullable Path explicitPath) {
    return fromKubeconfig(explicitPath, SchedulerMetrics.NONE);
  }

  /**
   * As {@link #fromKubeconfig(Path)}, telling {@code metrics} of every request of the connection's clients.
   *
   * @throws ConfigurationException as {@link #fromKubeconfig(Path)}
   */
  public static KubeConnection fromKubeconfig(@Nullable Path explicitPath, SchedulerMetrics metrics) {
    var path =
        resolveKubeconfig(explicitPath, System.getenv(), Path.of(System.getProperty("user.home")));
    Config config;
    try {
      config = Kubeconfigs.read(path);
    } catch (IOException | RuntimeException e) {
      // fabric8 lets YAML parser and null-pointer errors through as they are
      throw new ConfigurationException("kubeconfig " + path + " cannot be read: " + e, e);
    }
    if (config.getCurrentContext() == null) {
      // fabric8 would fall back to https://kubernetes.default.svc and fail only at the first request.
      throw new ConfigurationException(
          "kubeconfig " + path + " has no current context: its current-context must name one of its"
              + " contexts");
    }
    LOG.info("Connecting to {} with kubeconfig {}", config.getMasterUrl(), path);
    return connect(config, metrics);
  }

  /**
   * Connects with the pod's service account, as a scheduler running inside the cluster does.
   *
   * @throws ConfigurationException if this process does not run in a pod (no {@code
   *     KUBERNETES_SERVICE_HOST}, no service account token)
   */
  public static KubeConnection inCluster() {
    return inCluster(SchedulerMetrics.NONE);
  }

  /**
   * As {@link #inCluster()}, telling {@code metrics} of every request of the connection's clients.
   *
   * @throws ConfigurationException as {@link #inCluster()}
   */
  public static KubeConnection inCluster(SchedulerMetrics metrics) {
    if (System.getenv("KUBERNETES_SERVICE_HOST") == null || !Files.exists(SERVICE_ACCOUNT_TOKEN)) {
      throw new ConfigurationException(
          "in-cluster configuration needs KUBERNETES_SERVICE_HOST and a service account token at "
              + SERVICE_ACCOUNT_TOKEN
              + ": this process does not seem to run in a pod");
    }
    var config = Config.autoConfigure(null);
    LOG.info("Connecting to {} with the pod's service account", config.getMasterUrl());
    return connect(config, metrics);
  }

  /** Connects with a copy of {@code config}: the caller's object is not changed and stays the caller's. */
  public static KubeConnection fromConfig(Config config) {
    return fromConfig(config, SchedulerMetrics.NONE);
  }

  /** As {@link #fromConfig(Config)}, telling {@code metrics} of every request of the connection's clients. */
  public static KubeConnection fromConfig(Config config, SchedulerMetrics metrics) {
    var copy = copyOf(config);
    LOG.info("Connecting to {} with the configuration given", copy.getMasterUrl());
    return connect(copy, metrics);
  }

  /**
   * Connects beside {@code application}, the client an application (an operator) already has: users of the
   * connection get that client, which is never closed here; the scheduling loop's clients (watches, bindings and
   * reports) are this library's own, over HTTP clients of their own, made from a copy of {@code application}'s
   * configuration, credentials included.
   */
  public static KubeConnection sharing(KubernetesClient application) {
    return sharing(application, SchedulerMetrics.NONE);
  }

  /**
   * As {@link #sharing(KubernetesClient)}, telling {@code metrics} of every request of this library's own
   * clients (not of {@code application}, which is the application's to measure).
   */
  public static KubeConnection sharing(KubernetesClient application, SchedulerMetrics metrics) {
    var copy = copyOf(application.getConfiguration());
    LOG.info("Connecting to {} with the application's client's configuration", copy.getMasterUrl());
    return connect(copy, metrics).lending(application);
  }

  /** A copy of {@code config} to change (HTTP/1.1, see {@link #build}) without changing the caller's. */
  private static Config copyOf(Config config) {
    return new ConfigBuilder(config).build();
  }

  /**
   * Starts an embedded fake cluster (fabric8's mock server in CRUD mode, on loopback) and connects to it.
   *
   * @throws ConfigurationException if {@code io.fabric8:kubernetes-server-mock} is not on the class path
   *     (or, on the module path, its module is not resolved)
   */
  public static KubeConnection fake() {
    return fake(SchedulerMetrics.NONE);
  }

  /**
   * As {@link #fake()}, telling {@code metrics} of every request of the connection's clients.
   *
   * @throws ConfigurationException as {@link #fake()}
   */
  public static KubeConnection fake(SchedulerMetrics metrics) {
    if (!FakeCluster.available()) {
      throw new ConfigurationException(
          "the fake cluster needs io.fabric8:kubernetes-server-mock on the class path; add it as a"
              + " dependency (on the module path also add --add-modules kubernetes.server.mock)");
    }
    return FakeCluster.start(metrics);
  }

  /**
   * The kubeconfig to use: {@code explicitPath} if given, else the first existing entry of {@code
   * KUBECONFIG} (separated by the platform's path separator), else {@code home/.kube/config}.
   *
   * @throws ConfigurationException naming the path(s) looked at, if the chosen file does not exist
   */
  static Path resolveKubeconfig(@Nullable Path explicitPath, Map<String, String> env, Path home) {
    if (explicitPath != null) {
      return requireFile(explicitPath, "kubeconfig given explicitly");
    }
    var fromEnv = Optional.ofNullable(env.get("KUBECONFIG")).filter(s -> !s.isBlank());
    if (fromEnv.isPresent()) {
      for (var entry : fromEnv.get().split(File.pathSeparator)) {
        if (!entry.isBlank() && Files.isRegularFile(Path.of(entry))) {
          return Path.of(entry);
        }
      }
      throw new ConfigurationException(
          "KUBECONFIG is '" + fromEnv.get() + "' but none of its files exists");
    }
    return requireFile(home.resolve(".kube").resolve("config"), "default kubeconfig");
  }

  private static Path requireFile(Path path, String what) {
    if (!Files.isRegularFile(path)) {
      throw new ConfigurationException(what + " " + path + " does not exist or is not a file");
    }
    return path;
  }

  /** The user's and the scheduling client over one JDK HTTP client, the binding client over its own. */
  private static KubeConnection connect(Config config, SchedulerMetrics metrics) {
    var client = build(config, metrics);
    try {
      var bindingHttp =
          RequestMetrics.meter(
                  new BlockingHttpClient.Factory(Fabric8Compat.get().inlineJdkHttpClientFactory()).newBuilder(config),
                  metrics)
              .build();
      // One lean serialization for both: a kind's deserializers are built and kept once, not again by the binding
      // client at its first status write (a second mapper that decoded a pod: 22-50 ms on C1, 1.4 MB of heap).
      var lean = SchedulingClients.serialization();
      var schedulingClient = SiblingClients.of(client, lean);
      var bindingClient = SiblingClients.over(bindingHttp, config, lean);
      return new KubeConnection(client, schedulingClient, bindingClient, false, () -> {}, true);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  static KubernetesClient build(Config config) {
    return build(config, SchedulerMetrics.NONE);
  }

  static KubernetesClient build(Config config, SchedulerMetrics metrics) {
    // HTTP/1.1: with HTTP/2 the JDK client multiplexes every watch and request over one connection, and
    // after a kube-apiserver restart it was seen to keep that dead connection, every watch and binding
    // hanging until its timeout (ApiServerRestartIT failed 2 runs in 3; none since).
    config.setHttp2Disable(true);
    if (Objects.equals(config.getWatchReconnectInterval(), FABRIC8_WATCH_RECONNECT_MS)) {
      config.setWatchReconnectInterval(WATCH_RECONNECT_MS);
    }
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(RequestMetrics.meter(Fabric8Compat.get().inlineJdkHttpClientFactory(), metrics))
        .build();
  }
}
