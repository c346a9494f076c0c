package io.kubesched.testcluster;

import java.net.Socket;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An HTTPS client for tests and drills that talk to kubesched-server's endpoints: the server makes a self-signed
 * certificate at each start (as kube-scheduler does without {@code --tls-cert-file}), so the client trusts any
 * certificate for any host. Never for anything but a test's own server.
 */
public final class InsecureHttps {

  private InsecureHttps() {}

  /** @return a client trusting every certificate, connecting within 2 s */
  public static HttpClient client() {
    return HttpClient.newBuilder().sslContext(context()).connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** @return a TLS context trusting every certificate for any host */
  public static SSLContext context() {
    try {
      var context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS in this JDK", e);
    }
  }

  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
