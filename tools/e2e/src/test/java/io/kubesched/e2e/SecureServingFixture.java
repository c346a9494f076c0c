package io.kubesched.e2e;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * kubesched-server's HTTPS endpoints on the real API server: the review rights of the scheduler's identity, service
 * account tokens, and a client that trusts the server's self-signed certificate (as {@code curl -k} does).
 */
final class SecureServingFixture {

  /** The ClusterRole (and binding) of the reviews, as deploy/02-rbac.yaml's last two rules grant them. */
  static final String REVIEWS_ROLE = "kubesched-delegated-auth";

  private SecureServingFixture() {}

  /**
   * Lets the scheduler's service account ({@code kube-system/kubesched}, which holds the RBAC of
   * docs/operations.md) create TokenReviews and SubjectAccessReviews, as deploy/ lets it.
   */
  static void grantReviews(KubernetesClient admin) {
    var role = new ClusterRoleBuilder()
        .withNewMetadata().withName(REVIEWS_ROLE).endMetadata()
        .withRules(
            new PolicyRuleBuilder().withApiGroups("authentication.k8s.io").withResources("tokenreviews")
                .withVerbs("create").build(),
            new PolicyRuleBuilder().withApiGroups("authorization.k8s.io").withResources("subjectaccessreviews")
                .withVerbs("create").build())
        .build();
    admin.rbac().clusterRoles().resource(role).serverSideApply();
    bind(admin, REVIEWS_ROLE, REVIEWS_ROLE, "kube-system", "kubesched");
  }

  /**
   * Lets {@code namespace/account} {@code get} the non-resource URL {@code /metrics}, as Prometheus' role would.
   *
   * @return the name of the ClusterRoleBinding, to delete it
   */
  static String grantMetrics(KubernetesClient admin, String namespace, String account) {
    return grantPaths(admin, namespace, account, "e2e-metrics-reader", "/metrics");
  }

  /**
   * Lets {@code namespace/account} get the non-resource URLs {@code paths}, through the ClusterRole {@code role}.
   *
   * @return the ClusterRoleBinding's name, for the test to delete
   */
  static String grantPaths(KubernetesClient admin, String namespace, String account, String role, String... paths) {
    var clusterRole = new ClusterRoleBuilder()
        .withNewMetadata().withName(role).endMetadata()
        .withRules(new PolicyRuleBuilder().withNonResourceURLs(paths).withVerbs("get").build())
        .build();
    admin.rbac().clusterRoles().resource(clusterRole).serverSideApply();
    var binding = role + "-" + namespace + "-" + account;
    bind(admin, binding, role, namespace, account);
    return binding;
  }

  private static void bind(KubernetesClient admin, String name, String role, String namespace, String account) {
    var binding = new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
        .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace).endSubject()
        .build();
    admin.rbac().clusterRoleBindings().resource(binding).serverSideApply();
  }

  /**
   * Creates {@code namespace/account} (with no rights) and asks a token for it, as {@code kubectl create token}
   * does (TokenRequest).
   */
  static String token(KubernetesClient admin, String namespace, String account) {
    admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName(account).withNamespace(namespace).endMetadata().build()).serverSideApply();
    var request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
    return admin.serviceAccounts().inNamespace(namespace).withName(account).tokenRequest(request).getStatus()
        .getToken();
  }

  /** A GET's answer: status, content type, body. */
  record Answer(int status, String contentType, String body) {
    static final Answer NONE = new Answer(-1, "", "");
  }

  /**
   * @param token sent as {@code Authorization: Bearer TOKEN}; empty: none
   * @return the answer to GET {@code https://127.0.0.1:PORT/PATH}; {@link Answer#NONE} if nothing answers
   */
  static Answer get(HttpClient http, int port, String path, String token) {
    return get(http, port, path, token, "");
  }

  /** As {@link #get(HttpClient, int, String, String)}, with an {@code Accept} header unless {@code accept} is empty. */
  static Answer get(HttpClient http, int port, String path, String token, String accept) {
    var request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10));
    if (!accept.isEmpty()) {
      request.header("Accept", accept);
    }
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
    try {
      var response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
          response.body());
    } catch (IOException e) {
      return Answer.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Answer.NONE;
    }
  }
}
