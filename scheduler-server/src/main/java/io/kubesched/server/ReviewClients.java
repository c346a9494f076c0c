package io.kubesched.server;

import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubesched.api.ConfigurationException;
import io.kubesched.fabric8.Kubeconfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API servers that review the HTTPS endpoints' requests, as kube-scheduler finds them: {@code
 * --authentication-kubeconfig} for TokenReviews and {@code --authorization-kubeconfig} for
 * SubjectAccessReviews, each defaulting to the pod's service account where the process runs in a pod ({@code
 * KUBERNETES_SERVICE_HOST} set); {@code --kubeconfig} is not used for them, as in kube. Closing closes the clients.
 */
final class ReviewClients implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReviewClients.class);

  /** Where a pod finds its service account token. */
  static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  /** kube's {@code TokenAccessReviewTimeout} and webhook timeout: a review waits at most this long. */
  static final int REVIEW_TIMEOUT_MILLIS = 10_000;

  private final List<KubernetesClient> clients;
  private final DelegatedAuth auth;
  private final String description;

  private ReviewClients(List<KubernetesClient> clients, DelegatedAuth auth, String description) {
    this.clients = clients;
    this.auth = auth;
    this.description = description;
  }

  /**
   * Connects (lazily: nothing is requested before the first review) and logs one WARN naming the flags of
   * what has no API server.
   *
   * @throws ConfigurationException naming the flag and the file, if a kubeconfig cannot be read
   */
  static ReviewClients connect(ServingOptions serving, Map<String, String> env) {
    var inPod = env.containsKey("KUBERNETES_SERVICE_HOST") && Files.exists(SERVICE_ACCOUNT_TOKEN);
    var authnConfig = config("--authentication-kubeconfig", serving.authenticationKubeconfig(), inPod);
    var authzConfig = config("--authorization-kubeconfig", serving.authorizationKubeconfig(), inPod);
    var clients = new ArrayList<KubernetesClient>();
    Optional<KubernetesClient> authn = authnConfig.map(ReviewClients::client);
    authn.ifPresent(clients::add);
    Optional<KubernetesClient> authz;
    if (authzConfig.isPresent()
        && authn.isPresent()
        && serving.authorizationKubeconfig().equals(serving.authenticationKubeconfig())) {
      authz = authn; // one file (or the pod's account) for both: one client
    } else {
      authz = authzConfig.map(ReviewClients::client);
      authz.ifPresent(clients::add);
    }
    var missing = new ArrayList<String>();
    if (authn.isEmpty()) {
      missing.add("--authentication-kubeconfig");
    }
    if (authz.isEmpty()) {
      missing.add("--authorization-kubeconfig");
    }
    if (!missing.isEmpty()) {
      LOG.warn(
          "No {} given and not running in a pod: every request but to --authorization-always-allow-paths {} is"
              + " refused",
          String.join(" or ", missing),
          serving.alwaysAllowPaths());
    }
    var description =
        "authentication by TokenReview "
            + where(serving.authenticationKubeconfig(), authn.isPresent())
            + ", authorization by SubjectAccessReview "
            + where(serving.authorizationKubeconfig(), authz.isPresent())
            + ", always allowed: "
            + String.join(",", serving.alwaysAllowPaths());
    var auth =
        new DelegatedAuth(
            authn.map(ReviewClients::tokenReviewer),
            authz.map(ReviewClients::accessReviewer),
            serving.alwaysAllowPaths(),
            System::nanoTime);
    return new ReviewClients(List.copyOf(clients), auth, description);
  }

  /** @return the decisions, over these clients */
  DelegatedAuth auth() {
    return auth;
  }

  /** @return which API servers review, for the log line at start */
  String description() {
    return description;
  }

  @Override
  public void close() {
    clients.forEach(KubernetesClient::close);
  }

  /** TokenReviews over {@code client}: the user of an authenticated token, else empty. */
  static DelegatedAuth.TokenReviewer tokenReviewer(KubernetesClient client) {
    return token -> {
      var review = new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build();
      var status = call(() -> client.authentication().v1().tokenReviews().create(review)).getStatus();
      if (status == null || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
        return Optional.empty();
      }
      var user = status.getUser();
      return Optional.of(
          new DelegatedAuth.User(
              String.valueOf(user.getUsername()),
              user.getUid() == null ? "" : user.getUid(),
              user.getGroups() == null ? List.of() : user.getGroups(),
              user.getExtra() == null ? Map.of() : user.getExtra()));
    };
  }

  /** SubjectAccessReviews of non-resource paths over {@code client}. */
  static DelegatedAuth.AccessReviewer accessReviewer(KubernetesClient client) {
    return (user, verb, path) -> {
      var review =
          new SubjectAccessReviewBuilder()
              .withNewSpec()
              .withUser(user.name())
              .withUid(user.uid().isEmpty() ? null : user.uid())
              .withGroups(user.groups())
              .withExtra(user.extra().isEmpty() ? null : user.extra())
              .withNewNonResourceAttributes()
              .withPath(path)
              .withVerb(verb)
              .endNonResourceAttributes()
              .endSpec()
              .build();
      var status = call(() -> client.authorization().v1().subjectAccessReview().create(review)).getStatus();
      if (status == null) {
        return new DelegatedAuth.Access(false, "");
      }
      var allowed = Boolean.TRUE.equals(status.getAllowed()) && !Boolean.TRUE.equals(status.getDenied());
      return new DelegatedAuth.Access(allowed, status.getReason() == null ? "" : status.getReason());
    };
  }

  private static <T> T call(java.util.function.Supplier<T> request) {
    try {
      return request.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() <= 0) { // no answer: fabric8's own message says nothing, its cause says why
        throw new IllegalStateException("the API server does not answer: " + why(e), e);
      }
      var status = e.getStatus();
      var message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
      throw new IllegalStateException("HTTP " + e.getCode() + ": " + message, e);
    }
  }

  /** @return the first message in {@code e}'s causes below fabric8's own; else the innermost cause's type */
  private static String why(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
      if (cause.getMessage() != null && !(cause instanceof KubernetesClientException)) {
        return cause.toString();
      }
    }
    return cause.toString();
  }

  private static Optional<Config> config(String flag, Optional<Path> kubeconfig, boolean inPod) {
    Config config;
    if (kubeconfig.isPresent()) {
      var file = kubeconfig.get();
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        throw new ConfigurationException(flag + " " + file + " does not exist or cannot be read");
      }
      try {
        // Not Config.fromKubeconfig: its parser loads every model class of fabric8's (Kubeconfigs).
        config = Kubeconfigs.read(file);
      } catch (IOException | RuntimeException e) {
        throw new ConfigurationException(flag + " " + file + " cannot be read: " + e.getMessage(), e);
      }
      if (config.getCurrentContext() == null) {
        throw new ConfigurationException(flag + " " + file + " has no current context");
      }
    } else if (inPod) {
      config = Config.autoConfigure(null);
    } else {
      return Optional.empty();
    }
    config.setRequestTimeout(REVIEW_TIMEOUT_MILLIS);
    config.setConnectionTimeout(REVIEW_TIMEOUT_MILLIS);
    // A review is one POST: a failure is reported to the client at once instead of retried meanwhile.
    config.setRequestRetryBackoffLimit(0);
    return Optional.of(config);
  }

  private static KubernetesClient client(Config config) {
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static String where(Optional<Path> kubeconfig, boolean available) {
    if (!available) {
      return "off";
    }
    return kubeconfig.map(file -> "with kubeconfig " + file).orElse("with the pod's service account");
  }
}
