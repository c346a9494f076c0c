package io.kubesched.server;

import io.kubesched.api.FinderFunc;
import io.kubesched.api.SchedulerException;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.Options;
import io.kubesched.policy.config.PluginRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: the HTTP endpoints, one controller for every profile, and (unless turned off) the
 * SchedulingPolicy controller, composed and stopped in order.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #awaitTermination()}; {@link #close()} from any thread
 * (the shutdown hook's), any number of times, also while {@link #start()} lists the cluster. Health and
 * readiness are read on the HTTP threads.
 */
final class SchedulerServer implements Endpoints.Probes, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerServer.class);

  /** How often the INFO summary of decisions is logged (when something happened). */
  static final Duration SUMMARY_PERIOD = Duration.ofMinutes(1);

  private enum Phase {
    NEW,
    STARTING,
    RUNNING,
    STOPPING,
    FAILED
  }

  private final Options options;
  private final Map<String, FinderFunc> profiles;
  private final boolean watchPolicies;
  private final ServingOptions serving;
  private final Map<String, Route> routes;
  private final Map<String, String> env;
  private final boolean anyFreePort;
  private final PrometheusMeterRegistry registry;
  private final PluginRegistry plugins;
  private final DecisionLog decisions = new DecisionLog();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final ScheduledExecutorService summaries =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            var thread = new Thread(runnable, "kubesched-summary");
            thread.setDaemon(true);
            return thread;
          });
  private volatile Phase phase = Phase.NEW;
  private volatile String failure = "";
  private boolean closing;
  private volatile @Nullable Endpoints endpoints;
  private @Nullable ReviewClients reviews;
  private volatile @Nullable Client client;
  private volatile @Nullable Controller controller;
  private @Nullable AutoCloseable policies;

  /**
   * @param options how to connect and schedule (the metrics should record into {@code registry})
   * @param profiles each scheduler name's policy
   * @param watchPolicies whether SchedulingPolicy custom resources replace the profiles' policies
   * @param serving where and how to serve the endpoints ({@code securePort} 0: not at all)
   * @param routes the further endpoints served to authorized requests, by path, besides {@value
   *     ExplainRoute#PATH} and {@code /debug/whatif/*} ({@link WhatIfRoute}), which every server answers
   * @param env the process's environment (whether it runs in a pod)
   * @param registry what {@code /metrics} shows
   */
  SchedulerServer(
      Options options,
      Map<String, FinderFunc> profiles,
      boolean watchPolicies,
      ServingOptions serving,
      Map<String, Route> routes,
      Map<String, String> env,
      PrometheusMeterRegistry registry) {
    this(options, profiles, watchPolicies, serving, routes, env, registry, PluginRegistry.empty(), false);
  }

  /**
   * As above, with plugins of one's own; with {@code anyFreePort} (for tests) the endpoints are served on a free
   * port of {@code serving.bindAddress()} whatever {@code serving.securePort()} says (the command line cannot ask
   * for that).
   *
   * @param plugins the plugins of one's own a SchedulingPolicy may enable, as the configuration file's profiles
   */
  SchedulerServer(
      Options options,
      Map<String, FinderFunc> profiles,
      boolean watchPolicies,
      ServingOptions serving,
      Map<String, Route> routes,
      Map<String, String> env,
      PrometheusMeterRegistry registry,
      PluginRegistry plugins,
      boolean anyFreePort) {
    this.plugins = plugins;
    this.options = options;
    this.profiles = profiles;
    this.watchPolicies = watchPolicies;
    this.serving = serving;
    var all = new java.util.HashMap<>(routes);
    all.put(ExplainRoute.PATH, ExplainRoute.of(this::controller));
    all.putAll(WhatIfRoute.all(this::controller, profiles.keySet()));
    this.routes = Map.copyOf(all);
    this.env = Map.copyOf(env);
    this.registry = registry;
    this.anyFreePort = anyFreePort;
  }

  /** @return every route the endpoints serve to authorized requests, by path */
  Map<String, Route> routes() {
    return routes;
  }

  /**
   * Serves the endpoints, connects, lists the cluster and starts scheduling (or, under leader election,
   * campaigning). Returns once the informers are synced: from then on {@code /readyz} answers 200.
   *
   * @throws IOException if the endpoints' port cannot be bound
   * @throws io.kubesched.api.ConfigurationException if the serving certificate or a review kubeconfig cannot
   *     be read, or the connection cannot be set up (no kubeconfig)
   * @throws SchedulerException if the cluster cannot be listed in time
   * @throws io.kubesched.api.ConfigurationException also if SchedulingPolicies are to be watched and the API
   *     server does not serve them (the CRD is not installed)
   * @throws IllegalStateException if started before
   */
  void start() throws IOException {
    Controller started;
    synchronized (this) {
      if (phase != Phase.NEW) {
        throw new IllegalStateException("the server was started before, or closed: " + phase);
      }
      phase = Phase.STARTING;
      try {
        serve();
        client = Client.create(options);
        started = client.newPodController(profiles, decisions);
        controller = started;
      } catch (RuntimeException e) {
        fail(e);
        throw e;
      }
    }
    LOG.info(
        "Scheduling the pods of {}, {}; listing the cluster",
        new TreeSet<>(profiles.keySet()),
        options.leaderElection().map(e -> "when leading (" + e + ")").orElse("without leader election"));
    try {
      if (watchPolicies) {
        // Before the controller starts, so that the first pod already meets the policies applied.
        var watch = SchedulingPolicies.watch(client(), started, profiles, plugins);
        boolean closedMeanwhile;
        synchronized (this) {
          closedMeanwhile = closing;
          policies = watch;
        }
        if (closedMeanwhile) {
          closeQuietly(watch);
        }
      }
      started.start();
    } catch (RuntimeException e) {
      synchronized (this) {
        if (closing) {
          return; // closed while starting (SIGTERM during the first list): not a failure
        }
      }
      fail(e);
      throw e;
    }
    synchronized (this) {
      if (phase == Phase.STARTING) {
        phase = Phase.RUNNING;
        long period = SUMMARY_PERIOD.toMillis();
        summaries.scheduleAtFixedRate(this::logSummary, period, period, TimeUnit.MILLISECONDS);
      }
    }
  }

  private void serve() throws IOException {
    if (serving.securePort() == 0 && !anyFreePort) {
      LOG.info("Serving no endpoints: --secure-port is 0");
      return;
    }
    var certificate = ServingCertificate.of(serving);
    var review = ReviewClients.connect(serving, env);
    reviews = review;
    var address = new InetSocketAddress(serving.bindAddress(), anyFreePort ? 0 : serving.securePort());
    var served = Endpoints.start(address, certificate, review.auth(), this, registry, routes, Endpoints.Limits.DEFAULT);
    endpoints = served;
    var paths = new TreeSet<>(routes.keySet());
    paths.addAll(List.of("/healthz", "/livez", "/readyz", "/metrics"));
    LOG.info(
        "Serving {} over HTTPS on {}:{} ({} certificate; {})",
        String.join(", ", paths),
        serving.bindAddress().getHostAddress(),
        served.port(),
        serving.tlsCertFile().map(file -> "the --tls-cert-file " + file).orElse("a self-signed"),
        review.description());
  }

  /** @return the port the endpoints are served on */
  int port() {
    var served = endpoints;
    if (served == null) {
      throw new IllegalStateException("the server is not started or serves no endpoints");
    }
    return served.port();
  }

  /** @return the connection, for tests that create objects on the fake cluster */
  Client client() {
    var connected = client;
    if (connected == null) {
      throw new IllegalStateException("the server is not started");
    }
    return connected;
  }

  /** @return the controller, for tests that wait until it sees what they created */
  Controller controller() {
    var made = controller;
    if (made == null) {
      throw new IllegalStateException("the server is not started");
    }
    return made;
  }

  /** Blocks until {@link #close()} has stopped everything. */
  void awaitTermination() throws InterruptedException {
    stopped.await();
  }

  @Override
  public Optional<String> unhealthy() {
    return switch (phase) {
      case FAILED -> Optional.of(failure);
      case RUNNING -> loopStopped();
      case NEW, STARTING, STOPPING -> Optional.empty();
    };
  }

  @Override
  public Optional<String> notReady() {
    return switch (phase) {
      case NEW, STARTING -> Optional.of("informers not synced yet: listing the cluster");
      case RUNNING -> loopStopped();
      case STOPPING -> Optional.of("shutting down");
      case FAILED -> Optional.of(failure);
    };
  }

  private Optional<String> loopStopped() {
    var running = controller;
    return running != null && running.isRunning()
        ? Optional.empty()
        : Optional.of("the scheduling loop stopped");
  }

  /**
   * Stops in order: readiness goes to 503; the SchedulingPolicy watch stops; the controller stops scheduling,
   * finishes the bindings in flight and gives up its lease; the connection closes; the last summary is
   * logged; the endpoints stop. Idempotent.
   */
  @Override
  public void close() {
    List<AutoCloseable> parts = new ArrayList<>();
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
      if (phase != Phase.FAILED) {
        if (controller != null) {
          LOG.info("Stopping: finishing the bindings in flight, then giving up the lease");
        }
        phase = Phase.STOPPING;
      }
      if (policies != null) {
        parts.add(policies);
      }
      if (client != null) {
        parts.add(client); // closes the controller: bindings in flight finished, lease released
      }
    }
    parts.forEach(SchedulerServer::closeQuietly);
    summaries.shutdownNow();
    logSummary();
    synchronized (this) {
      if (endpoints != null) {
        endpoints.close();
      }
      if (reviews != null) {
        reviews.close();
      }
    }
    LOG.info("Server stopped");
    stopped.countDown();
  }

  private static void closeQuietly(AutoCloseable part) {
    try {
      part.close();
    } catch (Exception e) {
      LOG.warn("Closing {} failed: {}", part, e.toString());
    }
  }

  private synchronized void fail(Exception e) {
    failure = String.valueOf(e.getMessage());
    phase = Phase.FAILED;
  }

  private void logSummary() {
    var line = decisions.summary();
    if (!line.isEmpty()) {
      LOG.info(line);
    }
  }
}
