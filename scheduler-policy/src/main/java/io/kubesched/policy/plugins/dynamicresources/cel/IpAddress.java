package io.kubesched.policy.plugins.dynamicresources.cel;

/**
 * An IP address as kube's CEL {@code net.IP} holds it (Go's {@code netip.Addr}): IPv4, or IPv6 without a zone.
 * Equal when the family and the bits are. Immutable. The predicates treat an IPv4-mapped IPv6 address as IPv6
 * (Go's unmap it first): {@link KubeNetwork} refuses those, so none reaches an expression.
 *
 * <p>{@link #parse} reads text exactly as {@code netip.ParseAddr} does, with its error messages. It is written
 * here rather than left to {@link java.net.InetAddress}, which accepts forms Go refuses (the shorthands {@code
 * 1.2.3} and {@code 1.2}, leading zeros as in {@code 010.0.0.1}, brackets as in {@code [::1]}), turns {@code
 * ::ffff:1.2.3.4} into an IPv4 address, has none of Go's messages, and looks up whatever is not a literal: a
 * selector must evaluate as kube's does, or a device kube would allocate is refused here or the other way round.
 *
 * @param v4 whether the address is IPv4 ({@code netip.Addr.Is4})
 * @param high the first 64 bits of an IPv6 address; 0 for IPv4
 * @param low the last 64 bits of an IPv6 address, or the 32 bits of an IPv4 address
 */
record IpAddress(boolean v4, long high, long low) {

  /** What {@code netip.ParseAddr} returns: an address, and the IPv6 zone after {@code %} ("" when none). */
  record Zoned(IpAddress address, String zone) {}

  /** @return the number of bits of the address: 32 or 128 ({@code netip.Addr.BitLen}) */
  int bitLength() {
    return v4 ? 32 : 128;
  }

  /**
   * Reads {@code text} as Go's {@code netip.ParseAddr}: dotted decimal IPv4 with exactly four fields, no leading
   * zeros and none above 255; IPv6 with one to four hex digits a group, at most one {@code ::}, an embedded IPv4
   * address only in place of the last two groups, and an optional non-empty zone after {@code %}.
   *
   * @throws IllegalArgumentException with {@code netip.ParseAddr}'s message, e.g. {@code ParseAddr("1.2.3"): IPv4
   *     address too short}
   */
  static Zoned parse(String text) {
    for (int i = 0; i < text.length(); i++) {
      switch (text.charAt(i)) {
        case '.':
          return new Zoned(new IpAddress(true, 0, ipv4(text, 0, text.length()) & 0xFFFFFFFFL), "");
        case ':':
          return ipv6(text);
        case '%':
          throw error(text, "missing IPv6 address", "");
        default:
          break;
      }
    }
    throw error(text, "unable to parse IP", "");
  }

