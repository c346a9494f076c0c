package io.kubesched.policy.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How kube-scheduler 1.37 turns a profile's {@code plugins} into the plugins each extension point runs: the
 * merging of the file's sets with the default ones ({@code mergePluginSet} of {@code default_plugins.go}), then
 * the framework's checks and {@code multiPoint} expansion ({@code NewFramework} of {@code framework.go}). Pure;
 * knows plugins only by name, and what each implements by the function it is given.
 */
final class PluginSets {

  /** The name standing for every plugin in a {@code disabled} list. */
  static final String ALL = "*";

  private PluginSets() {}

  /**
   * One entry of an {@code enabled} or {@code disabled} list.
   *
   * @param name the plugin's name, or {@value #ALL} in a disabled list
   * @param weight the weight written, null when the entry has none
   * @param path where the file wrote the entry, for messages; null for an entry of kube's defaults
   */
  record PluginRef(String name, @Nullable Integer weight, @Nullable String path) {}

  /** One extension point's {@code enabled} and {@code disabled} lists. */
  record PluginSet(List<PluginRef> enabled, List<PluginRef> disabled) {
    static final PluginSet EMPTY = new PluginSet(List.of(), List.of());

    PluginSet {
      enabled = List.copyOf(enabled);
      disabled = List.copyOf(disabled);
    }

    boolean disables(String name) {
      return disabled.stream().anyMatch(p -> p.name().equals(name));
    }
  }

  /**
   * A plugin as an extension point runs it.
   *
   * @param name its name
   * @param weight its weight at {@code score} and {@code placementScore} (at least 1 there); 0 elsewhere
   */
  record Resolved(String name, int weight) {
    @Override
    public String toString() {
      return weight == 0 ? name : name + ":" + weight;
    }
  }

  /**
   * kube's {@code mergePluginSet}: the default plugins that {@code custom} does not disable (none if it disables
   * {@value #ALL}), each replaced in place by {@code custom}'s entry of the same name (the last one, if named
   * twice), then {@code custom}'s other entries in order; disabled: {@code custom}'s then the defaults'.
   */
  static PluginSet merge(PluginSet defaults, PluginSet custom) {
    var disabledNames = new HashSet<String>();
    var disabled = new ArrayList<PluginRef>();
    for (var plugin : custom.disabled()) {
      disabled.add(plugin);
      disabledNames.add(plugin.name());
    }
    for (var plugin : defaults.disabled()) {
      disabled.add(plugin);
      disabledNames.add(plugin.name());
    }
    Map<String, Integer> customIndex = new HashMap<>();
    for (int i = 0; i < custom.enabled().size(); i++) {
      customIndex.put(custom.enabled().get(i).name(), i);
    }
    var replaced = new HashSet<Integer>();
    var enabled = new ArrayList<PluginRef>();
    if (!disabledNames.contains(ALL)) {
      for (var plugin : defaults.enabled()) {
        if (disabledNames.contains(plugin.name())) {
          continue;
        }
        var index = customIndex.get(plugin.name());
        if (index != null) {
          replaced.add(index);
          enabled.add(custom.enabled().get(index));
        } else {
          enabled.add(plugin);
        }
      }
    }
    for (int i = 0; i < custom.enabled().size(); i++) {
      if (!replaced.contains(i)) {
        enabled.add(custom.enabled().get(i));
      }
    }
    return new PluginSet(enabled, disabled);
  }

