package io.kubesched.facade;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Version;
import io.kubesched.api.BuildInfo;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulingListener;
import io.kubesched.informer.SchedulingLoop;
import io.kubesched.informer.watch.NodeListing;
import io.kubesched.fabric8.Fabric8Line;
import io.kubesched.k8s.KubeConnection;
import io.kubesched.k8s.KubeConnections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link Client} over a {@link KubeConnection}. */
final class DefaultClient implements Client {

  private static final Logger LOG = LoggerFactory.getLogger(DefaultClient.class);

  private final Options options;
  private final KubeConnection connection;
  private final Set<Controller> controllers = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();

  DefaultClient(Options options) {
    // Once per client, not per controller (a client makes any number), and before connecting, so that a
    // report of a failed connection says which build failed.
    var build = BuildInfo.current();
    LOG.info(
        "kubesched {} (revision {}), fabric8 kubernetes-client {}, Java {}",
        build.version(), build.revision(), Version.clientVersion(), System.getProperty("java.version"));
    // Before anything of fabric8 runs: a mixed class path fails later, at the first request, with a
    // NoSuchMethodError that names neither the cause nor the fix.
    Fabric8Line.require();
    this.options = options;
    this.connection = connect(options.connection(), options.metrics());
  }

  private static KubeConnection connect(Options.Connection connection, SchedulerMetrics metrics) {
    if (connection instanceof Options.Connection.Kubeconfig kubeconfig) {
      return KubeConnections.fromKubeconfig(kubeconfig.path().orElse(null), metrics);
    }
    if (connection instanceof Options.Connection.InCluster) {
      return KubeConnections.inCluster(metrics);
    }
    if (connection instanceof Options.Connection.Configured configured) {
      return KubeConnections.fromConfig(configured.config(), metrics);
    }
    if (connection instanceof Options.Connection.Shared shared) {
      return KubeConnections.sharing(shared.client(), metrics);
    }
    if (connection instanceof Options.Connection.Fake) {
      return KubeConnections.fake(metrics);
    }
    throw new AssertionError("a Connection the sealed interface does not permit: " + connection);
  }

  @Override
  public Options options() {
    return options;
  }

  @Override
  public List<NodeInfo> listNodeInfos() {
    return NodeListing.list(connection.schedulingClient());
  }

  @Override
  public Controller newPodController(FinderFunc finder, SchedulingListener listener) {
    return newPodController(Map.of(options.schedulerName(), finder), listener);
  }

  @Override
  public Controller newPodController(Map<String, FinderFunc> profiles, SchedulingListener listener) {
    if (closed.get()) {
      throw new IllegalStateException("client is closed");
    }
    if (profiles.isEmpty()) {
      throw new ConfigurationException("profiles must name at least one scheduler");
    }
    for (var name : profiles.keySet()) {
      Options.requireSchedulerName(name, options.replacesKubeScheduler());
    }
    // The first name (in order) names the controller's threads and, by default, its lease.
    var first = profiles.keySet().stream().sorted().findFirst().orElseThrow();
    var settings = options.controllerSettings();
    if (!profiles.containsKey(settings.schedulerName())) {
      if (options.leaderElection().map(e -> e.leaseName().isEmpty()).orElse(false)) {
        Options.requireLeaseName("schedulerName (the default leaseName)", first);
      }
      settings = settings.withSchedulerName(
          first, options.leaderElection().flatMap(Options.LeaderElection::leaseName).isPresent());
    }
    var loop =
        new SchedulingLoop(
            connection.schedulingClient(), connection.bindingClient(), settings, profiles, listener,
            options.metrics());
    var controller = new DefaultController(loop, controllers::remove);
    controllers.add(controller);
    return controller;
  }

  @Override
  public KubernetesClient kubernetesClient() {
    return connection.client();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (var controller : List.copyOf(controllers)) {
      controller.close();
    }
    connection.close();
  }
}
