package io.kubesched.policy.config;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.Policy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a {@link Policy} from a Policy file, JSON or YAML, in the shape of kube-scheduler's former Policy:
 *
 * <pre>{@code
 * kind: Policy
 * apiVersion: v1
 * predicates:
 *   - name: PodFitsResources
 *   - name: PodToleratesNodeTaints
 *   - name: ZoneRequired               # any name: the argument says what it is
 *     argument:
 *       labelsPresence: {labels: [topology.kubernetes.io/zone], presence: true}
 * priorities:
 *   - name: LeastRequestedPriority
 *     weight: 1
 *   - name: PreferSsd
 *     weight: 2
 *     argument:
 *       labelPreference: {label: disktype, presence: true}
 * percentageOfNodesToScore: 50           # optional; kube-scheduler's KubeSchedulerConfiguration field
 * }</pre>
 *
 * <p>Without {@code predicates} the default filters apply, without {@code priorities} the default scorers;
 * an empty list means none. Unknown names, missing arguments, non-positive weights and unknown fields are
 * errors whose message names the file, the field's path and the value, and lists what is valid. See {@link
 * Catalog} for the names.
 */
public final class PolicyFile {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final Set<String> TOP_LEVEL =
      Set.of("kind", "apiVersion", "predicates", "priorities", "percentageOfNodesToScore");

  private PolicyFile() {}

  /**
   * Reads the Policy file at {@code file} (JSON is read as YAML, of which it is a subset).
   *
   * @throws ConfigurationException if the file cannot be read, is not JSON/YAML, or is not a valid Policy;
   *     the message names the file, the field and the value
   */
  public static Policy read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigurationException("policy file " + file + " cannot be read: " + e, e);
    }
    return parse(text, file.toString());
  }

  /**
   * Reads a Policy from {@code text}.
   *
   * @param text the Policy, JSON or YAML
   * @param source how error messages name it, for example the file's path
   * @throws ConfigurationException if {@code text} is not a valid Policy
   */
  public static Policy parse(String text, String source) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new ConfigurationException(
          "policy file " + source + " is neither JSON nor YAML: " + e.getOriginalMessage(), e);
    }
    return new Reader(source).policy(root);
  }

  /** Walks the tree, with the file's name for messages. */
  static final class Reader {
    private final String source;

    Reader(String source) {
      this.source = source;
    }

    ConfigurationException error(String path, String problem) {
      return new ConfigurationException("policy file " + source + ": " + path + " " + problem);
    }

    Policy policy(JsonNode root) {
      if (root == null || root.isMissingNode() || root.isNull()) {
        throw error("(document)", "is empty; expected kind: Policy with predicates and priorities");
      }
      if (!root.isObject()) {
        throw error("(document)", "must be an object with kind: Policy, was " + root.getNodeType());
      }
      for (var field : root.propertyNames()) {
        if (!TOP_LEVEL.contains(field)) {
          throw error(field, "is not a Policy field; valid: " + sorted(TOP_LEVEL));
        }
      }
      expectText(root, "kind", "Policy");
      expectText(root, "apiVersion", "v1");
      var builder = Policy.builder();
      var predicates = root.get("predicates");
      if (predicates == null || predicates.isNull()) {
        builder.filters(Catalog.defaultFilters());
      } else {
        for (var entry : list(predicates, "predicates")) {
          Catalog.predicate(this, entry.path, entry.node).forEach(builder::filter);
        }
      }
      var priorities = root.get("priorities");
      if (priorities == null || priorities.isNull()) {
        builder.scorers(Catalog.defaultScorers());
      } else {
        for (var entry : list(priorities, "priorities")) {
          var weighted = Catalog.priority(this, entry.path, entry.node);
          try {
            builder.scorer(weighted.scorer(), weighted.weight());
          } catch (IllegalArgumentException duplicate) {
            throw error(entry.path + ".name", "repeats a priority: " + duplicate.getMessage());
          }
        }
      }
      var percentage = root.get("percentageOfNodesToScore");
      if (percentage != null) {
        int value = integer(percentage, "percentageOfNodesToScore");
        if (value < 0 || value > 100) {
          throw error("percentageOfNodesToScore", "must be 0 (adaptive) to 100, was " + value);
        }
        builder.percentageOfNodesToScore(value);
      }
      return builder.build();
    }

    record Entry(String path, JsonNode node) {}

    List<Entry> list(JsonNode node, String path) {
      if (!node.isArray()) {
        throw error(path, "must be a list, was " + describe(node));
      }
      var entries = new ArrayList<Entry>();
      for (int i = 0; i < node.size(); i++) {
        var element = node.get(i);
        var elementPath = path + "[" + i + "]";
        entries.add(new Entry(elementPath, element));
      }
      return entries;
    }

    JsonNode object(JsonNode node, String path, Set<String> fields) {
      if (!node.isObject()) {
        throw error(path, "must be an object, was " + describe(node));
      }
      for (var field : node.propertyNames()) {
        if (!fields.contains(field)) {
          throw error(path + "." + field, "is not a known field; valid: " + sorted(fields));
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

    private void expectText(JsonNode root, String field, String expected) {
      var value = root.get(field);
      if (value != null && !(value.isString() && value.stringValue().equals(expected))) {
        throw error(field, "must be " + expected + ", was " + describe(value));
      }
    }

    static String describe(JsonNode node) {
      return node.isString() ? "\"" + node.stringValue() + "\"" : node.toString();
    }

    static List<String> sorted(Set<String> names) {
      return names.stream().sorted().toList();
    }
  }
}
