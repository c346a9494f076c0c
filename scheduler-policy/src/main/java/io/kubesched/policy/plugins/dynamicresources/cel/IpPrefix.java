package io.kubesched.policy.plugins.dynamicresources.cel;

import java.math.BigInteger;

/**
 * A network as kube's CEL {@code net.CIDR} holds it (Go's {@code netip.Prefix}): an address and a prefix length,
 * the address's bits after the prefix kept as written ({@code 192.168.0.1/24} is not {@code 192.168.0.0/24}; see
 * {@link #masked}). Equal when the address and the length are. Immutable.
 *
 * @param address the address as written, never with a zone
 * @param bits the prefix length, in [0, the address's bit length]
 */
record IpPrefix(IpAddress address, int bits) {

  /**
   * Reads {@code text} as Go's {@code netip.ParsePrefix}: an address as {@link IpAddress#parse} reads it (without
   * a zone), {@code /}, and a length in decimal without sign or leading zero, at most 32 for IPv4 and 128 for IPv6.
   *
   * @throws IllegalArgumentException with {@code netip.ParsePrefix}'s message, e.g. {@code
   *     netip.ParsePrefix("10.0.0.0/"): bad bits after slash: ""}
   */
  static IpPrefix parse(String text) {
    int slash = text.lastIndexOf('/');
    if (slash < 0) {
      throw error(text, "no '/'");
    }
    IpAddress.Zoned zoned;
    try {
      zoned = IpAddress.parse(text.substring(0, slash));
    } catch (IllegalArgumentException e) {
      throw error(text, e.getMessage());
    }
    if (!zoned.zone().isEmpty()) {
      throw error(text, "IPv6 zones cannot be present in a prefix");
    }
    String digits = text.substring(slash + 1);
    // Go's Atoi refuses a sign, and a length beyond 64 bits, as malformed.
    if (!decimal(digits) || digits.length() > 1 && digits.charAt(0) == '0'
        || new BigInteger(digits).bitLength() > 63) {
      throw error(text, "bad bits after slash: " + GoText.quote(digits));
    }
    long bits = Long.parseLong(digits);
    if (bits > zoned.address().bitLength()) {
      throw error(text, "prefix length out of range");
    }
    return new IpPrefix(zoned.address(), (int) bits);
  }

  private static boolean decimal(String digits) {
    return !digits.isEmpty() && digits.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static IllegalArgumentException error(String text, String message) {
    return new IllegalArgumentException("netip.ParsePrefix(" + GoText.quote(text) + "): " + message);
  }

  /** @return the network in canonical form: the address's bits after the prefix cleared */
  IpPrefix masked() {
    return new IpPrefix(address.masked(bits), bits);
  }

  /** @return whether {@code ip} is of this network's family and in it */
  boolean contains(IpAddress ip) {
    return ip.v4() == address.v4() && ip.masked(bits).equals(address.masked(bits));
  }

  /**
   * @return whether {@code other} lies within this network ({@code containsCIDR}): the same family, a prefix at
   *     least as long, and this network's prefix bits
   */
  boolean containsPrefix(IpPrefix other) {
    return other.address.v4() == address.v4() && bits <= other.bits && contains(other.address);
  }

  /** @return Go's {@code netip.Prefix.String}: the address as written, {@code /} and the length */
  @Override
  public String toString() {
    return address + "/" + bits;
  }
}
