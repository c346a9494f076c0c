package io.kubesched.facade;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.informer.PodController;
import io.kubesched.informer.Snapshots;
import io.kubesched.k8s.KubeConnection;
import io.kubesched.k8s.KubeConnections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@link Client} over a {@link KubeConnection}. */
final class DefaultClient implements Client {

  private final Options options;
  private final KubeConnection connection;
  private final Set<Controller> controllers = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();

  DefaultClient(Options options) {
    this.options = options;
    this.connection =
        switch (options.connection()) {
          case KUBECONFIG -> KubeConnections.fromKubeconfig(options.kubeconfig().orElse(null));
          case IN_CLUSTER -> KubeConnections.inCluster();
          case FAKE -> KubeConnections.fake();
        };
  }

  @Override
  public Options options() {
    return options;
  }

  @Override
  public List<NodeInfo> listNodeInfos() {
    return Snapshots.list(connection.client());
  }

  @Override
  public Controller newPodController(FinderFunc finder, SchedulingListener listener) {
    if (closed.get()) {
      throw new IllegalStateException("client is closed");
    }
    var podController =
        new PodController(connection.client(), options.controllerSettings(), finder, listener);
    var controller = new DefaultController(podController, controllers::remove);
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
