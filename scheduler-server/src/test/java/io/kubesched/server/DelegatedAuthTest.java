package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Decisions and caching of {@link DelegatedAuth}, with reviewers and a clock of the test's. */
class DelegatedAuthTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final AtomicInteger tokenReviews = new AtomicInteger();
  private final List<String> accessReviews = new ArrayList<>();

  private DelegatedAuth auth(boolean allowed) {
    DelegatedAuth.TokenReviewer tokens =
        token -> {
          tokenReviews.incrementAndGet();
          return switch (token) {
            case "t" -> Optional.of(new DelegatedAuth.User("u", "", List.of("g"), Map.of()));
            case "root" -> Optional.of(new DelegatedAuth.User("root", "", List.of("system:masters"), Map.of()));
            case "down" -> throw new IllegalStateException("connect timed out\nsecond line");
            default -> Optional.empty();
          };
        };
    DelegatedAuth.AccessReviewer access =
        (user, verb, path) -> {
          accessReviews.add(user.name() + " " + user.groups() + " " + verb + " " + path);
          return new DelegatedAuth.Access(allowed, allowed ? "" : "no rule");
        };
    return new DelegatedAuth(
        Optional.of(tokens), Optional.of(access), List.of("/healthz", "/debug/*"), now::get);
  }

  @Test
  void always_allowed_paths_need_no_token_and_no_review() {
    var auth = auth(false);
    assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check(null, "GET", "/healthz"));
    assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check("Bearer nonsense", "POST", "/debug/x"));
    assertEquals(0, tokenReviews.get());
  }

  @Test
  void an_authenticated_user_is_reviewed_with_kubes_authenticated_group_and_the_lower_case_method() {
    var auth = auth(true);
    assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check("Bearer t", "GET", "/metrics"));
    assertEquals(List.of("u [g, system:authenticated] get /metrics"), accessReviews);
  }

  @Test
  void a_denied_access_is_forbidden_with_kubes_message_and_the_reviews_reason() {
    var outcome = auth(false).check("bearer t", "GET", "/metrics");
    assertEquals(
        new DelegatedAuth.Outcome.Forbidden("forbidden: User \"u\" cannot get path \"/metrics\": no rule"), outcome);
  }

  @Test
  void system_masters_is_allowed_without_an_access_review() {
    assertEquals(new DelegatedAuth.Outcome.Allowed(), auth(false).check("Bearer root", "GET", "/metrics"));
    assertEquals(List.of(), accessReviews);
  }

  @Test
  void no_token_another_scheme_or_an_unknown_token_is_unauthorized() {
    var auth = auth(true);
    for (var header : new String[] {null, "", "Basic dTpw", "Bearer", "Bearer ", "Bearer nobody"}) {
      assertEquals(new DelegatedAuth.Outcome.Unauthorized(), auth.check(header, "GET", "/metrics"), header);
    }
    assertEquals(1, tokenReviews.get(), "only a bearer token is reviewed");
  }

  @Test
  void without_reviewers_everything_but_the_always_allowed_paths_is_refused() {
    var auth = new DelegatedAuth(Optional.empty(), Optional.empty(), List.of("/healthz"), now::get);
    assertEquals(new DelegatedAuth.Outcome.Allowed(), auth.check(null, "GET", "/healthz"));
    assertEquals(new DelegatedAuth.Outcome.Unauthorized(), auth.check("Bearer t", "GET", "/metrics"));
    var noAccess =
        new DelegatedAuth(
            Optional.of(token -> Optional.of(new DelegatedAuth.User("u", "", List.of(), Map.of()))),
            Optional.empty(),
            List.of(),
            now::get);
    assertEquals(
        new DelegatedAuth.Outcome.Forbidden("forbidden: User \"u\" cannot get path \"/metrics\""),
        noAccess.check("Bearer t", "GET", "/metrics"));
  }

  @Test
  void answers_are_cached_for_kubes_ttls_and_failures_not_at_all() {
    var auth = auth(true);
    auth.check("Bearer t", "GET", "/metrics");
    now.addAndGet(DelegatedAuth.TOKEN_TTL.toNanos() - 1);
    auth.check("Bearer t", "GET", "/metrics");
    auth.check("Bearer nobody", "GET", "/metrics");
    auth.check("Bearer nobody", "GET", "/metrics");
    assertEquals(2, tokenReviews.get(), "t once, nobody once: both answers cached");
    assertEquals(1, accessReviews.size());
    now.addAndGet(1);
    auth.check("Bearer t", "GET", "/metrics");
    assertEquals(3, tokenReviews.get(), "expired after the TTL");
    assertEquals(2, accessReviews.size());
    auth.check("Bearer t", "GET", "/configz");
    assertEquals(3, accessReviews.size(), "another path is another review");

    assertEquals(new DelegatedAuth.Outcome.Failed("TokenReview failed"), auth.check("Bearer down", "GET", "/m"));
    assertEquals(new DelegatedAuth.Outcome.Failed("TokenReview failed"), auth.check("Bearer down", "GET", "/m"));
    assertEquals(5, tokenReviews.get(), "a failed review is asked again");
    assertEquals(DelegatedAuth.ALLOWED_TTL, Duration.ofSeconds(10));
    assertEquals(DelegatedAuth.DENIED_TTL, Duration.ofSeconds(10));
  }

  @Test
  void the_forbidden_message_quotes_and_escapes_as_kube() {
    assertEquals(
        "forbidden: User \"a\\\"b\" cannot get path \"/x&amp;&lt;y&gt;\"",
        DelegatedAuth.forbiddenMessage("a\"b", "get", "/x&<y>", ""));
  }

  @Test
  void an_always_allow_path_with_a_star_before_its_end_is_refused_naming_the_flag() {
    var e =
        assertThrows(
            ConfigurationException.class,
            () -> new DelegatedAuth(Optional.empty(), Optional.empty(), List.of("/a*/b"), now::get));
    assertEquals("--authorization-always-allow-paths: only a trailing * is allowed, was '/a*/b'", e.getMessage());
    assertTrue(DelegatedAuth.AlwaysAllowPaths.of(List.of("/")).matches("/"));
    assertTrue(DelegatedAuth.AlwaysAllowPaths.of(List.of("*")).matches("/anything"));
  }
}
