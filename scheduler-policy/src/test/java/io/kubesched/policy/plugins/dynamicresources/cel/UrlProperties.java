package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertHolds;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.literal;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.matches;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * kube checks a URL with Go's {@code url.ParseRequestURI} in three places, which must agree on every string: {@code
 * isURL} holds exactly when {@code format.uri()} finds nothing wrong, and when they reject one, {@code url} fails
 * with {@code format.uri()}'s message. {@code url} then reads an accepted one with {@code url.Parse}, which still
 * fails on a bad fragment escape or a bad host after a leading "//" (a path to ParseRequestURI, an authority to
 * Parse); otherwise the URL's host holds its hostname and ends with its port, and the URL equals itself.
 */
class UrlProperties {

  private static final String URL_ERROR = "URL parse error during conversion from string: ";

  @Property(tries = 400)
  void is_url_url_and_the_uri_format_agree(@ForAll("urls") String text) throws SelectorException {
    String quoted = literal(text);
    assertHolds("isURL(" + quoted + ") == !format.uri().validate(" + quoted + ").hasValue()");
    String outcome = outcome(text);
    Statistics.label("outcome").collect(outcome);
    Statistics.label("outcome").coverage(coverage -> {
      coverage.check("valid").percentage(p -> p > 10);
      coverage.check("valid to ParseRequestURI only").percentage(p -> p > 1);
      coverage.check("invalid").percentage(p -> p > 15);
    });
  }

  private static String outcome(String text) throws SelectorException {
    String quoted = literal(text);
    if (matches("isURL(" + quoted + ")")) {
      try {
        assertHolds("cel.bind(u, url(" + quoted + "), u == u && u.getHost().contains(u.getHostname()) "
            + "&& u.getHost().endsWith(u.getPort()))");
        return "valid";
      } catch (SelectorException e) {
        assertTrue(text.contains("#") || text.startsWith("//"), e.getMessage());
        return "valid to ParseRequestURI only";
      }
    }
    var error = assertThrows(SelectorException.class, () -> matches("url(" + quoted + ") == url('/')"), text);
    assertTrue(error.getMessage().startsWith(URL_ERROR), error.getMessage());
    String message = error.getMessage().substring(URL_ERROR.length());
    assertHolds("format.uri().validate(" + quoted + ") == optional.of([" + literal(message) + "])");
    return "invalid";
  }

  /** URLs from parts that Go reads in different ways, each part sometimes one Go rejects. */
  @Provide
  Arbitrary<String> urls() {
    Arbitrary<String> scheme = Arbitraries.of("", "http://", "https://", "ftp://", "HTTP://", "mailto:", "1http://",
        ":", "//", "http:/");
    Arbitrary<String> user = Arbitraries.of("", "", "user@", "u:p@", "u s@", "u%zz@", "a@b@");
    Arbitrary<String> host = Arbitraries.of("example.com", "127.0.0.1", "[::1]", "[::1%25eth0]", "[1.2.3.4]",
        "[zz]", "[::1", "a b", "%41", "é.com", "a:b:c", "", "[fe80::1]", "a<b");
    Arbitrary<String> port = Arbitraries.of("", "", ":80", ":", ":x", ":8:9");
    Arbitrary<String> path = Arbitraries.of("", "/", "/docs/home", "/a b", "/%zz", "/%41", "/é", "relative",
        "/\u0001", "/a;b");
    Arbitrary<String> query = Arbitraries.of("", "", "?", "?a=1&b=2&b=3", "?a=%zz", "?k=a+b", "?x;y");
    Arbitrary<String> fragment = Arbitraries.of("", "", "#f", "#%zz");
    return Combinators.combine(scheme, user, host, port, path, query, fragment)
        .as((s, u, h, p, pa, q, f) -> s + u + h + p + pa + q + f);
  }
}
