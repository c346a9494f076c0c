package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.testcluster.InsecureHttps;
import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The image offers the API server ChaCha20-Poly1305 first ({@code server.jvm.tls} in scheduler-server's pom,
 * docs/operations.md#jvm-flags-and-sizing), because the JVM's quick compiler has no AES-GCM intrinsics. What
 * makes that flag work is the API server's side: Go's TLS stack takes AES-GCM when the client prefers it and
 * ChaCha20-Poly1305 when the client lists that first. Checked here on the real kube-apiserver, over TLS 1.3 and
 * 1.2, against the JDK's own order. The JDK takes {@code jdk.tls.client.cipherSuites} as its clients' enabled
 * suites in the order written, as a socket's {@code setEnabledCipherSuites} here.
 */
@ExtendWith(RealClusterExtension.class)
class ApiServerCipherIT {

  private static final Pattern FLAG = Pattern.compile("<server\\.jvm\\.tls>-Djdk\\.tls\\.client\\.cipherSuites=([^<]+)<");

  @Test
  void the_api_server_takes_chacha20_poly1305_when_the_image_offers_it_first(TestCluster cluster) throws Exception {
    var pom = Files.readString(RealClusterExtension.projectDir().resolve("scheduler-server/pom.xml"));
    var matcher = FLAG.matcher(pom);
    assertTrue(matcher.find(), "scheduler-server's pom sets server.jvm.tls");
    var image = matcher.group(1).split(",");
    var server = URI.create(cluster.admin().getMasterUrl().toString());

    assertEquals("TLS_CHACHA20_POLY1305_SHA256", negotiated(server, "TLSv1.3", image));
    var tls12 = negotiated(server, "TLSv1.2", image);
    assertTrue(tls12.startsWith("TLS_ECDHE_") && tls12.endsWith("_WITH_CHACHA20_POLY1305_SHA256"), tls12);
    // The JDK's order puts AES-GCM first, and then the API server takes it: the order is what decides.
    var jdkDefault = negotiated(server, "TLSv1.3", null);
    assertTrue(jdkDefault.startsWith("TLS_AES_") && jdkDefault.contains("_GCM_"), jdkDefault);
  }

  /** The suite the API server picks for a client offering {@code suites} in that order (the JDK's if null). */
  private static String negotiated(URI server, String protocol, String @Nullable [] suites)
      throws IOException {
    // Only the negotiation is checked here, nothing is sent: the API server's certificate is not verified.
    var factory = InsecureHttps.context().getSocketFactory();
    try (var socket = (SSLSocket) factory.createSocket(server.getHost(), server.getPort())) {
      socket.setEnabledProtocols(new String[] {protocol});
      if (suites != null) {
        socket.setEnabledCipherSuites(suites);
      }
      socket.startHandshake();
      return socket.getSession().getCipherSuite();
    }
  }
}
