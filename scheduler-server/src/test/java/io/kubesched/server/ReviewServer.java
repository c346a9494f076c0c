package io.kubesched.server;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * An API server (fabric8's mock server, expectations mode) that answers TokenReviews and SubjectAccessReviews as
 * the test says: {@code users} maps each valid token to its user name; {@code allowed} holds {@code USER PATH}
 * for each user allowed to {@code get} a path. Anything else is unauthenticated or denied.
 */
final class ReviewServer implements AutoCloseable {

  private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]*)\"");
  private static final Pattern USER = Pattern.compile("\"user\"\\s*:\\s*\"([^\"]*)\"");
  private static final Pattern PATH = Pattern.compile("\"path\"\\s*:\\s*\"([^\"]*)\"");
  private static final Pattern VERB = Pattern.compile("\"verb\"\\s*:\\s*\"([^\"]*)\"");

  private final KubernetesMockServer server = new KubernetesMockServer(false);
  final AtomicInteger tokenReviews = new AtomicInteger();
  final AtomicInteger accessReviews = new AtomicInteger();

  ReviewServer(Map<String, String> users, Set<String> allowed) {
    server.init();
    server
        .expect()
        .post()
        .withPath("/apis/authentication.k8s.io/v1/tokenreviews")
        .andReply(
            201,
            request -> {
              tokenReviews.incrementAndGet();
              var token = find(TOKEN, request.getUtf8Body());
              var user = users.get(token);
              var status =
                  user == null
                      ? "{\"authenticated\":false,\"error\":\"invalid bearer token\"}"
                      : "{\"authenticated\":true,\"user\":{\"username\":\"" + user + "\",\"uid\":\"u-" + user
                          + "\",\"groups\":[\"system:serviceaccounts\"]}}";
              return "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":{},\"status\":"
                  + status + "}";
            })
        .always();
    server
        .expect()
        .post()
        .withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews")
        .andReply(
            201,
            request -> {
              accessReviews.incrementAndGet();
              var body = request.getUtf8Body();
              var ok =
                  find(VERB, body).equals("get") && allowed.contains(find(USER, body) + " " + find(PATH, body));
              return "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{},"
                  + "\"status\":{\"allowed\":" + ok + "}}";
            })
        .always();
  }

  /** @return a kubeconfig file that connects to this server */
  Path kubeconfig(Path dir) throws IOException {
    var url = server.url("/").replaceAll("/$", "");
    return Files.writeString(
        dir.resolve("review-kubeconfig"),
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + url
            + "\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\n"
            + "users:\n- name: u\n  user:\n    token: reviewer\n");
  }

  private static String find(Pattern pattern, String body) {
    var matcher = pattern.matcher(body);
    return matcher.find() ? matcher.group(1) : "";
  }

  @Override
  public void close() {
    server.destroy();
  }
}
