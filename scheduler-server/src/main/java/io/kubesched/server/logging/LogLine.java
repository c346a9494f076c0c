package io.kubesched.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One log event as the fields a line carries, whatever the format: what both encoders write, so that text and
 * JSON never disagree on what a line holds. Immutable.
 *
 * @param time when it was logged
 * @param level {@code ERROR}, {@code WARN}, {@code INFO}, {@code DEBUG} or {@code TRACE}
 * @param logger the logger's name (the class that logged)
 * @param message the formatted message
 * @param fields the MDC entries, then the SLF4J key-value pairs (a pair wins over an MDC entry of the same
 *     key), in that order; a key that is one of the {@link #RESERVED} names is written with {@code "_"}
 *     appended, so that it cannot hide a line's own field; values are strings, numbers or booleans
 * @param error the exception's one-line message ({@code ClassName: message}, line breaks made spaces), if one
 *     was logged
 * @param stack the exception's stack trace, if one was logged and stacks are wanted
 */
public record LogLine(
    Instant time,
    String level,
    String logger,
    String message,
    Map<String, Object> fields,
    @Nullable String error,
    @Nullable String stack) {

  /** The names of a line's own fields, which no MDC entry or key-value pair may take. */
  public static final Set<String> RESERVED = Set.of("time", "level", "logger", "message", "error", "stack");

  public LogLine {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(logger, "logger");
    Objects.requireNonNull(message, "message");
    // An unmodifiable copy that keeps the order (Map.copyOf would not).
    fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /**
   * @param withStack whether the stack trace of a logged exception is kept ({@code -v} 4 and more)
   * @return the line {@code event} makes
   */
  public static LogLine of(ILoggingEvent event, boolean withStack) {
    var fields = new LinkedHashMap<String, Object>();
    var mdc = event.getMDCPropertyMap();
    if (mdc != null) {
      mdc.forEach((key, value) -> put(fields, key, value));
    }
    var pairs = event.getKeyValuePairs();
    if (pairs != null) {
      for (var pair : pairs) {
        put(fields, pair.key, pair.value);
      }
    }
    var thrown = event.getThrowableProxy();
    return new LogLine(
        event.getInstant(),
        event.getLevel().toString(),
        event.getLoggerName(),
        Objects.requireNonNullElse(event.getFormattedMessage(), ""),
        fields,
        thrown == null ? null : oneLine(thrown),
        thrown == null || !withStack ? null : ThrowableProxyUtil.asString(thrown).stripTrailing());
  }

  private static void put(Map<String, Object> fields, @Nullable String key, @Nullable Object value) {
    var name = key == null ? "null" : key;
    if (RESERVED.contains(name)) {
      name = name + "_";
    }
    fields.remove(name); // a later value moves to the end, where the reader expects what was added last
    fields.put(name, value(value));
  }

  /** Numbers and booleans stay what they are; anything else is its {@code toString()}. */
  private static Object value(@Nullable Object value) {
    if (value instanceof Boolean
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      return value;
    }
    if (value instanceof Double d && Double.isFinite(d) || value instanceof Float f && Float.isFinite(f)) {
      return value;
    }
    return String.valueOf(value);
  }

  /** @return {@code ClassName: message} of the exception, its line breaks made spaces */
  static String oneLine(IThrowableProxy thrown) {
    var message = thrown.getMessage();
    var text = message == null || message.isBlank() ? thrown.getClassName() : thrown.getClassName() + ": " + message;
    return text.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
