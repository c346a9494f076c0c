package io.kubesched.policy.config;

import io.kubesched.api.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * What the file readers of this package share: parsing JSON or YAML into a tree, and walking it with messages
 * that name the source, the field's YAML path (such as {@code profiles[1].pluginConfig[0].args}) and the value,
 * and list what is valid. A reader is made per file and used by one thread.
 */
class TreeReader {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  // kube-scheduler decodes its configuration strictly: a field given twice is an error, not the last one wins.
  private static final YAMLMapper STRICT_YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  private static final JsonMapper STRICT_JSON =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** A list element and its path. */
  record Entry(String path, JsonNode node) {}

  private final String prefix;

  /** @param prefix what every message starts with, naming the file: {@code "policy file p.yaml: "} */
  TreeReader(String prefix) {
    this.prefix = prefix;
  }

  /** The most a configuration or policy file may hold: such files are a few kilobytes. */
  static final int MAX_FILE_BYTES = 1 << 20;

  /**
   * Reads a configuration file as UTF-8, refusing one larger than {@link #MAX_FILE_BYTES} (such as {@code
   * /dev/zero}, which would otherwise be read until memory runs out).
   *
   * @param what how messages name the file: {@code "policy file p.yaml"}
   * @throws ConfigurationException naming the file, if it cannot be read, is not UTF-8 or is too large
   */
  static String readFile(Path file, String what) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (IOException e) {
      throw new ConfigurationException(what + " cannot be read: " + e, e);
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw new ConfigurationException(
          what + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB: not a configuration file");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new ConfigurationException(what + " cannot be read: " + e, e);
    }
  }

  /**
   * JSON is YAML, except that YAML forbids the tabs JSON files are often indented with: a text that looks like
   * JSON is read as JSON first, then (a YAML flow mapping such as <code>{kind: Policy}</code>) as YAML.
   *
   * @param what how messages name the text, with its source: {@code "policy file p.yaml"}
   * @param strict whether a field given twice in one object is an error
   * @throws ConfigurationException if the text is neither
   */
  static JsonNode tree(String text, String what, boolean strict) {
    @Nullable JacksonException jsonError = null;
    if (text.stripLeading().startsWith("{")) {
      try {
        return (strict ? STRICT_JSON : JSON).readTree(text);
      } catch (JacksonException e) {
        jsonError = e;
      }
    }
    try {
      return (strict ? STRICT_YAML : YAML).readTree(text);
    } catch (JacksonException e) {
      var reported = jsonError != null ? jsonError : e;
      throw new ConfigurationException(what + " is neither JSON nor YAML: " + reported.getOriginalMessage(), reported);
    }
  }

  /** @return an error about the field at {@code path}: the prefix, the path, a space and {@code problem} */
  ConfigurationException error(String path, String problem) {
    return new ConfigurationException(prefix + path + " " + problem);
  }

  /**
   * @return an error about the field at {@code path} in kube's words: the prefix, the path, a colon and {@code
   *     detail}, such as {@code Invalid value: 101: not in valid range [0-100]}
   */
  ConfigurationException fieldError(String path, String detail) {
    return new ConfigurationException(prefix + path + ": " + detail);
  }

  List<Entry> list(JsonNode node, String path) {
    if (!node.isArray()) {
      throw error(path, "must be a list, was " + describe(node));
    }
    var entries = new ArrayList<Entry>();
    for (int i = 0; i < node.size(); i++) {
      entries.add(new Entry(path + "[" + i + "]", node.get(i)));
    }
    return entries;
  }

  /**
   * @param path the object's YAML path; empty for the document itself
   * @return {@code node}, checked to be an object with no field outside {@code fields}
   */
  JsonNode object(JsonNode node, String path, Set<String> fields) {
    if (!node.isObject()) {
      throw error(path.isEmpty() ? "(document)" : path, "must be an object, was " + describe(node));
    }
    for (var field : node.propertyNames()) {
      if (!fields.contains(field)) {
        throw error(path.isEmpty() ? field : path + "." + field, "is not a known field; valid: " + sorted(fields));
      }
    }
    return node;
  }

  JsonNode required(JsonNode object, String field, String path) {
    var value = object.get(field);
    if (value == null || value.isNull()) {
      throw error(path + "." + field, "is required");
    }
    return value;
  }

  String text(JsonNode node, String path) {
    if (!node.isString() || node.stringValue().isBlank()) {
      throw error(path, "must be a non-empty string, was " + describe(node));
    }
    return node.stringValue();
  }

  int integer(JsonNode node, String path) {
    if (!node.isIntegralNumber() || !node.canConvertToInt()) {
      throw error(path, "must be an integer, was " + describe(node));
    }
    return node.intValue();
  }

  boolean bool(JsonNode node, String path) {
    if (!node.isBoolean()) {
      throw error(path, "must be true or false, was " + describe(node));
    }
    return node.booleanValue();
  }

  List<String> texts(JsonNode node, String path) {
    var values = new ArrayList<String>();
    for (var entry : list(node, path)) {
      values.add(text(entry.node, entry.path));
    }
    return values;
  }

  /** @return the value as a message shows it: a string in quotes, anything else as JSON */
  static String describe(JsonNode node) {
    return node.isString() ? "\"" + node.stringValue() + "\"" : node.toString();
  }

  static List<String> sorted(Set<String> names) {
    return names.stream().sorted().toList();
  }
}