  /**
   * What each extension point runs, as kube-scheduler's framework builds it from merged sets: first each
   * point's own {@code enabled} list (every plugin must implement the point, none twice), then the {@code
   * multiPoint} plugins added to every point they implement, unless that point disables them or {@value #ALL}:
   * the point's own plugins that are also in {@code multiPoint} first (in the point's order), then the other
   * {@code multiPoint} plugins, then the point's remaining ones. Weights of {@code score} and {@code
   * placementScore}: the point's own entry's, else the {@code multiPoint} entry's, else 1 (a weight of 0 is 1).
   *
   * @param points each extension point's merged set (a missing point has none)
   * @param multiPoint the merged {@code multiPoint} set
   * @param implemented the extension points a plugin implements; null for a name no plugin has
   * @param reader for messages
   * @param pluginsPath the YAML path of the profile's {@code plugins}, for errors about no single entry
   * @return the plugins of each extension point that has any, in {@link ExtensionPoint} order
   * @throws io.kubesched.api.ConfigurationException where kube-scheduler's framework fails: a plugin that does
   *     not exist or does not implement the point it is enabled at, a plugin enabled twice at one point, not
   *     exactly one {@code queueSort} plugin, no {@code bind} plugin, more than one {@code placementGenerate}
   *     plugin
   */
  static Map<ExtensionPoint, List<Resolved>> resolve(
      Map<ExtensionPoint, PluginSet> points,
      PluginSet multiPoint,
      Function<String, @Nullable Set<ExtensionPoint>> implemented,
      TreeReader reader,
      String pluginsPath) {
    Map<ExtensionPoint, List<String>> names = new EnumMap<>(ExtensionPoint.class);
    for (var point : ExtensionPoint.values()) {
      var set = points.getOrDefault(point, PluginSet.EMPTY);
      var seen = new LinkedHashSet<String>();
      for (var plugin : set.enabled()) {
        var where = where(plugin, pluginsPath + "." + point.field());
        var pluginPoints = implemented.apply(plugin.name());
        if (pluginPoints == null) {
          throw reader.fieldError(where, point.kubeType() + " \"" + plugin.name() + "\" does not exist");
        }
        if (!pluginPoints.contains(point)) {
          throw reader.fieldError(where, "plugin \"" + plugin.name() + "\" does not extend " + point.kubeType()
              + "; it implements " + fields(pluginPoints));
        }
        if (!seen.add(plugin.name())) {
          throw reader.fieldError(
              where, "plugin \"" + plugin.name() + "\" is already registered as " + point.kubeType());
        }
      }
      names.put(point, new ArrayList<>(seen));
    }
    if (!multiPoint.enabled().isEmpty()) {
      for (var point : ExtensionPoint.values()) {
        names.put(point, expand(point, names.get(point), points.getOrDefault(point, PluginSet.EMPTY), multiPoint,
            implemented, reader, pluginsPath));
      }
    }
    check(names, ExtensionPoint.QUEUE_SORT, 1, 1, "only one queue sort plugin required",
        "; kube-scheduler's is PrioritySort", reader, pluginsPath);
    check(names, ExtensionPoint.BIND, 1, Integer.MAX_VALUE, "at least one bind plugin is needed",
        "; kube-scheduler's is DefaultBinder", reader, pluginsPath);
    check(names, ExtensionPoint.PLACEMENT_GENERATE, 0, 1, "at most one placement generate plugin is allowed", "",
        reader, pluginsPath);
    Map<ExtensionPoint, List<Resolved>> resolved = new LinkedHashMap<>();
    for (var point : ExtensionPoint.values()) {
      var pointNames = names.get(point);
      if (pointNames.isEmpty()) {
        continue;
      }
      Map<String, Integer> weights = point.weighted()
          ? weights(point, points.getOrDefault(point, PluginSet.EMPTY), multiPoint, implemented)
          : Map.of();
      resolved.put(point, pointNames.stream().map(n -> new Resolved(n, weights.getOrDefault(n, 0))).toList());
    }
    return Collections.unmodifiableMap(resolved);
  }

  /** kube's {@code expandMultiPointPlugins} for one extension point. */
  private static List<String> expand(
      ExtensionPoint point,
      List<String> own,
      PluginSet set,
      PluginSet multiPoint,
      Function<String, @Nullable Set<ExtensionPoint>> implemented,
      TreeReader reader,
      String pluginsPath) {
    if (set.disables(ALL)) {
      return own;
    }
    var overrides = new LinkedHashSet<String>();
    var fromMultiPoint = new LinkedHashSet<String>();
    for (var plugin : multiPoint.enabled()) {
      var pluginPoints = implemented.apply(plugin.name());
      if (pluginPoints == null) {
        throw reader.fieldError(where(plugin, pluginsPath + "." + ExtensionPoint.MULTI_POINT),
            point.kubeType() + " \"" + plugin.name() + "\" does not exist");
      }
      if (!pluginPoints.contains(point) || set.disables(plugin.name())) {
        continue;
      }
      if (own.contains(plugin.name())) {
        overrides.add(plugin.name());
        continue;
      }
      if (!fromMultiPoint.add(plugin.name())) {
        throw reader.fieldError(where(plugin, pluginsPath + "." + ExtensionPoint.MULTI_POINT),
            "plugin \"" + plugin.name() + "\" is already registered as " + point.kubeType());
      }
    }
    var expanded = new ArrayList<String>();
    own.stream().filter(overrides::contains).forEach(expanded::add);
    expanded.addAll(fromMultiPoint);
    own.stream().filter(n -> !overrides.contains(n)).forEach(expanded::add);
    return expanded;
  }

  /** kube's {@code getValidScoreWeights}: the point's own entries first, then {@code multiPoint}'s. */
  private static Map<String, Integer> weights(
      ExtensionPoint point,
      PluginSet set,
      PluginSet multiPoint,
      Function<String, @Nullable Set<ExtensionPoint>> implemented) {
    Map<String, Integer> weights = new HashMap<>();
    var entries = new ArrayList<>(set.enabled());
    entries.addAll(multiPoint.enabled());
    for (var plugin : entries) {
      var pluginPoints = implemented.apply(plugin.name());
      if (pluginPoints == null || !pluginPoints.contains(point) || weights.containsKey(plugin.name())) {
        continue;
      }
      var weight = plugin.weight();
      weights.put(plugin.name(), weight == null || weight == 0 ? 1 : weight);
    }
    return weights;
  }

  private static void check(
      Map<ExtensionPoint, List<String>> names,
      ExtensionPoint point,
      int min,
      int max,
      String rule,
      String hint,
      TreeReader reader,
      String pluginsPath) {
    var plugins = names.get(point);
    if (plugins.size() < min || plugins.size() > max) {
      throw reader.fieldError(pluginsPath + "." + point.field(), rule + ", but got " + plugins.size() + " "
          + plugins + hint);
    }
  }

  private static String where(PluginRef plugin, String fallback) {
    return plugin.path() != null ? plugin.path() : fallback + " (kube's default)";
  }

  private static String fields(Set<ExtensionPoint> points) {
    return points.stream().sorted().map(ExtensionPoint::field).collect(Collectors.joining(", ", "[", "]"));
  }
}
