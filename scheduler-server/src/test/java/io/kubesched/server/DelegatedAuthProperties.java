package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class DelegatedAuthProperties {

  /** Short paths over few letters, so that patterns and paths often share prefixes. */
  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.strings().withChars("ab/").ofMaxLength(4).map(s -> "/" + s);
  }

  @Provide
  Arbitrary<List<String>> patterns() {
    return Arbitraries.oneOf(paths(), paths().map(p -> p + "*")).list().ofMaxSize(3);
  }

  @Property
  void a_path_is_always_allowed_exactly_when_a_pattern_names_it_or_a_starred_one_is_its_prefix(
      @ForAll("patterns") List<String> patterns, @ForAll("paths") String path) {
    boolean expected =
        patterns.stream()
            .anyMatch(p -> p.endsWith("*") ? path.startsWith(p.substring(0, p.length() - 1)) : p.equals(path));
    Statistics.label("allowed").collect(expected);
    Statistics.label("allowed").coverage(c -> {
      c.check(true).percentage(p -> p > 5);
      c.check(false).percentage(p -> p > 5);
    });
    assertEquals(expected, DelegatedAuth.AlwaysAllowPaths.of(patterns).matches(path));
  }

  @Property
  void a_bearer_token_is_read_back_whatever_the_schemes_case_and_the_surrounding_blanks(
      @ForAll("tokens") String token, @ForAll boolean upper, @ForAll boolean padded) {
    var scheme = upper ? "BEARER" : "Bearer";
    var header = (padded ? "  " : "") + scheme + " " + token + (padded ? " " : "");
    assertEquals(Optional.of(token), DelegatedAuth.bearerToken(header));
  }

  @Provide
  Arbitrary<String> tokens() {
    return Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(40);
  }

  /** One request: which of three tokens, and how far the clock moved before it (in seconds). */
  record Step(int token, int secondsLater) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 12))
        .as(Step::new)
        .list()
        .ofMaxSize(30);
  }

  @Property
  void a_token_is_reviewed_again_exactly_when_its_answer_is_older_than_the_ttl(@ForAll("steps") List<Step> steps) {
    var now = new AtomicLong();
    var reviews = new AtomicInteger();
    var auth =
        new DelegatedAuth(
            Optional.of(
                token -> {
                  reviews.incrementAndGet();
                  return token.equals("t0")
                      ? Optional.empty()
                      : Optional.of(new DelegatedAuth.User(token, "", List.of(), Map.of()));
                }),
            Optional.of((user, verb, path) -> new DelegatedAuth.Access(true, "")),
            List.of(),
            now::get);
    Map<Integer, Long> reviewedAt = new HashMap<>();
    int expected = 0;
    for (var step : steps) {
      now.addAndGet(step.secondsLater() * 1_000_000_000L);
      var last = reviewedAt.get(step.token());
      if (last == null || now.get() - last >= DelegatedAuth.TOKEN_TTL.toNanos()) {
        expected++;
        reviewedAt.put(step.token(), now.get());
        Statistics.label("review").collect(last == null ? "first" : "expired");
      } else {
        Statistics.label("review").collect("cached");
      }
      auth.check("Bearer t" + step.token(), "GET", "/metrics");
    }
    assertEquals(expected, reviews.get());
  }
}
