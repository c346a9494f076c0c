package io.kubesched.policy.plugins.dynamicresources.cel;

import io.kubesched.api.Device;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * kube's IP and CIDR functions, through compiled selectors, against references written independently of the
 * parser: the address grammar of RFC 3986 (which Go's {@code netip} accepts exactly, zones aside) with the JDK
 * reading the accepted text, RFC 5952's canonical text, and containment as a bit mask.
 */
class IpCidrProperties {

  private static final DeviceSelectors SELECTORS = DeviceSelectors.create();
  private static final Device DEVICE = Device.of("d", Map.of(), Map.of());

  private static final String OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";
  private static final String V4 = OCTET + "(?:\\." + OCTET + "){3}";
  private static final String H16 = "[0-9A-Fa-f]{1,4}";
  private static final String LS32 = "(?:" + H16 + ":" + H16 + "|" + V4 + ")";
  private static final Pattern IPV4 = Pattern.compile(V4);
  private static final Pattern IPV6 = Pattern.compile(String.join("|",
      "(?:" + H16 + ":){6}" + LS32,
      "::(?:" + H16 + ":){5}" + LS32,
      "(?:" + H16 + ")?::(?:" + H16 + ":){4}" + LS32,
      "(?:(?:" + H16 + ":){0,1}" + H16 + ")?::(?:" + H16 + ":){3}" + LS32,
      "(?:(?:" + H16 + ":){0,2}" + H16 + ")?::(?:" + H16 + ":){2}" + LS32,
      "(?:(?:" + H16 + ":){0,3}" + H16 + ")?::" + H16 + ":" + LS32,
      "(?:(?:" + H16 + ":){0,4}" + H16 + ")?::" + LS32,
      "(?:(?:" + H16 + ":){0,5}" + H16 + ")?::" + H16,
      "(?:(?:" + H16 + ":){0,6}" + H16 + ")?::"));

  @Property(tries = 400)
  void isIP_accepts_what_the_address_grammar_does_except_IPv4_mapped_addresses(@ForAll("addressTexts") String text)
      throws SelectorException, UnknownHostException {
    boolean v4 = IPV4.matcher(text).matches();
    boolean v6 = IPV6.matcher(text).matches();
    // Only text the grammar accepted reaches the JDK, so that it is read as a literal, never looked up.
    InetAddress reference = v4 || v6 ? InetAddress.getByName(text) : null;
    boolean mapped = v6 && reference instanceof Inet4Address;
    String form = v4 ? "IPv4" : mapped ? "IPv4-mapped" : v6 ? "IPv6" : "invalid";
    Statistics.label("form").collect(form);
    Statistics.label("form").coverage(coverage -> {
      coverage.check("IPv4").percentage(p -> p > 10);
      coverage.check("IPv6").percentage(p -> p > 15);
      coverage.check("invalid").percentage(p -> p > 20);
      coverage.check("IPv4-mapped").count(n -> n > 3);
    });
    boolean valid = reference != null && !mapped;
    check("isIP(\"" + text + "\") == " + valid);
    if (!valid) {
      check("!isCIDR(\"" + text + "/0\")");
      return;
    }
    String q = "\"" + text + "\"";
    String expanded = expanded(reference.getAddress());
    check("ip(" + q + ") == ip(\"" + expanded + "\") && ip(" + q + ").family() == " + (v4 ? 4 : 6));
    check("string(ip(" + q + ")) == \"" + canonical(reference.getAddress()) + "\"");
    check("ip.isCanonical(" + q + ") == (" + q + " == \"" + canonical(reference.getAddress()) + "\")");
    check("cidr(" + q + " + \"/" + (v4 ? 32 : 128) + "\").ip() == ip(" + q + ")");
  }

  @Property(tries = 400)
  void containment_agrees_with_a_bit_mask(@ForAll("networks") Network network) throws SelectorException {
    int length = network.network().length * 8;
    BigInteger net = new BigInteger(1, network.network());
    BigInteger address = new BigInteger(1, network.address());
    boolean sameFamily = network.network().length == network.address().length;
    boolean containsIp = sameFamily && net.xor(address).shiftRight(length - network.bits()).signum() == 0;
    boolean containsCidr = containsIp && network.bits() <= network.otherBits();
    Statistics.label("containsIP").collect(containsIp);
    Statistics.label("containsCIDR").collect(containsCidr);
    Statistics.label("containsIP").coverage(coverage -> {
      coverage.check(true).percentage(p -> p > 15);
      coverage.check(false).percentage(p -> p > 25);
    });
    Statistics.label("containsCIDR").coverage(coverage -> {
      coverage.check(true).percentage(p -> p > 8);
      coverage.check(false).percentage(p -> p > 25);
    });
    String cidr = "cidr(\"" + text(network.network()) + "/" + network.bits() + "\")";
    String ip = "\"" + text(network.address()) + "\"";
    String other = "\"" + text(network.address()) + "/" + network.otherBits() + "\"";
    check(cidr + ".containsIP(" + ip + ") == " + containsIp + " && " + cidr + ".containsIP(ip(" + ip + ")) == "
        + containsIp);
    check(cidr + ".containsCIDR(" + other + ") == " + containsCidr + " && " + cidr + ".containsCIDR(cidr(" + other
        + ")) == " + containsCidr);
    BigInteger mask = BigInteger.ONE.shiftLeft(network.bits()).subtract(BigInteger.ONE)
        .shiftLeft(length - network.bits());
    byte[] masked = bytes(net.and(mask), length / 8);
    check(cidr + ".masked() == cidr(\"" + text(masked) + "/" + network.bits() + "\") && " + cidr
        + ".prefixLength() == " + network.bits() + " && " + cidr + ".masked().containsCIDR(" + cidr + ")");
  }

  private static void check(String expression) throws SelectorException {
    if (!SELECTORS.compile(expression).matches("dra.example.com", DEVICE)) {
      throw new AssertionError("expected true: " + expression);
    }
  }

  /** @return the address with every IPv6 group written out, so that the text does not depend on compression */
  private static String expanded(byte[] address) {
    if (address.length == 4) {
      return text(address);
    }
    var groups = new ArrayList<String>();
    for (int i = 0; i < 16; i += 2) {
      groups.add(Integer.toHexString((address[i] & 0xFF) << 8 | address[i + 1] & 0xFF));
    }
    return String.join(":", groups);
  }

  /**
   * RFC 5952's text: lower case, no leading zeros, and the longest run of two or more zero groups (the first of
   * equally long ones) written as ::.
   */
  private static String canonical(byte[] address) {
    String full = expanded(address);
    if (address.length == 4) {
      return full;
    }
    List<String> groups = List.of(full.split(":"));
    int bestFrom = 0;
    int bestTo = 0;
    for (int from = 0; from < 8; from++) {
      int to = from;
      while (to < 8 && groups.get(to).equals("0")) {
        to++;
      }
      if (to - from >= 2 && to - from > bestTo - bestFrom) {
        bestFrom = from;
        bestTo = to;
      }
    }
    if (bestTo == 0) {
      return full;
    }
    return String.join(":", groups.subList(0, bestFrom)) + "::" + String.join(":", groups.subList(bestTo, 8));
  }

  private static String text(byte[] address) {
    if (address.length == 16) {
      return expanded(address);
    }
    return (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "." + (address[3] & 0xFF);
  }

  private static byte[] bytes(BigInteger value, int length) {
    byte[] raw = value.toByteArray();
    byte[] result = new byte[length];
    for (int i = 0; i < Math.min(raw.length, length); i++) {
      result[length - 1 - i] = raw[raw.length - 1 - i];
    }
    return result;
  }

  /** A network, an address and a second prefix length for it, the address often sharing the network's prefix. */
  record Network(byte[] network, int bits, byte[] address, int otherBits) {}

  @Provide
  Arbitrary<Network> networks() {
    return Arbitraries.of(4, 16).flatMap(length -> {
      int bitLength = length * 8;
      Arbitrary<byte[]> base = Arbitraries.bytes().array(byte[].class).ofSize(length).map(IpCidrProperties::unmapped);
      Arbitrary<Integer> bits = Arbitraries.integers().between(0, bitLength);
      Arbitrary<Integer> agreeing = Arbitraries.integers().between(0, bitLength);
      Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofSize(length);
      Arbitrary<byte[]> otherFamily =
          Arbitraries.bytes().array(byte[].class).ofSize(20 - length).map(IpCidrProperties::unmapped);
      return Combinators.combine(base, bits, agreeing, noise, otherFamily, Arbitraries.integers().between(0, 9),
          Arbitraries.integers().between(0, 128)).as((net, b, agree, flips, foreign, pick, other) -> {
            // The address keeps the network's first `agree` bits and takes random ones after them.
            BigInteger kept = new BigInteger(1, net).shiftRight(bitLength - agree).shiftLeft(bitLength - agree);
            BigInteger low = new BigInteger(1, flips).and(BigInteger.ONE.shiftLeft(bitLength - agree)
                .subtract(BigInteger.ONE));
            byte[] address = pick == 0 ? foreign : unmapped(bytes(kept.or(low), length));
            return new Network(net, b, address, Math.min(other, address.length * 8));
          });
    });
  }

  /** @return the address, moved out of ::ffff:0:0/96 when it is 16 bytes there (kube refuses those) */
  private static byte[] unmapped(byte[] address) {
    if (address.length == 16) {
      boolean mapped = address[10] == (byte) 0xFF && address[11] == (byte) 0xFF;
      for (int i = 0; i < 10; i++) {
        mapped &= address[i] == 0;
      }
      if (mapped) {
        address[11] = 0;
      }
    }
    return address;
  }

  /**
   * Addresses in the forms kube accepts (upper and lower case, padded groups, :: anywhere, an IPv4 tail), octets
   * above 255, IPv4-mapped addresses, and two in five with up to three characters inserted, deleted or replaced.
   */
  @Provide
  Arbitrary<String> addressTexts() {
    Arbitrary<Integer> octet = Arbitraries.frequencyOf(
        Tuple.of(19, Arbitraries.integers().between(0, 255)),
        Tuple.of(1, Arbitraries.integers().between(256, 999)));
    Arbitrary<String> v4 = octet.list().ofSize(4)
        .map(octets -> String.join(".", octets.stream().map(String::valueOf).toList()));
    Arbitrary<Integer> group = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(0)),
        Tuple.of(3, Arbitraries.integers().between(0, 0xFFFF)),
        Tuple.of(1, Arbitraries.integers().between(1, 0xF)));
    Arbitrary<String> v6 = Combinators.combine(group.list().ofSize(8), Arbitraries.integers().between(0, 7),
        Arbitraries.integers().between(0, 7), Arbitraries.of(false, true), Arbitraries.of(false, true), v4,
        Arbitraries.integers().between(0, 4)).as((groups, from, count, upper, padded, tail, tailed) -> {
          var texts = new ArrayList<String>();
          for (int g : groups) {
            String hex = padded ? String.format("%04x", g) : Integer.toHexString(g);
            texts.add(upper ? hex.toUpperCase(java.util.Locale.ROOT) : hex);
          }
          if (tailed == 0) {
            texts = new ArrayList<>(texts.subList(0, 6));
            texts.add(tail);
          }
          int end = Math.min(texts.size(), from + count);
          if (count > 0 && from < texts.size()) {
            return String.join(":", texts.subList(0, from)) + "::" + String.join(":", texts.subList(end,
                texts.size()));
          }
          return String.join(":", texts);
        });
    Arbitrary<String> mapped = v4.map(text -> "::ffff:" + text);
    Arbitrary<String> valid = Arbitraries.frequencyOf(
        Tuple.of(5, v4), Tuple.of(4, v6), Tuple.of(1, mapped));
    Arbitrary<Character> noise = Arbitraries.of('0', '1', '9', 'a', 'f', 'F', 'g', '.', ':', ':', '%', '/', ' ',
        '-', 'é');
    Arbitrary<Integer> changes = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.just(0)), Tuple.of(2, Arbitraries.integers().between(1, 3)));
    Arbitrary<List<Integer>> kinds = Arbitraries.integers().between(0, 2).list().ofSize(3);
    Arbitrary<List<Integer>> positions = Arbitraries.integers().between(0, 40).list().ofSize(3);
    return Combinators.combine(valid, noise.list().ofSize(3), kinds, positions, changes)
        .as((text, chars, kind, position, count) -> {
          var changed = new StringBuilder(text);
          for (int i = 0; i < count; i++) {
            int at = position.get(i) % (changed.length() + 1);
            switch (kind.get(i)) {
              case 0 -> changed.insert(at, chars.get(i));
              case 1 -> {
                if (at < changed.length()) {
                  changed.deleteCharAt(at);
                }
              }
              default -> {
                if (at < changed.length()) {
                  changed.setCharAt(at, chars.get(i));
                }
              }
            }
          }
          return changed.toString();
        });
  }
}
