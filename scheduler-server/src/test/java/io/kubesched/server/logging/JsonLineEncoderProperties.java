package io.kubesched.server.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonLineEncoderProperties {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * Any UTF-16 text, lone surrogates included, with the characters that need escaping (quotes, backslashes,
   * control characters, line and paragraph separators) made frequent.
   */
  @Provide
  Arbitrary<String> texts() {
    var hard = Arbitraries.of('"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\u2029',
        '\ud800', '\udc00', 'é', '\u00a0');
    var any = Arbitraries.chars().all();
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, any), net.jqwik.api.Tuple.of(2, hard), net.jqwik.api.Tuple.of(2,
                Arbitraries.chars().alpha()))
        .list().ofMaxSize(30)
        .map(chars -> {
          var text = new StringBuilder();
          chars.forEach(text::append);
          return text.toString();
        })
        .injectDuplicates(0.05);
  }

  @Property
  void every_message_key_and_value_reads_back_from_one_json_line_as_it_was(
      @ForAll("texts") String message,
      @ForAll("texts") String key,
      @ForAll("texts") String value,
      @ForAll("texts") String error) {
    var fields = new LinkedHashMap<String, Object>();
    fields.put("pod", value);
    if (!LogLine.RESERVED.contains(key) && !key.equals("pod")) {
      fields.put(key, value);
    }
    var line = JsonLineEncoder.format(new LogLine(Instant.ofEpochMilli(1_700_000_000_123L), "INFO", "l", message,
        fields, error, null));
    Statistics.label("escaped").collect(line.contains("\\u") ? "\\u escape" : "none");
    Statistics.label("escaped").coverage(c -> c.check("\\u escape").percentage(p -> p > 20));

    for (char c : new char[] {'\n', '\r', '\u2028', '\u2029', '\u0085'}) {
      assertFalse(line.indexOf(c) >= 0, () -> "a line break in " + line);
    }
    JsonNode parsed = JSON.readTree(line);
    assertEquals(message, parsed.get("message").asString());
    assertEquals(value, parsed.get("pod").asString());
    if (fields.containsKey(key)) {
      assertEquals(value, parsed.get(key).asString());
    }
    assertEquals(error, parsed.get("error").asString());
    assertEquals("2023-11-14T22:13:20.123Z", parsed.get("time").asString());
    assertEquals(fields.size() + 5, parsed.size(), line);
  }

  @Property
  void numbers_and_booleans_stay_json_numbers_and_booleans(@ForAll long number, @ForAll boolean flag) {
    var line = JsonLineEncoder.format(new LogLine(Instant.EPOCH, "DEBUG", "l", "m",
        Map.of("count", number, "ok", flag), null, null));
    var parsed = JSON.readTree(line);
    assertEquals(number, parsed.get("count").longValue());
    assertEquals(flag, parsed.get("ok").booleanValue());
  }
}
