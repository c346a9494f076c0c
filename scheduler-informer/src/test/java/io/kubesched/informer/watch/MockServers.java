package io.kubesched.informer.watch;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** fabric8's mock API server for the informer's tests: started in CRUD mode, and stopped after a test that watched it. */
public final class MockServers {

  private static final Logger LOG = LoggerFactory.getLogger(MockServers.class);

  private MockServers() {}

  /** @return a started mock API server that stores what is created, as an API server would (CRUD mode) */
  public static KubernetesMockServer crud() {
    return crud(new KubernetesCrudDispatcher());
  }

  /** @return as {@link #crud()}, answering through {@code dispatcher} (a subclass that records or delays) */
  public static KubernetesMockServer crud(KubernetesCrudDispatcher dispatcher) {
    var server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    return server;
  }

  /**
   * Destroys {@code server}; when the mock gives up waiting for its own HTTP server or its vert.x to close
   * ("Unable to close MockWebServer", "Unable to close Vertx", after 10 s each), says so and goes on: what these
   * tests check is done by then. The wait runs out
   * in the mock itself: when a watch's WebSocket closes, its {@code WatchEventsListener.onClosed} waits on the
   * vert.x event loop for its own executor to terminate (vert.x's blocked-thread checker shows the loop blocked
   * 3-7 s there on a loaded 2-core machine, up to 30 s in runs by hand since the scheduling client decodes
   * fabric8's model from its fields), and the server cannot close meanwhile. Seen in CI twice
   * (PodGroupSourcesTest, ClusterDataInformersTest), and by hand in 4 of 11 runs of this module on 2026-12-05
   * ("Unable to close Vertx" once).
   */
  public static void destroy(KubernetesMockServer server) {
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      var message = e.getMessage();
      if (!"Unable to close MockWebServer".equals(message) && !"Unable to close Vertx".equals(message)) {
        throw e;
      }
      LOG.warn("The mock API server did not close within its own 10 s; going on", e);
    }
  }
}
