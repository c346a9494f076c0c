package io.kubesched.policy.config;

import io.kubesched.policy.Policy;
import io.kubesched.policy.config.KubePlugins.Role;
import io.kubesched.policy.config.PluginSets.PluginRef;
import io.kubesched.policy.config.PluginSets.PluginSet;
import io.kubesched.policy.config.PluginSets.Resolved;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.Scorer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Reads one profile of a KubeSchedulerConfiguration ({@code schedulerName}, {@code percentageOfNodesToScore},
 * {@code plugins}, {@code pluginConfig}), applies kube-scheduler 1.37's defaulting (its default {@code
 * multiPoint} set merged with the file's, default plugin arguments), resolves each extension point's plugins as
 * its framework does, and builds the {@link Policy} from the {@code filter}, {@code score} and {@code
 * postFilter} points.
 */
final class ProfileReader {

  private static final Set<String> FIELDS =
      Set.of("schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig");

  /**
   * A profile read, and its {@code queueSort} set as the file wrote it (kube requires it to be the same in every
   * profile).
   */
  record Read(SchedulerProfile profile, PluginSet queueSort) {}

  private final ConfigReader reader;
  private final PluginRegistry registry;

  /** @param registry the plugins of one's own a profile may enable besides kube's */
  ProfileReader(ConfigReader reader, PluginRegistry registry) {
    this.reader = reader;
    this.registry = registry;
  }

  /** A registered plugin's arguments as read, and where they were written (for messages). */
  private record CustomArgs(Record args, String path) {}

  /**
   * @param node the profile
   * @param path its YAML path, such as {@code profiles[1]} or {@code spec}
   * @param defaultName the scheduler name when the profile has none (kube's {@code default-scheduler} for a
   *     file's only profile); null if it must have one
   * @param percentage the configuration's {@code percentageOfNodesToScore}, for a profile without its own
   */
  Read read(JsonNode node, String path, @Nullable String defaultName, int percentage) {
    if (node.isMissingNode() || node.isNull()) {
      throw reader.error(path, "is empty; expected a profile with schedulerName, plugins and pluginConfig");
    }
    reader.object(node, path, FIELDS);
    var nameNode = ConfigReader.field(node, "schedulerName");
    var name = nameNode == null ? defaultName : reader.string(nameNode, path + ".schedulerName");
    if (name == null || name.isEmpty()) {
      throw reader.requiredValue(path + ".schedulerName", "");
    }
    var percentageNode = ConfigReader.field(node, "percentageOfNodesToScore");
    if (percentageNode != null) {
      percentage = percentage(reader, percentageNode, path + ".percentageOfNodesToScore");
    }
    var pluginsPath = path + ".plugins";
    Map<ExtensionPoint, PluginSet> custom = new EnumMap<>(ExtensionPoint.class);
    var customMultiPoint = PluginSet.EMPTY;
    var pluginsNode = ConfigReader.field(node, "plugins");
    if (pluginsNode != null) {
      reader.object(pluginsNode, pluginsPath, Set.copyOf(ExtensionPoint.fields()));
      for (var field : ExtensionPoint.fields()) {
        var set = ConfigReader.field(pluginsNode, field);
        if (set == null) {
          continue;
        }
        var read = pluginSet(set, pluginsPath + "." + field);
        ExtensionPoint.ofField(field).ifPresent(point -> custom.put(point, read));
        if (field.equals(ExtensionPoint.MULTI_POINT)) {
          customMultiPoint = read;
        }
      }
    }
    var customArgs = new LinkedHashMap<String, CustomArgs>();
    var args = pluginConfig(node, path, customArgs);
    var multiPoint = PluginSets.merge(new PluginSet(KubePlugins.defaultMultiPoint(), List.of()), customMultiPoint);
    Map<ExtensionPoint, PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    custom.forEach((point, set) -> points.put(point, PluginSets.merge(PluginSet.EMPTY, set)));
    var resolved = PluginSets.resolve(
        points, multiPoint, this::implemented, reader, pluginsPath);
    var policy = policy(resolved, args, customArgs, path, percentage);
    Map<String, List<String>> enabled = new LinkedHashMap<>();
    resolved.forEach((point, plugins) -> enabled.put(point.field(), plugins.stream().map(Resolved::toString).toList()));
    return new Read(
        new SchedulerProfile(name, policy, enabled), custom.getOrDefault(ExtensionPoint.QUEUE_SORT, PluginSet.EMPTY));
  }

