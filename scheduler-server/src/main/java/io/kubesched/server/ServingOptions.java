package io.kubesched.server;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server serves its endpoints, as kube-scheduler's secure-serving and delegated authentication and
 * authorization flags say. Immutable.
 *
 * @param securePort the HTTPS port ({@code --secure-port}, 10259 by default); 0: nothing is served
 * @param bindAddress the address listened on ({@code --bind-address}, all interfaces by default)
 * @param tlsCertFile the serving certificate, PEM, with any intermediates after it ({@code --tls-cert-file});
 *     empty with {@code tlsPrivateKeyFile} empty: a self-signed certificate is made at start
 * @param tlsPrivateKeyFile the certificate's private key, PEM ({@code --tls-private-key-file})
 * @param authenticationKubeconfig the kubeconfig of the API server that reviews tokens ({@code
 *     --authentication-kubeconfig}); empty: in-cluster when run in a pod
 * @param authorizationKubeconfig the kubeconfig of the API server that reviews access ({@code
 *     --authorization-kubeconfig}); empty: in-cluster when run in a pod
 * @param alwaysAllowPaths paths served without authentication or authorization ({@code
 *     --authorization-always-allow-paths}); a trailing {@code *} matches a prefix
 */
record ServingOptions(
    int securePort,
    InetAddress bindAddress,
    Optional<Path> tlsCertFile,
    Optional<Path> tlsPrivateKeyFile,
    Optional<Path> authenticationKubeconfig,
    Optional<Path> authorizationKubeconfig,
    List<String> alwaysAllowPaths) {

  /** kube-scheduler's secure port. */
  static final int DEFAULT_SECURE_PORT = 10259;

  /** kube-scheduler's default {@code --authorization-always-allow-paths}. */
  static final List<String> DEFAULT_ALWAYS_ALLOW_PATHS = List.of("/healthz", "/readyz", "/livez");

  ServingOptions {
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(tlsCertFile, "tlsCertFile");
    Objects.requireNonNull(tlsPrivateKeyFile, "tlsPrivateKeyFile");
    Objects.requireNonNull(authenticationKubeconfig, "authenticationKubeconfig");
    Objects.requireNonNull(authorizationKubeconfig, "authorizationKubeconfig");
    alwaysAllowPaths = List.copyOf(alwaysAllowPaths);
    if (securePort < 0 || securePort > 65535) {
      throw new IllegalArgumentException("securePort must be from 0 to 65535, was " + securePort);
    }
  }

  /** @return kube-scheduler's defaults: HTTPS on 10259 on every interface, a self-signed certificate */
  static ServingOptions defaults() {
    return new ServingOptions(
        DEFAULT_SECURE_PORT,
        anyAddress(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        DEFAULT_ALWAYS_ALLOW_PATHS);
  }

  private static InetAddress anyAddress() {
    try {
      return InetAddress.getByAddress(new byte[4]);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError("four bytes are an IPv4 address", e);
    }
  }
}
