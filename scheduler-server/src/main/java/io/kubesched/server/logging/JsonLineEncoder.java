package io.kubesched.server.logging;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * {@code --logging-format=json}: one JSON object per line, in the spirit of kube's JSON logging (flat, one
 * object a line), with these fields: {@code time} (RFC 3339 in UTC, milliseconds), {@code level}, {@code
 * logger}, {@code message}, the MDC entries and SLF4J key-value pairs as fields of their own ({@code pod},
 * {@code node}, {@code profile}, ...), and for an exception {@code error} (its one-line message) and, where
 * stacks are wanted, {@code stack}.
 *
 * <p>Our own encoder, not Logback's {@code JsonEncoder}: that one nests the key-value pairs and the MDC in
 * objects of their own and names the fields differently ({@code loggerName}, {@code kvpList}, ...), which
 * platforms would have to map; these lines carry the fields a platform indexes at the top level, and nothing
 * else. It is small (a string escape and a loop) and a property checks every string round-trips through a
 * JSON parser.
 *
 * <p>Thread-safe: it keeps no state ({@link LineEncoder} calls {@link #format}).
 */
public final class JsonLineEncoder {

  static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private JsonLineEncoder() {}

  /** @return {@code line} as one JSON object, without a line break in it or at its end */
  public static String format(LogLine line) {
    var out = new StringBuilder(160 + line.message().length());
    out.append("{\"time\":\"").append(TIME.format(line.time())).append('"');
    field(out, "level", line.level().toLowerCase(java.util.Locale.ROOT));
    field(out, "logger", line.logger());
    field(out, "message", line.message());
    for (Map.Entry<String, Object> f : line.fields().entrySet()) {
      out.append(',');
      quote(out, f.getKey());
      out.append(':');
      var value = f.getValue();
      if (value instanceof Number || value instanceof Boolean) {
        out.append(value);
      } else {
        quote(out, value.toString());
      }
    }
    if (line.error() != null) {
      field(out, "error", line.error());
    }
    if (line.stack() != null) {
      field(out, "stack", line.stack());
    }
    return out.append('}').toString();
  }

  private static void field(StringBuilder out, String name, String value) {
    out.append(",\"").append(name).append("\":");
    quote(out, value);
  }

  /**
   * Writes {@code s} as a JSON string: quotes, backslashes and control characters escaped (RFC 8259), and
   * also DEL, the C1 controls (U+0085 among them), U+2028, U+2029 (line ends to some readers) and unpaired surrogates (which UTF-8 cannot carry), so that
   * the line stays one line and every string reads back as it was.
   */
  public static void quote(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029') {
            unicode(out, c);
          } else if (Character.isHighSurrogate(c)) {
            if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              unicode(out, c);
            }
          } else if (Character.isLowSurrogate(c)) {
            unicode(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void unicode(StringBuilder out, char c) {
    out.append("\\u");
    var hex = Integer.toHexString(c);
    out.append("0".repeat(4 - hex.length())).append(hex);
  }
}