  /** kube's {@code validatePercentageOfNodesToScore}. */
  static int percentage(ConfigReader reader, JsonNode node, String path) {
    int value = reader.int32(node, path);
    if (value < 0 || value > 100) {
      throw reader.invalid(path, value, "not in valid range [0-100]");
    }
    return value;
  }

  /** @return the extension points kube's or a registered plugin {@code name} implements; null if none has it */
  private @Nullable Set<ExtensionPoint> implemented(String name) {
    var custom = registry.get(name);
    if (custom != null) {
      return custom.points();
    }
    return KubePlugins.get(name).map(KubePlugins.Plugin::points).orElse(null);
  }

  private Policy policy(
      Map<ExtensionPoint, List<Resolved>> resolved,
      PluginArgs args,
      Map<String, CustomArgs> customArgs,
      String profilePath,
      int percentage) {
    var builder = Policy.builder().percentageOfNodesToScore(percentage);
    for (var plugin : resolved.getOrDefault(ExtensionPoint.FILTER, List.of())) {
      var custom = registry.get(plugin.name());
      if (custom != null) {
        builder.filter(filter(custom, customArgs(custom, plugin.name(), customArgs, profilePath)));
      } else if (role(plugin) == Role.POLICY) {
        builder.filter(args.filter(plugin.name()));
      }
    }
    for (var plugin : resolved.getOrDefault(ExtensionPoint.SCORE, List.of())) {
      var custom = registry.get(plugin.name());
      if (custom != null) {
        builder.scorer(scorer(custom, customArgs(custom, plugin.name(), customArgs, profilePath)), plugin.weight());
      } else if (role(plugin) == Role.POLICY) {
        builder.scorer(args.scorer(plugin.name()), plugin.weight());
      }
    }
    boolean preempts = resolved.getOrDefault(ExtensionPoint.POST_FILTER, List.of()).stream()
        .anyMatch(p -> p.name().equals("DefaultPreemption"));
    if (preempts) {
      builder.preemption(args.preemption());
    } else {
      builder.noPreemption();
    }
    return builder.build();
  }

  /**
   * @return the arguments {@code pluginConfig} gave the registered plugin {@code name}, or, without an entry, its
   *     arguments read from an empty object
   */
  private CustomArgs customArgs(
      PluginRegistry.Registered<?> custom, String name, Map<String, CustomArgs> given, String profilePath) {
    var args = given.get(name);
    if (args != null) {
      return args;
    }
    var path = profilePath + ".pluginConfig (no entry for " + name + ")";
    return new CustomArgs(custom.args(JsonNodeFactory.instance.objectNode(), path, reader), path);
  }

  private <A extends Record> Filter filter(PluginRegistry.Registered<A> custom, CustomArgs args) {
    return custom.filter(custom.cast(args.args()), args.path(), reader);
  }

  private <A extends Record> Scorer scorer(PluginRegistry.Registered<A> custom, CustomArgs args) {
    return custom.scorer(custom.cast(args.args()), args.path(), reader);
  }

  private static Role role(Resolved plugin) {
    return KubePlugins.get(plugin.name()).orElseThrow().role();
  }

  /** One extension point's (or {@code multiPoint}'s) {@code enabled} and {@code disabled} lists. */
  private PluginSet pluginSet(JsonNode node, String path) {
    reader.object(node, path, Set.of("enabled", "disabled"));
    var enabled = new ArrayList<PluginRef>();
    var enabledNode = ConfigReader.field(node, "enabled");
    if (enabledNode != null) {
      for (var entry : reader.list(enabledNode, path + ".enabled")) {
        enabled.add(plugin(entry, true));
      }
    }
    var disabled = new ArrayList<PluginRef>();
    var disabledNode = ConfigReader.field(node, "disabled");
    if (disabledNode != null) {
      for (var entry : reader.list(disabledNode, path + ".disabled")) {
        disabled.add(plugin(entry, false));
      }
    }
    return new PluginSet(enabled, disabled);
  }