  /** @return the four fields of the IPv4 address in {@code in[from, to)}, big-endian in an int */
  private static int ipv4(String in, int from, int to) {
    String s = in.substring(from, to);
    int value = 0;
    int digits = 0;
    int field = 0;
    int result = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && value == 0) {
          throw error(in, "IPv4 field has octet with leading zero", "");
        }
        value = value * 10 + (c - '0');
        digits++;
        if (value > 255) {
          throw error(in, "IPv4 field has value >255", "");
        }
      } else if (c == '.') {
        if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
          throw error(in, "IPv4 field must have at least one digit", s.substring(i));
        }
        if (field == 3) {
          throw error(in, "IPv4 address too long", "");
        }
        result = result << 8 | value;
        field++;
        value = 0;
        digits = 0;
      } else {
        throw error(in, "unexpected character", s.substring(i));
      }
    }
    if (field < 3) {
      throw error(in, "IPv4 address too short", "");
    }
    return result << 8 | value;
  }

  private static Zoned ipv6(String in) {
    String s = in;
    String zone = "";
    int percent = s.indexOf('%');
    if (percent >= 0) {
      zone = s.substring(percent + 1);
      s = s.substring(0, percent);
      if (zone.isEmpty()) {
        throw error(in, "zone must be a non-empty string", "");
      }
    }
    int[] bytes = new int[16];
    int ellipsis = -1;
    if (s.startsWith("::")) {
      ellipsis = 0;
      s = s.substring(2);
      if (s.isEmpty()) {
        return new Zoned(new IpAddress(false, 0, 0), zone);
      }
    }
    int i = 0;
    while (i < 16) {
      int digits = 0;
      int group = 0;
      for (; digits < s.length(); digits++) {
        int hex = hexDigit(s.charAt(digits));
        if (hex < 0) {
          break;
        }
        group = group << 4 | hex;
        if (digits > 3) {
          throw error(in, "each group must have 4 or less digits", s);
        }
      }
      if (digits == 0) {
        throw error(in, "each colon-separated field must have at least one digit", s);
      }
      if (digits < s.length() && s.charAt(digits) == '.') {
        if (ellipsis < 0 && i != 12) {
          throw error(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
        }
        if (i + 4 > 16) {
          throw error(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        }
        int end = in.length() - (zone.isEmpty() ? 0 : zone.length() + 1);
        int v4 = ipv4(in, end - s.length(), end);
        for (int b = 0; b < 4; b++) {
          bytes[i + b] = v4 >>> (24 - 8 * b) & 0xFF;
        }
        s = "";
        i += 4;
        break;
      }
      bytes[i] = group >> 8;
      bytes[i + 1] = group & 0xFF;
      i += 2;
      s = s.substring(digits);
      if (s.isEmpty()) {
        break;
      }
      if (s.charAt(0) != ':') {
        throw error(in, "unexpected character, want colon", s);
      }
      if (s.length() == 1) {
        throw error(in, "colon must be followed by more characters", s);
      }
      s = s.substring(1);
      if (s.charAt(0) == ':') {
        if (ellipsis >= 0) {
          throw error(in, "multiple :: in address", s);
        }
        ellipsis = i;
        s = s.substring(1);
        if (s.isEmpty()) {
          break;
        }
      }
    }
    if (!s.isEmpty()) {
      throw error(in, "trailing garbage after address", s);
    }
    if (i < 16) {
      if (ellipsis < 0) {
        throw error(in, "address string too short", "");
      }
      int shift = 16 - i;
      for (int j = i - 1; j >= ellipsis; j--) {
        bytes[j + shift] = bytes[j];
      }
      for (int j = ellipsis; j < ellipsis + shift; j++) {
        bytes[j] = 0;
      }
    } else if (ellipsis >= 0) {
      throw error(in, "the :: must expand to at least one field of zeros", "");
    }
    long high = 0;
    long low = 0;
    for (int b = 0; b < 8; b++) {
      high = high << 8 | bytes[b];
      low = low << 8 | bytes[b + 8];
    }
    return new Zoned(new IpAddress(false, high, low), zone);
  }

  /** @return the value of an ASCII hex digit, else -1 (Go reads bytes, so no other script's digits) */
  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  private static IllegalArgumentException error(String in, String message, String at) {
    return new IllegalArgumentException(
        "ParseAddr(" + GoText.quote(in) + "): " + message + (at.isEmpty() ? "" : " (at " + GoText.quote(at) + ")"));
  }

  /** @return whether this is an IPv4-mapped IPv6 address, in {@code ::ffff:0:0/96} ({@code netip.Addr.Is4In6}) */
  boolean is4In6() {
    return !v4 && high == 0 && low >>> 32 == 0xFFFFL;
  }

  /** @return whether this is {@code 0.0.0.0} or {@code ::} */
  boolean isUnspecified() {
    return high == 0 && low == 0;
  }

  /** @return whether this is in {@code 127.0.0.0/8} or is {@code ::1} */
  boolean isLoopback() {
    return v4 ? low >>> 24 == 127 : high == 0 && low == 1;
  }

  /** @return whether this is in {@code 224.0.0.0/4} or {@code ff00::/8} */
  private boolean isMulticast() {
    return v4 ? (low >>> 28) == 0xE : high >>> 56 == 0xFF;
  }

  /** @return whether this is in {@code 224.0.0.0/24}, or in {@code ff02::/16} with any flags ({@code ff?2::}) */
  boolean isLinkLocalMulticast() {
    return v4 ? low >>> 8 == 0xE00000L : (high >>> 48 & 0xFF0F) == 0xFF02;
  }

  /** @return whether this is in {@code 169.254.0.0/16} or {@code fe80::/10} */
  boolean isLinkLocalUnicast() {
    return v4 ? low >>> 16 == 0xA9FE : (high >>> 48 & 0xFFC0) == 0xFE80;
  }

  /**
   * @return Go's {@code IsGlobalUnicast}: neither unspecified, nor the IPv4 broadcast address, nor loopback, nor
   *     multicast, nor link-local unicast (private and unique local addresses are global unicast)
   */
  boolean isGlobalUnicast() {
    if (v4 && low == 0xFFFFFFFFL) {
      return false;
    }
    return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
  }

  /** @return this address with all but its first {@code bits} bits cleared; {@code bits} in [0, bitLength] */
  IpAddress masked(int bits) {
    if (v4) {
      return new IpAddress(true, 0, low & (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL);
    }
    long highMask = bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
    long lowMask = bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
    return new IpAddress(false, high & highMask, low & lowMask);
  }

  /**
   * @return Go's {@code netip.Addr.String}: dotted decimal, or IPv6 as RFC 5952 writes it (IPv4-mapped addresses,
   *     which kube refuses, are not written as Go writes them)
   */
  @Override
  public String toString() {
    if (v4) {
      return (low >>> 24) + "." + (low >>> 16 & 0xFF) + "." + (low >>> 8 & 0xFF) + "." + (low & 0xFF);
    }
    int[] groups = new int[8];
    for (int g = 0; g < 4; g++) {
      groups[g] = (int) (high >>> (48 - 16 * g) & 0xFFFF);
      groups[g + 4] = (int) (low >>> (48 - 16 * g) & 0xFFFF);
    }
    // The longest run of two or more zero groups, the first of equal ones, becomes "::".
    int zerosFrom = -1;
    int zerosLength = 1;
    for (int g = 0; g < 8; g++) {
      int end = g;
      while (end < 8 && groups[end] == 0) {
        end++;
      }
      if (end - g > zerosLength) {
        zerosFrom = g;
        zerosLength = end - g;
      }
    }
    var text = new StringBuilder();
    for (int g = 0; g < 8; g++) {
      if (g == zerosFrom) {
        text.append("::");
        g += zerosLength - 1;
        continue;
      }
      if (g > 0 && g != zerosFrom + zerosLength) {
        text.append(':');
      }
      text.append(Integer.toHexString(groups[g]));
    }
    return text.toString();
  }
}
