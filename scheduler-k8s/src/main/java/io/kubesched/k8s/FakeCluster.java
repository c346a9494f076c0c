package io.kubesched.k8s;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.fabric8.Fabric8Compat;
import java.util.HashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded fake cluster. Kept apart from {@link KubeConnections} so that nothing loads the optional
 * mock server classes before {@link #available()} said they are there.
 */
final class FakeCluster {

  private static final Logger LOG = LoggerFactory.getLogger(FakeCluster.class);
  private static final String MOCK_SERVER_CLASS =
      "io.fabric8.kubernetes.client.server.mock.KubernetesMockServer";

  private FakeCluster() {}

  static boolean available() {
    try {
      Class.forName(MOCK_SERVER_CLASS, false, FakeCluster.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  static KubeConnection start(SchedulerMetrics metrics) {
    var server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init();
    var client = server.createClient(RequestMetrics.meter(Fabric8Compat.get().inlineJdkHttpClientFactory(), metrics));
    LOG.info("Started the embedded fake cluster at {}", client.getMasterUrl());
    return new KubeConnection(client, true, server::destroy);
  }
}
