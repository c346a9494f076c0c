package io.kubesched.policy.plugins.dynamicresources.cel;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A URL as Go's {@code net/url} reads it (Go 1.26, kube 1.37's toolchain, with its default {@code
 * urlstrictcolons=1}): {@link #parseRequestUri} is {@code url.ParseRequestURI}, {@link #parse} is {@code url.Parse},
 * with their error messages. {@code java.net.URI} follows RFC 3986 where Go is more lenient (spaces and most
 * other bytes in paths and queries, {@code %} escapes of any byte, no host syntax beyond brackets and ports) and
 * stricter elsewhere (control bytes), so kube's answers need Go's own algorithm. Works on the UTF-8 bytes as Go
 * does; an unescaped byte sequence that is not UTF-8 reads back with U+FFFD. Immutable.
 *
 * @param scheme lower-cased, "" when none
 * @param opaque the rest of a URL whose scheme is not followed by "/", else ""
 * @param user userinfo as given before "@" ({@code null} when there is no "@")
 * @param host unescaped host with port, "" when none
 * @param path unescaped path bytes
 * @param rawPath the path as given when it differs from the escaped {@link #path}, else ""
 * @param rawQuery the query as given, without "?"
 * @param forceQuery a "?" with nothing after it
 * @param omitHost the scheme is followed by "/" but not "//"
 * @param fragment unescaped fragment bytes
 * @param rawFragment the fragment as given when it differs from the escaped {@link #fragment}, else ""
 */
record GoUrl(String scheme, String opaque, @Nullable Userinfo user, String host, byte[] path, String rawPath,
    String rawQuery, boolean forceQuery, boolean omitHost, byte[] fragment, String rawFragment) {

  /** The userinfo of a URL, unescaped. */
  record Userinfo(String username, @Nullable String password) {}

  /** A URL Go rejects, with {@code url.Error}'s message ({@code parse "…": …}). */
  static final class UrlException extends Exception {
    private static final long serialVersionUID = 1L;

    UrlException(String message) {
      super(message, null, false, false);
    }
  }

  private static final int PATH = 1;
  private static final int PATH_SEGMENT = 2;
  private static final int HOST = 4;
  private static final int ZONE = 8;
  private static final int USER_PASSWORD = 16;
  private static final int QUERY_COMPONENT = 32;
  private static final int FRAGMENT = 64;

  private static final int MAX_QUERY_PARAMETERS = 10_000;

  /** Go's {@code url.ParseRequestURI}: an absolute URI or an absolute path, no fragment. */
  static GoUrl parseRequestUri(String raw) throws UrlException {
    try {
      return parse(raw, true);
    } catch (IllegalArgumentException e) {
      throw new UrlException("parse " + GoText.quote(raw) + ": " + e.getMessage());
    }
  }

  /** Go's {@code url.Parse}: a URL or a reference, with an optional fragment. */
  static GoUrl parse(String raw) throws UrlException {
    int hash = raw.indexOf('#');
    String beforeFragment = hash < 0 ? raw : raw.substring(0, hash);
    GoUrl url;
    try {
      url = parse(beforeFragment, false);
    } catch (IllegalArgumentException e) {
      throw new UrlException("parse " + GoText.quote(beforeFragment) + ": " + e.getMessage());
    }
    if (hash < 0 || hash == raw.length() - 1) {
      return url;
    }
    String given = raw.substring(hash + 1);
    byte[] fragment;
    try {
      fragment = unescape(given, FRAGMENT);
    } catch (IllegalArgumentException e) {
      throw new UrlException("parse " + GoText.quote(raw) + ": " + e.getMessage());
    }
    String rawFragment = escape(fragment, FRAGMENT).equals(given) ? "" : given;
    return new GoUrl(url.scheme, url.opaque, url.user, url.host, url.path, url.rawPath, url.rawQuery,
        url.forceQuery, url.omitHost, fragment, rawFragment);
  }

  private static GoUrl parse(String raw, boolean viaRequest) {
    for (int i = 0; i < raw.length(); i++) {
      if (raw.charAt(i) < ' ' || raw.charAt(i) == 0x7f) {
        throw new IllegalArgumentException("net/url: invalid control character in URL");
      }
    }
    if (raw.isEmpty() && viaRequest) {
      throw new IllegalArgumentException("empty url");
    }
    if (raw.equals("*")) {
      return new GoUrl("", "", null, "", bytes("*"), "", "", false, false, new byte[0], "");
    }
    String scheme = "";
    String rest = raw;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
        continue;
      }
      if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
        if (i == 0) {
          break;
        }
        continue;
      }
      if (c == ':') {
        if (i == 0) {
          throw new IllegalArgumentException("missing protocol scheme");
        }
        scheme = raw.substring(0, i).toLowerCase(Locale.ROOT);
        rest = raw.substring(i + 1);
      }
      break;
    }
    boolean forceQuery = false;
    String rawQuery = "";
    if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
      forceQuery = true;
      rest = rest.substring(0, rest.length() - 1);
    } else {
      int question = rest.indexOf('?');
      if (question >= 0) {
        rawQuery = rest.substring(question + 1);
        rest = rest.substring(0, question);
      }
    }
    if (!rest.startsWith("/")) {
      if (!scheme.isEmpty()) {
        return new GoUrl(scheme, rest, null, "", new byte[0], "", rawQuery, forceQuery, false, new byte[0], "");
      }
      if (viaRequest) {
        throw new IllegalArgumentException("invalid URI for request");
      }
      int slash = rest.indexOf('/');
      if ((slash < 0 ? rest : rest.substring(0, slash)).contains(":")) {
        throw new IllegalArgumentException("first path segment in URL cannot contain colon");
      }
    }
    Userinfo user = null;
    String host = "";
    boolean omitHost = false;
    if ((!scheme.isEmpty() || !viaRequest && !rest.startsWith("///")) && rest.startsWith("//")) {
      String authority = rest.substring(2);
      rest = "";
      int slash = authority.indexOf('/');
      if (slash >= 0) {
        rest = authority.substring(slash);
        authority = authority.substring(0, slash);
      }
      int at = authority.lastIndexOf('@');
      host = parseHost(scheme, at < 0 ? authority : authority.substring(at + 1));
      if (at >= 0) {
        user = userinfo(authority.substring(0, at));
      }
    } else if (!scheme.isEmpty() && rest.startsWith("/")) {
      omitHost = true;
    }
    byte[] path = unescape(rest, PATH);
    String rawPath = escape(path, PATH).equals(rest) ? "" : rest;
    return new GoUrl(scheme, "", user, host, path, rawPath, rawQuery, forceQuery, omitHost, new byte[0], "");
  }

  private static Userinfo userinfo(String given) {
    for (int i = 0; i < given.length(); i++) {
      char c = given.charAt(i);
      boolean valid = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
          || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
      if (!valid) {
        throw new IllegalArgumentException("net/url: invalid userinfo");
      }
    }
    int colon = given.indexOf(':');
    if (colon < 0) {
      return new Userinfo(string(unescape(given, USER_PASSWORD)), null);
    }
    return new Userinfo(string(unescape(given.substring(0, colon), USER_PASSWORD)),
        string(unescape(given.substring(colon + 1), USER_PASSWORD)));
  }

  private static String parseHost(String scheme, String host) {
    int open = host.lastIndexOf('[');
    if (open > 0) {
      throw new IllegalArgumentException("invalid IP-literal");
    }
    if (open == 0) {
      int close = host.lastIndexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("missing ']' in host");
      }
      String colonPort = host.substring(close + 1);
      if (!validOptionalPort(colonPort)) {
        throw new IllegalArgumentException("invalid port " + GoText.quote(colonPort) + " after host");
      }
      String port = string(unescape(colonPort, HOST));
      String hostname = host.substring(1, close);
      int zone = hostname.indexOf("%25");
      String unescaped = zone < 0 ? string(unescape(hostname, HOST))
          : string(unescape(hostname.substring(0, zone), HOST)) + string(unescape(hostname.substring(zone), ZONE));
      if (isIpv4(unescaped)) {
        throw new IllegalArgumentException("invalid IP-literal");
      }
      return "[" + unescaped + "]" + port;
    }
    int colon = host.indexOf(':');
    if (colon >= 0) {
      int last = host.lastIndexOf(':');
      // urlstrictcolons: http and https take the first colon, so "a:b:c" has the port ":b:c".
      if (last != colon && !scheme.equals("http") && !scheme.equals("https")) {
        colon = last;
      }
      String colonPort = host.substring(colon);
      if (!validOptionalPort(colonPort)) {
        throw new IllegalArgumentException("invalid port " + GoText.quote(colonPort) + " after host");
      }
    }
    return string(unescape(host, HOST));
  }

  /**
   * Go's {@code netip.ParseAddr} of a bracketed host: whether {@code text} is an IPv4 address.
   *
   * @throws IllegalArgumentException {@code invalid host: ParseAddr("…"): …} when it is no IP address at all
   */
  private static boolean isIpv4(String text) {
    try {
      return IpAddress.parse(text).address().v4();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid host: " + e.getMessage(), e);
    }
  }

  private static boolean validOptionalPort(String port) {
    if (port.isEmpty()) {
      return true;
    }
    if (port.charAt(0) != ':') {
      return false;
    }
    for (int i = 1; i < port.length(); i++) {
      if (port.charAt(i) < '0' || port.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Go's {@code URL.Hostname}: the host without port and brackets. */
  String hostname() {
    return splitHostPort()[0];
  }

  /** Go's {@code URL.Port}: the digits after the host's last colon, "" when none. */
  String port() {
    return splitHostPort()[1];
  }

  private String[] splitHostPort() {
    String name = host;
    String port = "";
    int colon = name.lastIndexOf(':');
    if (colon >= 0 && validOptionalPort(name.substring(colon))) {
      port = name.substring(colon + 1);
      name = name.substring(0, colon);
    }
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    return new String[] {name, port};
  }

  /** Go's {@code URL.EscapedPath}. */
  String escapedPath() {
    if (!rawPath.isEmpty() && validEncoded(rawPath, PATH)) {
      try {
        if (Arrays.equals(unescape(rawPath, PATH), path)) {
          return rawPath;
        }
      } catch (IllegalArgumentException e) {
        // Go falls back to escaping the path.
      }
    }
    if (Arrays.equals(path, bytes("*"))) {
      return "*";
    }
    return escape(path, PATH);
  }

  private String escapedFragment() {
    if (!rawFragment.isEmpty() && validEncoded(rawFragment, FRAGMENT)) {
      try {
        if (Arrays.equals(unescape(rawFragment, FRAGMENT), fragment)) {
          return rawFragment;
        }
      } catch (IllegalArgumentException e) {
        // Go falls back to escaping the fragment.
      }
    }
    return escape(fragment, FRAGMENT);
  }

  private static boolean validEncoded(String text, int mode) {
    for (byte b : bytes(text)) {
      if ("!$&'()*+,;=:@[]%".indexOf(b) < 0 && shouldEscape(b, mode)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Go's {@code URL.Query}: the query's parameters in order of first appearance, each with its values; a
   * parameter that does not unescape, or holds ";", is left out, and more than 10,000 leave the map empty.
   */
  Map<String, List<String>> query() {
    var values = new LinkedHashMap<String, List<String>>();
    if (rawQuery.chars().filter(c -> c == '&').count() + 1 > MAX_QUERY_PARAMETERS) {
      return values;
    }
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty() || pair.contains(";")) {
        continue;
      }
      int equals = pair.indexOf('=');
      try {
        String key = string(unescape(equals < 0 ? pair : pair.substring(0, equals), QUERY_COMPONENT));
        String value = string(unescape(equals < 0 ? "" : pair.substring(equals + 1), QUERY_COMPONENT));
        values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      } catch (IllegalArgumentException e) {
        // Go's Query drops a parameter that does not unescape.
      }
    }
    return values;
  }

  /** Go's {@code URL.String}, which kube compares URLs by. */
  String goString() {
    var built = new StringBuilder();
    if (!scheme.isEmpty()) {
      built.append(scheme).append(':');
    }
    if (!opaque.isEmpty()) {
      built.append(opaque);
    } else {
      if ((!scheme.isEmpty() || !host.isEmpty() || user != null) && !(omitHost && host.isEmpty() && user == null)) {
        if (!host.isEmpty() || path.length > 0 || user != null) {
          built.append("//");
        }
        if (user != null) {
          built.append(escape(bytes(user.username()), USER_PASSWORD));
          if (user.password() != null) {
            built.append(':').append(escape(bytes(user.password()), USER_PASSWORD));
          }
          built.append('@');
        }
        built.append(escape(bytes(host), HOST));
      }
      String escapedPath = escapedPath();
      if (!escapedPath.isEmpty() && escapedPath.charAt(0) != '/' && !host.isEmpty()) {
        built.append('/');
      }
      if (built.length() == 0) {
        int slash = escapedPath.indexOf('/');
        if ((slash < 0 ? escapedPath : escapedPath.substring(0, slash)).contains(":")) {
          built.append("./");
        }
      }
      built.append(escapedPath);
    }
    if (forceQuery || !rawQuery.isEmpty()) {
      built.append('?').append(rawQuery);
    }
    if (fragment.length > 0) {
      built.append('#').append(escapedFragment());
    }
    return built.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof GoUrl url && url.goString().equals(goString());
  }

  @Override
  public int hashCode() {
    return goString().hashCode();
  }

  @Override
  public String toString() {
    return goString();
  }

  private static boolean shouldEscape(int b, int mode) {
    int c = b & 0xff;
    if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
      return false;
    }
    if ((mode == HOST || mode == ZONE) && "!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
      return false;
    }
    if ("-_.~".indexOf(c) >= 0) {
      return false;
    }
    if ("$&+,/:;=?@".indexOf(c) >= 0) {
      return switch (mode) {
        case PATH -> c == '?';
        case PATH_SEGMENT -> c == '/' || c == ';' || c == ',' || c == '?';
        case USER_PASSWORD -> c == '@' || c == '/' || c == '?' || c == ':';
        case QUERY_COMPONENT -> true;
        case FRAGMENT -> false;
        default -> true;
      };
    }
    return !(mode == FRAGMENT && "!()*".indexOf(c) >= 0);
  }

  private static boolean isHex(byte b) {
    return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F';
  }

  private static int unhex(byte b) {
    return Character.digit(b, 16);
  }

  /** Go's {@code unescape}: the bytes {@code text} stands for, or an {@code EscapeError}/{@code InvalidHostError}. */
  private static byte[] unescape(String text, int mode) {
    byte[] s = bytes(text);
    var out = new ByteArrayOutputStream(s.length);
    for (int i = 0; i < s.length; ) {
      byte b = s[i];
      if (b == '%') {
        if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
          int end = Math.min(s.length, i + 3);
          throw new IllegalArgumentException("invalid URL escape "
              + GoText.quote(new String(s, i, end - i, StandardCharsets.UTF_8)));
        }
        int value = unhex(s[i + 1]) << 4 | unhex(s[i + 2]);
        String escape = new String(s, i, 3, StandardCharsets.US_ASCII);
        if (mode == HOST && unhex(s[i + 1]) < 8 && !escape.equals("%25")) {
          throw new IllegalArgumentException("invalid URL escape " + GoText.quote(escape));
        }
        if (mode == ZONE && !escape.equals("%25") && value != ' ' && shouldEscape(value, HOST)) {
          throw new IllegalArgumentException("invalid URL escape " + GoText.quote(escape));
        }
        out.write(value);
        i += 3;
      } else {
        if ((mode == HOST || mode == ZONE) && (b & 0xff) < 0x80 && shouldEscape(b, mode)) {
          throw new IllegalArgumentException("invalid character " + GoText.quote(String.valueOf((char) b))
              + " in host name");
        }
        out.write(b == '+' && mode == QUERY_COMPONENT ? ' ' : b);
        i++;
      }
    }
    return out.toByteArray();
  }

  /** Go's {@code escape}: every byte that {@code mode} does not allow as {@code %XX}, a query's spaces as "+". */
  private static String escape(byte[] s, int mode) {
    var out = new StringBuilder(s.length);
    for (byte b : s) {
      if (b == ' ' && mode == QUERY_COMPONENT) {
        out.append('+');
      } else if (shouldEscape(b, mode)) {
        out.append('%').append("0123456789ABCDEF".charAt((b >> 4) & 15)).append("0123456789ABCDEF".charAt(b & 15));
      } else {
        out.append((char) (b & 0xff));
      }
    }
    return out.toString();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
