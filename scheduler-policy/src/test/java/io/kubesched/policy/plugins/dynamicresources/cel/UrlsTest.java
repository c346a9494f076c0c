package io.kubesched.policy.plugins.dynamicresources.cel;

import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertEvaluatesTo;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertFailsToEvaluate;
import static io.kubesched.policy.plugins.dynamicresources.cel.SelectorAssertions.assertHolds;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import io.kubesched.api.DeviceAttribute;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's URLs library: kube's "URL parsing" case ({@code apiextensions-apiserver} validation_test.go, its URL in a
 * device attribute instead of {@code self.url}), and Go's {@code net/url} cases whose expected values and messages
 * are what kube's environment (Go 1.26's net/url) gives for them: ports and colons, IP literals and zones, escapes,
 * userinfo, opaque URLs, references, queries and equality.
 */
class UrlsTest {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create(100);
  private static final Device DEVICE = Device.of("d", Map.of("url",
      new DeviceAttribute.StringValue("https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor")), Map.of());

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "url('/path').getScheme() == ''",
      "url('https://example.com/').getScheme() == 'https'",
      "url('https://example.com:80/').getHost() == 'example.com:80'",
      "url('https://example.com/').getHost() == 'example.com'",
      "url('https://[::1]:80/').getHost() == '[::1]:80'",
      "url('https://[::1]/').getHost() == '[::1]'",
      "url('/path').getHost() == ''",
      "url('https://example.com:80/').getHostname() == 'example.com'",
      "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
      "url('https://[::1]/').getHostname() == '::1'",
      "url('/path').getHostname() == ''",
      "url('https://example.com:80/').getPort() == '80'",
      "url('https://example.com/').getPort() == ''",
      "url('/path').getPort() == ''",
      "url('https://example.com/path').getEscapedPath() == '/path'",
      "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
      "url('https://example.com').getEscapedPath() == ''",
      "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
      "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
      "url('https://example.com/path?').getQuery() == {}",
      "url('https://example.com/path').getQuery() == {}",
      "url(device.attributes['dra.example.com'].url).getScheme() == 'https'",
      "url(device.attributes['dra.example.com'].url).getHost() == 'kubernetes.io:80'",
      "url(device.attributes['dra.example.com'].url).getHostname() == 'kubernetes.io'",
      "url(device.attributes['dra.example.com'].url).getPort() == '80'",
      "url(device.attributes['dra.example.com'].url).getEscapedPath() == '/docs/home'",
      "url(device.attributes['dra.example.com'].url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
      "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
      "isURL('/path') == true",
      "isURL('https://a:b:c/') == false",
      "isURL('../relative-path') == false"
  })
  void url_parsing_as_kube(String expression) throws SelectorException {
    assertTrue(SELECTORS.compile(expression).matches(SelectorAssertions.DRIVER, DEVICE), expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goValues")
  void reads_urls_as_go(String expression, String expected) throws SelectorException {
    assertEvaluatesTo(expression, expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
        "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces':"
        + " ['value with spaces']}",
        "url('https://example.com/path?').getQuery() == {}",
        "url('https://example.com/path').getQuery() == {}",
        "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
        "isURL('/path') == true",
        "isURL('https://a:b:c/') == false",
        "isURL('../relative-path') == false",
        "url('http://x/p?a=1&b=%zz&c=3;4&d=%41+%20&&=e&f').getQuery() == {'a': ['1'], 'd': ['A  '], '': ['e']"
        + ", 'f': ['']}",
        "url('http://x/p?a=1&b=2').getQuery()['b'][0] == '2'",
        "url('http://x/é?q=é').getQuery()['q'] == ['é']",
        "url('http://x') == url('HTTP://x')",
        "url('http://x/a') == url('http://x/a#')",
        "!(url('http://x/a') == url('http://x/a?'))",
        "!(url('http://x/%41') == url('http://x/A'))",
        "url('http://x/a#f') == url('http://x/a#f')",
        "!(url('http://x/a#f') == url('http://x/a#g'))",
        "url('http://u:p@x/') == url('http://u:p@x/')",
        "!(url('http://x:80/') == url('http://x/'))",
        "type(url('http://x')) == type(url('http://y'))",
        "url('https://example.com:80/') == url('https://example.com:80/')",
        "url('http://x?a=b#c').getQuery() == {'a': ['b']}",
        // ParseRequestURI accepts what url()'s second reading, Parse, rejects: a fragment, an authority after "//".
        "isURL('http://example.com?#%zz')",
        "isURL('//[::1/x')",
  })
  void holds_as_in_kube(String expression) throws SelectorException {
    assertHolds(expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goErrors")
  void rejects_urls_as_go(String expression, String message) throws SelectorException {
    assertFailsToEvaluate(expression, message);
  }

  static Stream<Arguments> goValues() {
    return Stream.of(
        Arguments.of("url('/path').getScheme()",
            ""),
        Arguments.of("url('https://example.com/').getScheme()",
            "https"),
        Arguments.of("url('https://example.com:80/').getHost()",
            "example.com:80"),
        Arguments.of("url('https://example.com/').getHost()",
            "example.com"),
        Arguments.of("url('https://[::1]:80/').getHost()",
            "[::1]:80"),
        Arguments.of("url('https://[::1]/').getHost()",
            "[::1]"),
        Arguments.of("url('/path').getHost()",
            ""),
        Arguments.of("url('https://example.com:80/').getHostname()",
            "example.com"),
        Arguments.of("url('https://127.0.0.1/').getHostname()",
            "127.0.0.1"),
        Arguments.of("url('https://[::1]/').getHostname()",
            "::1"),
        Arguments.of("url('/path').getHostname()",
            ""),
        Arguments.of("url('https://example.com:80/').getPort()",
            "80"),
        Arguments.of("url('https://example.com/').getPort()",
            ""),
        Arguments.of("url('/path').getPort()",
            ""),
        Arguments.of("url('https://example.com/path').getEscapedPath()",
            "/path"),
        Arguments.of("url('https://example.com/with space/').getEscapedPath()",
            "/with%20space/"),
        Arguments.of("url('https://example.com').getEscapedPath()",
            ""),
        Arguments.of("url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getHost()",
            "kubernetes.io:80"),
        Arguments.of("url('https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor').getEscapedPath()",
            "/docs/home"),
        Arguments.of("url('ftp://a:b:1/').getPort()",
            "1"),
        Arguments.of("url('ftp://a:b:1/').getHostname()",
            "a:b"),
        Arguments.of("url('HTTP://EXAMPLE.com/A%20b').getScheme()",
            "http"),
        Arguments.of("url('HTTP://EXAMPLE.com/A%20b').getHost()",
            "EXAMPLE.com"),
        Arguments.of("url('HTTP://EXAMPLE.com/A%20b').getEscapedPath()",
            "/A%20b"),
        Arguments.of("url('http://x/a%2Fb').getEscapedPath()",
            "/a%2Fb"),
        Arguments.of("url('http://a<b/').getHost()",
            "a<b"),
        Arguments.of("url('http://[::1%25eth0]:8080/').getHost()",
            "[::1%eth0]:8080"),
        Arguments.of("url('http://[::1%25eth0]:8080/').getHostname()",
            "::1%eth0"),
        Arguments.of("url('http://[::ffff:1.2.3.4]/').getHost()",
            "[::ffff:1.2.3.4]"),
        Arguments.of("url('http://[fe80::1%25en0]/').getHostname()",
            "fe80::1%en0"),
        Arguments.of("url('http://user@host/').getHost()",
            "host"),
        Arguments.of("url('http://a@b@c/').getHost()",
            "c"),
        Arguments.of("url('http://x:/').getPort()",
            ""),
        Arguments.of("url('http://x:/').getHost()",
            "x:"),
        Arguments.of("url('mailto:joe@example.com').getScheme()",
            "mailto"),
        Arguments.of("url('mailto:joe@example.com').getEscapedPath()",
            ""),
        Arguments.of("url('mailto:joe@example.com').getHost()",
            ""),
        Arguments.of("url('file:///etc/passwd').getEscapedPath()",
            "/etc/passwd"),
        Arguments.of("url('file:///etc/passwd').getHost()",
            ""),
        Arguments.of("url('*').getEscapedPath()",
            "*"),
        Arguments.of("url('//example.com/x').getHost()",
            "example.com"),
        Arguments.of("url('//example.com/x').getEscapedPath()",
            "/x"),
        Arguments.of("url('///x').getEscapedPath()",
            "///x"),
        Arguments.of("url('http://x/é?q=é').getEscapedPath()",
            "/%C3%A9"),
        Arguments.of("url('http://é.com/').getHost()",
            "é.com"),
        Arguments.of("url('http://x/%C3%A9').getEscapedPath()",
            "/%C3%A9"),
        Arguments.of("url('http://x/a b%20c').getEscapedPath()",
            "/a%20b%20c"),
        Arguments.of("url('http://x/a;b,c$d!e').getEscapedPath()",
            "/a;b,c$d!e"),
        Arguments.of("url('http://x/a?b#c').getEscapedPath()",
            "/a"),
        Arguments.of("url('a:b').getScheme()",
            "a"),
        Arguments.of("url('http://x').getHost() + url('http://[::1]:0/').getPort()",
            "x0"),
        Arguments.of("url('http:/x/y').getHost()",
            ""),
        Arguments.of("url('http:/x/y').getEscapedPath()",
            "/x/y"),
        Arguments.of("url('http:x').getEscapedPath()",
            ""),
        Arguments.of("url('/a:b').getEscapedPath()",
            "/a:b"),
        Arguments.of("url('http://x/a%20b').getEscapedPath()",
            "/a%20b"),
        Arguments.of("url('http://[::1]:80/%2f').getEscapedPath()",
            "/%2f"),
        Arguments.of("url('http://x/path;param').getEscapedPath()",
            "/path;param"),
        Arguments.of("url('http://x/~user').getEscapedPath()",
            "/~user"),
        Arguments.of("url('http://x/a\"b').getEscapedPath()",
            "/a%22b"),
        Arguments.of("url('http://x/a[b]').getEscapedPath()",
            "/a[b]"),
        Arguments.of("url('http://x/%5Ba%5D').getEscapedPath()",
            "/%5Ba%5D"),
        Arguments.of("url('http://a\"b/').getHost()",
            "a\"b"),
        Arguments.of("url('http://a%25b/').getHost()",
            "a%b"));
  }

  static Stream<Arguments> goErrors() {
    return Stream.of(
        Arguments.of("url('http://example.com?#%zz')", "URL parse error during conversion from string: "
            + "parse \"http://example.com?#%zz\": invalid URL escape \"%zz\""),
        Arguments.of("url('//[::1/x')", "URL parse error during conversion from string: "
            + "parse \"//[::1/x\": missing ']' in host"),
        Arguments.of("url('https://a:b:c/')",
            "URL parse error during conversion from string: parse \"https://a:b:c/\": invalid port \":b:c\" after"
            + " host"),
        Arguments.of("url('ftp://a:b:c/').getHost()",
            "URL parse error during conversion from string: parse \"ftp://a:b:c/\": invalid port \":c\" after hos"
            + "t"),
        Arguments.of("url('ftp://a:b:c/').getPort()",
            "URL parse error during conversion from string: parse \"ftp://a:b:c/\": invalid port \":c\" after hos"
            + "t"),
        Arguments.of("url('../relative-path')",
            "URL parse error during conversion from string: parse \"../relative-path\": invalid URI for request"),
        Arguments.of("url('')",
            "URL parse error during conversion from string: parse \"\": empty url"),
        Arguments.of("url('http://x/\\u0001')",
            "URL parse error during conversion from string: parse \"http://x/\\x01\": net/url: invalid control ch"
            + "aracter in URL"),
        Arguments.of("url('http://x/a%zz')",
            "URL parse error during conversion from string: parse \"http://x/a%zz\": invalid URL escape \"%zz\""),
        Arguments.of("url('http://x/a%')",
            "URL parse error during conversion from string: parse \"http://x/a%\": invalid URL escape \"%\""),
        Arguments.of("url('http://x/a%2')",
            "URL parse error during conversion from string: parse \"http://x/a%2\": invalid URL escape \"%2\""),
        Arguments.of("url('http://%41/').getHost()",
            "URL parse error during conversion from string: parse \"http://%41/\": invalid URL escape \"%41\""),
        Arguments.of("url('http://%01/')",
            "URL parse error during conversion from string: parse \"http://%01/\": invalid URL escape \"%01\""),
        Arguments.of("url('http://a b/')",
            "URL parse error during conversion from string: parse \"http://a b/\": invalid character \" \" in hos"
            + "t name"),
        Arguments.of("url('http://[1.2.3.4]/')",
            "URL parse error during conversion from string: parse \"http://[1.2.3.4]/\": invalid IP-literal"),
        Arguments.of("url('http://[::1/')",
            "URL parse error during conversion from string: parse \"http://[::1/\": missing ']' in host"),
        Arguments.of("url('http://a[::1]/')",
            "URL parse error during conversion from string: parse \"http://a[::1]/\": invalid IP-literal"),
        Arguments.of("url('http://[::1]x/')",
            "URL parse error during conversion from string: parse \"http://[::1]x/\": invalid port \"x\" after ho"
            + "st"),
        Arguments.of("url('http://[::1]:x/')",
            "URL parse error during conversion from string: parse \"http://[::1]:x/\": invalid port \":x\" after "
            + "host"),
        Arguments.of("url('http://[zz]/')",
            "URL parse error during conversion from string: parse \"http://[zz]/\": invalid host: ParseAddr(\"zz"
            + "\"): unable to parse IP"),
        Arguments.of("url('http://[]/')",
            "URL parse error during conversion from string: parse \"http://[]/\": invalid host: ParseAddr(\"\"): "
            + "unable to parse IP"),
        Arguments.of("url('http://[%]/')",
            "URL parse error during conversion from string: parse \"http://[%]/\": invalid URL escape \"%\""),
        Arguments.of("url('http://[1::2::3]/')",
            "URL parse error during conversion from string: parse \"http://[1::2::3]/\": invalid host: ParseAddr("
            + "\"1::2::3\"): multiple :: in address (at \":3\")"),
        Arguments.of("url('http://[1:2:3:4:5:6:7:8:9]/')",
            "URL parse error during conversion from string: parse \"http://[1:2:3:4:5:6:7:8:9]/\": invalid host: "
            + "ParseAddr(\"1:2:3:4:5:6:7:8:9\"): trailing garbage after address (at \"9\")"),
        Arguments.of("url('http://[12345::]/')",
            "URL parse error during conversion from string: parse \"http://[12345::]/\": invalid host: ParseAddr("
            + "\"12345::\"): each group must have 4 or less digits (at \"12345::\")"),
        Arguments.of("url('http://[::1.2.3]/')",
            "URL parse error during conversion from string: parse \"http://[::1.2.3]/\": invalid host: ParseAddr("
            + "\"::1.2.3\"): IPv4 address too short"),
        Arguments.of("url('http://[::01.2.3.4]/')",
            "URL parse error during conversion from string: parse \"http://[::01.2.3.4]/\": invalid host: ParseAd"
            + "dr(\"::01.2.3.4\"): IPv4 field has octet with leading zero"),
        Arguments.of("url('http://[::1%25]/')",
            "URL parse error during conversion from string: parse \"http://[::1%25]/\": invalid host: ParseAddr("
            + "\"::1%\"): zone must be a non-empty string"),
        Arguments.of("url('http://[1:2:3:4:5:6:7::8]/')",
            "URL parse error during conversion from string: parse \"http://[1:2:3:4:5:6:7::8]/\": invalid host: P"
            + "arseAddr(\"1:2:3:4:5:6:7::8\"): the :: must expand to at least one field of zeros"),
        Arguments.of("url('http://us er@host/')",
            "URL parse error during conversion from string: parse \"http://us er@host/\": net/url: invalid userin"
            + "fo"),
        Arguments.of("url('http://u%zz@host/')",
            "URL parse error during conversion from string: parse \"http://u%zz@host/\": invalid URL escape \"%zz"
            + "\""),
        Arguments.of("url('http://x/#%zz')",
            "URL parse error during conversion from string: parse \"http://x/#%zz\": invalid URL escape \"%zz\""),
        Arguments.of("url('http://x/a#b%zz')",
            "URL parse error during conversion from string: parse \"http://x/a#b%zz\": invalid URL escape \"%zz\""),
        Arguments.of("url('1http://x/')",
            "URL parse error during conversion from string: parse \"1http://x/\": invalid URI for request"),
        Arguments.of("url(':foo')",
            "URL parse error during conversion from string: parse \":foo\": missing protocol scheme"),
        Arguments.of("url('http://[::1]%41/')",
            "URL parse error during conversion from string: parse \"http://[::1]%41/\": invalid port \"%41\" afte"
            + "r host"),
        Arguments.of("url('http://[::1]:%41/')",
            "URL parse error during conversion from string: parse \"http://[::1]:%41/\": invalid port \":%41\" af"
            + "ter host"),
        Arguments.of("url('http://x\\\\y/')",
            "URL parse error during conversion from string: parse \"http://x\\\\y/\": invalid character \"\\\\\" "
            + "in host name"));
  }
}
