package io.kubesched.server.logging;

import java.util.Map;

/**
 * {@code --logging-format=text}: {@code TIME LEVEL LOGGER MESSAGE key=value ...}, one line per event (line
 * breaks in the message written as {@code \n}); a value with a space, a quote, an {@code =} or a control
 * character, or an empty one, is quoted as a Java string literal would be. A logged exception adds {@code
 * error="..."}, and where stacks are wanted its stack trace on the lines that follow. The logger is the class's
 * simple name, as the server's text log always showed it.
 *
 * <p>Our own encoder rather than Logback's {@code PatternLayout}: the pattern's {@code %kvp} and {@code %mdc}
 * write the pairs in two differently formatted groups and a message with line breaks over several lines; this
 * writes the same {@link LogLine} the JSON encoder writes.
 *
 * <p>Thread-safe: it keeps no state.
 */
public final class TextLineEncoder {

  private TextLineEncoder() {}

  /** @return {@code line} as text: one line, then the stack trace's lines if it has one; no final line break */
  public static String format(LogLine line) {
    var out = new StringBuilder(120 + line.message().length());
    out.append(JsonLineEncoder.TIME.format(line.time())).append(' ');
    out.append(String.format("%-5s", line.level())).append(' ');
    var logger = line.logger();
    out.append(logger.substring(logger.lastIndexOf('.') + 1)).append(' ');
    out.append(line.message().replace("\r", "\\r").replace("\n", "\\n"));
    for (Map.Entry<String, Object> f : line.fields().entrySet()) {
      out.append(' ').append(f.getKey()).append('=').append(value(f.getValue().toString()));
    }
    if (line.error() != null) {
      out.append(" error=").append(value(line.error()));
    }
    if (line.stack() != null) {
      out.append('\n').append(line.stack());
    }
    return out.toString();
  }

  private static String value(String value) {
    boolean plain = !value.isEmpty();
    for (int i = 0; i < value.length() && plain; i++) {
      char c = value.charAt(i);
      plain = c > ' ' && c != '"' && c != '=' && !(c >= 0x7f && c <= 0x9f) && c != '\u2028' && c != '\u2029';
    }
    if (plain) {
      return value;
    }
    var out = new StringBuilder(value.length() + 2);
    JsonLineEncoder.quote(out, value);
    return out.toString();
  }
}
