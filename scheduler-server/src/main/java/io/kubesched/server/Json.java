package io.kubesched.server;

import io.kubesched.server.logging.JsonLineEncoder;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes a tree of maps, lists, strings, numbers, booleans and nulls as JSON (RFC 8259), keys in the maps'
 * order. Written here rather than through a JSON library because the server's only one comes with fabric8, as
 * Jackson 2 on fabric8 7 and Jackson 3 on fabric8 8, whose types no module may name.
 */
final class Json {

  private Json() {}

  /**
   * @param value a {@link Map} with string keys, a {@link List}, a {@link String}, an {@link Integer} or {@link
   *     Long}, a {@link Boolean}, or null, nested as deep as needed
   * @return its JSON text, on one line
   * @throws IllegalArgumentException if the tree holds anything else
   */
  static String write(@Nullable Object value) {
    var out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(@Nullable Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      string(text, out);
    } else if (value instanceof Integer || value instanceof Long || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (var entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String key)) {
          throw new IllegalArgumentException("a JSON object's key must be a string, was " + entry.getKey());
        }
        out.append(first ? "" : ",");
        first = false;
        string(key, out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "" : ",");
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("no JSON for a " + value.getClass().getName());
    }
  }

  private static void string(String text, StringBuilder out) {
    JsonLineEncoder.quote(out, text);
  }
}
