package io.kubesched.policy.plugins.dynamicresources.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Device;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's IP and CIDR libraries: the tables of {@code k8s.io/apiserver/pkg/cel/library} ip_test.go ({@code TestIP})
 * and cidr_test.go ({@code TestCIDR}) under their case names, then the inputs those tables leave out (zones,
 * IPv4-mapped addresses, Go's stricter parsing, the messages of each parse failure), whose expectations are what
 * kube 1.37.2's library answers. A selector must be bool, so a case that yields a value compares it with {@code ==}
 * to the value kube's table expects, and an address or network also by its {@code string()}.
 */
class IpCidrLibraryTest {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create(100);
  private static final Device DEVICE = Device.of("d", Map.of(), Map.of());

  /**
   * @param expected a CEL expression for the value, or null when {@code error} is expected
   * @param text the value's {@code string()} when it is an address or a network, else null
   * @param error kube's evaluation error, or null
   */
  record Case(String name, String expression, @Nullable String expected, @Nullable String text,
      @Nullable String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case value(String name, String expression, String expected) {
    return new Case(name, expression, expected, null, null);
  }

  static Case ip(String name, String expression, String text) {
    return new Case(name, expression, "ip(\"" + text + "\")", text, null);
  }

  static Case cidr(String name, String expression, String text) {
    return new Case(name, expression, "cidr(\"" + text + "\")", text, null);
  }

  static Case error(String name, String expression, String message) {
    return new Case(name, expression, null, null, message);
  }

  static Stream<Case> testIP() {
    return Stream.of(
        ip("parse ipv4", "ip(\"192.168.0.1\")", "192.168.0.1"),
        error("parse invalid ipv4", "ip(\"192.168.0.1.0\")", "IP Address \"192.168.0.1.0\" parse error during"
            + " conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long"),
        value("isIP valid ipv4", "isIP(\"192.168.0.1\")", "true"),
        value("isIP invalid ipv4", "isIP(\"192.168.0.1.0\")", "false"),
        value("ip.isCanonical valid ipv4", "ip.isCanonical(\"127.0.0.1\")", "true"),
        error("ip.isCanonical invalid ipv4", "ip.isCanonical(\"127.0.0.1.0\")", "IP Address \"127.0.0.1.0\" parse"
            + " error during conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 address too long"),
        value("ipv4 family", "ip(\"192.168.0.1\").family()", "4"),
        value("ipv4 isUnspecified true", "ip(\"0.0.0.0\").isUnspecified()", "true"),
        value("ipv4 isUnspecified false", "ip(\"127.0.0.1\").isUnspecified()", "false"),
        value("ipv4 isLoopback true", "ip(\"127.0.0.1\").isLoopback()", "true"),
        value("ipv4 isLoopback false", "ip(\"1.2.3.4\").isLoopback()", "false"),
        value("ipv4 isLinkLocalMulticast true", "ip(\"224.0.0.1\").isLinkLocalMulticast()", "true"),
        value("ipv4 isLinkLocalMulticast false", "ip(\"224.0.1.1\").isLinkLocalMulticast()", "false"),
        value("ipv4 isLinkLocalUnicast true", "ip(\"169.254.169.254\").isLinkLocalUnicast()", "true"),
        value("ipv4 isLinkLocalUnicast false", "ip(\"192.168.0.1\").isLinkLocalUnicast()", "false"),
        value("ipv4 isGlobalUnicast true", "ip(\"192.168.0.1\").isGlobalUnicast()", "true"),
        value("ipv4 isGlobalUnicast false", "ip(\"255.255.255.255\").isGlobalUnicast()", "false"),
        ip("parse ipv6", "ip(\"2001:db8::68\")", "2001:db8::68"),
        error("parse invalid ipv6", "ip(\"2001:db8:::68\")", "IP Address \"2001:db8:::68\" parse error during"
            + " conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least"
            + " one digit (at \":68\")"),
        value("isIP valid ipv6", "isIP(\"2001:db8::68\")", "true"),
        // kube's table has this name twice (for an IPv6 input), so the runner here keeps both.
        value("isIP invalid ipv4", "isIP(\"2001:db8:::68\")", "false"),
        value("ip.isCanonical valid ipv6", "ip.isCanonical(\"2001:db8::68\")", "true"),
        value("ip.isCanonical non-canonical ipv6", "ip.isCanonical(\"2001:DB8::68\")", "false"),
        error("ip.isCanonical invalid ipv6", "ip.isCanonical(\"2001:db8:::68\")", "IP Address \"2001:db8:::68\""
            + " parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field"
            + " must have at least one digit (at \":68\")"),
        value("ipv6 family", "ip(\"2001:db8::68\").family()", "6"),
        value("ipv6 isUnspecified true", "ip(\"::\").isUnspecified()", "true"),
        value("ipv6 isUnspecified false", "ip(\"::1\").isUnspecified()", "false"),
        value("ipv6 isLoopback true", "ip(\"::1\").isLoopback()", "true"),
        value("ipv6 isLoopback false", "ip(\"2001:db8::abcd\").isLoopback()", "false"),
        value("ipv6 isLinkLocalMulticast true", "ip(\"ff02::1\").isLinkLocalMulticast()", "true"),
        value("ipv6 isLinkLocalMulticast false", "ip(\"fd00::1\").isLinkLocalMulticast()", "false"),
        value("ipv6 isLinkLocalUnicast true", "ip(\"fe80::1\").isLinkLocalUnicast()", "true"),
        value("ipv6 isLinkLocalUnicast false", "ip(\"fd80::1\").isLinkLocalUnicast()", "false"),
        value("ipv6 isGlobalUnicast true", "ip(\"2001:db8::abcd\").isGlobalUnicast()", "true"),
        value("ipv6 isGlobalUnicast false", "ip(\"ff00::1\").isGlobalUnicast()", "false"),
        value("converting an IP address to a string", "string(ip(\"192.168.0.1\"))", "\"192.168.0.1\""),
        value("type of IP is net.IP", "type(ip(\"192.168.0.1\")) == net.IP", "true"));
  }

  static Stream<Case> testCIDR() {
    return Stream.of(
        cidr("parse ipv4", "cidr(\"192.168.0.0/24\")", "192.168.0.0/24"),
        error("parse invalid ipv4", "cidr(\"192.168.0.0/\")", "network address parse error during conversion from"
            + " string: network address parse error during conversion from string: netip.ParsePrefix("
            + "\"192.168.0.0/\"): bad bits after slash: \"\""),
        value("contains IP ipv4 (IP)", "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))", "true"),
        value("does not contain IP ipv4 (IP)", "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.1.1\"))", "false"),
        value("contains IP ipv4 (string)", "cidr(\"192.168.0.0/24\").containsIP(\"192.168.0.1\")", "true"),
        value("does not contain IP ipv4 (string)", "cidr(\"192.168.0.0/24\").containsIP(\"192.168.1.1\")", "false"),
        value("contains CIDR ipv4 (CIDR)", "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/25\"))",
            "true"),
        value("contains CIDR ipv4 (CIDR) (/32)", "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.1/32\"))",
            "true"),
        value("does not contain IP ipv4 (CIDR)", "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/23\"))",
            "false"),
        value("does not contain IP ipv4 (CIDR) (/32)",
            "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.169.0.1/32\"))", "false"),
        value("contains CIDR ipv4 (string)", "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")", "true"),
        value("does not contain CIDR ipv4 (string)", "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/23\")",
            "false"),
        ip("returns IP ipv4", "cidr(\"192.168.0.0/24\").ip()", "192.168.0.0"),
        cidr("masks masked ipv4", "cidr(\"192.168.0.0/24\").masked()", "192.168.0.0/24"),
        cidr("masks unmasked ipv4", "cidr(\"192.168.0.1/24\").masked()", "192.168.0.0/24"),
        value("returns prefix length ipv4", "cidr(\"192.168.0.0/24\").prefixLength()", "24"),
        cidr("parse ipv6", "cidr(\"2001:db8::/32\")", "2001:db8::/32"),
        error("parse invalid ipv6", "cidr(\"2001:db8::/\")", "network address parse error during conversion from"
            + " string: network address parse error during conversion from string: netip.ParsePrefix("
            + "\"2001:db8::/\"): bad bits after slash: \"\""),
        value("contains IP ipv6 (IP)", "cidr(\"2001:db8::/32\").containsIP(ip(\"2001:db8::1\"))", "true"),
        value("does not contain IP ipv6 (IP)", "cidr(\"2001:db8::/32\").containsIP(ip(\"2001:dc8::1\"))", "false"),
        value("contains IP ipv6 (string)", "cidr(\"2001:db8::/32\").containsIP(\"2001:db8::1\")", "true"),
        value("does not contain IP ipv6 (string)", "cidr(\"2001:db8::/32\").containsIP(\"2001:dc8::1\")", "false"),
        value("contains CIDR ipv6 (CIDR)", "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))", "true"),
        value("does not contain IP ipv6 (CIDR)", "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/31\"))",
            "false"),
        value("contains CIDR ipv6 (string)", "cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/33\")", "true"),
        value("does not contain CIDR ipv6 (string)", "cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/31\")",
            "false"),
        ip("returns IP ipv6", "cidr(\"2001:db8::/32\").ip()", "2001:db8::"),
        cidr("masks masked ipv6", "cidr(\"2001:db8::/32\").masked()", "2001:db8::/32"),
        cidr("masks unmasked ipv6", "cidr(\"2001:db8:1::/32\").masked()", "2001:db8::/32"),
        value("returns prefix length ipv6", "cidr(\"2001:db8::/32\").prefixLength()", "32"),
        value("converting a CIDR to a string", "string(cidr(\"192.168.0.0/24\"))", "\"192.168.0.0/24\""),
        value("type of CIDR is net.CIDR", "type(cidr(\"192.168.0.0/24\")) == net.CIDR", "true"));
  }

  /** Beyond kube's tables: each expectation is what kube 1.37.2's libraries answer for the same expression. */
  static Stream<Case> beyondTheTables() {
    String ipError = "IP Address \"%s\" parse error during conversion from string: ParseAddr(\"%s\"): %s";
    String cidrError = "network address parse error during conversion from string: network address parse error"
        + " during conversion from string: netip.ParsePrefix(\"%s\"): %s";
    return Stream.of(
        error("zone", "ip(\"fe80::1%eth0\")", "IP address \"fe80::1%eth0\" with zone value is not allowed"),
        value("isIP with zone", "isIP(\"fe80::1%eth0\")", "false"),
        error("ipv4-mapped ipv6", "ip(\"::ffff:1.2.3.4\")", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not"
            + " allowed"),
        value("isIP ipv4-mapped ipv6", "isIP(\"::ffff:1.2.3.4\")", "false"),
        error("cidr ipv4-mapped ipv6", "cidr(\"::ffff:1.2.3.4/120\")", "network address parse error during"
            + " conversion from string: IPv4-mapped IPv6 address \"::ffff:1.2.3.4/120\" is not allowed"),
        error("cidr zone", "cidr(\"fe80::1%eth0/64\")",
            cidrError.formatted("fe80::1%eth0/64", "IPv6 zones cannot be present in a prefix")),
        value("isCIDR zone", "isCIDR(\"fe80::1%eth0/64\")", "false"),
        error("three fields", "ip(\"1.2.3\")", ipError.formatted("1.2.3", "1.2.3", "IPv4 address too short")),
        error("leading zero", "ip(\"010.0.0.1\")",
            ipError.formatted("010.0.0.1", "010.0.0.1", "IPv4 field has octet with leading zero")),
        error("octet above 255", "ip(\"1.2.3.256\")",
            ipError.formatted("1.2.3.256", "1.2.3.256", "IPv4 field has value >255")),
        error("empty field", "ip(\"1..2.3\")",
            ipError.formatted("1..2.3", "1..2.3", "IPv4 field must have at least one digit (at \".2.3\")")),
        error("ipv4 with zone", "ip(\"1.2.3.4%eth0\")",
            ipError.formatted("1.2.3.4%eth0", "1.2.3.4%eth0", "unexpected character (at \"%eth0\")")),
        error("no address before zone", "ip(\"%eth0\")", ipError.formatted("%eth0", "%eth0", "missing IPv6 address")),
        error("empty", "ip(\"\")", ipError.formatted("", "", "unable to parse IP")),
        error("host name", "ip(\"localhost\")", ipError.formatted("localhost", "localhost", "unable to parse IP")),
        error("five hex digits", "ip(\"12345::\")",
            ipError.formatted("12345::", "12345::", "each group must have 4 or less digits (at \"12345::\")")),
        error("nine groups", "ip(\"1:2:3:4:5:6:7:8:9\")", ipError.formatted("1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8:9", "trailing garbage after address (at \"9\")")),
        error(":: for no group", "ip(\"1:2:3:4:5:6:7:8::\")", ipError.formatted("1:2:3:4:5:6:7:8::",
            "1:2:3:4:5:6:7:8::", "the :: must expand to at least one field of zeros")),
        error("embedded ipv4 too early", "ip(\"1:2:3:4:5:1.2.3.4\")", ipError.formatted("1:2:3:4:5:1.2.3.4",
            "1:2:3:4:5:1.2.3.4",
            "embedded IPv4 address must replace the final 2 fields of the address (at \"1.2.3.4\")")),
        error("two ::", "ip(\"1::2::3\")",
            ipError.formatted("1::2::3", "1::2::3", "multiple :: in address (at \":3\")")),
        error("trailing colon", "ip(\"1:\")",
            ipError.formatted("1:", "1:", "colon must be followed by more characters (at \":\")")),
        error("too few groups", "ip(\"1:2:3\")", ipError.formatted("1:2:3", "1:2:3", "address string too short")),
        error("quoted as Go quotes", "ip(\"1.2.3.\\t\\u00a0é\")", ipError.formatted("1.2.3.\\t\\u00a0é",
            "1.2.3.\\t\\u00a0é", "unexpected character (at \"\\t\\u00a0é\")")),
        ip("embedded ipv4", "ip(\"::1.2.3.4\")", "::102:304"),
        value("canonical form", "string(ip(\"2001:0DB8:0:0:1:0:0:1\"))", "\"2001:db8::1:0:0:1\""),
        value("a single zero group is not elided", "string(ip(\"1:0:2:3:4:5:6:7\"))", "\"1:0:2:3:4:5:6:7\""),
        value("link-local multicast with flags", "ip(\"ff12::1\").isLinkLocalMulticast()", "true"),
        value("unspecified is not global unicast", "ip(\"::\").isGlobalUnicast() || ip(\"0.0.0.0\").isGlobalUnicast()",
            "false"),
        value("multicast is not global unicast", "ip(\"239.1.1.1\").isGlobalUnicast()", "false"),
        value("unique local is global unicast", "ip(\"fd00::1\").isGlobalUnicast()", "true"),
        value("equal addresses", "ip(\"2001:db8::1\") == ip(\"2001:DB8:0::1\")", "true"),
        value("unequal addresses", "ip(\"10.0.0.1\") != ip(\"10.0.0.2\")", "true"),
        value("a network keeps its host bits", "cidr(\"192.168.0.1/24\") == cidr(\"192.168.0.0/24\")", "false"),
        value("isCIDR", "isCIDR(\"10.0.0.0/8\") && !isCIDR(\"10.0.0.0\") && !isCIDR(\"10.0.0.0/33\")", "true"),
        error("prefix out of range", "cidr(\"10.0.0.0/33\")", cidrError.formatted("10.0.0.0/33",
            "prefix length out of range")),
        error("prefix with leading zero", "cidr(\"10.0.0.0/08\")", cidrError.formatted("10.0.0.0/08",
            "bad bits after slash: \"08\"")),
        error("prefix with sign", "cidr(\"10.0.0.0/+8\")", cidrError.formatted("10.0.0.0/+8",
            "bad bits after slash: \"+8\"")),
        error("prefix beyond 64 bits", "cidr(\"10.0.0.0/9223372036854775808\")", cidrError.formatted(
            "10.0.0.0/9223372036854775808", "bad bits after slash: \"9223372036854775808\"")),
        error("prefix within 64 bits", "cidr(\"10.0.0.0/9223372036854775807\")", cidrError.formatted(
            "10.0.0.0/9223372036854775807", "prefix length out of range")),
        error("no slash", "cidr(\"10.0.0.0\")", cidrError.formatted("10.0.0.0", "no '/'")),
        error("bad address in a network", "cidr(\"10.0.0/8\")", cidrError.formatted("10.0.0/8",
            "ParseAddr(\"10.0.0\"): IPv4 address too short")),
        cidr("/0", "cidr(\"::/0\")", "::/0"),
        value("everything in /0", "cidr(\"0.0.0.0/0\").containsIP(\"255.255.255.255\")", "true"),
        value("no ipv6 in an ipv4 network", "cidr(\"0.0.0.0/0\").containsIP(\"::1\")", "false"),
        value("no ipv4 network in an ipv6 one", "cidr(\"::/0\").containsCIDR(\"10.0.0.0/8\")", "false"),
        value("containsCIDR with host bits", "cidr(\"10.0.0.1/8\").containsCIDR(\"10.1.0.0/16\")", "true"),
        // kube's cidr_contains_ip_string reports the wrong operand, so a bad address is "no such overload".
        error("containsIP of a bad address", "cidr(\"10.0.0.0/8\").containsIP(\"10.0.0\")", "no such overload"),
        error("containsCIDR of a bad network", "cidr(\"10.0.0.0/8\").containsCIDR(\"10.0.0.0\")",
            cidrError.formatted("10.0.0.0", "no '/'")),
        value("string of a network", "string(cidr(\"2001:DB8::1/64\"))", "\"2001:db8::1/64\""),
        error("an address equal to another type", "dyn(ip(\"10.0.0.1\")) == dyn(\"10.0.0.1\")", "no such overload"),
        error("a network equal to another type", "dyn(cidr(\"10.0.0.0/8\")) == dyn(ip(\"10.0.0.0\"))",
            "no such overload"),
        value("another type equal to an address", "dyn(\"10.0.0.1\") == dyn(ip(\"10.0.0.1\"))", "false"),
        value("an address not equal to another type", "dyn(ip(\"10.0.0.1\")) != dyn(1)", "true"),
        value("an address equal to null", "dyn(ip(\"10.0.0.1\")) == null || null == dyn(cidr(\"::/0\"))", "false"),
        value("addresses in lists", "ip(\"10.0.0.1\") in [ip(\"10.0.0.2\"), ip(\"10.0.0.1\")]", "true"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"testIP", "testCIDR", "beyondTheTables"})
  void evaluates_as_kube(Case scenario) throws SelectorException {
    if (scenario.error() != null) {
      var selector = SELECTORS.compile("(" + scenario.expression() + ") == (" + scenario.expression() + ")");
      var error = assertThrows(SelectorException.class, () -> selector.matches("dra.example.com", DEVICE));
      assertEquals(scenario.error(), error.getMessage());
      return;
    }
    assertTrue(matches(scenario.expression() + " == " + scenario.expected()),
        scenario.expression() + " == " + scenario.expected());
    if (scenario.text() != null) {
      assertTrue(matches("string(" + scenario.expression() + ") == \"" + scenario.text() + "\""), scenario.name());
    }
  }

  private static boolean matches(String expression) throws SelectorException {
    return SELECTORS.compile(expression).matches("dra.example.com", DEVICE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "isIP(cidr(\"192.168.0.0/24\"))|found no matching overload for 'isIP' applied to '(net.CIDR)'",
      "ip(\"10.0.0.1\") == cidr(\"10.0.0.1/32\")|found no matching overload for '_==_' applied to '(net.IP, "
          + "net.CIDR)'",
      "ip(\"10.0.0.1\").containsIP(\"10.0.0.1\")|found no matching overload for 'containsIP' applied to "
          + "'net.IP.(string)'",
      "ip(\"10.0.0.1\")|must evaluate to bool or the unknown type, not net.IP",
      "cidr(\"10.0.0.0/8\")|must evaluate to bool or the unknown type, not net.CIDR",
  })
  void does_not_compile(String expression, String message) {
    var error = assertThrows(SelectorException.class, () -> SELECTORS.compile(expression));
    assertTrue(error.getMessage().contains(message), error.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "dyn(ip(\"10.0.0.1\"))|CEL result of type net.IP could not be converted to bool",
      "dyn(cidr(\"10.0.0.0/8\"))|CEL result of type net.CIDR could not be converted to bool",
  })
  void a_network_value_is_no_result(String expression, String message) throws SelectorException {
    var selector = SELECTORS.compile(expression);
    var error = assertThrows(SelectorException.class, () -> selector.matches("dra.example.com", DEVICE));
    assertEquals(message, error.getMessage());
  }
}
