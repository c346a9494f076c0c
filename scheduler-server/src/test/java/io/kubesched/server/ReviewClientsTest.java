package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The review clients as the flags and the environment choose them, against fabric8's mock API server. */
class ReviewClientsTest {

  @TempDir Path dir;

  private static ServingOptions serving(Optional<Path> authn, Optional<Path> authz) {
    return new ServingOptions(
        0, InetAddress.getLoopbackAddress(), Optional.empty(), Optional.empty(), authn, authz,
        ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS);
  }

  @Test
  void tokens_and_access_are_reviewed_by_the_kubeconfigs_api_server_and_cached() throws Exception {
    try (var api = new ReviewServer(Map.of("good", "alice"), Set.of("alice /metrics"));
        var clients =
            ReviewClients.connect(
                serving(Optional.of(api.kubeconfig(dir)), Optional.of(api.kubeconfig(dir))), Map.of())) {
      var auth = clients.auth();
      assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check("Bearer good", "GET", "/metrics"));
      assertEquals(
          new DelegatedAuth.Outcome.Forbidden("forbidden: User \"alice\" cannot get path \"/configz\""),
          auth.check("Bearer good", "GET", "/configz"));
      assertEquals(new DelegatedAuth.Outcome.Unauthorized(), auth.check("Bearer bad", "GET", "/metrics"));
      assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check("Bearer good", "GET", "/metrics"));
      assertEquals(2, api.tokenReviews.get(), "good once, bad once: cached");
      assertEquals(2, api.accessReviews.get(), "/metrics once, /configz once: cached");
      assertTrue(clients.description().contains("authentication by TokenReview with kubeconfig "), clients.description());
    }
  }

  @Test
  void an_api_server_that_does_not_answer_fails_the_request_not_the_server() throws Exception {
    int closedPort;
    try (var socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    var kubeconfig =
        Files.writeString(
            dir.resolve("kubeconfig"),
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:" + closedPort
                + "\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\n"
                + "users:\n- name: u\n  user:\n    token: t\n");
    try (var clients = ReviewClients.connect(serving(Optional.of(kubeconfig), Optional.of(kubeconfig)), Map.of())) {
      assertEquals(
          new DelegatedAuth.Outcome.Failed("TokenReview failed"),
          clients.auth().check("Bearer x", "GET", "/metrics"));
    }
  }

  @Test
  void without_kubeconfigs_outside_a_pod_nothing_is_reviewed_and_only_the_probes_are_served() {
    try (var clients = ReviewClients.connect(serving(Optional.empty(), Optional.empty()), Map.of())) {
      assertEquals(new DelegatedAuth.Outcome.Allowed(), clients.auth().check(null, "GET", "/livez"));
      assertEquals(new DelegatedAuth.Outcome.Unauthorized(), clients.auth().check("Bearer x", "GET", "/metrics"));
      assertTrue(clients.description().contains("authentication by TokenReview off"), clients.description());
    }
  }

  @Test
  void a_missing_kubeconfig_is_refused_naming_the_flag_and_the_file() {
    var missing = dir.resolve("missing");
    var e =
        assertThrows(
            ConfigurationException.class,
            () -> ReviewClients.connect(serving(Optional.empty(), Optional.of(missing)), Map.of()));
    assertEquals("--authorization-kubeconfig " + missing + " does not exist or cannot be read", e.getMessage());
  }
}
