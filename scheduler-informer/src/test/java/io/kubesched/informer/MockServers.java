package io.kubesched.informer;

import io.fabric8.mockwebserver.MockWebServer;

/** The mock API server's HTTP server for the tests that watch through the JDK's HTTP client. */
final class MockServers {

  private MockServers() {}

  /**
   * @return a server that does not take the JDK client's {@code Upgrade: h2c}: over HTTP/2 a watch is a stream
   *     the server's close waits for, and on a loaded machine that close ran past the mock's 10 s ("Unable to
   *     close MockWebServer", PodGroupSourcesTest in CI); over HTTP/1.1 closing drops the connection
   */
  static MockWebServer http11() {
    var server = new MockWebServer();
    server.setHttp2ClearTextEnabled(false);
    return server;
  }
}
