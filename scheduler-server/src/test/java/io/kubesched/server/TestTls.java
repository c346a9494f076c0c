package io.kubesched.server;

import java.net.Socket;
import java.net.http.HttpClient;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** TLS clients of the endpoints' tests. */
final class TestTls {

  private TestTls() {}

  /** @return a context that trusts the last certificate of {@code certificate}'s chain (its CA) */
  static SSLContext trusting(ServingCertificate certificate) {
    try {
      var store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      var chain = certificate.chain();
      store.setCertificateEntry("ca", chain.get(chain.size() - 1));
      var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      var context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), new SecureRandom());
      return context;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * @return a context that trusts any certificate for any host: for a server whose self-signed certificate
   *     is made in another process
   */
  static SSLContext trustingAll() {
    try {
      var context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
      return context;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5)).build();
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