  private PluginRef plugin(TreeReader.Entry entry, boolean enabled) {
    var path = entry.path();
    reader.object(entry.node(), path, Set.of("name", "weight"));
    var name = reader.string(reader.required(entry.node(), "name", path), path + ".name");
    var weightNode = ConfigReader.field(entry.node(), "weight");
    @Nullable Integer weight = weightNode == null ? null : reader.int32(weightNode, path + ".weight");
    if (weight != null && weight < 0) {
      throw reader.error(path + ".weight", "is " + weight + ": a weight must be 0 (meaning 1) or more; to turn a"
          + " plugin off, disable it");
    }
    if (!enabled && name.equals(PluginSets.ALL)) {
      return new PluginRef(name, weight, path);
    }
    if (enabled && name.equals(PluginSets.ALL)) {
      throw reader.error(path + ".name", "is \"*\", which only disables; enable plugins by name: "
          + KubePlugins.names() + registered());
    }
    if (registry.get(name) != null) {
      return new PluginRef(name, weight, path);
    }
    var plugin = known(name, path + ".name", path);
    if (enabled && plugin.role() == Role.UNSUPPORTED) {
      throw reader.error(path + ".name", "enables " + name + ", a kube-scheduler plugin this scheduler does not"
          + " support yet (accepted only where kube's default profile has it); supported: "
          + supported());
    }
    return new PluginRef(name, weight, path);
  }

  /** @return kube's plugin {@code name}; an error naming removed and unknown plugins with what is valid */
  private KubePlugins.Plugin known(String name, String namePath, String entryPath) {
    if (KubePlugins.REMOVED.contains(name)) {
      throw reader.invalid(entryPath, "\"" + name + "\"", "was invalid in version \"" + KubePlugins.API_VERSION
          + "\" (KubeSchedulerConfiguration is version \"" + KubePlugins.API_VERSION + "\")");
    }
    return KubePlugins.get(name).orElseThrow(() -> reader.error(namePath, "\"" + name + "\" is not a plugin of"
        + " kube-scheduler 1.37" + (registry.isEmpty() ? "" : " nor a registered one") + "; valid: " + supported()
        + registered() + " (not supported yet: " + KubePlugins.names(Role.UNSUPPORTED) + ")"));
  }

  /** @return {@code , registered: [A, B]} for messages that list the valid names; empty if none is registered */
  private String registered() {
    return registry.isEmpty() ? "" : ", registered: " + List.copyOf(registry.names());
  }

  private static List<String> supported() {
    var names = new ArrayList<>(KubePlugins.names(Role.POLICY));
    names.addAll(KubePlugins.names(Role.LOOP));
    return names.stream().sorted().toList();
  }

  private PluginArgs pluginConfig(JsonNode profile, String profilePath, Map<String, CustomArgs> customArgs) {
    var args = new PluginArgs(reader);
    var listed = ConfigReader.field(profile, "pluginConfig");
    if (listed == null) {
      return args;
    }
    var seen = new HashSet<String>();
    for (var entry : reader.list(listed, profilePath + ".pluginConfig")) {
      var path = entry.path();
      reader.object(entry.node(), path, Set.of("name", "args"));
      var name = reader.string(reader.required(entry.node(), "name", path), path + ".name");
      if (!seen.add(name)) {
        throw reader.fieldError(path, "Duplicate value: \"" + name + "\"");
      }
      var custom = registry.get(name);
      if (custom != null) {
        var argsNode = ConfigReader.field(entry.node(), "args");
        var argsPath = path + ".args";
        var read = custom.args(argsNode == null ? JsonNodeFactory.instance.objectNode() : argsNode, argsPath, reader);
        customArgs.put(name, new CustomArgs(read, argsPath));
        continue;
      }
      var plugin = known(name, path + ".name", path);
      if (plugin.role() == Role.UNSUPPORTED) {
        throw reader.error(path + ".name", "configures " + name + ", a kube-scheduler plugin this scheduler does"
            + " not support yet; plugins whose arguments are supported: " + new LinkedHashSet<>(
                supported().stream().filter(n -> KubePlugins.get(n).orElseThrow().takesArgs()).toList())
            + registered());
      }
      var argsNode = ConfigReader.field(entry.node(), "args");
      if (argsNode == null) {
        continue;
      }
      if (!plugin.takesArgs()) {
        if (!argsNode.isObject() || !argsNode.isEmpty()) {
          throw reader.error(path + ".args", "is given to " + name + ", which takes no arguments");
        }
        continue;
      }
      args.read(name, argsNode, path + ".args");
    }
    return args;
  }
}
